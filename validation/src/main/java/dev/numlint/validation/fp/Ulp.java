package dev.numlint.validation.fp;

/**
 * ULP distance between two values of the same format: the number of representable values between them, counted
 * on the ordered-integer line (the bit pattern of a negative value v maps to MIN - bits, so -0 and +0 coincide
 * and the count is continuous across zero). Two NaNs are 0 apart; a NaN and a number are {@link #NAN_MISMATCH}.
 */
public final class Ulp {
    public static final long NAN_MISMATCH = Long.MAX_VALUE;

    private Ulp() {}

    private static long ordered32(float x) {
        int i = Float.floatToRawIntBits(x);
        return i >= 0 ? i : (long) Integer.MIN_VALUE - i;
    }

    public static long distance(float a, float b) {
        boolean na = a != a, nb = b != b;
        if (na || nb) return na && nb ? 0 : NAN_MISMATCH;
        return Math.abs(ordered32(a) - ordered32(b));
    }

    public static long distance(double a, double b) {
        boolean na = a != a, nb = b != b;
        if (na || nb) return na && nb ? 0 : NAN_MISMATCH;
        long ia = Double.doubleToRawLongBits(a), ib = Double.doubleToRawLongBits(b);
        // ordered: non-negative bit patterns as is, negative ones reflected; compute |oa - ob| without overflow
        java.math.BigInteger oa = ia >= 0
                ? java.math.BigInteger.valueOf(ia)
                : java.math.BigInteger.valueOf(Long.MIN_VALUE).subtract(java.math.BigInteger.valueOf(ia));
        java.math.BigInteger ob = ib >= 0
                ? java.math.BigInteger.valueOf(ib)
                : java.math.BigInteger.valueOf(Long.MIN_VALUE).subtract(java.math.BigInteger.valueOf(ib));
        java.math.BigInteger d = oa.subtract(ob).abs();
        return d.bitLength() < 63 ? d.longValue() : NAN_MISMATCH - 1;
    }
}
