package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Session 30 (issue 26's Done-when: every float atomicAdd that grep finds is reported or the report says why): the
 * atomics no fact judged are listed in one note per file, by the reason their type is not known; integer atomics stay
 * silent.
 */
class AtomicRecallTest {
    private static List<Notification> notices(Path dir, String file) throws Exception {
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        return ctx.notifications().stream()
                .filter(n -> file.equals(n.file()) && n.id().equals("cuda-atomic-unjudged"))
                .collect(Collectors.toList());
    }

    /** A JIT kernel header: its bounds and strides are macros the host defines when it compiles it. */
    @Test
    void undeclaredMacrosAreNamedOncePerFile(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("restrict.h"),
                """
                extern "C" __global__ void scatter(const int n, const int *ind, const Real *u, Real *v) {
                  for (int i = 0; i < n; i++) {
                    for (int c = 0; c < NCOMP; c++) atomicAdd(&v[ind[i] + c * STRIDE], u[i + c * STRIDE]);
                    atomicAdd(&v[ind[i] + STRIDE], u[i]);
                  }
                }
                extern "C" __global__ void count(const int n, const int *ind, int *counts, Real *w) {
                  for (int i = 0; i < n; i++) atomicAdd(&counts[ind[i]], 1);
                  for (int i = 0; i < n; i++) atomicAdd(&w[ind[i]], 1);
                }
                """);
        List<Notification> n = notices(dir, "restrict.h");
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).level()).isEqualTo(Level.NOTE);
        assertThat(n.get(0).line()).isEqualTo(3);
        assertThat(n.get(0).message())
                .startsWith("2 atomic operations on a value not known to be an integer are not judged")
                .contains("line 3: undeclared identifiers NCOMP, STRIDE; type Real defined in no file this one"
                        + " includes; line 4: undeclared identifier STRIDE; type Real")
                .contains("The undeclared identifiers are macros numlint does not know, as in a file compiled at run"
                        + " time")
                // the int counter and an integer constant added (a counter) are no floating sum
                .doesNotContain("line 8")
                .doesNotContain("line 9");
    }

    /** A template no instantiation in view decides, whose added value's type is not known either. */
    @Test
    void aTemplateParameterNeverInstantiatedIsNamed(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("views.cu"),
                """
                template <class View, class Value>
                __global__ void addAll(View view, const Value *s, int n) {
                  for (int i = 0; i < n; i++) atomicAdd(&view.total[i], s[i]);
                }
                __global__ void plain(int *c) { atomicAdd(c, 1); }
                """);
        // by default Clang's facts decide addAll and report the atomic itself, as an NL009 note of a type not known
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        assertThat(ctx.findings())
                .anyMatch(f -> f.ruleId().equals("NL009") && f.location().startLine() == 3);
        // with both front ends on every function (-Dnumlint.clang.both=true) no fact judges it: the notice says why
        System.setProperty("numlint.clang.both", "true");
        List<Notification> n;
        try {
            n = notices(dir, "views.cu");
        } finally {
            System.clearProperty("numlint.clang.both");
        }
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).message())
                .contains("line 3: types 'View', 'Value' are template parameters that no explicit template argument"
                        + " list in this file instantiates")
                .doesNotContain("line 5");
    }

    /** Every atomic judged, or integral: no notice. */
    @Test
    void judgedAtomicsGiveNoNotice(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("sums.cu"),
                """
                __device__ int helperCount;
                __global__ void sums(float *f, double *d, unsigned *u, const float *x, int n) {
                  int i = blockIdx.x * blockDim.x + threadIdx.x;
                  if (i >= n) return;
                  atomicAdd(f, x[i]);
                  atomicAdd(d, (double)x[i]);
                  atomicAdd(u, 1u);
                  atomicAdd(&helperCount, 1);
                  atomicExch(u + 1, 0u);
                }
                """);
        assertThat(notices(dir, "sums.cu")).isEmpty();
    }
}
