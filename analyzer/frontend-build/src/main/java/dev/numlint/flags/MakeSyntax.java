package dev.numlint.flags;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The syntax of a Makefile, apart from what evaluating it means: logical lines (backslash continuations), comments,
 * assignments and their operators, the colon of a rule, words, {@code %} patterns, the arguments of a conditional
 * and of a function call, balanced {@code $(...)} references, and the commands of a recipe line. Pure functions of
 * the text, for {@link MakefileAudit}.
 */
final class MakeSyntax {
    /** The extensions of the source files a compile command compiles. */
    static final Set<String> SOURCE_EXT = Set.of("cu", "c", "cc", "cpp", "cxx", "C", "c++");

    private MakeSyntax() {}

    /** Logical lines: backslash-newline joins physical lines (the pair becomes one space). */
    static List<PosText> logicalLines(String text, int fi) {
        List<PosText> lines = new ArrayList<>();
        int n = text.length();
        int lineNo = 1;
        int i = 0;
        PosText.Builder b = null;
        while (i <= n) {
            int e = text.indexOf('\n', i);
            if (e < 0) e = n;
            int end = e > i && text.charAt(e - 1) == '\r' ? e - 1 : e;
            if (b == null) b = new PosText.Builder();
            int trailing = 0;
            for (int k = end - 1; k >= i && text.charAt(k) == '\\'; k--) trailing++;
            boolean cont = trailing % 2 == 1 && e < n;
            int bodyEnd = cont ? end - 1 : end;
            for (int k = i; k < bodyEnd; k++) b.append(text.charAt(k), fi, lineNo, k - i + 1, false);
            if (cont) {
                b.appendSynthetic(' ');
            } else {
                lines.add(b.build());
                b = null;
            }
            lineNo++;
            i = e + 1;
        }
        return lines;
    }

    static String firstWord(String t) {
        int i = 0;
        while (i < t.length() && !Character.isWhitespace(t.charAt(i)) && t.charAt(i) != '(') i++;
        return t.substring(0, i);
    }

    static PosText stripComment(PosText line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                i++;
            } else if (c == '#') {
                return line.sub(0, i);
            }
        }
        return line;
    }

    static boolean isAssignment(PosText code) {
        return parseAssignment(code) != null;
    }

    /** {name, op, value, override} of "[override|export|private]* NAME op value", or null. A linear scan. */
    static Object[] parseAssignment(PosText code) {
        String s = code.text;
        int n = s.length();
        int i = 0;
        boolean override = false;
        while (true) {
            while (i < n && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
            int ws = i;
            while (i < n && Character.isLetter(s.charAt(i))) i++;
            String w = s.substring(ws, i);
            if ((w.equals("override") || w.equals("export") || w.equals("private"))
                    && i < n
                    && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                override |= w.equals("override");
                continue;
            }
            i = ws;
            break;
        }
        int ns = i;
        while (i < n) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == ':' || c == '#' || c == '=' || c == '?' || c == '+' || c == '!') break;
            if (c == '$') return null; // computed variable names are not supported
            i++;
        }
        if (i == ns) return null;
        String name = s.substring(ns, i);
        while (i < n && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
        String op = null;
        for (String o : new String[] {":::=", "::=", ":=", "?=", "+=", "!=", "="}) {
            if (s.startsWith(o, i)) {
                op = o;
                break;
            }
        }
        if (op == null) return null;
        PosText value = code.sub(i + op.length()).trim();
        return new Object[] {name, op, value, override};
    }

    /** Index of the ':' that separates targets from prerequisites (outside $(...)), or -1. */
    static int ruleColon(String s) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '$' && i + 1 < s.length() && (s.charAt(i + 1) == '(' || s.charAt(i + 1) == '{')) {
                depth++;
                i++;
            } else if ((c == ')' || c == '}') && depth > 0) {
                depth--;
            } else if (c == ':' && depth == 0) {
                if (i + 1 < s.length() && s.charAt(i + 1) == '=') return -1;
                return i;
            }
        }
        return -1;
    }

    static int indexOutsideRefs(String s, char c) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '$' && i + 1 < s.length() && (s.charAt(i + 1) == '(' || s.charAt(i + 1) == '{')) {
                depth++;
                i++;
            } else if ((ch == ')' || ch == '}') && depth > 0) {
                depth--;
            } else if (ch == c && depth == 0) {
                return i;
            }
        }
        return -1;
    }

    static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        int n = s.length();
        int i = 0;
        while (i < n) {
            while (i < n && Character.isWhitespace(s.charAt(i))) i++;
            int st = i;
            while (i < n && !Character.isWhitespace(s.charAt(i))) i++;
            if (i > st) out.add(s.substring(st, i));
        }
        return out;
    }

    /** The stem when {@code target} matches {@code pattern} (one '%'), else null. */
    static String match(String pattern, String target) {
        int p = pattern.indexOf('%');
        if (p < 0) return pattern.equals(target) ? "" : null;
        String pre = pattern.substring(0, p);
        String suf = pattern.substring(p + 1);
        if (target.length() < pre.length() + suf.length() || !target.startsWith(pre) || !target.endsWith(suf)) {
            return null;
        }
        return target.substring(pre.length(), target.length() - suf.length());
    }

    /** The two arguments of "(a,b)" or "'a' "b"". */
    static String[] condArgs(String rest) {
        if (rest.startsWith("(")) {
            int depth = 0;
            int comma = -1;
            int close = -1;
            for (int i = 0; i < rest.length(); i++) {
                char c = rest.charAt(i);
                if (c == '(') depth++;
                else if (c == ')') {
                    if (--depth == 0) {
                        close = i;
                        break;
                    }
                } else if (c == ',' && depth == 1 && comma < 0) comma = i;
            }
            if (comma < 0 || close < 0) return null;
            return new String[] {
                rest.substring(1, comma).trim(),
                rest.substring(comma + 1, close).trim()
            };
        }
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (i < rest.length() && parts.size() < 2) {
            char q = rest.charAt(i);
            if (q == '"' || q == '\'') {
                int e = rest.indexOf(q, i + 1);
                if (e < 0) return null;
                parts.add(rest.substring(i + 1, e));
                i = e + 1;
            } else {
                i++;
            }
        }
        return parts.size() == 2 ? parts.toArray(new String[0]) : null;
    }

    static int matchClose(String s, int open) {
        char o = s.charAt(open);
        char cl = o == '(' ? ')' : '}';
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == o) depth++;
            else if (c == cl && --depth == 0) return i;
        }
        return -1;
    }

    /** Splits function arguments at top-level commas (at most {@code max}; the last takes the rest). */
    static List<PosText> args(PosText t, int max) {
        List<PosText> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        String s = t.text;
        for (int i = 0; i < s.length() && out.size() < max - 1; i++) {
            char c = s.charAt(i);
            if (c == '(' || c == '{') depth++;
            else if ((c == ')' || c == '}') && depth > 0) depth--;
            else if (c == ',' && depth == 0) {
                out.add(t.sub(start, i));
                start = i + 1;
            }
        }
        out.add(t.sub(start));
        return out;
    }

    /** Splits an expanded recipe line into commands at {@code && || ; |}. */
    static List<List<PosText>> commands(PosText line) {
        List<List<PosText>> out = new ArrayList<>();
        List<PosText> cmd = new ArrayList<>();
        for (PosText w : ShellWords.split(line)) {
            String s = w.text;
            if (s.equals("&&") || s.equals("||") || s.equals(";") || s.equals("|")) {
                out.add(cmd);
                cmd = new ArrayList<>();
            } else {
                cmd.add(w);
            }
        }
        out.add(cmd);
        return out;
    }

    static String stripPrefix(String w) {
        int i = 0;
        while (i < w.length() && (w.charAt(i) == '@' || w.charAt(i) == '+' || w.charAt(i) == '-')) i++;
        return w.substring(i);
    }

    static boolean isSourceName(String s) {
        if (s.contains("$") || s.contains("=")) return false;
        int dot = s.lastIndexOf('.');
        return dot > 0
                && dot > s.lastIndexOf('/')
                && SOURCE_EXT.contains(s.substring(dot + 1))
                && !s.toLowerCase(Locale.ROOT).endsWith(".o");
    }

    static int parseInt(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
