package dev.numlint.cuda;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a macro name can change what the preprocessor makes of a file, for {@link BuildVariants}: the names of a set
 * that occur in the file outside the places where their value cannot matter. Those places are exact:
 *
 * <ul>
 *   <li>a branch that is never compiled: {@code #if 0}, or a test of a name that neither the compile commands nor
 *       numlint's Clang target define ({@link #OTHER_PLATFORMS}: {@code #ifdef _WIN32}, {@code #if defined(_MSC_VER)
 *       && ...}, {@code #if _MSC_VER >= 1900}), and every {@code #elif}/{@code #else} after a branch that is always
 *       compiled;
 *   <li>a condition whose value those tests decide whatever the name: {@code #if defined(_WIN32) &&
 *       defined(foo_EXPORTS)} (the export switch of a CMake shared library, {@code -Dfoo_EXPORTS});
 *   <li>a test of the name alone ({@code #ifdef foo_EXPORTS}, {@code #ifndef}, {@code #if defined(...)}) whose branches
 *       have the same text, comments and spacing aside: CMake's generated export header on Linux, where both branches
 *       define the same visibility attribute;
 *   <li>comments, string and character literals.
 * </ul>
 *
 * Everywhere else (code, {@code #define} bodies, conditions it does not decide) an occurrence counts, as the plain text
 * search did. A file with a raw string literal or unbalanced conditionals is read as that search reads it.
 */
final class DefineUses {
    private DefineUses() {}

    /**
     * Reserved names that a compiler predefines only for another platform than the one numlint's Clang parses for (a
     * Linux host, and CUDA): undefined in every unit unless its compile command or a project file defines them.
     */
    static final Set<String> OTHER_PLATFORMS = Set.of(
            "_WIN32",
            "_WIN64",
            "_MSC_VER",
            "_MSC_FULL_VER",
            "_M_IX86",
            "_M_X64",
            "_M_AMD64",
            "_M_ARM64",
            "__MINGW32__",
            "__MINGW64__",
            "__CYGWIN__",
            "__APPLE__",
            "__MACH__");

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern DEFINE = Pattern.compile("(?m)^\\s*#\\s*define\\s+([A-Za-z_][A-Za-z0-9_]*)");

    /** The names of {@link #OTHER_PLATFORMS} that none of {@code texts} defines and no name of {@code set} is. */
    static Set<String> undefinedPlatforms(List<String> texts, Set<String> set) {
        Set<String> out = new TreeSet<>(OTHER_PLATFORMS);
        out.removeAll(set);
        for (String t : texts) {
            Matcher m = DEFINE.matcher(t);
            while (m.find()) out.remove(m.group(1));
        }
        return out;
    }

    /** The names of {@code wanted} that occur in {@code text} where they can matter; {@code undefined}: never defined. */
    static Set<String> uses(String text, Set<String> wanted, Set<String> undefined) {
        Set<String> plain = new TreeSet<>();
        identifiers(text, wanted, plain);
        if (plain.isEmpty() || text.contains("R\"")) return plain;
        Set<String> found = new TreeSet<>();
        Deque<Frame> open = new ArrayDeque<>();
        for (String line : logicalLines(text)) {
            String t = line.strip();
            String directive = t.startsWith("#") ? directive(t) : "";
            String rest = directive.isEmpty() ? "" : t.substring(t.indexOf(directive, 1) + directive.length());
            boolean dead = !open.isEmpty() && open.peek().dead;
            switch (directive) {
                case "if", "ifdef", "ifndef" -> {
                    String cond =
                            switch (directive) {
                                case "ifdef" -> "defined(" + rest.strip() + ")";
                                case "ifndef" -> "!defined(" + rest.strip() + ")";
                                default -> rest;
                            };
                    collect(open, line);
                    Frame f = new Frame(dead);
                    if (!dead) f.enter(cond, wanted, undefined, found);
                    open.push(f);
                    continue;
                }
                case "elif", "elifdef", "elifndef" -> {
                    if (open.isEmpty()) return plain;
                    Frame f = open.pop();
                    collect(open, line);
                    String cond =
                            switch (directive) {
                                case "elifdef" -> "defined(" + rest.strip() + ")";
                                case "elifndef" -> "!defined(" + rest.strip() + ")";
                                default -> rest;
                            };
                    f.elif(cond, wanted, undefined, found);
                    open.push(f);
                    continue;
                }
                case "else" -> {
                    if (open.isEmpty()) return plain;
                    Frame f = open.pop();
                    collect(open, line);
                    f.otherwise();
                    open.push(f);
                    continue;
                }
                case "endif" -> {
                    if (open.isEmpty()) return plain;
                    Frame f = open.pop();
                    collect(open, line);
                    f.close(found);
                    continue;
                }
                default -> {
                    collect(open, line);
                    if (!dead) identifiers(line, wanted, found);
                }
            }
        }
        return open.isEmpty() ? found : plain;
    }

    /** Appends a line to the current branch of every open test of a name alone that compares its branches. */
    private static void collect(Deque<Frame> open, String line) {
        String norm = line.replaceAll("\\s+", " ").strip();
        if (norm.isEmpty()) return;
        for (Frame f : open) {
            if (f.pending != null)
                f.branches.get(f.branches.size() - 1).append(norm).append('\n');
        }
    }

    private static void identifiers(String text, Set<String> wanted, Set<String> out) {
        Matcher m = IDENTIFIER.matcher(text);
        while (m.find()) {
            if (wanted.contains(m.group())) out.add(m.group());
        }
    }

    private static String directive(String t) {
        int i = 1;
        while (i < t.length() && Character.isWhitespace(t.charAt(i))) i++;
        int s = i;
        while (i < t.length() && Character.isLetter(t.charAt(i))) i++;
        return t.substring(s, i);
    }

    /** One conditional: whether its current branch is never compiled, and the test of a name alone awaiting #endif. */
    private static final class Frame {
        final boolean parentDead;
        boolean dead;
        /** A branch so far is always compiled: the later ones never are. */
        boolean taken;
        /** The name tested alone ({@code #ifdef X}), counted at #endif unless the branches read the same. */
        String pending;

        final List<StringBuilder> branches = new ArrayList<>();

        Frame(boolean parentDead) {
            this.parentDead = parentDead;
            this.dead = parentDead;
        }

        void enter(String cond, Set<String> wanted, Set<String> undefined, Set<String> found) {
            String alone = alone(cond);
            if (alone != null && wanted.contains(alone)) {
                pending = alone;
                branches.add(new StringBuilder());
                return;
            }
            decide(cond, wanted, undefined, found);
        }

        void elif(String cond, Set<String> wanted, Set<String> undefined, Set<String> found) {
            if (pending != null) { // an #elif chain: the branches are not one name's two sides
                found.add(pending);
                pending = null;
            }
            if (parentDead || taken) {
                dead = true;
                return;
            }
            decide(cond, wanted, undefined, found);
        }

        private void decide(String cond, Set<String> wanted, Set<String> undefined, Set<String> found) {
            Value v = new Condition(cond, undefined).value();
            if (v == Value.UNKNOWN) identifiers(cond, wanted, found);
            dead = v == Value.FALSE;
            taken |= v == Value.TRUE;
        }

        void otherwise() {
            if (pending != null) branches.add(new StringBuilder());
            dead = parentDead || taken;
        }

        void close(Set<String> found) {
            if (pending == null) return;
            String first = branches.get(0).toString();
            String second = branches.size() > 1 ? branches.get(1).toString() : "";
            if (!first.equals(second)) found.add(pending);
        }

        /** X of {@code defined(X)}, {@code defined X}, {@code !defined(X)}: a test of one name alone. */
        private static String alone(String cond) {
            Matcher m = ALONE.matcher(cond.strip());
            if (!m.matches()) return null;
            return m.group(1) != null ? m.group(1) : m.group(2);
        }

        private static final Pattern ALONE = Pattern.compile(
                "!?\\s*\\(?\\s*defined\\s*(?:\\(\\s*([A-Za-z_]\\w*)\\s*\\)|\\s+([A-Za-z_]\\w*))\\s*\\)?");
    }

    enum Value {
        TRUE,
        FALSE,
        UNKNOWN;

        Value not() {
            return this == TRUE ? FALSE : this == FALSE ? TRUE : UNKNOWN;
        }
    }

    /**
     * A {@code #if} condition in three values: {@code defined}, {@code !}, {@code &&}, {@code ||}, parentheses,
     * integer literals, and an undefined name alone or compared with a literal (it is 0); anything else is unknown.
     */
    static final class Condition {
        private final List<String> tokens = new ArrayList<>();
        private final Set<String> undefined;
        private int i;

        private static final Pattern TOKEN =
                Pattern.compile("\\s*(&&|\\|\\||==|!=|<=|>=|[A-Za-z_][A-Za-z0-9_]*|[0-9][A-Za-z0-9_.']*|\\S)");

        Condition(String text, Set<String> undefined) {
            this.undefined = undefined;
            Matcher m = TOKEN.matcher(text);
            while (m.find()) tokens.add(m.group(1));
        }

        Value value() {
            if (tokens.isEmpty()) return Value.UNKNOWN;
            Value v = or();
            return i == tokens.size() ? v : Value.UNKNOWN;
        }

        private String peek() {
            return i < tokens.size() ? tokens.get(i) : "";
        }

        private Value or() {
            Value v = and();
            while (peek().equals("||")) {
                i++;
                Value w = and();
                v = v == Value.TRUE || w == Value.TRUE
                        ? Value.TRUE
                        : v == Value.FALSE && w == Value.FALSE ? Value.FALSE : Value.UNKNOWN;
            }
            return v;
        }

        private Value and() {
            Value v = unary();
            while (peek().equals("&&")) {
                i++;
                Value w = unary();
                v = v == Value.FALSE || w == Value.FALSE
                        ? Value.FALSE
                        : v == Value.TRUE && w == Value.TRUE ? Value.TRUE : Value.UNKNOWN;
            }
            return v;
        }

        private Value unary() {
            if (peek().equals("!")) {
                i++;
                return unary().not();
            }
            Value v = primary();
            if (boundary()) return v;
            skip(); // an operand of arithmetic or a comparison this reader does not evaluate
            return Value.UNKNOWN;
        }

        private boolean boundary() {
            String p = peek();
            return p.isEmpty() || p.equals("&&") || p.equals("||") || p.equals(")");
        }

        /** Skips to the next {@code &&}, {@code ||} or closing parenthesis at this depth. */
        private void skip() {
            int depth = 0;
            while (i < tokens.size()) {
                String t = tokens.get(i);
                if (depth == 0 && (t.equals("&&") || t.equals("||") || t.equals(")"))) return;
                if (t.equals("(")) depth++;
                if (t.equals(")")) depth--;
                i++;
            }
        }

        private Value primary() {
            String t = peek();
            if (t.equals("(")) {
                i++;
                Value v = or();
                if (!peek().equals(")")) {
                    skip();
                    return Value.UNKNOWN;
                }
                i++;
                return v;
            }
            if (t.equals("defined")) {
                i++;
                boolean paren = peek().equals("(");
                if (paren) i++;
                String name = peek();
                i++;
                if (paren) {
                    if (!peek().equals(")")) return Value.UNKNOWN;
                    i++;
                }
                return undefined.contains(name) ? Value.FALSE : Value.UNKNOWN;
            }
            if (!t.isEmpty() && Character.isDigit(t.charAt(0))) {
                i++;
                Long n = number(t);
                if (n == null) return Value.UNKNOWN;
                return n != 0 ? Value.TRUE : Value.FALSE;
            }
            if (undefined.contains(t)) {
                i++;
                // an undefined name is 0 in a condition: alone, or compared with a literal
                String op = peek();
                if (List.of("==", "!=", "<", "<=", ">", ">=").contains(op) && i + 1 < tokens.size()) {
                    Long n = number(tokens.get(i + 1));
                    if (n == null) return Value.UNKNOWN;
                    i += 2;
                    boolean r =
                            switch (op) {
                                case "==" -> 0 == n;
                                case "!=" -> 0 != n;
                                case "<" -> 0 < n;
                                case "<=" -> 0 <= n;
                                case ">" -> 0 > n;
                                default -> 0 >= n;
                            };
                    return r ? Value.TRUE : Value.FALSE;
                }
                return Value.FALSE;
            }
            i++;
            return Value.UNKNOWN;
        }

        private static Long number(String t) {
            String s = t.replace("'", "").replaceAll("(?i)[ul]+$", "");
            try {
                if (s.startsWith("0x") || s.startsWith("0X")) return Long.parseLong(s.substring(2), 16);
                if (s.length() > 1 && s.startsWith("0")) return Long.parseLong(s.substring(1), 8);
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /**
     * The file's logical lines as the preprocessor sees them: backslash-newlines spliced, each comment one space,
     * string and character literals emptied.
     */
    static List<String> logicalLines(String text) {
        List<String> lines = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < n && (text.charAt(i + 1) == '\n' || text.charAt(i + 1) == '\r')) {
                i += text.charAt(i + 1) == '\r' && i + 2 < n && text.charAt(i + 2) == '\n' ? 3 : 2;
                continue;
            }
            if (c == '\n') {
                lines.add(cur.toString());
                cur.setLength(0);
                i++;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                while (i < n && text.charAt(i) != '\n') {
                    // a line comment continued by a backslash-newline goes on
                    if (text.charAt(i) == '\\' && i + 1 < n && text.charAt(i + 1) == '\n') i++;
                    i++;
                }
                cur.append(' ');
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                cur.append(' ');
            } else if (c == '"' || c == '\'' && !(i > 0 && Character.isLetterOrDigit(text.charAt(i - 1)))) {
                // a quote after a letter or digit is a digit separator (1'000); a prefixed L'a' is read as code
                cur.append(c);
                i++;
                while (i < n && text.charAt(i) != c && text.charAt(i) != '\n') {
                    if (text.charAt(i) == '\\' && i + 1 < n) i++;
                    i++;
                }
                cur.append(c);
                if (i < n && text.charAt(i) == c) i++;
            } else {
                cur.append(c);
                i++;
            }
        }
        lines.add(cur.toString());
        return lines;
    }
}
