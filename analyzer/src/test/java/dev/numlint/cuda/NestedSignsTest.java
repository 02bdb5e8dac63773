package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.testing.TestScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The signs of one function's locals may need another's (a call's result read through the intervals): computing them
 * nested must not break the per-function cache (session 81 round M: a heat solver's test unit failed with a
 * ConcurrentModificationException, "not analyzed", exit code 3). Here {@code heat}'s signs read {@code whole}'s result,
 * modf's integral part, whose interval asks for {@code whole}'s signs.
 */
class NestedSignsTest {
    @Test
    void aCalleesSignsComputedInsideACallersAreNoInternalError(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("energy.c"),
                """
                #include <math.h>
                static double whole(double x)
                {
                    double ip;
                    modf(x, &ip);
                    return ip;
                }

                double heat(const double *t, int n)
                {
                    double total = 0.0;
                    for (int i = 0; i < n; i++) {
                        double w = whole(t[i]);
                        total += w * w;
                    }
                    return total;
                }
                """);
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        assertThat(ctx.notifications())
                .as(ctx.notifications().toString())
                .noneMatch(n -> n.id().equals("internal-error"))
                .noneMatch(n -> n.notAnalyzed() && "energy.c".equals(n.file()));
        assertThat(ctx.findings()).anyMatch(f -> f.ruleId().equals("NL004"));
    }
}
