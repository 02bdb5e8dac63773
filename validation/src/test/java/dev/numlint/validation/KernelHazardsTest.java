package dev.numlint.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.PtxModule;
import dev.numlint.validation.interp.PtxModelAdapter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Validation runs the PTX checks on the builds it makes: it must count long accumulations with the scan's configured
 * minimum trip count (issue 28: a hard-coded 16 used to stand in for any configuration).
 */
class KernelHazardsTest {
    @TempDir
    Path dir;

    @Test
    void longAccumulationsAreCountedWithTheScansMinimumTripCount() throws IOException {
        assumeTrue(Nvcc.find(null, "compute_90").isPresent(), "nvcc not found");
        Path cu = Files.writeString(
                dir.resolve("sum.cu"),
                "__global__ void sum20(const float *x, float *y) {\n"
                        + "  float acc = 0.0f;\n"
                        + "#pragma unroll 1\n"
                        + "  for (int i = 0; i < 20; i++) acc += x[threadIdx.x * 20 + i];\n"
                        + "  y[threadIdx.x] = acc;\n"
                        + "}\n");
        Nvcc.Result r = Nvcc.find(null, "compute_90").get().compile(cu, List.of("-lineinfo"));
        assertThat(r.ptx).as(String.valueOf(r.error)).isNotNull();
        PtxModule m = PtxModelAdapter.read(r.ptx).source;
        String serialSum = "NL004";
        assertThat(KernelHazards.of(m, "_Z5sum20PKfPf", false, 16)).containsKey(serialSum);
        assertThat(KernelHazards.of(m, "_Z5sum20PKfPf", false, 32)).doesNotContainKey(serialSum);
        // without a configuration: the catalog's default, as the scan's PTX layer reads it
        assertThat(PtxFacts.minTripCount(null)).isEqualTo(16);
        assertThat(KernelHazards.of(m, "_Z5sum20PKfPf", false)).containsKey(serialSum);
        ValidationOptions o = new ValidationOptions();
        o.ruleSettings = new dev.numlint.spi.RuleSettings() {
            public boolean enabled(String id) {
                return true;
            }

            public dev.numlint.model.Level level(String id) {
                return dev.numlint.model.Level.WARNING;
            }

            public String option(String id, String option) {
                return "32";
            }
        };
        assertThat(PtxFacts.minTripCount(o.copy().ruleSettings)).isEqualTo(32);
    }
}
