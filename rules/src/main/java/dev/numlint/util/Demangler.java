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
}
