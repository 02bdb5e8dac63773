package dev.numlint.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuoteTest {
    @Test
    void aMessageThatFitsIsKept() {
        String m = "'a*b+c' may become one fma (-fmad=true default): compared in a condition at line 9";
        assertThat(Quote.fit(m)).isSameAs(m);
    }

    @Test
    void theLongestQuoteGivesUpTheExcess() {
        String m = "'(0.5*g2)-((1.0/16.0)*(l*l))' is computed in double (the double literal 0.5), rounded to 'num':"
                + " slow on the GPU; the result equals float's, only speed is at stake";
        assertThat(m).hasSize(162);
        String fit = Quote.fit(m);
        assertThat(fit)
                .hasSizeLessThanOrEqualTo(Quote.MESSAGE)
                .startsWith("'(0.5*g2)-((1.0/16.0)")
                .contains("...' is computed in double")
                .endsWith("only speed is at stake");
    }

    @Test
    void backquotedInstructionsAndAlreadyShortenedQuotesToo() {
        String m = "`mul.f32 %f18, %f16, %f16` feeds `sub.f32 %f108`: ptxas may fuse them into one FFMA; then a"
                + " difference of products (cancellation) on this line (+18 copies of this code nearby)";
        String fit = Quote.fit(m);
        // the two instructions cannot give up 15 characters and stay readable: the copies remark goes
        assertThat(fit).isEqualTo(m.substring(0, m.indexOf(" (+18")));
        String shortened = "'floorf(rx*launchsrc->para...' is an approximate division under -use_fast_math: a random"
                + " variate: one ulp is another draw of the same distribution (PTX confirms)";
        assertThat(Quote.fit(shortened))
                .hasSizeLessThanOrEqualTo(Quote.MESSAGE)
                .startsWith("'floorf(rx*launchsrc")
                .doesNotContain("......")
                .endsWith("(PTX confirms)");
    }

    @Test
    void aMessageFitsAGivenLimitToo() {
        // room for a remark a review adds after the message (a kernel launched only as one thread)
        String m = "'(0.5*g2)-((1.0/16.0)*(l*l))' is computed in double (the double literal 0.5), rounded to 'num':"
                + " slow on the GPU, rounded unlike float";
        String fit = Quote.fit(m, 120);
        assertThat(fit).hasSizeLessThanOrEqualTo(120).startsWith("'(0.5*g2)").endsWith("rounded unlike float");
        assertThat(Quote.fit(m, m.length())).isSameAs(m);
    }

    @Test
    void aMessageWithoutRoomInItsQuotesIsCutAtTheEnd() {
        String m = "x".repeat(200);
        assertThat(Quote.fit(m)).hasSize(Quote.MESSAGE).endsWith("...");
    }

    @Test
    void aLastExampleClauseGoesWholeRatherThanCut() {
        // session 74 round B: a run's remark left "... -69.235 gives 4294967227 on x86, 0 on ..."
        String m = "'rate * ms': unguarded double to unsigned long: -69.235 gives 18446744073709551547 on x86, 0 on"
                + " AArch64";
        assertThat(Quote.fit(m, 80)).isEqualTo("'rate * ms': unguarded double to unsigned long");
    }

    @Test
    void aSecondExampleGoesWholeRatherThanCut() {
        // session 79 round C: a run's remark left "... -69.235 gives 187 on x86, 0 on the ...; 1 more like it"
        String m = "'output_value0': unguarded float to unsigned char (T), nothing bounds 'output_value0' below:"
                + " -69.235 gives 187 on x86, 0 on the GPU; 300 wraps to 44";
        assertThat(Quote.fit(m, 132)).endsWith("-69.235 gives 187 on x86, 0 on the GPU");
    }

    @Test
    void instructionsKeepTheirOpcodeAndTheEndIsCutAtAWord() {
        // session 26's defect 15: "`cvt.f64.f3...`: ... deliberat...", an opcode and a word cut in the middle
        String m = "`cvt.f64.f32 %fd5, %f17`: float math done in double (`div.rn.f64 %fd1, %fd4, %fd5`), rounded"
                + " back to float; declared double (a double variable, parameter or return type): deliberate FP64;"
                + " then compared in a condition at line 107 of StaticIterativeSolver.hpp";
        String fit = Quote.fit(m);
        assertThat(fit)
                .hasSizeLessThanOrEqualTo(Quote.MESSAGE)
                .startsWith("`cvt.f64.f32 ...`: float math done in double (`div.rn.f64 ...`)")
                .doesNotContain("f3...")
                .endsWith(" ...");
        String last = fit.substring(0, fit.length() - 4);
        String word = last.substring(last.lastIndexOf(' ') + 1);
        assertThat(m).containsPattern("(^|\\W)" + java.util.regex.Pattern.quote(word) + "(\\W|$)");
    }

    @Test
    void aLongExpressionIsCutBetweenTokens() {
        String m = "'velocity_component_x*timestep_size+position_offset' is computed in double (the double literal"
                + " 0.5), rounded to 'num': slow on the GPU; the result equals float's, only speed is at stake";
        String fit = Quote.fit(m);
        assertThat(fit)
                .hasSizeLessThanOrEqualTo(Quote.MESSAGE)
                .startsWith("'velocity_component_x*")
                .contains("...'");
        String quoted = fit.substring(1, fit.indexOf("...'"));
        assertThat(quoted).matches("velocity_component_x\\*(timestep_size(\\+(position_offset)?)?)?");
    }

    @Test
    void aNamedCastTooLongToQuoteGivesWayToItsOperand() {
        assertThat(Quote.expression("static_cast<unsigned>(period * sr_ + .5)")).isEqualTo("period * sr_ + .5");
        assertThat(Quote.expression("static_cast<unsigned>(x)")).isEqualTo("static_cast<unsigned>(x)");
        // two casts side by side are no one cast: shortened as written
        assertThat(Quote.expression("static_cast<unsigned>(a) * static_cast<unsigned>(b)"))
                .startsWith("static_cast<unsigned>(a)")
                .endsWith("...");
    }
}
