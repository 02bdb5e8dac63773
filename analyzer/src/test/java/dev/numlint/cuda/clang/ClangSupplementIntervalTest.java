package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.Site;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clang's interval refines the hand-written front end's conversions ({@link ClangSupplement#amend}). Session 49: a
 * network library's {@code (int)(0.5 + fann_rand(0, n - 1))} (an add-half rounding of a random index) was an NL013
 * warning, "negative values round toward zero": the hand-written facts held the conversion to int as integer data of
 * unknown range, and Clang's interval of the expansion ([0.5, 2^32]: {@code rand()} in [0, RAND_MAX], an unsigned
 * span) was consulted only for conversions to unsigned or narrow types.
 */
class ClangSupplementIntervalTest {
    @TempDir
    Path dir;

    private static final String SOURCE =
            """
            #include <stdlib.h>
            #define RAND_UNIFORM(lo, hi) (((float)(lo)) + (((float)(hi) - ((float)(lo))) * rand() / (RAND_MAX + 1.0f)))
            int pick(unsigned int n, int lo)
            {
                int r = (int)(0.5 + RAND_UNIFORM(0, n - 1));
                int s = (int)(0.5 + RAND_UNIFORM(lo, n));
                return r + s;
            }
            """;

    private static FunctionFacts.Conversion handWritten(int line, int column) {
        Site site = new Site(line, column, "(int)(...)", false, true, List::of);
        return new FunctionFacts.Conversion(
                site,
                "(int)",
                "0.5+...",
                "double",
                "int",
                false,
                4,
                null,
                false,
                false,
                false,
                Double.NEGATIVE_INFINITY,
                Double.POSITIVE_INFINITY,
                true,
                null,
                null,
                false);
    }

    @Test
    void aConversionToIntTakesClangsIntervalOfItsOperand() throws Exception {
        ClangUnit u = ClangUnitTest.parse(dir, "pick.c", SOURCE, ClangFrontEnd.Language.C);
        FunctionFacts facts = new FunctionFacts("pick");
        facts.conversions.add(handWritten(5, 13));
        facts.conversions.add(handWritten(6, 13));
        new ClangSupplement(u).amend(facts);
        FunctionFacts.Conversion random = facts.conversions.get(0);
        assertThat(random.lo()).isEqualTo(0.5);
        assertThat(random.nonNegative()).isTrue();
        // a span from a signed lower end can be negative: nothing proven
        FunctionFacts.Conversion signed = facts.conversions.get(1);
        assertThat(signed.nonNegative()).isFalse();
        assertThat(signed.lo()).isLessThan(0);
    }
}
