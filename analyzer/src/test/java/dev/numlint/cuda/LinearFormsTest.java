package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.cuda.facts.LinearForms;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The algebraic comparison that recognizes an interpolation's weight written in another form than x - i. */
class LinearFormsTest {
    private static boolean fraction(String w, String x, String i) {
        return LinearForms.fraction(w, x, i, null);
    }

    @Test
    void formsTooLargeTogetherAreNoFractionNotAnError() {
        // each form holds 40 terms (below the limit of 64); together they hold 80: tinker9's tortor.h crashed here
        StringBuilder e = new StringBuilder("i");
        StringBuilder x = new StringBuilder("x");
        for (int k = 0; k < 40; k++) {
            e.append(" + a").append(k);
            x.append(" + b").append(k);
        }
        assertThat(fraction(e.toString(), x.toString(), "i")).isFalse();
    }

    @Test
    void weightsInOtherWrittenForms() {
        assertThat(fraction("x - i", "x", "i")).isTrue();
        assertThat(fraction("x - (float)i", "x", "i")).isTrue();
        assertThat(fraction("(x_pr1 - (i1*voxsize1 + o1)) / voxsize1", "(x_pr1 - o1)/voxsize1", "i1"))
                .isTrue();
        assertThat(fraction("(x - o - i*v)/v", "(x - o) / v", "i")).isTrue();
        assertThat(fraction("(x - o)/v - i", "(x - o) / v", "i")).isTrue();
        assertThat(fraction("x/v - i", "x / v", "i")).isTrue();
        assertThat(fraction("px * scale - ix", "scale*px", "ix")).isTrue();
        assertThat(fraction("i + 1 - x", "x", "i")).isTrue();
        assertThat(fraction("1.0f - (x - i)", "x", "i")).isTrue();
        assertThat(fraction("x * 0.5f - i", "x / 2", "i")).isTrue();
        assertThat(fraction("static_cast<float>(x - o) / v - i", "(x - o) / v", "i"))
                .isTrue();
    }

    @Test
    void notWeights() {
        assertThat(fraction("(y - o)/v - i", "(x - o)/v", "i")).isFalse();
        assertThat(fraction("(x - i*v)/v2", "x/v", "i")).isFalse();
        assertThat(fraction("x - j", "x", "i")).isFalse();
        assertThat(fraction("2*(x - i)", "x", "i")).isFalse();
        assertThat(fraction("x - (int)i", "x", "i")).isFalse();
        assertThat(fraction("x ? i : 0", "x", "i")).isFalse();
        assertThat(fraction("a[i] - x", "x", "i")).isFalse();
        assertThat(fraction("x - i ...", "x", "i")).isFalse();
    }

    @Test
    void variablesDefinedOnceAreReadAsTheirValue() {
        Map<String, String> defs = Map.of("fx", "(x - o) / v", "i1", "i + 1");
        assertThat(LinearForms.fraction("fx - i", "(x - o)/v", "i", defs::get)).isTrue();
        assertThat(LinearForms.fraction("i1 - fx", "(x - o)/v", "i", defs::get)).isTrue();
    }

    @Test
    void divisionBySumIsAnAtom() {
        assertThat(LinearForms.form("(a + b)/(c + d) - a/(c + d) - b/(c + d)")).isEmpty();
        assertThat(LinearForms.form("a % b")).isNull();
    }
}
