package dev.numlint.flags;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Evaluates the generator expressions of one compile-option list element far enough to know which compiler gets
 * the option and under which condition: {@code $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math>} is a CUDA option,
 * {@code $<$<CONFIG:Release>:-O3>} applies to Release builds only, {@code $<AND:...>} combines both,
 * {@code $<BUILD_INTERFACE:...>} passes its content, {@code $<0:...>} removes it. Expressions whose value depends
 * on target properties cannot be evaluated here; they stay in the text and the option is skipped.
 */
final class GenexEval {
    record Piece(PosText text, FlagTok.Lang lang, String condition) {}

    private record Cond(FlagTok.Lang lang, String condition, boolean never) {
        static final Cond ALWAYS = new Cond(FlagTok.Lang.ANY, null, false);

        Cond and(Cond o) {
            FlagTok.Lang l = lang == FlagTok.Lang.ANY ? o.lang : lang;
            String c = condition == null
                    ? o.condition
                    : o.condition == null ? condition : condition + " and " + o.condition;
            return new Cond(l, c, never || o.never);
        }
    }

    private GenexEval() {}

    /**
     * The option(s) in {@code elem}; a conditional expression's content may itself be a ';'-list of options.
     *
     * @param outer condition of the enclosing block (if()), or null
     */
    static List<Piece> eval(PosText elem, String outer) {
        return eval(elem, outer, null);
    }

    /**
     * As {@link #eval(PosText, String)}, with the build's configuration known: {@code $<CONFIG:X>} is then decided
     * (a match applies unconditionally; another configuration's branch keeps a condition that names the build's).
     *
     * @param config the value of {@code CMAKE_BUILD_TYPE} the analyzed build uses, or null when unknown
     */
    static List<Piece> eval(PosText elem, String outer, String config) {
        List<Piece> out = new ArrayList<>();
        if (elem.text.indexOf("$<") < 0) {
            out.add(new Piece(elem, FlagTok.Lang.ANY, outer));
            return out;
        }
        Cond c0 = new Cond(FlagTok.Lang.ANY, outer, false);
        PosText.Builder text = new PosText.Builder();
        Cond acc = c0;
        int i = 0;
        int n = elem.length();
        while (i < n) {
            if (elem.text.startsWith("$<", i)) {
                int close = match(elem.text, i);
                if (close < 0) break;
                PosText inner = elem.sub(i + 2, close);
                int colon = topLevel(inner.text, ':');
                if (colon > 0 && inner.text.startsWith("$<")) {
                    // $<condition:content>
                    Cond c = cond(inner.text.substring(0, colon), config);
                    if (c.never) {
                        i = close + 1;
                        continue;
                    }
                    acc = acc.and(c);
                    text.append(nested(inner.sub(colon + 1), acc, config));
                } else {
                    String head = colon > 0 ? inner.text.substring(0, colon) : inner.text;
                    switch (head) {
                        case "1", "BUILD_INTERFACE", "BUILD_LOCAL_INTERFACE", "LINK_ONLY", "COMPILE_ONLY" -> text
                                .append(nested(inner.sub(colon + 1), acc, config));
                        case "0", "INSTALL_INTERFACE" -> {
                            // removed
                        }
                        default -> text.append(elem.sub(i, close + 1)); // cannot evaluate: keep, the option is skipped
                    }
                }
                i = close + 1;
                continue;
            }
            text.append(elem, i);
            i++;
        }
        PosText t = text.build();
        for (PosText p : t.splitList()) {
            out.add(new Piece(p, acc.lang, acc.condition));
        }
        return out;
    }

    /** Content of a conditional expression: may contain further expressions (their conditions are ignored). */
    private static PosText nested(PosText content, Cond acc, String config) {
        if (content.text.indexOf("$<") < 0) return content;
        List<Piece> ps = eval(content, acc.condition, config);
        PosText.Builder b = new PosText.Builder();
        for (int k = 0; k < ps.size(); k++) {
            if (k > 0) b.appendSynthetic(';');
            b.append(ps.get(k).text());
        }
        return b.build();
    }

    /** Index of the '>' closing the expression that starts at {@code start} ("$<"). */
    static int match(String s, int start) {
        int depth = 0;
        for (int i = start; i < s.length(); i++) {
            if (s.startsWith("$<", i)) {
                depth++;
                i++;
            } else if (s.charAt(i) == '>' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static int topLevel(String s, char ch) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.startsWith("$<", i)) {
                depth++;
                i++;
            } else if (s.charAt(i) == '>') {
                depth--;
            } else if (s.charAt(i) == ch && depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static List<String> splitTop(String s, char ch) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.startsWith("$<", i)) {
                depth++;
                i++;
            } else if (s.charAt(i) == '>') {
                depth--;
            } else if (s.charAt(i) == ch && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    /** Evaluates a condition expression "$<...>" (or 0/1). */
    private static Cond cond(String g, String config) {
        g = g.trim();
        if (g.equals("1")) return Cond.ALWAYS;
        if (g.equals("0")) return new Cond(FlagTok.Lang.ANY, null, true);
        if (!g.startsWith("$<") || !g.endsWith(">")) return new Cond(FlagTok.Lang.ANY, "'" + g + "'", false);
        String inner = g.substring(2, g.length() - 1);
        int colon = topLevel(inner, ':');
        String name = colon < 0 ? inner : inner.substring(0, colon);
        String arg = colon < 0 ? "" : inner.substring(colon + 1);
        switch (name) {
            case "COMPILE_LANGUAGE", "COMPILE_LANG_AND_ID" -> {
                List<String> langs = splitTop(arg, ',');
                if (name.equals("COMPILE_LANG_AND_ID")) langs = langs.subList(0, 1);
                boolean cuda = false;
                boolean host = false;
                for (String l : langs) {
                    String u = l.trim().toUpperCase(Locale.ROOT);
                    if (u.equals("CUDA")) cuda = true;
                    else if (u.equals("CXX") || u.equals("C") || u.equals("OBJC") || u.equals("OBJCXX")) host = true;
                }
                if (cuda && !host) return new Cond(FlagTok.Lang.CUDA, null, false);
                if (host && !cuda) return new Cond(FlagTok.Lang.HOST, null, false);
                if (host) return Cond.ALWAYS;
                return new Cond(FlagTok.Lang.ANY, null, true); // another language (Fortran, HIP, ...)
            }
            case "AND" -> {
                Cond c = Cond.ALWAYS;
                for (String part : splitTop(arg, ',')) c = c.and(cond(part, config));
                return c;
            }
            case "NOT" -> {
                Cond c = cond(arg, config);
                if (c.equals(Cond.ALWAYS)) {
                    // not the analyzed configuration: another build's option, kept with its condition (a note)
                    return arg.contains("$<CONFIG:") && config != null
                            ? new Cond(FlagTok.Lang.ANY, "'" + g + "' (this build is " + config + ")", false)
                            : new Cond(FlagTok.Lang.ANY, null, true);
                }
                if (c.never) return Cond.ALWAYS;
                return new Cond(FlagTok.Lang.ANY, "'" + g + "'", false);
            }
            case "CONFIG" -> {
                if (config == null) return new Cond(FlagTok.Lang.ANY, "the " + arg + " configuration", false);
                // $<CONFIG:cfgs> (CMake 3.19+: a comma-separated list) compares case-insensitively
                for (String c : arg.split(",", -1)) {
                    if (c.trim().equalsIgnoreCase(config)) return Cond.ALWAYS;
                }
                return new Cond(
                        FlagTok.Lang.ANY, "the " + arg + " configuration (this build is " + config + ")", false);
            }
            default -> {
                return new Cond(FlagTok.Lang.ANY, "'" + g + "'", false);
            }
        }
    }
}
