package dev.numlint.validation.fp;

/**
 * Models of PTX's approximate instructions from their documented definitions. These are NOT bit-exact: the
 * hardware's approximation tables are not published, so each model computes the documented formula with
 * correctly rounded building blocks and is within the documented error bound of the hardware result, not
 * equal to it. Callers mark results that went through these as approximate.
 */
public final class Approx {
    private static final float TWO126 = 0x1p126f;

    private Approx() {}

    private static float in(float x, boolean ftz) {
        return ftz ? Fp32.ftz(x) : x;
    }

    /** rcp.approx.f32: 1/x (max 1 ulp on hardware); rcp(+-0) = +-inf, rcp(+-inf) = +-0. */
    public static float rcp(float x, boolean ftz) {
        x = in(x, ftz);
        return in((float) (1.0 / x), ftz);
    }

    /**
     * div.approx.f32 (PTX ISA): d = a * (1/b); for 2^126 < |b| < 2^128, d is NaN when a is infinite and 0
     * otherwise.
     */
    public static float divApprox(float a, float b, boolean ftz) {
        a = in(a, ftz);
        b = in(b, ftz);
        float ab = Math.abs(b);
        if (ab > TWO126 && ab < Float.POSITIVE_INFINITY) {
            return Float.isInfinite(a) ? Float.NaN : Math.copySign(0f, a) * Math.signum(b);
        }
        return in(a * rcp(b, ftz), ftz);
    }

    /**
     * div.full.f32: "full-range approximation that scales operands" (max 2 ulp). Modelled as: scale a and b by
     * 1/4 when |b| > 2^126 (and by 2^24 when b is subnormal), then a * rcp(b).
     */
    public static float divFull(float a, float b, boolean ftz) {
        a = in(a, ftz);
        b = in(b, ftz);
        float ab = Math.abs(b);
        if (ab > TWO126 && ab < Float.POSITIVE_INFINITY) {
            a *= 0.25f;
            b *= 0.25f;
        } else if (ab != 0 && ab < Float.MIN_NORMAL) {
            a *= 0x1p24f;
            b *= 0x1p24f;
        }
        return in(a * (float) (1.0 / b), ftz);
    }

    public static float sqrt(float x, boolean ftz) {
        return in((float) Math.sqrt(in(x, ftz)), ftz);
    }

    public static float rsqrt(float x, boolean ftz) {
        return in((float) (1.0 / Math.sqrt(in(x, ftz))), ftz);
    }

    public static double rsqrt(double x) {
        return 1.0 / Math.sqrt(x);
    }

    public static float sin(float x, boolean ftz) {
        return in((float) Math.sin(in(x, ftz)), ftz);
    }

    public static float cos(float x, boolean ftz) {
        return in((float) Math.cos(in(x, ftz)), ftz);
    }

    /** lg2.approx.f32: log2(x); lg2(+-0) = -inf, lg2(negative) = NaN. */
    public static float lg2(float x, boolean ftz) {
        x = in(x, ftz);
        if (x == 0) return Float.NEGATIVE_INFINITY;
        return in((float) (Math.log(x) / Math.log(2.0)), ftz);
    }

    /** ex2.approx.f32: 2^x. */
    public static float ex2(float x, boolean ftz) {
        return in((float) Math.pow(2.0, in(x, ftz)), ftz);
    }

    public static float tanh(float x) {
        return (float) Math.tanh(x);
    }
}
