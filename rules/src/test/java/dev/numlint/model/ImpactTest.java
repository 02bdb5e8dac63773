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
