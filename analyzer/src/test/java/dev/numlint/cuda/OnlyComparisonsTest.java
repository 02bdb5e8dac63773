package dev.numlint.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link OnlyComparisons}: which sites of an approximation the build chose become notes. */
class OnlyComparisonsTest {
    private static Finding finding(Identity.Judgement judgement, Level level, Impact impact) {
        Finding.Builder b = Finding.builder("NL002")
                .level(level)
                .location(new Location("src/step.cu", 12, 5, 12, 20))
                .message("'a / b' is an approximate division under -use_fast_math: compared in a condition at line 13")
                .layer(Layer.CUDA_SOURCE)
                .function("step")
                .identity(Identity.NONE.withJudgement(judgement));
        if (impact != null) b.impact(impact);
        return b.build();
    }

    private static Impact amplified(Impact.Reach reach) {
        return new Impact(Impact.Kind.AMPLIFIED, "compared in a condition at line 13", null, null, reach);
    }

    @Test
    void aChosenApproximationThatOnlyDecidesComparisonsIsANoteThatSaysWhy() {
        List<Finding> out = OnlyComparisons.review(List.of(
                finding(Identity.Judgement.CHOSEN_APPROXIMATION, Level.WARNING, amplified(Impact.Reach.DECISION))));
        assertEquals(Level.NOTE, out.get(0).level());
        assertTrue(
                out.get(0).message().endsWith("; only compared, in math the build chose"),
                out.get(0).message());
        assertTrue(
                out.get(0).message().startsWith("'a / b' is an approximate division"),
                out.get(0).message());
        assertEquals(true, out.get(0).properties().get("onlyComparisons"));
        assertEquals(Impact.Reach.DECISION, out.get(0).impact().reach()); // the impact is kept, typed
    }

    @Test
    void anIntegerAnIndexAnUnknownReachOrAnotherKindKeepsTheWarning() {
        List<Finding> in = List.of(
                finding(Identity.Judgement.CHOSEN_APPROXIMATION, Level.WARNING, amplified(Impact.Reach.CONVERSION)),
                finding(Identity.Judgement.CHOSEN_APPROXIMATION, Level.WARNING, amplified(Impact.Reach.INDEX)),
                // a comparison found before the PTX walk ran out, or a value passed to a function not followed
                finding(Identity.Judgement.CHOSEN_APPROXIMATION, Level.WARNING, amplified(null)),
                finding(
                        Identity.Judgement.CHOSEN_APPROXIMATION,
                        Level.WARNING,
                        new Impact(Impact.Kind.CANCELLATION, "cancels against another product at line 14", null, null)),
                finding(Identity.Judgement.CHOSEN_APPROXIMATION, Level.WARNING, null));
        assertEquals(in, OnlyComparisons.review(in));
    }

    @Test
    void anApproximationWrittenByNameOrANoteIsLeftAlone() {
        List<Finding> in = List.of(
                // __fdividef: no judgement, the programmer's own choice
                finding(null, Level.WARNING, amplified(Impact.Reach.DECISION)),
                finding(Identity.Judgement.PROVEN, Level.WARNING, amplified(Impact.Reach.DECISION)),
                finding(Identity.Judgement.CHOSEN_APPROXIMATION, Level.NOTE, amplified(Impact.Reach.DECISION)));
        assertEquals(in, OnlyComparisons.review(in));
    }

    @Test
    void aLongMessageGivesUpRoomForTheReason() {
        String longMessage = "'" + "x".repeat(200) + "' is an approximate division: compared in a condition";
        Finding f =
                finding(Identity.Judgement.CHOSEN_APPROXIMATION, Level.WARNING, amplified(Impact.Reach.DECISION))
                        .toBuilder()
                        .message(longMessage)
                        .build();
        Finding out = OnlyComparisons.review(List.of(f)).get(0);
        assertTrue(out.message().length() <= dev.numlint.rules.Quote.MESSAGE, out.message());
        assertTrue(out.message().endsWith("; only compared, in math the build chose"), out.message());
    }

    @Test
    void aDoubleContractionThatOnlyDecidesComparisonsIsANoteItsIntegerIsNot() {
        Finding decided =
                finding(Identity.Judgement.DOUBLE_ROUNDING, Level.WARNING, amplified(Impact.Reach.DECISION)).toBuilder()
                        .message(
                                "'v * a + w' may become one fma (-fmad=true default): compared in a condition at line 13")
                        .build();
        Finding out = OnlyComparisons.review(List.of(decided)).get(0);
        assertEquals(Level.NOTE, out.level());
        assertTrue(out.message().endsWith("; in double, only a tie can flip it"), out.message());
        Finding counted =
                finding(Identity.Judgement.DOUBLE_ROUNDING, Level.WARNING, amplified(Impact.Reach.CONVERSION));
        assertEquals(List.of(counted), OnlyComparisons.review(List.of(counted)));
    }
}
