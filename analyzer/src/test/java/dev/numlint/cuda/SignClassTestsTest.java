package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test against 0 whose outcome no contraction can change is not a consequence the message may name (session 44:
 * tinker9's {@code rmin = fminf(rmin, rdc); if (rmin == 0)}, the smallest of three bond lengths, read as "one ulp can
 * flip 'rmin == 0'"): the minimum of non-negative values is 0 exactly when one of them is, also through a store that
 * reads the local itself.
 */
class SignClassTestsTest {
    private static List<Finding> contractions(Path dir, String source) throws Exception {
        Files.writeString(dir.resolve("t.cu"), source);
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        return ctx.findings().stream().filter(f -> f.ruleId().equals("NL003")).toList();
    }

    @Test
    void theMinimumOfLengthsTestedAgainstZeroCannotFlip(@TempDir Path dir) throws Exception {
        List<Finding> fs = contractions(
                dir,
                """
                __global__ void torsion(float *out, const float *x, const float *y)
                {
                    int i = threadIdx.x;
                    float xba = x[i + 1] - x[i], yba = y[i + 1] - y[i];
                    float xcb = x[i + 2] - x[i + 1], ycb = y[i + 2] - y[i + 1];
                    float xdc = x[i + 3] - x[i + 2], ydc = y[i + 3] - y[i + 2];
                    float rba = sqrtf(xba * xba + yba * yba);
                    float rcb = sqrtf(xcb * xcb + ycb * ycb);
                    float rdc = sqrtf(xdc * xdc + ydc * ydc);
                    float rmin = fminf(rba, rcb);
                    rmin = fminf(rmin, rdc);
                    if (rmin == 0.0f) return;
                    out[i] = rmin;
                }
                """);
        assertThat(fs).hasSize(3);
        assertThat(fs).allSatisfy(f -> assertThat(f.message()).doesNotContain("can flip"));
    }

    @Test
    void aMinimumWithAValueOfEitherSignStillDecides(@TempDir Path dir) throws Exception {
        List<Finding> fs = contractions(
                dir,
                """
                __global__ void k(float *out, const float *x, const float *y)
                {
                    int i = threadIdx.x;
                    float a = x[i + 1] - x[i], b = y[i + 1] - y[i];
                    float r = sqrtf(a * a + b * b);
                    float w = x[i] - y[i];
                    if (fminf(w, r) == 0.0f) out[i] = 0.0f;
                }
                """);
        assertThat(fs).anySatisfy(f -> assertThat(f.message()).contains("can flip"));
    }
}
