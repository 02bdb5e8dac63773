package dev.numlint.flags;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * CMake's {@code if()} condition rules, three-valued: true, false, or unknown when the value depends on something
 * numlint does not evaluate (a {@code find_package()} result, an environment variable, a variable CMake sets at
 * configure time such as {@code CMAKE_CUDA_COMPILER_VERSION}). Supported: the constants (1, ON, YES, TRUE, Y,
 * non-zero numbers; 0, OFF, NO, FALSE, N, IGNORE, NOTFOUND, the empty string, {@code *-NOTFOUND}), unquoted
 * variable auto-dereference, quoted strings (never dereferenced), {@code NOT}, {@code AND}, {@code OR} and
 * parentheses with CMake's precedence, {@code DEFINED}, {@code COMMAND}, {@code POLICY}, {@code TARGET},
 * {@code EXISTS}/{@code IS_DIRECTORY} inside the scanned tree, {@code IS_ABSOLUTE}, {@code EQUAL}, {@code LESS},
 * {@code GREATER} (and {@code _EQUAL}), {@code STREQUAL}, {@code STRLESS}, {@code STRGREATER} (and {@code _EQUAL}),
 * {@code VERSION_*}, {@code MATCHES} (bounded: a pattern that backtracks too long is unknown) and {@code IN_LIST}.
 */
final class CMakeCondition {
    /** Marker for a value numlint cannot know; it contains "${" so no flag and no condition uses it as known. */
    static final String UNKNOWN = "${?}";

    private static final Set<String> TRUE = Set.of("1", "ON", "YES", "TRUE", "Y");
    private static final Set<String> FALSE = Set.of("0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND", "");
    private static final Set<String> UNARY = Set.of(
            "EXISTS",
            "COMMAND",
            "DEFINED",
            "POLICY",
            "TARGET",
            "TEST",
            "IS_DIRECTORY",
            "IS_SYMLINK",
            "IS_ABSOLUTE",
            "IS_READABLE",
            "IS_WRITABLE",
            "IS_EXECUTABLE");
    private static final Set<String> BINARY = Set.of(
            "EQUAL",
            "LESS",
            "LESS_EQUAL",
            "GREATER",
            "GREATER_EQUAL",
            "STREQUAL",
            "STRLESS",
            "STRLESS_EQUAL",
            "STRGREATER",
            "STRGREATER_EQUAL",
            "VERSION_EQUAL",
            "VERSION_LESS",
            "VERSION_LESS_EQUAL",
            "VERSION_GREATER",
            "VERSION_GREATER_EQUAL",
            "MATCHES",
            "IN_LIST",
            "IS_NEWER_THAN",
            "PATH_EQUAL");
    /** CMake variables whose (default) value numlint knows, although they start with CMAKE_. */
    private static final Set<String> KNOWN_CMAKE = Set.of(
            "CMAKE_BUILD_TYPE",
            "CMAKE_SOURCE_DIR",
            "CMAKE_CURRENT_SOURCE_DIR",
            "CMAKE_CURRENT_LIST_DIR",
            "CMAKE_SYSTEM_NAME",
            "CMAKE_HOST_SYSTEM_NAME",
            "CMAKE_HOST_UNIX",
            "CMAKE_MODULE_PATH",
            "CMAKE_HOME_DIRECTORY");

    private final Map<String, PosText> vars;
    private final Predicate<Path> inTree;
    /** Names given with --cmake-define or by a preset. */
    final Set<String> cacheGiven = new HashSet<>();
    /**
     * Where the configured build gives a cache value (a configured build directory's {@code CMakeCache.txt}, a preset,
     * {@code --cmake-define}), by name: a condition it decides is false in this configuration, not by default.
     */
    final Map<String, String> cacheOrigin = new HashMap<>();
    /** Functions and macros the project defines (for COMMAND). */
    final Set<String> commands = new HashSet<>();
    /** Variables (and their values) that decided a known condition. */
    final Map<String, String> decisive = new TreeMap<>();

    private final Set<String> unknownVars = new HashSet<>();
    private final Set<String> unknownPrefixes = new HashSet<>();
    private final List<String> used = new ArrayList<>();
    private String last = "";
    /** Where the configured build gives the value of a variable that decided the last condition, or null. */
    private String lastOrigin;

    CMakeCondition(Map<String, PosText> vars, Predicate<Path> inTree) {
        this.vars = vars;
        this.inTree = inTree;
    }

    /** find_package(P): P_* and P_UPPER_* are set by the package's module, unknown here. */
    void unknownPrefix(String pkg) {
        if (pkg.isEmpty()) return;
        unknownPrefixes.add(pkg + "_");
        unknownPrefixes.add(pkg.toUpperCase(Locale.ROOT) + "_");
    }

    void unknownVar(String name) {
        if (name.isEmpty() || name.equals(UNKNOWN)) return;
        // a check's result the configured build's cache holds (CC_HAS_FAST_MATH:INTERNAL=1): that value
        if (cacheGiven.contains(name) && vars.containsKey(name)) return;
        vars.remove(name);
        unknownVars.add(name);
    }

    /** Whether an undefined variable is unknown (set at configure time) rather than undefined. */
    boolean unknown(String name) {
        if (vars.containsKey(name)) return false;
        if (unknownVars.contains(name)) return true;
        for (String p : unknownPrefixes) {
            if (name.startsWith(p)) return true;
        }
        return name.startsWith("CMAKE_") && !KNOWN_CMAKE.contains(name) && !name.contains("_FLAGS")
                || name.startsWith("PROJECT_")
                || name.endsWith("_VERSION")
                || name.startsWith("MSVC_")
                || name.contains(UNKNOWN);
    }

    /** " (OPT=OFF, X=1)": the variables that decided the last condition, for messages. */
    String lastDecisive() {
        return last;
    }

    /**
     * Where the configured build gives a value that decided the last condition ("build/CMakeCache.txt"), or null
     * when the project's own defaults decided it.
     */
    String lastOrigin() {
        return lastOrigin;
    }

    private record A(String text, boolean quoted) {}

    /** 1 true, 0 false, 2 unknown. */
    int eval(List<CMakeLexer.Arg> raw, Function<List<CMakeLexer.Arg>, List<PosText>> values) {
        List<A> args = new ArrayList<>();
        for (CMakeLexer.Arg a : raw) {
            switch (a.kind()) {
                case OPEN_PAREN -> args.add(new A("(", false));
                case CLOSE_PAREN -> args.add(new A(")", false));
                case QUOTED, BRACKET -> {
                    List<PosText> v = values.apply(List.of(a));
                    args.add(new A(v.isEmpty() ? "" : v.get(0).text, true));
                }
                default -> {
                    List<PosText> v = values.apply(List.of(a));
                    if (v.isEmpty() && a.text().text.contains("${")) args.add(new A("", true)); // empty expansion
                    for (PosText p : v) args.add(new A(p.text, false));
                }
            }
        }
        used.clear();
        int[] pos = {0};
        int r;
        try {
            r = or(args, pos);
            if (pos[0] != args.size()) r = 2; // unparsed rest
        } catch (RuntimeException e) {
            r = 2;
        }
        StringBuilder sb = new StringBuilder();
        lastOrigin = null;
        for (String u : used) {
            sb.append(sb.length() == 0 ? " (" : ", ").append(u);
            String origin = cacheOrigin.get(u.substring(0, u.indexOf('=')));
            if (origin != null && lastOrigin == null) lastOrigin = origin;
        }
        if (lastOrigin != null) sb.append(", from ").append(lastOrigin);
        last = sb.length() == 0 ? "" : sb.append(')').toString();
        return r;
    }

    private int or(List<A> a, int[] p) {
        int r = and(a, p);
        while (p[0] < a.size() && is(a.get(p[0]), "OR")) {
            p[0]++;
            int s = and(a, p);
            r = r == 1 || s == 1 ? 1 : r == 2 || s == 2 ? 2 : 0;
        }
        return r;
    }

    private int and(List<A> a, int[] p) {
        int r = not(a, p);
        while (p[0] < a.size() && is(a.get(p[0]), "AND")) {
            p[0]++;
            int s = not(a, p);
            r = r == 0 || s == 0 ? 0 : r == 2 || s == 2 ? 2 : 1;
        }
        return r;
    }

    private int not(List<A> a, int[] p) {
        if (p[0] < a.size() && is(a.get(p[0]), "NOT")) {
            p[0]++;
            int r = not(a, p);
            return r == 2 ? 2 : 1 - r;
        }
        return binary(a, p);
    }

    private static boolean is(A a, String kw) {
        return !a.quoted() && a.text().equals(kw);
    }

    private int binary(List<A> a, int[] p) {
        if (p[0] < a.size() && is(a.get(p[0]), "(")) {
            p[0]++;
            int r = or(a, p);
            if (p[0] < a.size() && is(a.get(p[0]), ")")) p[0]++;
            return r;
        }
        if (p[0] >= a.size()) return 2;
        A first = a.get(p[0]);
        if (!first.quoted() && UNARY.contains(first.text()) && p[0] + 1 < a.size()) {
            p[0] += 2;
            return unary(first.text(), a.get(p[0] - 1));
        }
        if (p[0] + 2 < a.size() + 0
                && p[0] + 1 < a.size()
                && !a.get(p[0] + 1).quoted()
                && BINARY.contains(a.get(p[0] + 1).text())
                && p[0] + 2 < a.size()) {
            A op = a.get(p[0] + 1);
            A right = a.get(p[0] + 2);
            p[0] += 3;
            return binaryOp(first, op.text(), right);
        }
        p[0]++;
        return truth(first);
    }

    /** The truth of one argument: a constant, or (unquoted) a variable's value. */
    private int truth(A a) {
        String t = a.text();
        if (t.contains(UNKNOWN)) return 2;
        String u = t.toUpperCase(Locale.ROOT);
        if (TRUE.contains(u)) return 1;
        if (FALSE.contains(u) || u.endsWith("-NOTFOUND")) return 0;
        if (isNumber(t)) return Double.parseDouble(t) != 0 ? 1 : 0;
        if (a.quoted()) return 0;
        PosText v = vars.get(t);
        if (v == null) return unknown(t) ? 2 : note(t, "undefined", 0);
        String vu = v.text.toUpperCase(Locale.ROOT);
        if (v.text.contains(UNKNOWN)) return 2;
        return note(t, v.text.isEmpty() ? "''" : v.text, FALSE.contains(vu) || vu.endsWith("-NOTFOUND") ? 0 : 1);
    }

    private int note(String var, String value, int r) {
        if (used.size() < 4) used.add(var + "=" + (value.length() > 30 ? value.substring(0, 27) + "..." : value));
        decisive.put(var, value);
        return r;
    }

    private static boolean isNumber(String t) {
        if (t.isEmpty() || t.length() > 30) return false;
        int i = t.charAt(0) == '-' || t.charAt(0) == '+' ? 1 : 0;
        boolean digit = false;
        boolean dot = false;
        for (; i < t.length(); i++) {
            char c = t.charAt(i);
            if (Character.isDigit(c)) digit = true;
            else if (c == '.' && !dot) dot = true;
            else return false;
        }
        return digit;
    }

    /** The value of an operand: an unquoted name of a defined variable is dereferenced; null when unknown. */
    private String value(A a) {
        String t = a.text();
        if (t.contains(UNKNOWN)) return null;
        if (!a.quoted()) {
            PosText v = vars.get(t);
            if (v != null) {
                if (v.text.contains(UNKNOWN)) return null;
                note(t, v.text.isEmpty() ? "''" : v.text, 0);
                return v.text;
            }
            if (unknown(t) && !isNumber(t) && t.matches("[A-Za-z_][A-Za-z0-9_]*")) return null;
        }
        return t;
    }

    private int unary(String op, A arg) {
        String t = arg.text();
        if (t.contains(UNKNOWN)) return 2;
        switch (op) {
            case "DEFINED" -> {
                if (t.startsWith("ENV{")) return 2;
                String n = t.startsWith("CACHE{") && t.endsWith("}") ? t.substring(6, t.length() - 1) : t;
                if (vars.containsKey(n)) return note(n, "defined", 1);
                return unknown(n) ? 2 : note(n, "undefined", 0);
            }
            case "COMMAND" -> {
                return commands.contains(t.toLowerCase(Locale.ROOT)) ? 1 : 2;
            }
            case "POLICY" -> {
                return t.matches("CMP0\\d{3}") ? 1 : 2;
            }
            case "IS_ABSOLUTE" -> {
                return t.startsWith("/") ? 1 : 0;
            }
            case "EXISTS", "IS_DIRECTORY" -> {
                try {
                    Path p = Path.of(t).normalize();
                    if (!p.isAbsolute() || !inTree.test(p)) return 2; // outside the tree: not looked at
                    boolean r = op.equals("EXISTS") ? Files.exists(p) : Files.isDirectory(p);
                    return r ? 1 : 0;
                } catch (RuntimeException e) {
                    return 2;
                }
            }
            default -> {
                return 2;
            }
        }
    }

    private int binaryOp(A l, String op, A r) {
        if (op.equals("IN_LIST")) {
            String item = value(l);
            PosText list = vars.get(r.text());
            if (item == null || list == null && unknown(r.text()) || list != null && list.text.contains(UNKNOWN)) {
                return 2;
            }
            if (list == null) return 0;
            for (String e : list.text.split(";", -1)) {
                if (e.equals(item)) return 1;
            }
            return 0;
        }
        String a = value(l);
        String b = value(r);
        if (a == null || b == null) return 2;
        switch (op) {
            case "STREQUAL" -> {
                return a.equals(b) ? 1 : 0;
            }
            case "STRLESS" -> {
                return a.compareTo(b) < 0 ? 1 : 0;
            }
            case "STRLESS_EQUAL" -> {
                return a.compareTo(b) <= 0 ? 1 : 0;
            }
            case "STRGREATER" -> {
                return a.compareTo(b) > 0 ? 1 : 0;
            }
            case "STRGREATER_EQUAL" -> {
                return a.compareTo(b) >= 0 ? 1 : 0;
            }
            case "EQUAL", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL" -> {
                if (!isNumber(a) || !isNumber(b)) return 0;
                int c = Double.compare(Double.parseDouble(a), Double.parseDouble(b));
                return cmp(op.replace("EQUAL", "EQ"), c);
            }
            case "VERSION_EQUAL", "VERSION_LESS", "VERSION_LESS_EQUAL", "VERSION_GREATER", "VERSION_GREATER_EQUAL" -> {
                return cmp(op.substring(8).replace("EQUAL", "EQ"), compareVersions(a, b));
            }
            case "MATCHES" -> {
                return matches(a, b);
            }
            case "PATH_EQUAL" -> {
                return Path.of(a).normalize().equals(Path.of(b).normalize()) ? 1 : 0;
            }
            default -> {
                return 2;
            }
        }
    }

    private static int cmp(String op, int c) {
        boolean r =
                switch (op) {
                    case "EQ", "_EQ" -> c == 0;
                    case "LESS", "_LESS" -> c < 0;
                    case "LESS_EQ", "_LESS_EQ" -> c <= 0;
                    case "GREATER", "_GREATER" -> c > 0;
                    case "GREATER_EQ", "_GREATER_EQ" -> c >= 0;
                    default -> false;
                };
        return r ? 1 : 0;
    }

    static int compareVersions(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            BigInteger p = num(i < x.length ? x[i] : "0");
            BigInteger q = num(i < y.length ? y[i] : "0");
            int c = p.compareTo(q);
            if (c != 0) return c;
        }
        return 0;
    }

    private static BigInteger num(String s) {
        int e = 0;
        while (e < s.length() && e < 18 && Character.isDigit(s.charAt(e))) e++;
        return e == 0 ? BigInteger.ZERO : new BigInteger(s.substring(0, e));
    }

    /** MATCHES with a step limit, so a backtracking pattern from the scanned tree cannot hang the scan. */
    private static int matches(String input, String regex) {
        if (regex.length() > 1000 || input.length() > 4096) return 2;
        try {
            Pattern p = Pattern.compile(regex);
            return p.matcher(new Bounded(input, 1_000_000)).find() ? 1 : 0;
        } catch (PatternSyntaxException | Bounded.TooLong | StackOverflowError e) {
            return 2; // the regex engine recurses per repetition: deep inputs are unknown, not a crash
        }
    }

    /** A CharSequence that gives up after a number of reads (bounds the regex engine's work). */
    static final class Bounded implements CharSequence {
        static final class TooLong extends RuntimeException {
            TooLong() {
                super(null, null, false, false);
            }
        }

        private final String s;
        private final int[] budget;

        Bounded(String s, int budget) {
            this(s, new int[] {budget});
        }

        private Bounded(String s, int[] budget) {
            this.s = s;
            this.budget = budget;
        }

        @Override
        public int length() {
            return s.length();
        }

        @Override
        public char charAt(int index) {
            if (--budget[0] < 0) throw new TooLong();
            return s.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Bounded(s.substring(start, end), budget);
        }

        @Override
        public String toString() {
            return s;
        }
    }
}
