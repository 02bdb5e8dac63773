package dev.numlint.knowledge;

/**
 * When IEEE 754 arithmetic is exact: integers below 2^24 (float) and 2^53 (double) are represented exactly and
 * sums of them are exact; scaling by a power of two is exact (away from overflow and subnormals). Pure and without
 * dependencies: the SpotBugs plugin carries a copy of this package in its jar.
 */
public final class FloatExactness {
    /** Every integer of magnitude up to 2^24 is a float. */
    public static final double FLOAT_INTEGER_LIMIT = 16777216.0;
    /** Every integer of magnitude up to 2^53 is a double. */
    public static final double DOUBLE_INTEGER_LIMIT = 9007199254740992.0;

    private FloatExactness() {}

    /** Whether {@code v} is a finite integer value. */
    public static boolean isInteger(double v) {
        return !Double.isInfinite(v) && !Double.isNaN(v) && v == Math.rint(v);
    }

    /** Whether {@code v} is plus or minus a power of two (multiplying or dividing by it is exact). */
    public static boolean isPowerOfTwo(double v) {
        double a = Math.abs(v);
        if (a == 0 || Double.isNaN(a) || Double.isInfinite(a)) return false;
        return a == Math.scalb(1.0, Math.getExponent(a));
    }

    /**
     * Whether a float division by the constant {@code v} is exact however it is computed: {@code v} is plus or minus
     * 2^k with |k| <= 125, so its reciprocal is a normal float, an approximate division ({@code div.approx.f32}, the
     * {@code a * (1/b)} of -prec-div=false and --use_fast_math, whose range ends below 2^126) gives {@code a * 2^-k},
     * and that is the IEEE quotient (away from overflow and subnormal results). {@code null}: not a constant.
     */
    public static boolean exactFloatDivisor(Double v) {
        if (v == null || !isPowerOfTwo(v)) return false;
        return Math.abs(Math.getExponent(v)) <= 125;
    }

    /** Whether the integer {@code v} is exactly representable in float ({@code isFloat}) or double. */
    public static boolean exactInteger(double v, boolean isFloat) {
        return isInteger(v) && Math.abs(v) <= (isFloat ? FLOAT_INTEGER_LIMIT : DOUBLE_INTEGER_LIMIT);
    }

    /**
     * Whether a float-suffixed decimal literal's float value differs from the number its digits denote: {@code 0.1f}
     * (0.100000001490116...) does, {@code 0.5f}, {@code 1.0f} and {@code 0.25f} do not. Hexadecimal literals state
     * their bits: never. A leading sign and digit separators ({@code '}, {@code _}) are allowed.
     */
    public static boolean inexactFloatLiteral(String text) {
        String s = text.replace("'", "").replace("_", "").strip();
        if (s.startsWith("-") || s.startsWith("+")) s = s.substring(1);
        if (s.startsWith("0x") || s.startsWith("0X")) return false;
        if (s.endsWith("f") || s.endsWith("F")) s = s.substring(0, s.length() - 1);
        try {
            java.math.BigDecimal exact = new java.math.BigDecimal(s);
            float f = Float.parseFloat(s);
            return Float.isFinite(f) && new java.math.BigDecimal(f).compareTo(exact) != 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * What a float literal widened to double carries (NL014, every layer that reads literal text): its float value
     * (15 significant digits), the distance from the number it denotes and that number, each with the literal's sign.
     */
    public record Widening(String value, String error, String decimal) {}

    /**
     * The widening of a float literal worth reporting ({@code 0.1f}, {@code -0.7f}, digit separators allowed), or null
     * when the float holds the number exactly, when the literal is spelled to float's full precision (8 or more
     * significant digits that are the float's own: the float is meant; more digits than it has, {@code
     * 3.14159265358979f}, are reported) or when its value is a power of two ({@code FLT_EPSILON}).
     */
    public static Widening widening(String literal) {
        String s = literal.replace("'", "").replace("_", "").strip();
        boolean negative = s.startsWith("-");
        if (negative || s.startsWith("+")) s = s.substring(1);
        if (s.startsWith("0x") || s.startsWith("0X")) return null;
        if (s.endsWith("f") || s.endsWith("F")) s = s.substring(0, s.length() - 1);
        java.math.BigDecimal decimal;
        try {
            decimal = new java.math.BigDecimal(s);
        } catch (NumberFormatException e) {
            return null;
        }
        float f = Float.parseFloat(s);
        if (!Float.isFinite(f) || f == 0) return null;
        java.math.BigDecimal exact = new java.math.BigDecimal(f);
        if (exact.compareTo(decimal) == 0) return null;
        // spelled to float's full precision, the float's own digits (1.19209290e-7F, 3.14159274f): the float is meant;
        // more digits than the float has (3.14159265358979f, 0.017453292519943295f) are double digits, reported
        int digits = decimal.stripTrailingZeros().precision();
        if (digits >= 8 && exact.round(new java.math.MathContext(digits)).compareTo(decimal) == 0) return null;
        if (isPowerOfTwo(f)) return null;
        String sign = negative ? "-" : "";
        return new Widening(
                sign
                        + exact.round(new java.math.MathContext(15))
                                .stripTrailingZeros()
                                .toPlainString(),
                String.format(
                        java.util.Locale.ROOT,
                        "%.1e",
                        exact.subtract(decimal).abs().doubleValue()),
                sign + decimal.toPlainString());
    }
}
