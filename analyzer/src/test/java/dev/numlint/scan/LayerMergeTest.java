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
                .impact(new Impact(Impact.Kind.AMPLIFIED, "converted to an integer", null, null))
                .build();
        Finding proven = LayerMerge.merge(List.of(source(true), ptx)).get(0);
        assertThat(proven.level()).isEqualTo(Level.NOTE);
        assertThat(proven.impact().kind()).isEqualTo(Impact.Kind.BOUNDED);
        assertThat(proven.properties()).containsEntry("confirmedInPtx", true);
        assertThat(proven.evidence()).extracting(Evidence::text).contains("add.rn.f32 %f88, %f88, %f43");
        // without the proof the PTX layer's more severe impact wins
        Finding plain = LayerMerge.merge(List.of(source(false), ptx)).get(0);
        assertThat(plain.level()).isEqualTo(Level.WARNING);
        assertThat(plain.impact().kind()).isEqualTo(Impact.Kind.AMPLIFIED);
    }

    @Test
    void aPairedComponentIsRaisedByADecisionButNotByADifferenceOfProducts() {
        String pair = dev.numlint.rules.RuleCatalog.get().phrase("use-complex-pair");
        Finding src = source("NL003", 84, "u*c-v*s", Level.NOTE, Impact.bounded(pair)).toBuilder()
                .message("'u*c-v*s' may become one fma (-fmad=true default): " + pair)
                .property("pairedComponent", true)
                .build();
        Finding cancels = ptxAt(
                "NL003",
                84,
                "sub.f32 %f14, %f63, %f62",
                "float tu = u*c - v*s;",
                new Impact(Impact.Kind.CANCELLATION, "a difference of products (cancellation) at line 84", null, null));
        Finding kept = LayerMerge.merge(List.of(src, cancels)).get(0);
        assertThat(kept.level()).isEqualTo(Level.NOTE);
        assertThat(kept.impact().kind()).isEqualTo(Impact.Kind.BOUNDED);
        assertThat(kept.message()).endsWith(pair);
        Finding decides = ptxAt(
                "NL003",
                84,
                "sub.f32 %f14, %f63, %f62",
                "float tu = u*c - v*s;",
                new Impact(Impact.Kind.AMPLIFIED, "compared in a condition at line 90", null, null));
        Finding raised = LayerMerge.merge(List.of(src, decides)).get(0);
        assertThat(raised.level()).isEqualTo(Level.WARNING);
        assertThat(raised.impact().kind()).isEqualTo(Impact.Kind.AMPLIFIED);
        assertThat(raised.message())
                .contains("compared in a condition at line 90")
                .doesNotContain(pair);
    }

    private static Finding source(String rule, int line, String text, Level level, Impact impact) {
        return Finding.builder(rule)
                .level(level)
                .layer(Layer.CUDA_SOURCE)
                .location(Location.of("k.cu", line, 13))
                .function("kernel")
                .message("'" + text + "': source finding")
                .evidence(Evidence.source(text))
                .impact(impact)
                .build();
    }

    private static Finding ptxAt(String rule, int line, String instr, String sourceLine, Impact impact) {
        return Finding.builder(rule)
                .level(impact != null && impact.kind() == Impact.Kind.BOUNDED ? Level.NOTE : Level.WARNING)
                .layer(Layer.PTX)
                .location(Location.of("k.cu", line, 13))
                .function("kernel")
                .message("`" + instr + "`: ptx finding")
                .evidence(new Evidence("ptx", instr, null))
                .evidence(Evidence.source(sourceLine))
                .property("ptxInstruction", instr)
                .impact(impact)
                .build();
    }

    @Test
    void onlyAnFmaTheCompilerFormedConfirmsAContraction() {
        Impact cancel = new Impact(Impact.Kind.CANCELLATION, "a difference of products", null, null);
        Finding src = source("NL003", 244, "x = -(a-b)*0.5f+i*d", Level.WARNING, cancel);
        // a mul feeding a sub that ptxas only may fuse shows no contraction
        Finding mulSub = ptxAt("NL003", 244, "sub.f32 %f3, %f2, %f1;", "x = -(a-b)*0.5f+i*d;", null);
        Finding merged = LayerMerge.merge(List.of(src, mulSub)).get(0);
        assertThat(merged.message()).doesNotContain("(PTX confirms)");
        assertThat(merged.properties()).doesNotContainKey("confirmedInPtx");
        Finding fma = ptxAt("NL003", 244, "fma.rn.f32 %f3, %f2, %f1, %f0;", "x = -(a-b)*0.5f+i*d;", null);
        merged = LayerMerge.merge(List.of(src, fma)).get(0);
        assertThat(merged.message()).endsWith("(PTX confirms)");
        assertThat(merged.properties()).containsEntry("confirmedInPtx", true);
    }

    @Test
    void aGrowingPtxSumLeavesTheSourceLayersJudgementOfTheLoop() {
        Impact oneThread = Impact.bounded("one thread's serial sum, in the order of a serial CPU loop");
        Impact growing = Impact.of(Impact.Kind.GROWING, "an error that grows with an unknown trip count");
        Finding src = source("NL004", 250, "sum += (ax-ac)*v", Level.NOTE, oneThread);
        Finding ptx = ptxAt("NL004", 250, "fma.rn.f32 %f4, %f3, %f2, %f4;", "sum+=(ax-ac)*v;", growing);
        Finding merged = LayerMerge.merge(List.of(src, ptx)).get(0);
        assertThat(merged.level()).isEqualTo(Level.NOTE);
        assertThat(merged.impact()).isEqualTo(oneThread);
        // a sink the PTX layer found still raises it
        Impact cmp = new Impact(Impact.Kind.AMPLIFIED, "compared in a condition at line 260", null, null);
        Finding decided = ptxAt("NL004", 250, "fma.rn.f32 %f4, %f3, %f2, %f4;", "sum+=(ax-ac)*v;", cmp);
        assertThat(LayerMerge.merge(List.of(src, decided)).get(0).level()).isEqualTo(Level.WARNING);
    }

    @Test
    void ptxUpdatesOfTheSourceLayersAccumulatorAtOtherLinesAreRelatedLocations() {
        Impact growing = Impact.of(Impact.Kind.GROWING, "an error that grows with an unknown trip count");
        Finding src = source("NL004", 250, "sum += (ax-ac)*tex3D<float>(tex, i, j, k)", Level.NOTE, null);
        Finding y = ptxAt("NL004", 255, "fma.rn.f32 %f4, %f5, %f6, %f4;", "sum+=(ay-ac)*tex3D<float>(t);", growing);
        Finding z = ptxAt("NL004", 260, "fma.rn.f32 %f4, %f7, %f8, %f4;", "sum = sum + (az-ac)*w;", growing);
        // another accumulator of the loop is another finding
        Finding step = ptxAt("NL004", 256, "add.f32 %f9, %f9, %f1;", "ay+=ayu;", growing);
        List<Finding> out = LayerMerge.merge(List.of(src, y, step, z));
        assertThat(out).hasSize(2);
        Finding merged = out.get(0);
        assertThat(merged.layer()).isEqualTo(Layer.CUDA_SOURCE);
        assertThat(merged.level()).isEqualTo(Level.NOTE);
        assertThat(merged.related()).extracting(r -> r.location().startLine()).containsExactly(255, 260);
        assertThat(merged.evidence()).extracting(Evidence::text).contains("fma.rn.f32 %f4, %f5, %f6, %f4;");
        assertThat(out.get(1).location().startLine()).isEqualTo(256);
    }
}
