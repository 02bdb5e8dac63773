package dev.numlint.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KnowledgeTest {
    @Test
    void integerPowersAreExactWhenRepresentable() {
        assertThat(JavaMathFunctions.powIsExact(true, 2.0, true, null)).isTrue();
        assertThat(JavaMathFunctions.powIsExact(true, 10.0, true, 22.0)).isTrue();
        assertThat(JavaMathFunctions.powIsExact(true, 10.0, true, 23.0))
                .as("10^23 is not a double")
                .isFalse();
        assertThat(JavaMathFunctions.powIsExact(true, 3.0, true, -1.0)).isFalse();
        assertThat(JavaMathFunctions.powIsExact(true, 2.0, true, -3.0)).isTrue();
        assertThat(JavaMathFunctions.powIsExact(false, null, true, 2.0)).isFalse();
        assertThat(JavaMathFunctions.powIsExact(true, null, false, 0.5)).isFalse();
    }

    @Test
    void exactArgumentsAndTables() {
        assertThat(JavaMathFunctions.exactAt("exp", 0.0)).isTrue();
        assertThat(JavaMathFunctions.exactAt("log", 1.0)).isTrue();
        assertThat(JavaMathFunctions.exactAt("log", 2.0)).isFalse();
        assertThat(JavaMathFunctions.TRANSCENDENTAL).contains("sin", "pow").doesNotContain("sqrt", "abs");
    }

    @Test
    void floatExactness() {
        assertThat(FloatExactness.isPowerOfTwo(0.25)).isTrue();
        assertThat(FloatExactness.isPowerOfTwo(3)).isFalse();
        assertThat(FloatExactness.exactInteger(16777216, true)).isTrue();
        assertThat(FloatExactness.exactInteger(16777217, true)).isFalse();
        assertThat(FloatExactness.exactInteger(16777217, false)).isTrue();
    }

    /** The odd integer of a value's mantissa: what a whole number times it needs beside the whole number's bits. */
    @Test
    void oddMantissas() {
        assertThat(NumericFacts.oddMantissa(0.75)).isEqualTo(3.0);
        assertThat(NumericFacts.oddMantissa(-6.0)).isEqualTo(3.0);
        assertThat(NumericFacts.oddMantissa(0.25)).isEqualTo(1.0);
        assertThat(NumericFacts.oddMantissa(0.0)).isEqualTo(0.0);
        assertThat(NumericFacts.oddMantissa(0.1)).isGreaterThan(Math.scalb(1.0, 51));
        assertThat(NumericFacts.oddMantissa(Double.MIN_VALUE)).isEqualTo(1.0);
        assertThat(NumericFacts.oddMantissa(Double.NaN)).isInfinite();
    }
}
