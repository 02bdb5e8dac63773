package dev.numlint.ptx.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SourceTextTest {
    @Test
    void aComparisonWithARandomDrawInOneGroupIsABernoulliTrial() {
        assertThat(SourceText.comparesWithDraw("if (rand_next_reflect(t) <= Rtotal) { /*do reflection*/"))
                .isTrue();
        assertThat(SourceText.comparesWithDraw("} while (rand_uniform01(t)*I0 >= I);"))
                .isTrue();
        assertThat(SourceText.comparesWithDraw("if (curand_uniform(&state) < p) hit++;"))
                .isTrue();
    }

    @Test
    void aDrawBesideAnotherComparisonOrWithoutOneIsNot() {
        // the comparison does not involve the draw: the draw is in a group of its own
        assertThat(SourceText.comparesWithDraw("if (x > 0.5f) r = jitter(curand_uniform(&s));"))
                .isFalse();
        assertThat(SourceText.comparesWithDraw("r = sqrtf(rand_uniform01(t));")).isFalse();
        assertThat(SourceText.comparesWithDraw("if (p->x < lo) { q = operand(a) + 1; }"))
                .isFalse();
        assertThat(SourceText.comparesWithDraw("curand_init(seed < 0 ? 1 : seed, id, 0, &s);"))
                .isFalse();
        assertThat(SourceText.comparesWithDraw("// if (rand() < p) in a comment"))
                .isFalse();
        assertThat(SourceText.comparesWithDraw(null)).isFalse();
    }
}
