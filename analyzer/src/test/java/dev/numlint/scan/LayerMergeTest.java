package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The message of a merged finding states the consequence its level stands for. */
class LayerMergeTest {
    @Test
    void aLowImpactConsequenceGivesWayToThePtxLayersDecision() {
        Impact cmp = new Impact(Impact.Kind.AMPLIFIED, "compared in a condition at line 186", null, null);
        assertThat(LayerMerge.withConsequence(
                        "'o+p*d' may become one fma (-fmad=true default): only stored (line 144): a few ulp apart",
                        cmp))
                .isEqualTo("'o+p*d' may become one fma (-fmad=true default): compared in a condition at line 186");
        assertThat(LayerMerge.withConsequence("'f(x)' is approximate: only returned (line 9): a few ulp apart", cmp))
                .isEqualTo("'f(x)' is approximate: compared in a condition at line 186");
        // a consequence that is not a low-impact one stays
        String amplified = "'x/y' is approximate: one ulp can change the int at line 4";
        assertThat(LayerMerge.withConsequence(amplified, cmp)).isEqualTo(amplified);
        assertThat(LayerMerge.withConsequence("'a' : only stored (line 3): a few ulp apart", null))
                .endsWith("a few ulp apart");
    }

    private static Finding ptx(String instr, int column) {
        return Finding.builder("NL004")
                .level(Level.WARNING)
                .layer(Layer.PTX)
                .location(Location.of("k.cu", 51, column))
                .message("`" + instr + "`: serial sum over an unknown trip count (PTX loop at line 331)")
                .evidence(new Evidence("ptx", instr, null))
                .build();
    }

    @Test
    void oneHazardSeenInTwoPtxBuildsIsOneFindingWithBothInstructions() {
        List<Finding> out = LayerMerge.merge(List.of(
                ptx("add.rn.f32 %f88, %f88, %f43", 13),
                ptx("add.rn.ftz.f32 %f88, %f88, %f43", 13),
                ptx("add.rn.f32 %f9, %f9, %f2", 30)));
        assertThat(out).hasSize(2);
        assertThat(out.get(0).evidence())
                .extracting(Evidence::text)
                .containsExactly("add.rn.f32 %f88, %f88, %f43", "add.rn.ftz.f32 %f88, %f88, %f43");
        assertThat(out.get(1).location().startColumn()).isEqualTo(30);
    }

    private static Finding source(boolean proven) {
        Finding.Builder b = Finding.builder("NL004")
                .level(Level.NOTE)
                .layer(Layer.CUDA_SOURCE)
                .location(Location.of("k.cu", 51, 13))
                .message("'t += tstep': serial float sum, loop at line 40: a constant step, not a sum of data")
                .impact(Impact.bounded("a constant step: every port takes the same steps in the same order"));
        if (proven) b.property("impactProven", true);
        return b.build();
    }

    @Test
    void aProvenSourceImpactIsConfirmedButNotRaisedByPtx() {
        Finding ptx = ptx("add.rn.f32 %f88, %f88, %f43", 13).toBuilder()
                .impact(new Impact(Impact.Kind.GROWING, "the error grows with the count", null, null))
                .build();
        Finding proven = LayerMerge.merge(List.of(source(true), ptx)).get(0);
        assertThat(proven.level()).isEqualTo(Level.NOTE);
        assertThat(proven.impact().kind()).isEqualTo(Impact.Kind.BOUNDED);
        assertThat(proven.properties()).containsEntry("confirmedInPtx", true);
        assertThat(proven.evidence()).extracting(Evidence::text).contains("add.rn.f32 %f88, %f88, %f43");
        // without the proof the PTX layer's more severe impact wins
        Finding plain = LayerMerge.merge(List.of(source(false), ptx)).get(0);
        assertThat(plain.level()).isEqualTo(Level.WARNING);
        assertThat(plain.impact().kind()).isEqualTo(Impact.Kind.GROWING);
    }
}
