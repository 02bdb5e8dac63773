package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.cuda.facts.ValueUse;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clang's facts of loops that the Clang-alone measure needed (session 34): a for statement's counter in its intervals,
 * a sum's value read earlier in its loop by the next iteration, a test of the integer a value truncates to as a guard.
 */
class ClangLoopFactsTest {
    @TempDir
    Path dir;

    private ClangUnit parse(String name, String source, ClangFrontEnd.Language lang) throws Exception {
        return ClangUnitTest.parse(dir, name, source, lang);
    }

    private static Map<Integer, String> ranges(ClangUnit u) {
        Map<Integer, String> ranges = new TreeMap<>();
        for (ClangUnit.Conversion c : u.conversions()) {
            double[] r = u.interval(c.operand(), c.in());
            ranges.put(c.node().line, (float) r[0] + ".." + (float) r[1]);
        }
        return ranges;
    }

    /**
     * A counter its for statement declares, stepped only up by values that cannot be negative: from its initializer
     * up, and in the body below the bound the condition tests; another write (a decrement in the body) leaves it
     * its type's values. A grid-stride index starts at the thread's index in the grid: not negative.
     */
    @Test
    void forCountersAreBoundedByTheirStartAndTest() throws Exception {
        ClangUnit c = parse(
                "counters.c",
                """
                void counters(unsigned char *out, int n)
                {
                    for (int i = 1; i < 100; i++) out[i] = (unsigned char)(i * 2.0f);
                    for (int i = 0; i < n; i += 4) out[i] = (unsigned char)(i * 0.5f);
                    for (int i = 0; i < n; i++) {
                        out[i] = (unsigned char)(i * 0.5f);
                        i -= 2;
                    }
                    for (int i = 0; i < 100; i++) {
                        i += 1;
                        out[i] = (unsigned char)(i * 2.0f);
                    }
                }
                """,
                ClangFrontEnd.Language.C);
        assertThat(ranges(c))
                .containsEntry(3, "2.0..198.0")
                .containsEntry(4, "0.0..1.07374182E9")
                .containsEntry(6, "-1.07374182E9..1.07374182E9")
                .containsEntry(11, "0.0..4.2949673E9");
        ClangUnit k = parse(
                "stride.cu",
                """
                __global__ void stride(unsigned *out, const float *in, int n)
                {
                    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n; idx += blockDim.x * gridDim.x)
                        out[idx] = (unsigned)(idx * 0.75f + 0.5f);
                }
                """,
                ClangFrontEnd.Language.CUDA);
        assertThat(ranges(k)).containsEntry(4, "0.5..1.61061274E9");
    }

    /** A sum's value read before its update in the loop is read by the next iteration: what it decides there counts. */
    @Test
    void aSumIsReadByTheNextIteration() throws Exception {
        ClangUnit u = parse(
                "walk.c",
                """
                void walk(const float *step, int *cell, float h, int n)
                {
                    float px = 0.f;
                    for (int k = 0; k < n; k++) {
                        float c = px / h;
                        cell[k] = (int)c;
                        px = px + step[k];
                    }
                    float q = 0.f;
                    for (int k = 0; k < n; k++) {
                        q = 0.f;
                        float d = q / h;
                        cell[k] = (int)d;
                        q = q + step[k];
                    }
                }
                """,
                ClangFrontEnd.Language.C);
        Map<Integer, java.util.List<ValueUse.Kind>> kinds = new TreeMap<>();
        for (ClangSites.Sum s : u.sums()) {
            kinds.put(
                    s.node().line,
                    u.uses(s.node(), s.in()).stream().map(ValueUse::kind).toList());
        }
        assertThat(kinds.get(7)).contains(ValueUse.Kind.INTEGER_CONVERSION);
        // q = 0 before the read: the next iteration's read of q is of that value, not of the sum
        assertThat(kinds.getOrDefault(14, java.util.List.of())).doesNotContain(ValueUse.Kind.INTEGER_CONVERSION);
    }

    /**
     * An early exit on the integer a value truncates to ({@code int k = (int)p; if (k < 0 || k > 63) return;}) limits
     * the value as a test of it would; not when the integer is written after its declaration.
     */
    @Test
    void aTestOfTheTruncatedIntegerGuardsTheValue() throws Exception {
        ClangUnit u = parse(
                "cells.c",
                """
                void cells(const float *x, unsigned *out)
                {
                    float p = x[0];
                    int k = (int)p;
                    if (k < 0 || k > 63) return;
                    out[0] = p;
                    float q = x[1];
                    int m = (int)q;
                    m = m / 2;
                    if (m < 0 || m > 63) return;
                    out[1] = q;
                }
                """,
                ClangFrontEnd.Language.C);
        Map<Integer, Boolean> guarded = new TreeMap<>();
        for (ClangUnit.Conversion c : u.conversions()) if (c.unsigned()) guarded.put(c.node().line, c.guarded());
        assertThat(guarded).containsEntry(6, true).containsEntry(11, false);
    }

    /**
     * A pointer the increment of a for header steps ({@code i++, o++}) moves the element it updates: that loop
     * carries no sum. Pointed at the same buffer again in each iteration of a loop around it ({@code float *dp = d;},
     * {@code dp = d;}), the sum is that outer loop's; moved to another row ({@code img + y * w}), nothing carries it.
     */
    @Test
    void aPointerTheHeaderStepsMovesTheElement() throws Exception {
        ClangUnit u = parse(
                "mix.c",
                """
                void mix(float *d, const float *s, unsigned nf, unsigned ch, float *img)
                {
                    for (unsigned c = 0; c < ch; c++) {
                        float *dp = d;
                        for (unsigned i = 0; i < nf; i++, dp++) *dp += s[i * ch + c];
                    }
                    float *q;
                    for (unsigned c = 0; c < ch; c++) {
                        q = d;
                        for (unsigned i = 0; i < nf; i++, q += 1) *q += s[i * ch + c];
                    }
                    for (unsigned y = 0; y < ch; y++) {
                        float *row = img + y * nf;
                        for (unsigned x = 0; x < nf; x++, row++) *row += s[x];
                    }
                }
                """,
                ClangFrontEnd.Language.C);
        ClangLoops.Carried declared = u.carriedBy(5, 0, "*dp");
        assertThat(declared.carrying()).containsExactly(3);
        assertThat(declared.moving()).containsExactly(5);
        ClangLoops.Carried assigned = u.carriedBy(10, 0, "*q");
        assertThat(assigned.carrying()).containsExactly(8);
        assertThat(assigned.resetLine()).isZero();
        ClangLoops.Carried rows = u.carriedBy(14, 0, "*row");
        assertThat(rows.carrying()).isEmpty();
    }
}
