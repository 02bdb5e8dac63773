package dev.numlint.flags;

import dev.numlint.model.Location;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the C/C++/CUDA extensions a Python {@code setup.py} builds, without running it: {@code Extension(...)},
 * {@code CUDAExtension(...)} and {@code CppExtension(...)} calls (setuptools, torch.utils.cpp_extension) with their
 * {@code sources}, {@code define_macros}, {@code undef_macros}, {@code include_dirs} and {@code extra_compile_args}
 * (a list for the host compiler, or a dict with {@code nvcc} and {@code cxx}/{@code gcc} lists). Values may be
 * literals or names assigned at the top level of the file ({@code NAME = [...]}, {@code NAME += [...]},
 * {@code NAME.append(...)}, {@code NAME.extend(...)}, concatenations with {@code +}); only unconditional top-level
 * statements are followed: assignments inside {@code if} blocks or functions, and anything computed (a call, a
 * comprehension, an f-string), are unknown and dropped, with the extension marked "partly read". The file is
 * never executed; its size is bounded by the caller and the work here is linear in the tokens.
 */
final class SetupPyAudit {
    private SetupPyAudit() {}

    /** One extension: its name and line, its source paths (as written, with their lines) and its compiler flags. */
    record Ext(String name, int line, List<String> sources, List<FlagTok> flags, boolean partial) {}

    static final class Out {
        final List<Ext> extensions = new ArrayList<>();
        /** {file, line, level, message}, as the other build-file readers give them. */
        final List<String[]> problems = new ArrayList<>();
    }

    // ------------------------------------------------------------------ tokens

    private enum K {
        NAME,
        STR,
        NUM,
        OP,
        COMPUTED_STR
    }

    /** A token; {@code col0} tells a statement that starts in column 1 (the top level of the module). */
    private record Tok(K k, String s, int line, int col, boolean col0) {}

    private static List<Tok> lex(String t) {
        List<Tok> out = new ArrayList<>();
        int i = 0, n = t.length(), line = 1, lineStart = 0;
        while (i < n) {
            char c = t.charAt(i);
            if (c == '\n') {
                line++;
                i++;
                lineStart = i;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
                i++;
                continue;
            }
            if (c == '\\' && i + 1 < n && t.charAt(i + 1) == '\n') { // explicit line continuation
                i += 2;
                line++;
                lineStart = i;
                continue;
            }
            if (c == '#') {
                while (i < n && t.charAt(i) != '\n') i++;
                continue;
            }
            int col = i - lineStart + 1;
            boolean first = col == 1;
            if (Character.isLetter(c) || c == '_') {
                int j = i;
                while (j < n && (Character.isLetterOrDigit(t.charAt(j)) || t.charAt(j) == '_')) j++;
                String w = t.substring(i, j);
                // string prefixes: r, b, u, f and their pairs
                if (j < n
                        && (t.charAt(j) == '\'' || t.charAt(j) == '"')
                        && w.length() <= 2
                        && w.toLowerCase(Locale.ROOT).matches("[rbuf]+")) {
                    boolean computed = w.toLowerCase(Locale.ROOT).contains("f");
                    int[] end = new int[2];
                    String s = string(t, j, end);
                    line += end[1];
                    if (end[1] > 0) lineStart = t.lastIndexOf('\n', end[0] - 1) + 1;
                    out.add(new Tok(computed ? K.COMPUTED_STR : K.STR, s, line - end[1], col, first));
                    i = end[0];
                    continue;
                }
                out.add(new Tok(K.NAME, w, line, col, first));
                i = j;
                continue;
            }
            if (c == '\'' || c == '"') {
                int[] end = new int[2];
                String s = string(t, i, end);
                out.add(new Tok(K.STR, s, line, col, first));
                line += end[1];
                if (end[1] > 0) lineStart = t.lastIndexOf('\n', end[0] - 1) + 1;
                i = end[0];
                continue;
            }
            if (Character.isDigit(c)) {
                int j = i;
                while (j < n && (Character.isLetterOrDigit(t.charAt(j)) || t.charAt(j) == '.')) j++;
                out.add(new Tok(K.NUM, t.substring(i, j), line, col, first));
                i = j;
                continue;
            }
            if (c == '+' && i + 1 < n && t.charAt(i + 1) == '=') {
                out.add(new Tok(K.OP, "+=", line, col, first));
                i += 2;
                continue;
            }
            if (c == '=' && i + 1 < n && t.charAt(i + 1) == '=') {
                out.add(new Tok(K.OP, "==", line, col, first));
                i += 2;
                continue;
            }
            out.add(new Tok(K.OP, String.valueOf(c), line, col, first));
            i++;
        }
        return out;
    }

    /** The string literal starting at the quote {@code q}; end[0] = index after it, end[1] = newlines inside. */
    private static String string(String t, int q, int[] end) {
        char quote = t.charAt(q);
        boolean triple = q + 2 < t.length() && t.charAt(q + 1) == quote && t.charAt(q + 2) == quote;
        int i = q + (triple ? 3 : 1);
        StringBuilder sb = new StringBuilder();
        int nl = 0;
        while (i < t.length()) {
            char c = t.charAt(i);
            if (c == '\\' && i + 1 < t.length()) {
                sb.append(t.charAt(i + 1));
                if (t.charAt(i + 1) == '\n') nl++;
                i += 2;
                continue;
            }
            if (triple) {
                if (c == quote && i + 2 < t.length() && t.charAt(i + 1) == quote && t.charAt(i + 2) == quote) {
                    end[0] = i + 3;
                    end[1] = nl;
                    return sb.toString();
                }
            } else if (c == quote || c == '\n') {
                end[0] = c == quote ? i + 1 : i;
                end[1] = nl;
                return sb.toString();
            }
            if (c == '\n') nl++;
            sb.append(c);
            i++;
        }
        end[0] = i;
        end[1] = nl;
        return sb.toString();
    }

    // ------------------------------------------------------------------ values

    /** A value the reader understood: a string, a list or tuple, a dict, None, or unknown. */
    private static final class Val {
        static final Val UNKNOWN = new Val(null, null, null, false);
        static final Val NONE = new Val(null, null, null, true);
        final Tok str;
        final List<Val> items;
        final Map<String, Val> dict;
        final boolean none;

        Val(Tok str, List<Val> items, Map<String, Val> dict, boolean none) {
            this.str = str;
            this.items = items;
            this.dict = dict;
            this.none = none;
        }

        static Val list(List<Val> items) {
            return new Val(null, items, null, false);
        }

        boolean unknown() {
            return this == UNKNOWN;
        }
    }

    private static final int MAX_DEPTH = 32;
    private static final int MAX_ITEMS = 4096;

    private static final class P {
        final List<Tok> toks;
        final Map<String, Val> names = new HashMap<>();
        final String rel;
        final Out out;
        int i;
        boolean partial;

        P(List<Tok> toks, String rel, Out out) {
            this.toks = toks;
            this.rel = rel;
            this.out = out;
        }

        Tok peek(int k) {
            return i + k < toks.size() ? toks.get(i + k) : null;
        }

        boolean op(int k, String s) {
            Tok t = peek(k);
            return t != null && t.k() == K.OP && t.s().equals(s);
        }

        /** value := term ('+' term)* */
        Val value(int depth) {
            Val v = term(depth);
            while (op(0, "+")) {
                i++;
                Val w = term(depth);
                if (v.items != null && w.items != null) {
                    List<Val> all = new ArrayList<>(v.items);
                    all.addAll(w.items);
                    v = Val.list(all);
                } else {
                    v = Val.UNKNOWN;
                }
            }
            return v;
        }

        Val term(int depth) {
            Tok t = peek(0);
            if (t == null || depth > MAX_DEPTH) return Val.UNKNOWN;
            if (t.k() == K.STR) {
                i++;
                // implicit concatenation of adjacent literals
                StringBuilder sb = new StringBuilder(t.s());
                while (peek(0) != null && peek(0).k() == K.STR)
                    sb.append(toks.get(i++).s());
                return new Val(new Tok(K.STR, sb.toString(), t.line(), t.col(), false), null, null, false);
            }
            if (t.k() == K.NAME) {
                i++;
                if (t.s().equals("None")) return Val.NONE;
                // dotted name, call or subscript: computed
                boolean computed = false;
                while (op(0, ".") && peek(1) != null && peek(1).k() == K.NAME) {
                    i += 2;
                    computed = true;
                }
                if (op(0, "(") && t.s().endsWith("Extension") && depth < MAX_DEPTH) {
                    // an extension built where it is assigned or listed (ext = Extension(...))
                    i++;
                    boolean saved = partial;
                    extension(rel, t, this, out, depth + 1);
                    partial = saved;
                    return Val.UNKNOWN;
                }
                if (op(0, "(")) {
                    // a call: its first positional argument when it is a list (include_headers([...], ...))
                    i++;
                    Val first = Val.UNKNOWN;
                    if (!op(0, ")")) {
                        int save = i;
                        Val a = value(depth + 1);
                        if (a.items != null && (op(0, ",") || op(0, ")"))) first = a;
                        else i = save;
                    }
                    skipTo(")");
                    partial = true;
                    return first.items != null ? first : Val.UNKNOWN;
                }
                if (op(0, "[")) {
                    skipBracket();
                    partial = true;
                    return Val.UNKNOWN;
                }
                if (computed) {
                    partial = true;
                    return Val.UNKNOWN;
                }
                Val v = names.get(t.s());
                if (v == null) {
                    partial = true;
                    return Val.UNKNOWN;
                }
                return v;
            }
            if (t.k() == K.OP && (t.s().equals("[") || t.s().equals("("))) {
                String close = t.s().equals("[") ? "]" : ")";
                i++;
                List<Val> items = new ArrayList<>();
                while (peek(0) != null && !op(0, close)) {
                    if (peek(0).k() == K.NAME && peek(0).s().equals("for")) { // a comprehension
                        skipTo(close);
                        partial = true;
                        return Val.UNKNOWN;
                    }
                    int before = i;
                    Val v = value(depth + 1);
                    if (items.size() < MAX_ITEMS) items.add(v);
                    if (op(0, ",")) i++;
                    else if (!op(0, close)) {
                        skipTo(close);
                        partial = true;
                        return Val.UNKNOWN;
                    }
                    if (i == before) i++;
                }
                if (op(0, close)) i++;
                return Val.list(items);
            }
            if (t.k() == K.OP && t.s().equals("{")) {
                i++;
                Map<String, Val> d = new LinkedHashMap<>();
                while (peek(0) != null && !op(0, "}")) {
                    Tok key = peek(0);
                    int before = i;
                    if (key.k() == K.STR && op(1, ":")) {
                        i += 2;
                        d.put(key.s(), value(depth + 1));
                    } else {
                        skipTo("}");
                        partial = true;
                        return Val.UNKNOWN;
                    }
                    if (op(0, ",")) i++;
                    if (i == before) i++;
                }
                if (op(0, "}")) i++;
                return new Val(null, null, d, false);
            }
            if (t.k() == K.COMPUTED_STR || t.k() == K.NUM) {
                i++;
                partial = true;
                return Val.UNKNOWN;
            }
            return Val.UNKNOWN;
        }

        /** Skips to just after the matching {@code close} of the bracket already entered. */
        void skipTo(String close) {
            int depth = 0;
            while (i < toks.size()) {
                Tok t = toks.get(i++);
                if (t.k() != K.OP) continue;
                switch (t.s()) {
                    case "(", "[", "{" -> depth++;
                    case ")", "]", "}" -> {
                        if (depth == 0) return;
                        depth--;
                    }
                    default -> {}
                }
            }
        }

        void skipBracket() {
            i++; // the opening bracket
            skipTo("]");
        }
    }

    // ------------------------------------------------------------------ the module

    static Out audit(String rel, String text) {
        Out out = new Out();
        List<Tok> toks = lex(text);
        P p = new P(toks, rel, out);
        int n = toks.size();
        while (p.i < n) {
            Tok t = toks.get(p.i);
            // unconditional top-level statements: NAME = value, NAME += value, NAME.append(x), NAME.extend(list)
            if (t.col0() && t.k() == K.NAME) {
                if (p.op(1, "=") && !p.op(2, "=")) {
                    p.i += 2;
                    p.names.put(t.s(), p.value(0));
                    continue;
                }
                if (p.op(1, "+=")) {
                    p.i += 2;
                    Val add = p.value(0);
                    Val old = p.names.get(t.s());
                    p.names.put(
                            t.s(),
                            old != null && old.items != null && add.items != null
                                    ? Val.list(concat(old.items, add.items))
                                    : Val.UNKNOWN);
                    continue;
                }
                if (p.op(1, ".")
                        && p.peek(2) != null
                        && (p.peek(2).s().equals("append") || p.peek(2).s().equals("extend"))
                        && p.op(3, "(")) {
                    boolean append = p.peek(2).s().equals("append");
                    p.i += 4;
                    Val arg = p.value(0);
                    p.skipTo(")");
                    Val old = p.names.get(t.s());
                    if (old != null && old.items != null && (append || arg.items != null)) {
                        p.names.put(t.s(), Val.list(concat(old.items, append ? List.of(arg) : arg.items)));
                    } else {
                        p.names.put(t.s(), Val.UNKNOWN);
                    }
                    continue;
                }
            }
            // an extension anywhere: [a.b.]Extension / CUDAExtension / CppExtension ( ... )
            if (t.k() == K.NAME && t.s().endsWith("Extension") && p.op(1, "(") && !prevIsDef(toks, p.i)) {
                p.i += 2;
                extension(rel, t, p, out, 0);
                continue;
            }
            p.i++;
        }
        return out;
    }

    private static boolean prevIsDef(List<Tok> toks, int i) {
        if (i == 0) return false;
        Tok prev = toks.get(i - 1);
        return prev.k() == K.NAME && (prev.s().equals("def") || prev.s().equals("class"))
                || prev.k() == K.OP
                        && prev.s().equals(".")
                        && i >= 2
                        && toks.get(i - 2).s().equals("self");
    }

    private static List<Val> concat(List<Val> a, List<Val> b) {
        List<Val> r = new ArrayList<>(a);
        for (Val v : b) if (r.size() < MAX_ITEMS) r.add(v);
        return r;
    }

    private static void extension(String rel, Tok call, P p, Out out, int depth) {
        p.partial = false;
        String name = null;
        Map<String, Val> kw = new LinkedHashMap<>();
        List<Val> positional = new ArrayList<>();
        while (p.peek(0) != null && !p.op(0, ")")) {
            int before = p.i;
            if (p.peek(0).k() == K.NAME && p.op(1, "=") && !p.op(2, "=")) {
                String k = p.peek(0).s();
                p.i += 2;
                kw.put(k, p.value(depth + 1));
            } else if (p.op(0, "*")) { // *args / **kwargs: unknown
                p.i++;
                if (p.op(0, "*")) p.i++;
                p.value(depth + 1);
                p.partial = true;
            } else {
                positional.add(p.value(depth + 1));
            }
            if (p.op(0, ",")) p.i++;
            else if (!p.op(0, ")")) {
                p.skipTo(")");
                p.partial = true;
                p.i--; // stand on the ')'
            }
            if (p.i == before) p.i++;
        }
        if (p.op(0, ")")) p.i++;
        if (!positional.isEmpty() && positional.get(0).str != null)
            name = positional.get(0).str.s();
        else if (kw.containsKey("name") && kw.get("name").str != null)
            name = kw.get("name").str.s();
        Val sourcesVal =
                kw.containsKey("sources") ? kw.get("sources") : positional.size() > 1 ? positional.get(1) : null;
        List<String> sources = new ArrayList<>();
        strings(sourcesVal, sources, null);
        if (sources.isEmpty()) return; // not a build of sources we can see
        String via = "setup.py " + call.s() + "(" + (name == null ? "" : name) + ")";
        List<FlagTok> flags = new ArrayList<>();
        Val macros = kw.get("define_macros");
        if (macros != null && macros.items != null) {
            for (Val m : macros.items) {
                if (m.items == null || m.items.isEmpty() || m.items.get(0).str == null) {
                    p.partial = true;
                    continue;
                }
                Tok nameTok = m.items.get(0).str;
                Val value = m.items.size() > 1 ? m.items.get(1) : Val.NONE;
                String def = value.none
                        ? "-D" + nameTok.s()
                        : value.str != null ? "-D" + nameTok.s() + "=" + value.str.s() : null;
                if (def == null) {
                    p.partial = true;
                    continue;
                }
                flags.add(tok(def, rel, nameTok, FlagTok.Lang.ANY, via));
            }
        } else if (macros != null) p.partial = true;
        List<Tok> undef = new ArrayList<>();
        stringsTok(kw.get("undef_macros"), undef);
        for (Tok u : undef) flags.add(tok("-U" + u.s(), rel, u, FlagTok.Lang.ANY, via));
        List<Tok> incs = new ArrayList<>();
        stringsTok(kw.get("include_dirs"), incs);
        for (Tok d : incs) flags.add(tok("-I" + d.s(), rel, d, FlagTok.Lang.ANY, via));
        Val extra = kw.get("extra_compile_args");
        if (extra != null && extra.dict != null) {
            for (Map.Entry<String, Val> e : extra.dict.entrySet()) {
                String k = e.getKey().toLowerCase(Locale.ROOT);
                FlagTok.Lang lang = k.equals("nvcc")
                        ? FlagTok.Lang.CUDA
                        : k.equals("cxx") || k.equals("gcc") || k.equals("cc") || k.equals("c++")
                                ? FlagTok.Lang.HOST
                                : null;
                if (lang == null) continue;
                List<Tok> ts = new ArrayList<>();
                stringsTok(e.getValue(), ts);
                for (Tok a : ts) flags.add(tok(a.s(), rel, a, lang, via));
            }
        } else if (extra != null && extra.items != null) {
            List<Tok> ts = new ArrayList<>();
            stringsTok(extra, ts);
            for (Tok a : ts) flags.add(tok(a.s(), rel, a, FlagTok.Lang.HOST, via));
        } else if (extra != null) p.partial = true;
        out.extensions.add(new Ext(name, call.line(), sources, flags, p.partial));
    }

    private static FlagTok tok(String text, String rel, Tok at, FlagTok.Lang lang, String via) {
        return new FlagTok(text, Location.of(rel, at.line(), at.col()), lang, null, via);
    }

    private static void strings(Val v, List<String> out, List<Tok> toks) {
        if (v == null || v.unknown()) return;
        if (v.str != null) {
            out.add(v.str.s());
            if (toks != null) toks.add(v.str);
        } else if (v.items != null) {
            for (Val x : v.items) strings(x, out, toks);
        }
    }

    private static void stringsTok(Val v, List<Tok> toks) {
        strings(v, new ArrayList<>(), toks);
    }
}
