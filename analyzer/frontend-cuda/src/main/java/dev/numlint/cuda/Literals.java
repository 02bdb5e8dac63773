package dev.numlint.cuda;

/** Numeric literal helpers. */
final class Literals {
    private Literals() {}

    /** Value of an integer or floating literal, or null. */
    static Double value(String text) {
        String s = text.indexOf('\'') >= 0 ? text.replace("'", "") : text;
        try {
            boolean hex = s.startsWith("0x") || s.startsWith("0X");
            boolean floating = !hex && (s.indexOf('.') >= 0 || s.indexOf('e') >= 0 || s.indexOf('E') >= 0);
            if (hex && (s.indexOf('p') >= 0 || s.indexOf('P') >= 0)) floating = true;
            if (floating) {
                int end = s.length();
                char last = s.charAt(end - 1);
                if (last == 'f' || last == 'F' || last == 'l' || last == 'L') end--;
                return Double.parseDouble(s.substring(0, end));
            }
            int end = s.length();
            while (end > 0 && "uUlLzZ".indexOf(s.charAt(end - 1)) >= 0) end--;
            if (!hex && end > 0 && (s.charAt(end - 1) == 'f' || s.charAt(end - 1) == 'F')) end--;
            String n = s.substring(0, end);
            if (hex) return (double) Long.parseLong(n.substring(2), 16);
            if (n.length() > 1 && n.charAt(0) == '0') return (double) Long.parseLong(n, 8);
            return Double.parseDouble(n);
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            return null;
        }
    }

    /** The suffixes C and C++ give numbers (lower case): the floating ones, and u, l, ll, z in either order. */
    private static final java.util.regex.Pattern STANDARD_SUFFIX =
            java.util.regex.Pattern.compile("f|l|f16|f32|f64|f128|bf16|(u(l|ll|z)?|(l|ll|z)u?)?");

    /**
     * Whether a number's text carries a user-defined literal's suffix ({@code 1.0_rr}, {@code 10_km}, the standard
     * library's {@code 2.0i} or {@code 5min}): its type is what the literal operator returns, not the number's.
     */
    static boolean userDefined(String text) {
        String s = text.replace("'", "");
        if (s.indexOf('_') >= 0) return true;
        if (s.startsWith("0x") || s.startsWith("0X") || s.startsWith("0b") || s.startsWith("0B")) return false;
        int i = 0;
        int n = s.length();
        while (i < n && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) i++;
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < n && (s.charAt(j) == '+' || s.charAt(j) == '-')) j++;
            if (j < n && Character.isDigit(s.charAt(j))) {
                i = j;
                while (i < n && Character.isDigit(s.charAt(i))) i++;
            }
        }
        return !STANDARD_SUFFIX
                .matcher(s.substring(i).toLowerCase(java.util.Locale.ROOT))
                .matches();
    }

    /** Type of a literal token text ({@link CType#UNKNOWN} for a user-defined literal). */
    static CType type(String text, boolean floating) {
        if (userDefined(text)) return CType.UNKNOWN;
        if (floating) {
            String lower = text.toLowerCase(java.util.Locale.ROOT);
            if (lower.endsWith("f16") || lower.endsWith("bf16")) return CType.HALF;
            if (lower.endsWith("f32")) return CType.FLOAT;
            if (lower.endsWith("f64")) return CType.DOUBLE;
            char last = text.charAt(text.length() - 1);
            if (last == 'f' || last == 'F') return CType.FLOAT;
            if (last == 'l' || last == 'L') return CType.LONG_DOUBLE;
            return CType.DOUBLE;
        }
        int st = text.length();
        while (st > 0 && "uUlLzZ".indexOf(text.charAt(st - 1)) >= 0) st--;
        String suf = text.substring(st).toLowerCase(java.util.Locale.ROOT);
        boolean u = suf.contains("u");
        int l = suf.length() - (u ? 1 : 0);
        if (suf.contains("z")) return u ? CType.ULONG.alias("size_t") : CType.LONG;
        if (l >= 2) return u ? CType.ULLONG : CType.LLONG;
        if (l == 1) return u ? CType.ULONG : CType.LONG;
        return u ? CType.UINT : CType.INT;
    }
}
