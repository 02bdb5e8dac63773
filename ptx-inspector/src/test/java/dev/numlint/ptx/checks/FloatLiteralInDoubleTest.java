package dev.numlint.ptx.checks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which f64 immediates NL014's PTX check reads as a widened float literal (session 44: cloudsc's 100*DBL_EPSILON,
 * {@code 0d3D19000000000000}, was reported as "the float value of 2.220446E-14").
 */
class FloatLiteralInDoubleTest {
    @Test
    void aShortInexactDecimalsFloatIsAWidenedLiteral() {
        assertThat(FloatLiteralInDouble.floatLiteral((double) 0.1f)).isEqualTo("0.1");
        assertThat(FloatLiteralInDouble.floatLiteral((double) 0.3f)).isEqualTo("0.3");
        assertThat(FloatLiteralInDouble.floatLiteral((double) 1e-3f)).isEqualTo("0.001");
    }

    @Test
    void binaryRoundNumbersDoubleValuesAndExactOnesAreNot() {
        double eps100 = 100 * Math.ulp(1.0); // 25 * 2^-50: exactly a float, but from exact arithmetic
        assertThat(Double.doubleToLongBits(eps100)).isEqualTo(0x3D19000000000000L);
        assertThat(FloatLiteralInDouble.floatLiteral(eps100)).isNull();
        assertThat(FloatLiteralInDouble.floatLiteral(3 * Math.scalb(1.0, -10))).isNull();
        assertThat(FloatLiteralInDouble.floatLiteral(0.1)).isNull(); // the double 0.1 is no float
        assertThat(FloatLiteralInDouble.floatLiteral(0.75)).isNull(); // exact
        assertThat(FloatLiteralInDouble.floatLiteral(0.125)).isNull(); // a power of two
    }

    @Test
    void significantBitsCountTheSignificand() {
        assertThat(FloatLiteralInDouble.significantBits(1.0)).isEqualTo(1);
        assertThat(FloatLiteralInDouble.significantBits(1.5625)).isEqualTo(5);
        assertThat(FloatLiteralInDouble.significantBits((double) 0.1f)).isEqualTo(24);
    }
}
