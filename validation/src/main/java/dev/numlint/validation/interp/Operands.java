package dev.numlint.validation.interp;

/** Literal parsing for PTX operands and initializers. */
final class Operands {
    private Operands() {}

    static boolean isLiteral(String t) {
        if (t.isEmpty()) return false;
        char c = t.charAt(0);
        return Character.isDigit(c)
                || c == '-'
                || c == '+'
                || (c == '.' && t.length() > 1 && Character.isDigit(t.charAt(1)));
    }

    /** The bit pattern of a literal used as an operand of the given instruction type. */
    static long literalBits(String v, String type) {
        String t = v.trim();
        boolean neg = false;
        if (t.startsWith("-")) {
            neg = true;
            t = t.substring(1).trim();
        } else if (t.startsWith("+")) t = t.substring(1).trim();
        String lower = t.toLowerCase();
        boolean floatType = type.equals("f32") || type.equals("f64");
        if (lower.startsWith("0f") && t.length() == 10) {
            float f = Float.intBitsToFloat((int) Long.parseLong(t.substring(2), 16));
            if (neg) f = -f;
            return type.equals("f64") ? Double.doubleToRawLongBits(f) : Float.floatToRawIntBits(f) & 0xFFFFFFFFL;
        }
        if (lower.startsWith("0d") && t.length() == 18) {
            double d = Double.longBitsToDouble(Long.parseUnsignedLong(t.substring(2), 16));
            if (neg) d = -d;
            return type.equals("f32")
                    ? Float.floatToRawIntBits((float) d) & 0xFFFFFFFFL
                    : Double.doubleToRawLongBits(d);
        }
        boolean isFloatText =
                !lower.startsWith("0x") && (lower.contains(".") || lower.contains("e")) && !lower.startsWith("0b");
        if (isFloatText) {
            double d = Double.parseDouble(t);
            if (neg) d = -d;
            if (type.equals("f32")) return Float.floatToRawIntBits((float) d) & 0xFFFFFFFFL;
            if (type.equals("f64")) return Double.doubleToRawLongBits(d);
            return (long) d;
        }
        if (lower.endsWith("u")) lower = lower.substring(0, lower.length() - 1);
        long x;
        if (lower.startsWith("0x")) x = Long.parseUnsignedLong(lower.substring(2), 16);
        else if (lower.startsWith("0b")) x = Long.parseUnsignedLong(lower.substring(2), 2);
        else if (lower.length() > 1 && lower.startsWith("0")) x = Long.parseUnsignedLong(lower.substring(1), 8);
        else x = Long.parseUnsignedLong(lower);
        if (neg) x = -x;
        if (floatType) { // an integer literal used as a float operand
            return type.equals("f32")
                    ? Float.floatToRawIntBits((float) x) & 0xFFFFFFFFL
                    : Double.doubleToRawLongBits((double) x);
        }
        return x;
    }
}
