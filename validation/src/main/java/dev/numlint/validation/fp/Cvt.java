package dev.numlint.validation.fp;

import java.math.BigDecimal;

/**
 * PTX cvt semantics. Float to integer: round with .rni/.rzi/.rmi/.rpi, NaN gives 0 and values outside the
 * destination range saturate to its minimum or maximum (PTX ISA, cvt: "saturation modifier ... is implied for
 * float-to-integer conversions"). Integer to float and f64 to f32: correctly rounded with .rn/.rz/.rm/.rp.
 */
public final class Cvt {
    private static final double TWO63 = 0x1p63, TWO64 = 0x1p64;

    private Cvt() {}

    /** Rounds a float/double value to an integral value with an integer rounding modifier (rni/rzi/rmi/rpi). */
    public static double roundToIntegral(double x, Rounding m) {
        switch (m) {
            case RN:
                return Math.rint(x);
            case RZ:
                return x < 0 ? Math.ceil(x) : Math.floor(x);
            case RM:
                return Math.floor(x);
            case RP:
                return Math.ceil(x);
            default:
                throw new IllegalArgumentException();
        }
    }

    /** Integral rounding in single precision (cvt.rni.f32.f32); exact since a float's integral part fits a double. */
    public static float roundToIntegral(float x, Rounding m) {
        return (float) roundToIntegral((double) x, m);
    }

    /**
     * cvt.{rni,rzi,rmi,rpi}.{s,u}{8,16,32,64}.{f32,f64}: the result as a long holding the destination bit pattern
     * (zero/sign extension is left to the caller's register width; u64 values above 2^63 come back negative).
     */
    public static long floatToInt(double x, Rounding m, int bits, boolean signed) {
        if (x != x) return 0;
        double r = roundToIntegral(x, m);
        if (signed) {
            long min = -(1L << (bits - 1)), max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
            if (bits == 64) {
                if (r >= TWO63) return Long.MAX_VALUE;
                if (r <= -TWO63) return Long.MIN_VALUE;
                return (long) r;
            }
            if (r <= min) return min;
            if (r >= max) return max;
            return (long) r;
        }
        if (r <= 0) return 0;
        if (bits == 64) {
            if (r >= TWO64) return -1L;
            if (r >= TWO63) return (long) (r - TWO63) ^ Long.MIN_VALUE;
            return (long) r;
        }
        long max = (1L << bits) - 1;
        return r >= max ? max : (long) r;
    }

    private static BigDecimal exact(long v, boolean unsigned) {
        BigDecimal b = BigDecimal.valueOf(v);
        return unsigned && v < 0 ? b.add(new BigDecimal(TWO64)) : b;
    }

    /** cvt.{rn,rz,rm,rp}.f32.{s,u}{8..64}: v holds the (already extended) source value; unsigned for u64 sources. */
    public static float intToFloat(long v, boolean unsignedSource, Rounding m) {
        if (!(unsignedSource && v < 0) && Math.abs(v) < (1L << 53)) {
            double d = v; // exact
            return m == Rounding.RN ? (float) d : Fp32.round(d, 0, m);
        }
        BigDecimal e = exact(v, unsignedSource);
        double hi = e.doubleValue();
        double lo = e.subtract(new BigDecimal(hi)).doubleValue();
        return Fp32.round(hi, lo, m);
    }

    /** cvt.{rn,rz,rm,rp}.f64.{s,u}{8..64}. */
    public static double intToDouble(long v, boolean unsignedSource, Rounding m) {
        if (!(unsignedSource && v < 0) && Math.abs(v) < (1L << 53)) return v;
        BigDecimal e = exact(v, unsignedSource);
        double r = e.doubleValue();
        return Fp64.directed(r, e.compareTo(new BigDecimal(r)), m);
    }

    /** cvt.{rn,rz,rm,rp}{.ftz}{.sat}.f32.f64. */
    public static float doubleToFloat(double d, Rounding m, boolean ftz, boolean sat) {
        float f = m == Rounding.RN ? (float) d : Fp32.round(d, 0, m);
        if (ftz) f = Fp32.ftz(f);
        if (sat) f = Fp32.sat(f);
        return f;
    }
}
