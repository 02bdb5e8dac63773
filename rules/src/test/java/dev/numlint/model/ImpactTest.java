package dev.numlint.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ImpactTest {
    @Test
    void levelFollowsTheImpactBelowTheCeiling() {
        assertThat(Impact.of(Impact.Kind.AMPLIFIED, "x").level(Level.ERROR)).isEqualTo(Level.ERROR);
        assertThat(Impact.of(Impact.Kind.CANCELLATION, "x").level(Level.WARNING))
                .isEqualTo(Level.WARNING);
        assertThat(Impact.of(Impact.Kind.GROWING, "x").level(Level.WARNING)).isEqualTo(Level.WARNING);
        assertThat(Impact.bounded("only stored").level(Level.ERROR)).isEqualTo(Level.NOTE);
        assertThat(Impact.bounded("only stored").level(Level.NOTE)).isEqualTo(Level.NOTE);
        assertThat(Impact.of(Impact.Kind.EXACT, "power of two").level(Level.WARNING))
                .isNull();
    }

    @Test
    void aHazardOfOneRoundingDecidesBeyondATieOnlyAfterACancellation() {
        java.util.Set<Impact.Reach> all = java.util.EnumSet.allOf(Impact.Reach.class);
        java.util.Set<Impact.Reach> decisions = java.util.EnumSet.of(Impact.Reach.DECISION);
        Impact compared = Impact.of(Impact.Kind.AMPLIFIED, "x").withReach(Impact.Reach.DECISION);
        Impact truncated = Impact.of(Impact.Kind.AMPLIFIED, "x").withReach(Impact.Reach.CONVERSION);
        Impact unknown = Impact.of(Impact.Kind.AMPLIFIED, "x");
        assertThat(compared.level(Level.WARNING, all)).isEqualTo(Level.NOTE);
        assertThat(truncated.level(Level.WARNING, all)).isEqualTo(Level.NOTE);
        assertThat(unknown.level(Level.WARNING, all)).isEqualTo(Level.NOTE);
        assertThat(compared.level(Level.WARNING, decisions)).isEqualTo(Level.NOTE);
        assertThat(truncated.level(Level.WARNING, decisions)).isEqualTo(Level.WARNING);
        assertThat(unknown.level(Level.WARNING, decisions)).isEqualTo(Level.WARNING);
        // a difference only stored is an ulp of its products; one that decides flips wherever they nearly cancel
        Impact stored = Impact.of(Impact.Kind.CANCELLATION, "x");
        Impact decides = stored.withReach(Impact.Reach.DECISION);
        assertThat(stored.level(Level.WARNING, all)).isEqualTo(Level.NOTE);
        assertThat(decides.level(Level.WARNING, all)).isEqualTo(Level.WARNING);
        assertThat(decides.graverThan(compared)).isTrue();
        assertThat(compared.graverThan(decides)).isFalse();
        assertThat(compared.onlyAtTie(all)).isTrue();
        assertThat(decides.onlyAtTie(all)).isFalse();
        assertThat(stored.onlyAtTie(all)).isFalse();
        // no policy: as before
        assertThat(compared.level(Level.WARNING, java.util.Set.of())).isEqualTo(Level.WARNING);
        assertThat(Impact.of(Impact.Kind.GROWING, "x").level(Level.WARNING, all))
                .isEqualTo(Level.WARNING);
        assertThat(Impact.of(Impact.Kind.EXACT, "x").level(Level.WARNING, all)).isNull();
    }

    @Test
    void builderWritesThePropertyAndTheSinkAsRelatedLocation() {
        Location sink = Location.of("k.cu", 9, 13);
        Finding f = Finding.builder("NL003")
                .level(Level.WARNING)
                .location(Location.of("k.cu", 7, 5))
                .message("m")
                .layer(Layer.CUDA_SOURCE)
                .impact(Impact.amplified("truncated to a pixel index", sink).withErrorBound("1 pixel"))
                .build();
        assertThat(f.impact().kind()).isEqualTo(Impact.Kind.AMPLIFIED);
        assertThat(f.related()).extracting(RelatedLocation::location).containsExactly(sink);
        @SuppressWarnings("unchecked")
        Map<String, Object> p = (Map<String, Object>) f.properties().get("impact");
        assertThat(p)
                .containsEntry("kind", "amplified")
                .containsEntry("consequence", "truncated to a pixel index")
                .containsEntry("errorBound", "1 pixel");
        assertThat(f.toBuilder().build()).isEqualTo(f);
    }

    @Test
    void anIntegerOrAnIndexIsGraverThanADecisionOfTheSameKind() {
        Impact decision = new Impact(Impact.Kind.AMPLIFIED, "compared", null, null, Impact.Reach.DECISION);
        Impact integer = decision.withReach(Impact.Reach.CONVERSION);
        Impact index = decision.withReach(Impact.Reach.INDEX);
        assertThat(integer.graverThan(decision)).isTrue();
        assertThat(index.graverThan(decision)).isTrue();
        assertThat(decision.graverThan(integer)).isFalse();
        assertThat(integer.graverThan(index)).isFalse();
        // an unknown reach is no news against a decision; a graver kind is, whatever the reach
        assertThat(decision.withReach(null).graverThan(decision)).isFalse();
        assertThat(decision.graverThan(Impact.of(Impact.Kind.CANCELLATION, "x")))
                .isTrue();
        assertThat(Impact.bounded("stored").graverThan(decision)).isFalse();
        assertThat(Impact.bounded("stored").graverThan(null)).isTrue();
        // the reach is typed in the properties, and survives an error bound
        assertThat(integer.withErrorBound("1 bin").reach()).isEqualTo(Impact.Reach.CONVERSION);
        assertThat(integer.toProperties()).containsEntry("reach", "conversion");
        assertThat(Impact.bounded("stored").toProperties()).doesNotContainKey("reach");
    }
}
