package dev.numlint.cuda;

/** Numeric literal helpers. */
final class Literals {
    private Literals() {
    }

    /** Value of an integer or floating literal, or null. */
    static Double value(String text) {
        String s = text.replace("'", "");
        try {
            if (s.startsWith("0x") || s.startsWith("0X")) {
                if (s.contains("p") || s.contains("P")) return Double.parseDouble(s.replaceAll("[fFlL]$", ""));
                return (double) Long.parseLong(s.substring(2).replaceAll("[uUlLzZ]+$", ""), 16);
            }
            if (s.matches("[0-9.]+([eE][+-]?[0-9]+)?[fFlL]?")) {
                return Double.parseDouble(s.replaceAll("[fFlL]$", ""));
            }
            String n = s.replaceAll("[uUlLzZ]+$", "");
            if (n.matches("0[0-7]+")) return (double) Long.parseLong(n, 8);
            if (n.matches("[0-9]+")) return Double.parseDouble(n);
        } catch (NumberFormatException e) {
            return null;
        }
        return null;
    }

    /** Type of a literal token text. */
    static CType type(String text, boolean floating) {
        if (floating) {
            char last = text.charAt(text.length() - 1);
            if (last == 'f' || last == 'F') return CType.FLOAT;
            if (last == 'l' || last == 'L') return CType.LONG_DOUBLE;
            return CType.DOUBLE;
        }
        String suf = text.replaceAll("^.*?([uUlLzZ]*)$", "$1").toLowerCase(java.util.Locale.ROOT);
        boolean u = suf.contains("u");
        int l = suf.length() - (u ? 1 : 0);
        if (suf.contains("z")) return u ? CType.ULONG.alias("size_t") : CType.LONG;
        if (l >= 2) return u ? CType.ULLONG : CType.LLONG;
        if (l == 1) return u ? CType.ULONG : CType.LONG;
        return u ? CType.UINT : CType.INT;
    }
}
