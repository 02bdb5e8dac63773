package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.llvm.global.clang;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fractional part's interval ({@link ClangFractions#or}): of a truncation it is asked of the value through the
 * caller's evaluation, whose depth bounds it (session 69: a fresh evaluation of the unit there recursed without
 * bound on an image library's bilinear sampling, a stack overflow that left two files unanalyzed).
 */
class ClangFractionsTest {
    @TempDir
    Path dir;

    private static final String SOURCE =
            """
            struct Date { short day; short hour; };
            void set(struct Date *d, float t, float u) {
                d->day = (short)t;
                d->hour = (short)(24.0f * (t - d->day));
                int k = (int)u;
                float f = u - k;
                (void)f;
            }
            """;

    private static List<ClangNode> differences(ClangUnit u) {
        List<ClangNode> out = new ArrayList<>();
        for (ClangUnit.Function fn : u.functions())
            fn.node().forEach(n -> {
                if (n.kind == clang.CXCursor_BinaryOperator && n.spelling.equals("-")) out.add(n);
            });
        return out;
    }

    @Test
    void aTruncationsFractionAsksTheCallersEvaluation() throws Exception {
        ClangUnit u = ClangUnitTest.parse(dir, "frac.c", SOURCE, ClangFrontEnd.Language.C);
        List<ClangNode> d = differences(u);
        assertThat(d).hasSize(2);
        List<ClangNode> asked = new ArrayList<>();
        // the value is never negative: the fraction is in [0, 1]; of either sign: in [-1, 1]
        assertThat(ClangFractions.or(null, d.get(0), e -> {
                    asked.add(e);
                    return new double[] {0, 10};
                }))
                .containsExactly(0, 1);
        assertThat(ClangFractions.or(null, d.get(1), e -> {
                    asked.add(e);
                    return new double[] {-10, 10};
                }))
                .containsExactly(-1, 1);
        assertThat(asked).hasSize(2);
        // what another step found is kept
        double[] found = {2, 3};
        assertThat(ClangFractions.or(found, d.get(0), e -> null)).isSameAs(found);
    }
}
