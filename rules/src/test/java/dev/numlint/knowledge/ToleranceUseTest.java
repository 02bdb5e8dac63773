package dev.numlint.knowledge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ToleranceUseTest {
    @Test
    void roundLiteralsAreOrdersOfMagnitude() {
        assertTrue(ToleranceUse.round("1e-10f"));
        assertTrue(ToleranceUse.round("0.01f"));
        assertTrue(ToleranceUse.round("-2.5e-3F"));
        assertFalse(ToleranceUse.round("3.14159265358979f"));
        assertFalse(ToleranceUse.round("0.017453292519943295f"));
        assertFalse(ToleranceUse.round("0.1234f"));
    }

    @Test
    void guardsBoundsAndThresholds() {
        assertEquals("a guard in a denominator", ToleranceUse.use("w /= (0.01f + fabs(d))", "0.01f"));
        assertEquals("a guard in a denominator", ToleranceUse.use("x / (h + 1e-10f)", "1e-10f"));
        assertEquals("a guard in a denominator", ToleranceUse.use("x / ((h) + 1e-10f)", "1e-10f"));
        assertEquals("a guard under sqrt()", ToleranceUse.use("sqrt(s + 1e-6f)", "1e-6f"));
        assertEquals("a guard under log()", ToleranceUse.use("std::log(p + 1e-7f)", "1e-7f"));
        assertEquals("a bound of fmax()", ToleranceUse.use("fmax(x, 1e-35f)", "1e-35f"));
        assertEquals("a bound of max()", ToleranceUse.use("std::max(1e-3f, x)", "1e-3f"));
        assertEquals("a threshold in a comparison", ToleranceUse.use("if (fabs(x) < 1e-10f) {", "1e-10f"));
        assertEquals(
                "a threshold in a comparison",
                ToleranceUse.use("return (v >= -kZeroThreshold && v <= kZeroThreshold);", "kZeroThreshold"));
        assertEquals("a threshold in a comparison", ToleranceUse.use("if (1.0f - s > kEpsilon) {", "kEpsilon"));
        assertEquals("a tolerance added to a value", ToleranceUse.use("h += kEpsilon;", "kEpsilon"));
        assertEquals(
                "a tolerance added to a value",
                ToleranceUse.use("const double s = (c ? a : b) + 2 * kEpsilon;", "kEpsilon"));
        assertEquals("a tolerance added to a value", ToleranceUse.use("g, hess + kEpsilon, l1,", "kEpsilon"));
    }

    @Test
    void valuesAndFactorsAreNotTolerances() {
        assertNull(ToleranceUse.use("r = x * 1e-3f;", "1e-3f"));
        assertNull(ToleranceUse.use("y = x + 0.1f;", "0.1f"));
        assertNull(ToleranceUse.use("x / (1e-10f)", "1e-10f"));
        assertNull(ToleranceUse.use("return 0.1f;", "0.1f"));
        assertNull(ToleranceUse.use("a = C0 + 1e-5f * C0 + 1e-9f;", "1e-5f"));
        // one use a tolerance, the other a value: not a tolerance
        assertNull(ToleranceUse.use("if (x < 0.1f) y = x + 0.1f;", "0.1f"));
        assertNull(ToleranceUse.use("static_cast<double>(x + 0.1f)", "0.1f"));
    }

    @Test
    void localsInitialisedWithALiteral() {
        String body = "{ const double eps = 1e-10f; if (score < eps) { score = eps; } return score - l * log(score); }";
        assertEquals("a threshold in a comparison", ToleranceUse.usesOf(body, "eps"));
        assertNull(ToleranceUse.usesOf("{ double step = 1e-3f; x += step * g; }", "step"));
        assertNull(ToleranceUse.usesOf("{ double c = 1e-3f; return c; }", "c"));
        assertNull(ToleranceUse.usesOf("{ double c = 1e-3f; }", "c"));
    }

    @Test
    void literalsOfAnImmediate() {
        assertEquals(List.of("1e-10f"), ToleranceUse.floatLiterals("if (s < 1e-10f && t > 0.5f)", (double) 1e-10f));
        assertEquals(List.of("kEpsilon"), ToleranceUse.toleranceNames("h = sum - kEpsilon;"));
    }

    @Test
    void toleranceNamesAreWordsOfTheName() {
        for (String name : List.of(
                "eps",
                "kEpsilon",
                "FLT_EPSILON",
                "REAL1_EPSILON_CUDA",
                "tol",
                "kTolerance2",
                "min_hessian_eps",
                "data_threshold",
                "relTol")) {
            assertTrue(ToleranceUse.toleranceName(name), name);
        }
        // the camel-case words are case-sensitive: a lower-case 'tol', 'eps' or 'tiny' inside a word is none
        for (String name : List.of("stolen", "total", "steps", "pistol", "destiny", "norm_thresh")) {
            assertFalse(ToleranceUse.toleranceName(name), name);
            assertFalse(ToleranceUse.epsilonName(name), name);
        }
        // an error tolerance in the narrow sense: not a threshold, which a comparison with data decides on
        assertTrue(ToleranceUse.epsilonName("REAL1_EPSILON_CUDA"));
        assertTrue(ToleranceUse.epsilonName("kTolerance2"));
        assertFalse(ToleranceUse.epsilonName("data_threshold"));
        assertFalse(ToleranceUse.epsilonName("tiny"));
    }
}
