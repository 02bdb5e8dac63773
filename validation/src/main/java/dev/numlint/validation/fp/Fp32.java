package dev.numlint.validation.fp;

/**
 * Exact PTX single-precision arithmetic (add/sub/mul/fma/div/sqrt/rcp with .rn/.rz/.rm/.rp, .ftz, .sat, min/max).
 *
 * <p>Round to nearest: the operation is evaluated in double and rounded to float. For +, -, *, / and sqrt this
 * double rounding is innocuous because double has 53 >= 2*24+2 significand bits (Figueroa 1995: rounding the
 * correctly rounded double result to float gives the correctly rounded float result); the product of two floats
 * is even exact in double. fma is not covered by that theorem and uses {@link Math#fma(float, float, float)},
 * which is correctly rounded.
 *
 * <p>Directed rounding: the exact result is represented as an unevaluated sum hi + lo of doubles (TwoSum for
 * sums, the exact double product for products, the fma residual for quotients and square roots) and rounded to
 * float by {@link #round(double, double, Rounding)}, which moves the nearest float by one ulp when the exact value
 * lies on the wrong side of it.
 */
public final class Fp32 {
    /** 2^-126, the smallest normal float. */
    public static final float MIN_NORMAL = Float.MIN_NORMAL;
    /** PTX canonical NaN for f32 results. */
    public static final int CANONICAL_NAN_BITS = 0x7FFFFFFF;

    private Fp32() {}

    /** .ftz on an input or output: subnormals become a zero of the same sign. */
    public static float ftz(float x) {
        return (x != 0 && Math.abs(x) < MIN_NORMAL) ? Math.copySign(0f, x) : x;
    }

    /** .sat: clamp to [0, 1]; NaN becomes +0. */
    public static float sat(float x) {
        if (x != x) return 0f;
        if (x <= 0f) return 0f; // -0 also becomes +0
        return x >= 1f ? 1f : x;
    }

    /**
     * Rounds the exact value hi + lo (hi = the double nearest to it, or exact) to float with the given mode. Only
     * the sign of lo matters except for ties, where lo != 0 decides the side.
     */
    public static float round(double hi, double lo, Rounding m) {
        float f = (float) hi;
        if (hi != hi || Double.isInfinite(hi)) return f;
        if (Float.isInfinite(f)) { // overflow of a finite value
            if (m == Rounding.RN) {
                double t = 0x1.ffffffp127; // MAX + half ulp: the overflow threshold
                if (Math.abs(hi) == t && lo != 0 && Math.signum(lo) != Math.signum(hi))
                    return Math.copySign(Float.MAX_VALUE, f);
                return f;
            }
            return directed(f, f > 0 ? -1 : 1, m);
        }
        double d = f;
        double diff = hi - d; // exact: hi and d are within one float ulp
        int s = diff != 0 ? (int) Math.signum(diff) : (int) Math.signum(lo);
        if (s == 0) return f;
        if (m == Rounding.RN) {
            if (lo != 0 && diff != 0) {
                float n = s > 0 ? Math.nextUp(f) : Math.nextDown(f);
                if (!Float.isInfinite(n) && diff == ((double) n - d) / 2) {
                    // hi is exactly a midpoint; lo says on which side of it the exact value lies
                    return Math.signum(lo) == s ? n : f;
                }
            }
            return f;
        }
        return directed(f, s, m);
    }

    /** Moves the nearest float f one ulp when the exact value (on side s of f) must round the other way. */
    private static float directed(float f, int s, Rounding m) {
        switch (m) {
            case RZ:
                if (f > 0 && s < 0) return Math.nextDown(f);
                if (f < 0 && s > 0) return Math.nextUp(f);
                if (Float.isInfinite(f)) return Math.copySign(Float.MAX_VALUE, f);
                return f;
            case RM:
                return s < 0 ? Math.nextDown(f) : f;
            case RP:
                return s > 0 ? Math.nextUp(f) : f;
            default:
                return f;
        }
    }

    /** Sign of an exact zero sum x + y (IEEE 754 6.3): +0 except under RM, unless both addends are equal zeros. */
    static float zeroSum(float x, float y, Rounding m) {
        if (x == 0 && y == 0 && Float.floatToRawIntBits(x) == Float.floatToRawIntBits(y)) return x;
        // opposite zeros or x == -y != 0
        return m == Rounding.RM ? -0f : 0f;
    }

    public static float add(float a, float b, Rounding m, boolean ftz) {
        if (ftz) {
            a = ftz(a);
            b = ftz(b);
        }
        float r;
        if (m == Rounding.RN) {
            r = (float) ((double) a + (double) b);
        } else {
            double x = a, y = b, s = x + y;
            if (s == 0) {
                r = zeroSum(a, b, m); // a sum that rounds to zero in double is exactly zero
            } else {
                double bb = s - x, err = (x - (s - bb)) + (y - bb); // TwoSum
                r = round(s, Double.isInfinite(s) ? 0 : err, m);
            }
        }
        return ftz ? ftz(r) : r;
    }

    public static float sub(float a, float b, Rounding m, boolean ftz) {
        return add(a, -b, m, ftz);
    }

    public static float mul(float a, float b, Rounding m, boolean ftz) {
        if (ftz) {
            a = ftz(a);
            b = ftz(b);
        }
        double p = (double) a * (double) b; // exact: 24 + 24 bits, exponent range fits double
        float r = m == Rounding.RN ? (float) p : round(p, 0, m);
        return ftz ? ftz(r) : r;
    }

    public static float fma(float a, float b, float c, Rounding m, boolean ftz) {
        if (ftz) {
            a = ftz(a);
            b = ftz(b);
            c = ftz(c);
        }
        float r;
        if (m == Rounding.RN) {
            r = Math.fma(a, b, c);
        } else {
            double p = (double) a * (double) b, x = c, s = p + x;
            if (s == 0) {
                r = zeroSum((float) p, c, m); // p is exact, so p + c == 0 is an exact zero
            } else if (Double.isNaN(s) || Double.isInfinite(s)) {
                r = (float) s;
            } else {
                double bb = s - p, err = (p - (s - bb)) + (x - bb);
                r = round(s, err, m);
            }
        }
        return ftz ? ftz(r) : r;
    }

    public static float div(float a, float b, Rounding m, boolean ftz) {
        if (ftz) {
            a = ftz(a);
            b = ftz(b);
        }
        double x = a, y = b, q = x / y;
        float r;
        if (m == Rounding.RN || q == 0 || Double.isNaN(q) || Double.isInfinite(q)) {
            r = (float) q; // q exact or special; innocuous double rounding for RN
        } else {
            double rem = Math.fma(-q, y, x); // exact remainder of the double quotient
            r = round(q, rem / y, m);
        }
        return ftz ? ftz(r) : r;
    }

    public static float sqrt(float a, Rounding m, boolean ftz) {
        if (ftz) a = ftz(a);
        double x = a, s = Math.sqrt(x);
        float r;
        if (m == Rounding.RN || s == 0 || Double.isNaN(s) || Double.isInfinite(s)) {
            r = (float) s;
        } else {
            double rem = Math.fma(-s, s, x);
            r = round(s, rem, m);
        }
        return ftz ? ftz(r) : r;
    }

    /** rcp.rnd.f32: correctly rounded 1/x. */
    public static float rcp(float a, Rounding m, boolean ftz) {
        return div(1f, a, m, ftz);
    }

    /** min.f32: NaN operands are ignored (both NaN gives NaN); -0 is less than +0. */
    public static float min(float a, float b, boolean ftz, boolean nanPropagating) {
        if (ftz) {
            a = ftz(a);
            b = ftz(b);
        }
        if (a != a || b != b) {
            if (nanPropagating) return Float.NaN;
            return a != a ? (b != b ? Float.NaN : b) : a;
        }
        if (a == b) return Float.floatToRawIntBits(a) < 0 ? a : b; // -0 < +0
        return a < b ? a : b;
    }

    /** max.f32: NaN operands are ignored (both NaN gives NaN); +0 is greater than -0. */
    public static float max(float a, float b, boolean ftz, boolean nanPropagating) {
        if (ftz) {
            a = ftz(a);
            b = ftz(b);
        }
        if (a != a || b != b) {
            if (nanPropagating) return Float.NaN;
            return a != a ? (b != b ? Float.NaN : b) : a;
        }
        if (a == b) return Float.floatToRawIntBits(a) < 0 ? b : a;
        return a > b ? a : b;
    }
}
