package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Impact;
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
}
