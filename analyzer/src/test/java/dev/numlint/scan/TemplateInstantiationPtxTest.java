package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.spi.PtxMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A template kernel instantiated for float, double and int: the PTX of its int instantiation contracts a running
 * mean and converts it to an integer, the float and double ones only store it. One finding per written line; its
 * message names the instantiation whose consequence it states (session 67 round A: a neural-network library's
 * batch-norm updates read "then converted to an integer" though the conversion existed only in {@code <int>}).
 */
class TemplateInstantiationPtxTest {
    @TempDir
    Path root;

    @TempDir
    Path cache;

    @Test
    void theGraverInstantiationIsNamed() throws Exception {
        Optional<Path> nvcc = dev.numlint.toolchain.Nvcc.find(null, System.getenv("PATH"));
        assumeTrue(nvcc.isPresent(), "nvcc not installed");
        Files.writeString(
                root.resolve("running.cu"),
                """
                template <typename T>
                __global__ void running(T *rm, const T *m, float momentum, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n)
                        rm[i] = momentum * rm[i] + (1 - momentum) * m[i];
                }

                template __global__ void running<float>(float *, const float *, float, int);
                template __global__ void running<double>(double *, const double *, float, int);
                template __global__ void running<int>(int *, const int *, float, int);
                """);
        ScanResult r = Scanner.scan(ScanOptions.builder(root)
                .paths(List.of(root))
                .analyzers(Analyzers.load())
                .cacheDir(cache)
                .ptx(PtxMode.AUTO, nvcc.get())
                .build());
        List<Finding> line6 = r.findings().stream()
                .filter(f -> f.ruleId().equals("NL003") && f.location().startLine() == 6)
                .toList();
        assertThat(line6).as(r.findings().toString()).hasSize(1);
        Finding f = line6.get(0);
        assertThat(f.level()).isEqualTo(Level.WARNING);
        assertThat(f.message()).contains("converted to an integer").endsWith("(in running<int> only)");
    }
}
