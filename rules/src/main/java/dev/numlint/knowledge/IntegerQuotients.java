package dev.numlint.knowledge;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * What an integer division loses when its quotient goes on in floating-point arithmetic: C, C++, CUDA and Java
 * truncate toward zero, so {@code 1 / 24} is 0 and {@code ceil(n / 2)} rounds nothing. The loss is certain for a
 * division of constants that is not exact, for a reciprocal {@code 1 / n} (0 for every n but 1 and -1) and for a
 * quotient a rounding function other than {@code floor} and {@code trunc} is applied to (it shows a fraction was
 * meant; {@code trunc} is what the division does, {@code floor} differs only for a negative quotient); for a quotient of other variables an
 * integer quotient may be meant (a row {@code i / width} scaled to a coordinate, a note), and is meant where it is a
 * term of index arithmetic before the conversion ({@code (float)(i - n / 2)}: not reported). Pure and without dependencies: both
 * source layers (CUDA/C++ and Java) decide through it.
 */
public final class IntegerQuotients {
    private IntegerQuotients() {}

    /**
     * What the truncation loses.
     *
     * @param certain     whether the fraction is certainly meant and lost (a warning), not only possibly (a note)
     * @param consequence the message's words for it
     */
    public record Loss(boolean certain, String consequence) {}

    /**
     * The loss of {@code dividend / divisor} (compile-time values, null when not constant) converted to a floating
     * type, or null when there is none: the division is exact ({@code 8 / 2}, {@code n / 1}, {@code 0 / n}).
     *
     * @param rounding the rounding function the quotient is the argument of ("ceil"), or null
     * @param indexed  the quotient is a term or factor of integer arithmetic with a variable before the conversion
     *                 ({@code (float)(i - n / 2)}): index arithmetic, where a quotient of variables is meant
     * @param nonNegative the quotient cannot be negative (unsigned operands, or a proven range): truncation is floor
     */
    private static final java.util.Set<String> MODES =
            java.util.Set.of("ceil", "floor", "round", "trunc", "rint", "nearbyint");

    /** The rounding a function does: "ceil" for ceilf, "round" for llroundf; null for null. */
    private static String mode(String rounding) {
        if (rounding == null) return null;
        String r = rounding.replaceFirst("^l{1,2}(?=round|rint)", "");
        if (MODES.contains(r)) return r;
        String shorter = r.isEmpty() ? r : r.substring(0, r.length() - 1);
        return MODES.contains(shorter) ? shorter : r;
    }

    public static Loss loss(Double dividend, Double divisor, String rounding, boolean indexed, boolean nonNegative) {
        if (divisor != null && (divisor == 0 || Math.abs(divisor) == 1)) return null;
        if (dividend != null && dividend == 0) return null;
        String mode = mode(rounding);
        // trunc() of a quotient is what the division did: nothing lost
        if ("trunc".equals(mode)) return null;
        if (dividend != null && divisor != null) {
            if (!FloatExactness.isInteger(dividend) || !FloatExactness.isInteger(divisor)) return null;
            long a = dividend.longValue();
            long b = divisor.longValue();
            if (a % b == 0) return null;
            // a quotient past double's resolution: the fraction the division drops is below the conversion's own
            // rounding ((double)(INT64_MAX / 2) is 2^62 either way; session 58 round G, an overflow guard)
            if (new BigDecimal(a)
                            .divide(new BigDecimal(b), MathContext.DECIMAL128)
                            .doubleValue()
                    == (double) (a / b)) return null;
            // every digit of the whole part, and the fraction's first ones: 2147483647 / 8 is 268435455.875, not
            // 268435000 (six significant digits)
            int whole = String.valueOf(Math.abs(a / b)).length();
            String exact = new BigDecimal(a)
                    .divide(new BigDecimal(b), new MathContext(Math.max(6, whole + 3)))
                    .stripTrailingZeros()
                    .toPlainString();
            String written = a + " / " + b + " is " + (a / b) + ", not " + exact;
            if (mode == null) return new Loss(true, written);
            // the rounding of the exact quotient against the rounding of the truncated one
            double q = (double) a / b;
            double meant =
                    switch (mode) {
                        case "ceil" -> Math.ceil(q);
                        case "floor" -> Math.floor(q);
                        case "round" -> Math.signum(q) * Math.floor(Math.abs(q) + 0.5);
                        default -> Math.rint(q);
                    };
            if (meant == a / b) return null;
            return new Loss(true, written + ", so " + rounding + "() gives " + (a / b) + ", not " + (long) meant);
        }
        if (mode != null && !mode.equals("floor"))
            return new Loss(true, rounding + "() of an integer quotient rounds nothing: the division truncated it");
        if (mode != null) {
            if (nonNegative) return null;
            return new Loss(false, "floor() of an integer quotient: truncated toward zero where it is negative");
        }
        if (dividend != null && Math.abs(dividend) == 1)
            return new Loss(true, "an integer reciprocal is 0 for every divisor but 1 and -1");
        if (indexed) return null;
        return new Loss(false, "the fraction is dropped (an integer quotient may be meant)");
    }
}
