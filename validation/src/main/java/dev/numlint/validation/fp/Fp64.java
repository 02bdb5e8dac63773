package dev.numlint.validation.fp;

import java.math.BigDecimal;

/**
 * Exact PTX double-precision arithmetic. Round to nearest is the Java double operation (IEEE 754 binary64, ties
 * to even; fma through {@link Math#fma(double, double, double)}). Directed rounding takes the round-to-nearest
 * result r and the sign of (exact - r), decided exactly with {@link BigDecimal} (every finite double is a finite
 * decimal; quotients and square roots are decided by the sign of a - r*b and a - r*r), and moves r one ulp when
 * the exact value lies on the wrong side of it. Finite operands whose round-to-nearest result overflows have
 * exact - r of the opposite sign of r, which gives max-finite under .rz and the matching directed modes.
 */
public final class Fp64 {
    /** PTX canonical NaN for f64 results. */
    public static final long CANONICAL_NAN_BITS = 0x7FFFFFFFFFFFFFFFL;

    private Fp64() {}

    /** Flushes a double subnormal to a zero of the same sign (used by cvt.ftz on f64 sources feeding f32). */
    public static double ftz(double x) {
        return (x != 0 && Math.abs(x) < Double.MIN_NORMAL) ? Math.copySign(0.0, x) : x;
    }

    /** .sat: clamp to [0, 1]; NaN becomes +0. */
    public static double sat(double x) {
        if (x != x || x <= 0) return 0.0;
        return x >= 1 ? 1.0 : x;
    }

    /** Applies a directed rounding mode to r = RN(exact) given s = sign(exact - r). */
    public static double directed(double r, int s, Rounding m) {
        if (s == 0 || r != r) return r;
        switch (m) {
            case RZ:
                if (r > 0 && s < 0) return Math.nextDown(r);
                if (r < 0 && s > 0) return Math.nextUp(r);
                return r;
            case RM:
                return s < 0 ? Math.nextDown(r) : r;
            case RP:
                return s > 0 ? Math.nextUp(r) : r;
            default:
                return r;
        }
    }

    private static int overflowSign(double r) {
        return r > 0 ? -1 : 1;
    }

    private static BigDecimal bd(double x) {
        return new BigDecimal(x);
    }

    static double zeroSum(double x, double y, Rounding m) {
        if (x == 0 && y == 0 && Double.doubleToRawLongBits(x) == Double.doubleToRawLongBits(y)) return x;
        return m == Rounding.RM ? -0.0 : 0.0;
    }

    public static double add(double a, double b, Rounding m) {
        double r = a + b;
        if (m == Rounding.RN || r != r) return r;
        if (r == 0) return zeroSum(a, b, m);
        if (Double.isInfinite(r))
            return Double.isInfinite(a) || Double.isInfinite(b) ? r : directed(r, overflowSign(r), m);
        return directed(r, bd(a).add(bd(b)).compareTo(bd(r)), m);
    }

    public static double sub(double a, double b, Rounding m) {
        return add(a, -b, m);
    }

    public static double mul(double a, double b, Rounding m) {
        double r = a * b;
        if (m == Rounding.RN || r != r || Double.isInfinite(a) || Double.isInfinite(b) || a == 0 || b == 0) return r;
        if (Double.isInfinite(r)) return directed(r, overflowSign(r), m);
        // also covers underflow to zero: the sign of exact - 0 moves RM/RP to the smallest subnormal
        return directed(r, bd(a).multiply(bd(b)).compareTo(bd(r)), m);
    }

    public static double fma(double a, double b, double c, Rounding m) {
        double r = Math.fma(a, b, c);
        if (m == Rounding.RN || r != r || Double.isInfinite(a) || Double.isInfinite(b) || Double.isInfinite(c))
            return r;
        BigDecimal exact = bd(a).multiply(bd(b)).add(bd(c));
        if (exact.signum() == 0) {
            double p = a * b;
            if (p == 0 && c == 0) return zeroSum(Math.copySign(0.0, a) * Math.copySign(1.0, b), c, m);
            return m == Rounding.RM ? -0.0 : 0.0;
        }
        if (Double.isInfinite(r)) return directed(r, overflowSign(r), m);
        return directed(r, exact.compareTo(bd(r)), m);
    }

    public static double div(double a, double b, Rounding m) {
        double r = a / b;
        if (m == Rounding.RN || r != r || Double.isInfinite(a) || Double.isInfinite(b) || b == 0 || a == 0) return r;
        if (Double.isInfinite(r)) return directed(r, overflowSign(r), m);
        // sign(a/b - r) = sign(a - r*b) * sign(b)
        int s = bd(a).subtract(bd(r).multiply(bd(b))).signum() * (b > 0 ? 1 : -1);
        return directed(r, s, m);
    }

    public static double sqrt(double a, Rounding m) {
        double r = Math.sqrt(a);
        if (m == Rounding.RN || r != r || r == 0 || Double.isInfinite(r)) return r;
        BigDecimal br = bd(r);
        return directed(r, bd(a).compareTo(br.multiply(br)), m);
    }

    public static double rcp(double a, Rounding m) {
        return div(1.0, a, m);
    }

    public static double min(double a, double b, boolean nanPropagating) {
        if (a != a || b != b) {
            if (nanPropagating) return Double.NaN;
            return a != a ? b : a;
        }
        if (a == b) return Double.doubleToRawLongBits(a) < 0 ? a : b;
        return a < b ? a : b;
    }

    public static double max(double a, double b, boolean nanPropagating) {
        if (a != a || b != b) {
            if (nanPropagating) return Double.NaN;
            return a != a ? b : a;
        }
        if (a == b) return Double.doubleToRawLongBits(a) < 0 ? b : a;
        return a > b ? a : b;
    }
}
