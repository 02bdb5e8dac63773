package dev.numlint.java;

import java.math.BigDecimal;

/** Java's narrowing conversions from float/double, computed for concrete examples in messages (JLS 5.1.3). */
public final class Narrowing {
    private Narrowing() {}

    /** (target) v for a value of the given source type, as Java computes it (through int, then wrapping). */
    public static long narrow(double v, NumType source, NumType target) {
        if (source == NumType.FLOAT) {
            float f = (float) v;
            switch (target) {
                case BYTE:
                    return (byte) f;
                case SHORT:
                    return (short) f;
                case CHAR:
                    return (char) f;
                case INT:
                    return (int) f;
                default:
                    return (long) f;
            }
        }
        switch (target) {
            case BYTE:
                return (byte) v;
            case SHORT:
                return (short) v;
            case CHAR:
                return (char) v;
            case INT:
                return (int) v;
            default:
                return (long) v;
        }
    }

    /** A literal for {@code v} as it would be written in Java source of the given type. */
    public static String literal(double v, NumType source) {
        if (source == NumType.FLOAT) {
            String s = Float.toString((float) v);
            return s + "f";
        }
        return Double.toString(v);
    }

    /** The canonical example of an out-of-range value below the range: -69.235 (the DBT case, seed 000). */
    public static double exampleBelow(NumType target) {
        return target == NumType.BYTE ? -200.7 : target == NumType.SHORT ? -40000.5 : -69.235;
    }

    /** An example above the range that wraps: 200.7 for byte ((byte) 200.7f is -56), 40000.5 for short. */
    public static double exampleAbove(NumType target, boolean unsigned) {
        if (unsigned) return target == NumType.BYTE ? 300.5 : 70000.5;
        return target == NumType.BYTE ? 200.7 : target == NumType.SHORT ? 40000.5 : 70000.5;
    }

    /** The exact decimal value of a double, shortened to {@code digits} significant digits. */
    public static String exact(double v, int digits) {
        BigDecimal b = new BigDecimal(v);
        return b.round(new java.math.MathContext(digits)).stripTrailingZeros().toPlainString();
    }
}
