package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sum reduced by an OpenMP loop directive ({@code #pragma omp parallel for reduction(+:total)}) is each thread's
 * share combined by the runtime, not a serial sum (session 74: a benchmark's RMSE was called "serial"); without
 * {@code -fopenmp} the directive is ignored and the loop is serial.
 */
class OpenMpReductionsTest {
    private static final List<String> SOURCE = List.of(
            "#include <stdio.h>",
            "float rmse(const float *e, int n) {",
            "  float total = 0.0f;",
            "#pragma omp parallel for \\",
            "    reduction(+:total) schedule(static)",
            "  for (int i = 0; i < n; i++) {",
            "    total += e[i] * e[i];",
            "  }",
            "  return total;",
            "}",
            "float decides(const float *e, int n, float *out) {",
            "  float s = 0.0f, m = 0.0f;",
            "#ifdef _OPENMP",
            "#pragma omp parallel for reduction(+: m, s)",
            "#endif",
            "  for (int i = 0; i < n; i++) s += e[i];",
            "  if (s > 1.0f) out[0] = 1.0f;",
            "  return s;",
            "}",
            "float other(const float *e, int n) {",
            "  float s = 0.0f;",
            "#pragma omp parallel for reduction(max: s)",
            "  for (int i = 0; i < n; i++) s += e[i];",
            "  return s;",
            "}");

    private static List<Finding> sums(Path dir, boolean openMp) throws Exception {
        Files.write(dir.resolve("r.c"), SOURCE);
        // a kernel in the tree: host sums are a port's hazard, not notes of a host-only scan
        Files.writeString(dir.resolve("k.cu"), "__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n");
        BuildContext bc = BuildContext.defaults();
        if (openMp) bc.addHostMacroFlag("-fopenmp");
        return new TestScanContext(dir)
                .projectContext(bc).run(new CudaSourceAnalyzer()).findings().stream()
                        .filter(f -> f.ruleId().equals("NL004")
                                && f.location().file().equals("r.c"))
                        .toList();
    }

    private static Finding at(List<Finding> fs, int line) {
        return fs.stream()
                .filter(f -> f.location().startLine() == line)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aReductionDecidingNothingIsANoteThatNamesOpenMp(@TempDir Path dir) throws Exception {
        List<Finding> fs = sums(dir, true);
        Finding rmse = at(fs, 7);
        assertThat(rmse.message()).contains("OpenMP reduction of a float sum").doesNotContain("serial");
        assertThat(rmse.level()).isEqualTo(Level.NOTE);
        // under #ifdef _OPENMP, in a list of two, and deciding a branch: still a warning, which says the reduction
        Finding decides = at(fs, 16);
        assertThat(decides.message()).contains("OpenMP reduction").contains("'s > 1.0f'");
        assertThat(decides.level()).isEqualTo(Level.WARNING);
        // a max reduction is no sum of the loop's terms in another order: the serial reading stands
        assertThat(at(fs, 23).message()).contains("serial float sum");
    }

    @Test
    void withoutOpenMpTheDirectiveIsIgnoredAndTheSumIsSerial(@TempDir Path dir) throws Exception {
        List<Finding> fs = sums(dir, false);
        assertThat(at(fs, 7).message()).contains("serial float sum").doesNotContain("OpenMP");
        assertThat(at(fs, 7).level()).isEqualTo(Level.WARNING);
    }
}
