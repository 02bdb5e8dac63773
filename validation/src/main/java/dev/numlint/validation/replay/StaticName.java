package dev.numlint.validation.replay;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names nvcc gives static symbols (a {@code static __global__} kernel, a {@code static __constant__} table) of a unit
 * compiled for separate compilation ({@code -rdc=true}): {@code __nv_static_<n>__<n characters naming the module>}
 * followed by the symbol's own name, e.g. {@code __nv_static_25__bac190ea_4_k_cu_d589cb60__Z4kernPf} for
 * {@code _Z4kernPf} of {@code k.cu}. The module part is derived from the file as the command names it, so a rebuild
 * from another directory or path spelling names the same kernel differently.
 */
final class StaticName {
    private StaticName() {}

    private static final Pattern STATIC = Pattern.compile("^__nv_static_(\\d{1,4})__");

    /** The module prefix of a static name ({@code __nv_static_25__bac190ea_4_k_cu_d589cb60_}), or null. */
    static String prefix(String name) {
        Matcher m = STATIC.matcher(name);
        if (!m.find()) return null;
        int end = m.end() + Integer.parseInt(m.group(1));
        return end < name.length() ? name.substring(0, end) : null;
    }

    /** The symbol's own name ({@code _Z4kernPf}); the name itself when it is not a static name. */
    static String base(String name) {
        String p = prefix(name);
        return p == null ? name : name.substring(p.length());
    }

    /**
     * The entry of {@code ptx} that is {@code kernel}: the same name, or, for a static kernel, the entry with the same
     * own name under another module prefix (only when exactly one such entry exists); null when none.
     */
    static String entryFor(String kernel, String ptx) {
        Matcher m = Pattern.compile("\\.entry\\s+([\\w$.]+)\\s*\\(").matcher(ptx);
        String other = null;
        int others = 0;
        String base = prefix(kernel) == null ? null : base(kernel);
        while (m.find()) {
            String e = m.group(1);
            if (e.equals(kernel)) return e;
            if (base != null && prefix(e) != null && base(e).equals(base)) {
                other = e;
                others++;
            }
        }
        return others == 1 ? other : null;
    }
}
