package dev.numlint.util;

/**
 * Minimal Itanium demangling for messages: {@code _Z1kPKfPtPfiPd} gives {@code k}, {@code _ZN2ns6kernelEv} gives
 * {@code ns::kernel}, template arguments are left out. Anything it does not understand is returned unchanged.
 */
public final class Demangler {
    private Demangler() {}

    public static String simpleName(String mangled) {
        if (mangled == null || !mangled.startsWith("_Z")) return mangled;
        try {
            int i = 2;
            if (i < mangled.length() && mangled.charAt(i) == 'L') i++;
            if (mangled.charAt(i) == 'N') {
                i++;
                StringBuilder sb = new StringBuilder();
                while (i < mangled.length() && mangled.charAt(i) != 'E') {
                    char c = mangled.charAt(i);
                    if (c == 'K' || c == 'V' || c == 'r') {
                        i++;
                        continue;
                    }
                    if (c == 'I') return sb.length() == 0 ? mangled : sb.toString();
                    if (!Character.isDigit(c)) return sb.length() == 0 ? mangled : sb.toString();
                    int j = i;
                    while (Character.isDigit(mangled.charAt(j))) j++;
                    int len = Integer.parseInt(mangled.substring(i, j));
                    if (sb.length() > 0) sb.append("::");
                    sb.append(mangled, j, j + len);
                    i = j + len;
                }
                return sb.length() == 0 ? mangled : sb.toString();
            }
            int j = i;
            while (j < mangled.length() && Character.isDigit(mangled.charAt(j))) j++;
            if (j == i) return mangled;
            int len = Integer.parseInt(mangled.substring(i, j));
            return mangled.substring(j, j + len);
        } catch (RuntimeException e) {
            return mangled;
        }
    }

    /** Itanium's codes of builtin types, as C++ writes them. */
    private static final java.util.Map<Character, String> BUILTIN = java.util.Map.ofEntries(
            java.util.Map.entry('v', "void"),
            java.util.Map.entry('b', "bool"),
            java.util.Map.entry('c', "char"),
            java.util.Map.entry('a', "signed char"),
            java.util.Map.entry('h', "unsigned char"),
            java.util.Map.entry('s', "short"),
            java.util.Map.entry('t', "unsigned short"),
            java.util.Map.entry('i', "int"),
            java.util.Map.entry('j', "unsigned int"),
            java.util.Map.entry('l', "long"),
            java.util.Map.entry('m', "unsigned long"),
            java.util.Map.entry('x', "long long"),
            java.util.Map.entry('y', "unsigned long long"),
            java.util.Map.entry('f', "float"),
            java.util.Map.entry('d', "double"),
            java.util.Map.entry('e', "long double"));

    /**
     * The template arguments of the first template in {@code mangled}'s name when each is a builtin type (a pointer
     * or const one too) or an integer literal: {@code _ZN3Hex7kernelIiEEvPKT_} gives {@code int},
     * {@code _Z4tileILi16EfEvPf} gives {@code 16, float}; null for anything else (a class type, a substitution).
     */
    public static String templateArguments(String mangled) {
        if (mangled == null || !mangled.startsWith("_Z")) return null;
        int open = -1;
        // the first 'I' that follows a name (its length-prefixed identifier), not a character inside an identifier
        for (int i = 2; i < mangled.length(); ) {
            char c = mangled.charAt(i);
            if (Character.isDigit(c)) {
                int j = i;
                while (j < mangled.length() && Character.isDigit(mangled.charAt(j))) j++;
                i = j + Integer.parseInt(mangled.substring(i, j));
                if (i < mangled.length() && mangled.charAt(i) == 'I') {
                    open = i + 1;
                    break;
                }
            } else if (c == 'N' || c == 'L' || c == 'K' || c == 'V') i++;
            else return null;
        }
        if (open < 0) return null;
        java.util.List<String> args = new java.util.ArrayList<>();
        int i = open;
        while (i < mangled.length() && mangled.charAt(i) != 'E') {
            char c = mangled.charAt(i);
            if (c == 'L') {
                int j = i + 1;
                if (j >= mangled.length() || !BUILTIN.containsKey(mangled.charAt(j))) return null;
                j++;
                boolean negative = j < mangled.length() && mangled.charAt(j) == 'n';
                if (negative) j++;
                int k = j;
                while (k < mangled.length() && Character.isDigit(mangled.charAt(k))) k++;
                if (k == j || k >= mangled.length() || mangled.charAt(k) != 'E') return null;
                args.add((negative ? "-" : "") + mangled.substring(j, k));
                i = k + 1;
                continue;
            }
            StringBuilder suffix = new StringBuilder();
            String qualifier = "";
            while (c == 'P' || c == 'K') {
                if (c == 'P') suffix.insert(0, "*");
                else qualifier = "const ";
                if (++i >= mangled.length()) return null;
                c = mangled.charAt(i);
            }
            String t = BUILTIN.get(c);
            if (t == null) return null;
            args.add(qualifier + t + suffix);
            i++;
        }
        return i < mangled.length() && !args.isEmpty() ? String.join(", ", args) : null;
    }
}
