package dev.numlint.validation.fp;

import static dev.numlint.validation.fp.Rounding.*;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Hand-computed IEEE 754 results for the PTX floating-point library. */
class FpTest {
    static float f(int bits) {
        return Float.intBitsToFloat(bits);
    }

    static int b(float x) {
        return Float.floatToRawIntBits(x);
    }

    static final float ONE_ULP = 0x1p-23f;

    @Test
    void whitePaperFmaExample() {
        float a = f(0x3F800001), c = f(0xBF800002);
        // a*a = 1 + 2^-22 + 2^-46 exactly; fma keeps 2^-46, mul then add rounds it away (002_*.txt)
        assertThat(Fp32.fma(a, a, c, RN, false)).isEqualTo(0x1p-46f);
        assertThat(Fp32.fma(a, a, c, RN, false)).isEqualTo(1.4210855e-14f);
        assertThat(Fp32.add(Fp32.mul(a, a, RN, false), c, RN, false)).isEqualTo(0f);
    }

    @Test
    void addRoundingModesAtHalfwayAndBeyond() {
        float h = 0x1p-24f; // half an ulp of 1
        assertThat(Fp32.add(1f, h, RN, false)).isEqualTo(1f); // tie to even
        assertThat(Fp32.add(1f, h, RZ, false)).isEqualTo(1f);
        assertThat(Fp32.add(1f, h, RM, false)).isEqualTo(1f);
        assertThat(Fp32.add(1f, h, RP, false)).isEqualTo(1f + ONE_ULP);
        assertThat(Fp32.add(1f + ONE_ULP, h, RN, false)).isEqualTo(1f + 2 * ONE_ULP); // tie to even goes up
        assertThat(Fp32.add(-1f, -h, RM, false)).isEqualTo(-1f - ONE_ULP);
        assertThat(Fp32.add(-1f, -h, RP, false)).isEqualTo(-1f);
        assertThat(Fp32.add(-1f, -h, RZ, false)).isEqualTo(-1f);
        // far below the ulp: the double sum is 1 and only TwoSum's error term tells the direction
        assertThat(Fp32.add(1f, 0x1p-100f, RP, false)).isEqualTo(Math.nextUp(1f));
        assertThat(Fp32.add(1f, -0x1p-100f, RZ, false)).isEqualTo(Math.nextDown(1f));
        assertThat(Fp32.add(1f, -0x1p-100f, RN, false)).isEqualTo(1f);
        assertThat(Fp32.sub(1f, 0x1p-100f, RM, false)).isEqualTo(Math.nextDown(1f));
    }

    @Test
    void overflowGivesInfinityOrMaxFinite() {
        float m = Float.MAX_VALUE;
        assertThat(Fp32.mul(m, 2f, RN, false)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(Fp32.mul(m, 2f, RZ, false)).isEqualTo(m);
        assertThat(Fp32.mul(m, 2f, RM, false)).isEqualTo(m);
        assertThat(Fp32.mul(m, 2f, RP, false)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(Fp32.mul(-m, 2f, RZ, false)).isEqualTo(-m);
        assertThat(Fp32.mul(-m, 2f, RM, false)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(Fp32.mul(-m, 2f, RP, false)).isEqualTo(-m);
        assertThat(Fp32.add(m, m, RZ, false)).isEqualTo(m);
        assertThat(Fp64.mul(Double.MAX_VALUE, 2, RZ)).isEqualTo(Double.MAX_VALUE);
        assertThat(Fp64.add(-Double.MAX_VALUE, -Double.MAX_VALUE, RP)).isEqualTo(-Double.MAX_VALUE);
        assertThat(Fp64.add(Double.MAX_VALUE, Double.MAX_VALUE, RN)).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void signedZeros() {
        assertThat(b(Fp32.sub(3f, 3f, RN, false))).isEqualTo(b(0f));
        assertThat(b(Fp32.sub(3f, 3f, RM, false))).isEqualTo(b(-0f));
        assertThat(b(Fp32.add(-0f, -0f, RP, false))).isEqualTo(b(-0f));
        assertThat(b(Fp32.add(-0f, 0f, RZ, false))).isEqualTo(b(0f));
        assertThat(b(Fp32.fma(2f, 3f, -6f, RM, false))).isEqualTo(b(-0f));
        assertThat(b(Fp32.fma(2f, 3f, -6f, RZ, false))).isEqualTo(b(0f));
        assertThat(b(Fp32.mul(-0x1p-149f, 0.5f, RN, false))).isEqualTo(b(-0f));
        assertThat(Double.doubleToRawLongBits(Fp64.sub(1.5, 1.5, RM))).isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    @Test
    void subnormalsAndFlushToZero() {
        float sub = Float.MIN_NORMAL * 0.5f; // 2^-127, subnormal
        assertThat(Fp32.mul(Float.MIN_NORMAL, 0.5f, RN, false)).isEqualTo(sub);
        assertThat(Fp32.mul(Float.MIN_NORMAL, 0.5f, RN, true)).isEqualTo(0f);
        assertThat(b(Fp32.mul(-Float.MIN_NORMAL, 0.5f, RN, true))).isEqualTo(b(-0f));
        // the smallest subnormal halved: a tie between 0 and 2^-149, to even = 0; RP goes up
        assertThat(Fp32.mul(Float.MIN_VALUE, 0.5f, RN, false)).isEqualTo(0f);
        assertThat(Fp32.mul(Float.MIN_VALUE, 0.5f, RP, false)).isEqualTo(Float.MIN_VALUE);
        assertThat(Fp32.mul(Float.MIN_VALUE, 0.75f, RN, false)).isEqualTo(Float.MIN_VALUE);
        assertThat(Fp32.mul(Float.MIN_VALUE, 0.75f, RZ, false)).isEqualTo(0f);
        // ftz flushes inputs: MIN_VALUE + MIN_VALUE is 2^-148 without ftz, 0 with
        assertThat(Fp32.add(Float.MIN_VALUE, Float.MIN_VALUE, RN, false)).isEqualTo(0x1p-148f);
        assertThat(Fp32.add(Float.MIN_VALUE, Float.MIN_VALUE, RN, true)).isEqualTo(0f);
        assertThat(Fp32.add(Float.MIN_NORMAL, -sub, RN, true)).isEqualTo(Float.MIN_NORMAL);
        assertThat(Fp32.ftz(-Float.MIN_VALUE)).isEqualTo(-0f);
        assertThat(Fp32.ftz(Float.MIN_NORMAL)).isEqualTo(Float.MIN_NORMAL);
    }

    @Test
    void divisionAndSquareRoot() {
        assertThat(b(Fp32.div(1f, 3f, RN, false))).isEqualTo(0x3EAAAAAB);
        assertThat(b(Fp32.div(1f, 3f, RZ, false))).isEqualTo(0x3EAAAAAA);
        assertThat(b(Fp32.div(1f, 3f, RM, false))).isEqualTo(0x3EAAAAAA);
        assertThat(b(Fp32.div(1f, 3f, RP, false))).isEqualTo(0x3EAAAAAB);
        assertThat(b(Fp32.div(-1f, 3f, RM, false))).isEqualTo(0xBEAAAAAB);
        assertThat(b(Fp32.div(-1f, 3f, RZ, false))).isEqualTo(0xBEAAAAAA);
        assertThat(Fp32.div(6f, 3f, RP, false)).isEqualTo(2f); // exact quotients stay put
        assertThat(b(Fp32.sqrt(2f, RN, false))).isEqualTo(0x3FB504F3); // below sqrt(2)
        assertThat(b(Fp32.sqrt(2f, RZ, false))).isEqualTo(0x3FB504F3);
        assertThat(b(Fp32.sqrt(2f, RP, false))).isEqualTo(0x3FB504F4);
        assertThat(Fp32.sqrt(-1f, RN, false)).isNaN();
        assertThat(Fp32.rcp(0f, RN, false)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(Fp32.rcp(-0f, RN, false)).isEqualTo(Float.NEGATIVE_INFINITY);
        double third = 1.0 / 3;
        assertThat(Fp64.div(1, 3, RN)).isEqualTo(third);
        assertThat(Fp64.div(1, 3, RZ)).isEqualTo(third); // RN(1/3) is below 1/3 in binary64
        assertThat(Fp64.div(1, 3, RP)).isEqualTo(Math.nextUp(third));
        assertThat(Fp64.sqrt(2, RP)).isEqualTo(Math.sqrt(2)); // RN(sqrt 2) is above sqrt 2 in binary64
        assertThat(Fp64.sqrt(2, RZ)).isEqualTo(Math.nextDown(Math.sqrt(2)));
        assertThat(Fp64.add(1, 0x1p-53, RN)).isEqualTo(1.0);
        assertThat(Fp64.add(1, 0x1p-53, RP)).isEqualTo(Math.nextUp(1.0));
        assertThat(Fp64.fma(1 + 0x1p-52, 1 + 0x1p-52, -1, RN)).isEqualTo(0x1p-51 + 0x1p-104);
        assertThat(Fp64.fma(1, 1, 0x1p-80, RP)).isEqualTo(Math.nextUp(1.0));
        assertThat(Fp64.fma(1, 1, -0x1p-80, RZ)).isEqualTo(Math.nextDown(1.0));
    }

    @Test
    void minMaxSat() {
        assertThat(Fp32.min(Float.NaN, 1f, false, false)).isEqualTo(1f);
        assertThat(Fp32.max(2f, Float.NaN, false, false)).isEqualTo(2f);
        assertThat(Fp32.min(Float.NaN, 1f, false, true)).isNaN();
        assertThat(Fp32.min(Float.NaN, Float.NaN, false, false)).isNaN();
        assertThat(b(Fp32.min(0f, -0f, false, false))).isEqualTo(b(-0f));
        assertThat(b(Fp32.max(-0f, 0f, false, false))).isEqualTo(b(0f));
        assertThat(Fp32.sat(Float.NaN)).isEqualTo(0f);
        assertThat(b(Fp32.sat(-0.5f))).isEqualTo(b(0f));
        assertThat(Fp32.sat(1.5f)).isEqualTo(1f);
        assertThat(Fp32.sat(0.25f)).isEqualTo(0.25f);
    }

    @Test
    void conversionsSaturateOnTheGpu() {
        // tomosynthesis (000_*.txt): (unsigned short)-69.235f is 0 through cvt.rzi
        assertThat(Cvt.floatToInt(-69.235f, RZ, 16, false)).isEqualTo(0);
        assertThat(Cvt.floatToInt(-69.235f, RZ, 32, false)).isEqualTo(0);
        assertThat(Cvt.floatToInt(-69.235f, RZ, 32, true)).isEqualTo(-69);
        assertThat(Cvt.floatToInt(70000.5f, RZ, 16, false)).isEqualTo(65535);
        assertThat(Cvt.floatToInt(Float.NaN, RN, 32, true)).isEqualTo(0);
        assertThat(Cvt.floatToInt(3e9, RZ, 32, true)).isEqualTo(Integer.MAX_VALUE);
        assertThat(Cvt.floatToInt(-3e9, RZ, 32, true)).isEqualTo(Integer.MIN_VALUE);
        assertThat(Cvt.floatToInt(1e20, RZ, 64, false)).isEqualTo(-1L);
        assertThat(Cvt.floatToInt(-1e20, RZ, 64, true)).isEqualTo(Long.MIN_VALUE);
        assertThat(Cvt.floatToInt(1e19, RZ, 64, false)).isEqualTo(Long.parseUnsignedLong("10000000000000000000"));
        assertThat(Cvt.floatToInt(2.5, RN, 32, true)).isEqualTo(2);
        assertThat(Cvt.floatToInt(3.5, RN, 32, true)).isEqualTo(4);
        assertThat(Cvt.floatToInt(-2.5, RM, 32, true)).isEqualTo(-3);
        assertThat(Cvt.floatToInt(-2.5, RP, 32, true)).isEqualTo(-2);
        assertThat(Cvt.floatToInt(-2.5, RZ, 32, true)).isEqualTo(-2);
        assertThat(Cvt.roundToIntegral(-0.5f, RN)).isEqualTo(-0f);
    }

    @Test
    void integerAndDoubleToFloatRounding() {
        assertThat(Cvt.intToFloat(16777217, false, RN)).isEqualTo(16777216f);
        assertThat(Cvt.intToFloat(16777217, false, RP)).isEqualTo(16777218f);
        assertThat(Cvt.intToFloat(-16777217, false, RM)).isEqualTo(-16777218f);
        assertThat(Cvt.intToFloat(-1L, true, RN)).isEqualTo(0x1p64f);
        assertThat(Cvt.intToFloat(-1L, true, RZ)).isEqualTo(Math.nextDown(0x1p64f));
        assertThat(Cvt.intToFloat(-1L, false, RN)).isEqualTo(-1f);
        assertThat(Cvt.intToDouble((1L << 53) + 1, false, RP)).isEqualTo(0x1p53 + 2);
        assertThat(Cvt.intToDouble((1L << 53) + 1, false, RN)).isEqualTo(0x1p53);
        assertThat(b(Cvt.doubleToFloat(0.1, RN, false, false))).isEqualTo(0x3DCCCCCD);
        assertThat(b(Cvt.doubleToFloat(0.1, RZ, false, false))).isEqualTo(0x3DCCCCCC);
        assertThat(Cvt.doubleToFloat(1e300, RN, false, false)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(Cvt.doubleToFloat(1e300, RZ, false, false)).isEqualTo(Float.MAX_VALUE);
        assertThat(Cvt.doubleToFloat(1e-40, RN, true, false)).isEqualTo(0f);
        assertThat(Cvt.doubleToFloat(1e-40, RN, false, false)).isEqualTo(1e-40f);
        // 1 + 2^-24 + 2^-60 in double is above the float midpoint: RN must go up although (float)(1+2^-24) is 1
        assertThat(Fp32.round(1 + 0x1p-24, 0x1p-60, RN)).isEqualTo(1f + ONE_ULP);
        assertThat(Fp32.round(1 + 0x1p-24, -0x1p-60, RN)).isEqualTo(1f);
    }

    @Test
    void x86HostConversionWraps() {
        assertThat(HostX86.floatToUnsigned(-69.235f, 16, true)).isEqualTo(65467);
        assertThat(HostX86.floatToUnsigned(-69.235, 16, false)).isEqualTo(65467);
        assertThat(HostX86.floatToUnsigned(-69.235f, 32, true)).isEqualTo(4294967227L);
        assertThat(HostX86.floatToUnsigned(-1.5f, 32, true)).isEqualTo(0xFFFFFFFFL);
        assertThat(HostX86.floatToUnsigned(300f, 8, true)).isEqualTo(44);
        assertThat(HostX86.floatToUnsigned(3e9f, 16, true)).isEqualTo(0); // int32 indefinite, low bits 0
        assertThat(HostX86.floatToUnsigned(3e9f, 32, true)).isEqualTo(3000000000L);
        assertThat(HostX86.floatToUnsigned(Float.NaN, 32, true)).isEqualTo(0);
        assertThat(HostX86.floatToUnsigned(-1f, 64, true)).isEqualTo(-1L);
        assertThat(HostX86.floatToUnsigned(1e19f, 64, true)).isEqualTo(Long.parseUnsignedLong("9999999980506447872"));
        assertThat(HostX86.floatToSigned(40000f, 16)).isEqualTo(-25536);
    }

    @Test
    void approximateInstructions() {
        assertThat(Approx.divApprox(1f, 0x1p127f, false)).isEqualTo(0f);
        assertThat(Approx.divApprox(Float.POSITIVE_INFINITY, 0x1p127f, false)).isNaN();
        assertThat(Approx.divFull(1f, 0x1p127f, false)).isEqualTo(0x1p-127f);
        assertThat(Approx.divApprox(6f, 3f, false)).isEqualTo(2f);
        assertThat(Approx.lg2(0f, false)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(Approx.ex2(10f, false)).isEqualTo(1024f);
        assertThat(Approx.rsqrt(4f, false)).isEqualTo(0.5f);
    }

    @Test
    void ulpDistance() {
        assertThat(Ulp.distance(1f, Math.nextUp(1f))).isEqualTo(1);
        assertThat(Ulp.distance(-0f, 0f)).isEqualTo(0);
        assertThat(Ulp.distance(-Float.MIN_VALUE, Float.MIN_VALUE)).isEqualTo(2);
        assertThat(Ulp.distance(Float.NaN, Float.intBitsToFloat(0x7FFFFFFF))).isEqualTo(0);
        assertThat(Ulp.distance(Float.NaN, 1f)).isEqualTo(Ulp.NAN_MISMATCH);
        assertThat(Ulp.distance(707054208f, 707054144f)).isEqualTo(1);
        assertThat(Ulp.distance(1.0, Math.nextDown(1.0))).isEqualTo(1);
        assertThat(Ulp.distance(-Double.MIN_VALUE, Double.MIN_VALUE)).isEqualTo(2);
    }

    @Test
    void doubleDouble() {
        DoubleDouble x = DoubleDouble.twoSum(1, 0x1p-60);
        assertThat(x.sub(DoubleDouble.of(1)).doubleValue()).isEqualTo(0x1p-60);
        DoubleDouble third = DoubleDouble.of(1).div(DoubleDouble.of(3));
        assertThat(third.mul(DoubleDouble.of(3)).sub(DoubleDouble.of(1)).doubleValue())
                .isLessThan(1e-30);
        DoubleDouble r = DoubleDouble.of(2).sqrt();
        assertThat(Math.abs(r.mul(r).sub(DoubleDouble.of(2)).doubleValue())).isLessThan(1e-30);
    }
}
