package dev.numlint.knowledge;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a float constant widened to double (NL014) is a tolerance, whose float rounding (2^-24 relative) cannot change
 * what it decides: a guard added to a denominator or under a square root or logarithm ({@code x / (h + 1e-10f)},
 * {@code sqrt(s + 1e-6f)}), a bound of max/min/clamp ({@code fmax(x, 1e-35f)}), a threshold in a comparison
 * ({@code fabs(x) < 1e-10f}), or a constant the code names a tolerance ({@code kEpsilon}, {@code eps}, {@code tol})
 * added to or subtracted from a value. Only a "round" literal qualifies ({@link #round}: at most
 * {@link #ROUND_DIGITS} significant digits, an order of magnitude): a literal written with more digits than float
 * holds ({@code 0.017453292519943295f}) is a value the author wanted in double, whatever its use. Reads the written
 * text (an expression, a source line, a function body) token by token: pure and without dependencies, shared by the
 * source and PTX layers.
 */
public final class ToleranceUse {
    /** The most significant digits of a literal written as an order of magnitude (1e-10f, 0.01f, 2.5e-3f). */
    public static final int ROUND_DIGITS = 3;

    private ToleranceUse() {}

    private static final Set<String> GUARDED_CALLS = Set.of(
            "sqrt",
            "sqrtf",
            "rsqrt",
            "rsqrtf",
            "log",
            "logf",
            "log2",
            "log2f",
            "log10",
            "log10f",
            "log1p",
            "log1pf",
            "__logf",
            "__log2f",
            "__log10f");

    private static final Set<String> BOUND_CALLS =
            Set.of("max", "min", "fmax", "fmin", "fmaxf", "fminf", "clamp", "__saturatef", "fdim");

    private static final Set<String> COMPARISONS = Set.of("<", "<=", ">", ">=", "==", "!=");

    /** A name a programmer gives a tolerance: eps, kEpsilon, EPSILON, tol, kZeroThreshold, min_hessian_eps. */
    private static final Pattern TOLERANCE_NAME =
            // the camel-case part is case-sensitive: 'stolen', 'steps', 'pistol' and 'destiny' name no tolerance
            Pattern.compile("(?i:(^|[_:]|k)(eps|epsilon|tol|tolerance|tiny|zero_?threshold|threshold)([_0-9]|$))"
                    + "|(?<=[a-z0-9])(Eps|Epsilon|Tol|Tolerance|Tiny|ZeroThreshold|Threshold)([_0-9A-Z]|$)");

    private static final Pattern TOKEN = Pattern.compile("(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?[fFlL]?"
            + "|[A-Za-z_][A-Za-z_0-9]*(?:::[A-Za-z_][A-Za-z_0-9]*)*"
            + "|<<=|>>=|->|\\+\\+|--|<=|>=|==|!=|&&|\\|\\||\\+=|-=|\\*=|/=|<<|>>|::|\\S");

    /**
     * Whether a float literal ({@code 1e-10f}, {@code 0.01f}, {@code -2.5e-3f}) has at most {@link #ROUND_DIGITS}
     * significant digits: the author wrote an order of magnitude, not a value float cannot hold.
     */
    public static boolean round(String literal) {
        String s = literal.replace("'", "").replace("_", "").strip();
        if (s.startsWith("-") || s.startsWith("+")) s = s.substring(1);
        if (s.endsWith("f") || s.endsWith("F")) s = s.substring(0, s.length() - 1);
        try {
            BigDecimal d = new BigDecimal(s);
            return d.signum() != 0 && d.stripTrailingZeros().precision() <= ROUND_DIGITS;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Whether {@code name} reads as a tolerance's name ({@code kEpsilon}, {@code eps}, {@code tol}). */
    public static boolean toleranceName(String name) {
        return name != null && TOLERANCE_NAME.matcher(name).find();
    }

    /** A name of an error tolerance in the narrow sense: eps, epsilon, tol, tolerance as a word of it. */
    private static final Pattern EPSILON_NAME = Pattern.compile("(?i:(^|[_:]|k)(eps|epsilon|tol|tolerance)([_0-9]|$))"
            + "|(?<=[a-z0-9])(Eps|Epsilon|Tol|Tolerance)([_0-9A-Z]|$)");

    /**
     * Whether {@code name} names an error tolerance in the narrow sense ({@code eps}, {@code FLT_EPSILON}, {@code tol},
     * {@code kTolerance}): a comparison with it is written to absorb rounding. Narrower than {@link #toleranceName}: a
     * threshold ({@code data_threshold}) is a decision on data, which one ulp can flip.
     */
    public static boolean epsilonName(String name) {
        return name != null && EPSILON_NAME.matcher(name).find();
    }

    /** The tokens of written C/C++ text (literals, names with {@code ::}, operators), comments not removed. */
    static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(text == null ? "" : text);
        while (m.find()) out.add(m.group());
        return out;
    }

    /**
     * How {@code token} (a literal as written, or a name) is used as a tolerance in {@code text}: "a guard in a
     * denominator", "a guard under sqrt()", "a bound of fmax()", "a threshold in a comparison", "a tolerance added to
     * a value" (a tolerance's name only); null when it does not occur or one of its occurrences is used otherwise
     * (a factor, a value stored or returned).
     */
    public static String use(String text, String token) {
        List<String> t = tokens(text);
        String norm = token.replace(" ", "");
        // a negative literal is the unary minus and the number (the minus joins the term in useAt)
        if (norm.startsWith("-") || norm.startsWith("+")) norm = norm.substring(1);
        String first = null;
        for (int i = 0; i < t.size(); i++) {
            if (!t.get(i).equals(norm)) continue;
            String u = useAt(t, i, toleranceName(norm));
            if (u == null) return null;
            if (first == null) first = u;
        }
        return first;
    }

    /**
     * How the local {@code name}, initialised with a float literal, is used in {@code body} (the function's text):
     * a tolerance when every use after its declaration is one ({@link #use}), or is the bound of a clamp written as a
     * test ({@code if (score < eps) score = eps;}); null when a use is not, or there is none.
     */
    public static String usesOf(String body, String name) {
        List<String> t = tokens(body);
        String first = null;
        boolean declared = false;
        for (int i = 0; i < t.size(); i++) {
            if (!t.get(i).equals(name)) continue;
            if (!declared
                    && i + 1 < t.size()
                    && (t.get(i + 1).equals("=") || t.get(i + 1).equals("{"))) {
                declared = true;
                continue;
            }
            if (!declared) continue;
            String u = useAt(t, i, toleranceName(name));
            if (u == null) u = clampAssignment(t, i, name);
            if (u == null) return null;
            if (first == null) first = u;
        }
        return first;
    }

    /** {@code x = name;} under an {@code if} whose condition compares {@code x} with {@code name}: a clamp. */
    private static String clampAssignment(List<String> t, int i, String name) {
        if (i < 2
                || !t.get(i - 1).equals("=")
                || i + 1 >= t.size()
                || !t.get(i + 1).equals(";")) return null;
        String x = t.get(i - 2);
        // the condition of the if just before: if ( ... ) [{] x = name ;
        int j = i - 3;
        if (j >= 0 && t.get(j).equals("{")) j--;
        if (j < 0 || !t.get(j).equals(")")) return null;
        int depth = 0;
        int open = -1;
        for (int k = j; k >= 0; k--) {
            if (t.get(k).equals(")")) depth++;
            else if (t.get(k).equals("(") && --depth == 0) {
                open = k;
                break;
            }
        }
        if (open < 1 || !t.get(open - 1).equals("if")) return null;
        boolean hasX = false, hasName = false, compares = false;
        for (int k = open + 1; k < j; k++) {
            hasX |= t.get(k).equals(x);
            hasName |= t.get(k).equals(name);
            compares |= COMPARISONS.contains(t.get(k));
        }
        return hasX && hasName && compares ? "a bound (clamped to it)" : null;
    }

    private static boolean open(String s) {
        return s.equals("(") || s.equals("[");
    }

    private static boolean close(String s) {
        return s.equals(")") || s.equals("]");
    }

    private static boolean integer(String s) {
        return s.matches("\\d+");
    }

    /** Whether {@code s} ends an additive sum on its side (an operator of lower precedence, a bracket, a comma). */
    private static boolean boundary(String s) {
        return !(s.equals("+")
                || s.equals("-")
                || s.equals("*")
                || s.equals("/")
                || s.equals("%")
                || s.equals(".")
                || s.equals("->")
                || s.matches("[A-Za-z_0-9.].*")
                || close(s)
                || open(s));
    }

    /** The use of the occurrence {@code i} of a token as a tolerance, or null. */
    private static String useAt(List<String> t, int i, boolean named) {
        int l = i;
        int r = i;
        // a unary minus belongs to the term: -kZeroThreshold
        if (l > 0 && t.get(l - 1).equals("-") && (l == 1 || boundary(t.get(l - 2)) || open(t.get(l - 2)))) l--;
        // an integer multiple is still the tolerance: 2 * kEpsilon
        if (l >= 2 && t.get(l - 1).equals("*") && integer(t.get(l - 2))) l -= 2;
        if (r + 2 < t.size() && t.get(r + 1).equals("*") && integer(t.get(r + 2))) r += 2;
        for (int guard = 0; guard < 8; guard++) {
            // the term must be added or subtracted, or stand alone: a factor (x * 1e-3f) is a scale, not a tolerance
            String before = l > 0 ? t.get(l - 1) : ";";
            String after = r + 1 < t.size() ? t.get(r + 1) : ";";
            if (before.equals("*") || before.equals("/") || after.equals("*") || after.equals("/")) return null;
            if (before.equals(".") || before.equals("->") || after.equals("(") || after.equals("[")) return null;
            // the sum around the term, at the term's depth
            int sl = l;
            int terms = 1;
            while (sl > 0) {
                String s = t.get(sl - 1);
                if (close(s)) {
                    sl = matchOpen(t, sl - 1);
                    if (sl < 0) return null;
                    continue;
                }
                if (s.equals("+") || s.equals("-")) terms++;
                if (boundary(s) || open(s)) break;
                sl--;
            }
            int sr = r;
            while (sr + 1 < t.size()) {
                String s = t.get(sr + 1);
                if (open(s)) {
                    sr = matchClose(t, sr + 1);
                    if (sr < 0) return null;
                    continue;
                }
                if (s.equals("+") || s.equals("-")) terms++;
                if (boundary(s) || close(s)) break;
                sr++;
            }
            String left = sl > 0 ? t.get(sl - 1) : ";";
            String right = sr + 1 < t.size() ? t.get(sr + 1) : ";";
            if (COMPARISONS.contains(left) || COMPARISONS.contains(right)) return "a threshold in a comparison";
            if (terms > 1 && left.equals("/=")) return "a guard in a denominator";
            if (left.equals("(") && right.equals(")")) {
                String callee = sl >= 2 ? t.get(sl - 2) : ";";
                String bare = callee.contains("::") ? callee.substring(callee.lastIndexOf("::") + 2) : callee;
                if (terms > 1 && (callee.equals("/") || callee.equals("/="))) return "a guard in a denominator";
                if (terms > 1 && GUARDED_CALLS.contains(bare)) return "a guard under " + bare + "()";
                if (BOUND_CALLS.contains(bare)) return "a bound of " + bare + "()";
                if (callee.equals(">") && sl >= 4 && t.get(sl - 4).equals("<")) return null; // a cast
                if (!callee.matches("[A-Za-z_].*") && !close(callee)) {
                    // plain parentheses: the group is a term of the enclosing expression
                    l = sl - 1;
                    r = sr + 1;
                    continue;
                }
                if (terms > 1 && named) return "a tolerance added to a value";
                return null;
            }
            if ((left.equals(",") || left.equals("(")) && (right.equals(",") || right.equals(")"))) {
                int call = enclosingOpen(t, sl - 1);
                String callee = call >= 1 ? t.get(call - 1) : ";";
                String bare = callee.contains("::") ? callee.substring(callee.lastIndexOf("::") + 2) : callee;
                if (BOUND_CALLS.contains(bare)) return "a bound of " + bare + "()";
            }
            // a constant the code names a tolerance, added to or subtracted from a value (h += kEpsilon)
            boolean added = terms > 1 || left.equals("+=") || left.equals("-=");
            return named && added ? "a tolerance added to a value" : null;
        }
        return null;
    }

    /**
     * The float literals written in {@code text} whose float value is {@code value} (the immediate of a PTX
     * instruction, as a double): {@code 1e-10f} for 1.00000001335e-10.
     */
    public static List<String> floatLiterals(String text, double value) {
        List<String> out = new ArrayList<>();
        for (String s : tokens(text)) {
            if (!s.matches("(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?[fF]")) continue;
            try {
                double v = Float.parseFloat(s.substring(0, s.length() - 1));
                if (v == Math.abs(value)) out.add(s);
            } catch (NumberFormatException e) {
                // not a number after all
            }
        }
        return out;
    }

    /** The names in {@code text} a programmer gives a tolerance ({@link #toleranceName}), each once. */
    public static List<String> toleranceNames(String text) {
        List<String> out = new ArrayList<>();
        for (String s : tokens(text)) {
            if (s.matches("[A-Za-z_].*") && toleranceName(s) && !out.contains(s)) out.add(s);
        }
        return out;
    }

    private static int matchOpen(List<String> t, int closeAt) {
        int depth = 0;
        for (int k = closeAt; k >= 0; k--) {
            if (close(t.get(k))) depth++;
            else if (open(t.get(k)) && --depth == 0) return k;
        }
        return -1;
    }

    private static int matchClose(List<String> t, int openAt) {
        int depth = 0;
        for (int k = openAt; k < t.size(); k++) {
            if (open(t.get(k))) depth++;
            else if (close(t.get(k)) && --depth == 0) return k;
        }
        return -1;
    }

    /** The unmatched opening bracket at or left of {@code at} (a call's argument list), or -1. */
    private static int enclosingOpen(List<String> t, int at) {
        int depth = 0;
        for (int k = at; k >= 0; k--) {
            if (close(t.get(k))) depth++;
            else if (open(t.get(k))) {
                if (depth == 0) return k;
                depth--;
            }
        }
        return -1;
    }
}
