package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A sum or difference that subtracts a local defined as a minimum of which one argument is the rest of the sum: {@code
 * N + k + 1 - m} with {@code const int m = std::min(N + 1, cap)} is at least {@code k}, whatever {@code N}, since
 * {@code m <= N + 1}. Intervals alone lose the relation ({@code N} unknown gives an unknown difference); the sum is
 * read as a linear form in its variables, each subtracted minimum replaced by each of its arguments in turn (the sum
 * is at least what that gives), and the variables that cancel drop out. Session 66 round C: a spectral element
 * solver's {@code p = N_ + node_index + 1 - n_points} with {@code n_points = std::min(N_ + 1, max)}, 16 errors
 * "nothing bounds 'p' below" of an index that is never negative for any {@code N_}. A minimum or maximum written
 * inline is a term too: {@code fmaxf(h, c) - fminf(l, c)} is at least {@code c - c = 0} (an added maximum is at least
 * each argument; session 66 round E: the true range of a technical-analysis kernel).
 */
final class ClangMinDifferences {
    private static final Set<String> MIN = Set.of("min", "std::min", "fmin", "fminf", "fminl", "std::fmin");
    private static final Set<String> MAX = Set.of("max", "std::max", "fmax", "fmaxf", "fmaxl", "std::fmax");
    private static final int TERMS = 8;

    private ClangMinDifferences() {}

    /** A linear form: coefficients of variables (by USR), a constant, and a node of each variable to evaluate. */
    private static final class Linear {
        final Map<String, Double> coef = new HashMap<>();
        final Map<String, ClangNode> node = new HashMap<>();
        double constant;

        boolean add(ClangNode e, double sign, int depth) {
            ClangNode x = strip(e);
            if (x == null || depth > 12 || coef.size() > TERMS) return false;
            if (x.value != null) {
                constant += sign * x.value;
                return true;
            }
            if (x.kind == CXCursor_BinaryOperator && x.children.size() == 2) {
                if (x.spelling.equals("+") || x.spelling.equals("-")) {
                    return add(x.children.get(0), sign, depth + 1)
                            && add(x.children.get(1), x.spelling.equals("-") ? -sign : sign, depth + 1);
                }
                return false;
            }
            if (x.kind == CXCursor_UnaryOperator && x.children.size() == 1) {
                if (x.spelling.equals("-")) return add(x.children.get(0), -sign, depth + 1);
                if (x.spelling.equals("+")) return add(x.children.get(0), sign, depth + 1);
                return false;
            }
            if (x.kind == CXCursor_CallExpr && arguments(x).size() == 2) {
                // a minimum or maximum written inline: one term, replaced by its arguments below
                String f = callee(x);
                if (!MIN.contains(f) && !MAX.contains(f)) return false;
                String key = "()" + x.offset;
                coef.merge(key, sign, Double::sum);
                node.putIfAbsent(key, x);
                return true;
            }
            boolean variable = x.kind == CXCursor_DeclRefExpr || x.kind == CXCursor_MemberRefExpr && implicitThis(x);
            if (!variable || x.refUsr == null) return false;
            coef.merge(x.refUsr, sign, Double::sum);
            node.putIfAbsent(x.refUsr, x);
            return true;
        }

        Linear copy() {
            Linear l = new Linear();
            l.coef.putAll(coef);
            l.node.putAll(node);
            l.constant = constant;
            return l;
        }
    }

    /** A member read of the object a method runs on ({@code N_} in a member function): one variable there. */
    private static boolean implicitThis(ClangNode m) {
        if (m.children.isEmpty()) return true;
        ClangNode o = strip(m.children.get(0));
        return o != null && o.kind == CXCursor_CXXThisExpr;
    }

    /**
     * A lower bound of the sum {@code n} in {@code fn} from the minima it subtracts ({@code eval}: the interval of a
     * variable's read), or negative infinity when none is shown.
     */
    static double lower(ClangNode n, ClangUnit.Function fn, Function<ClangNode, double[]> eval) {
        Linear form = new Linear();
        if (fn == null || !form.add(n, 1, 0)) return Double.NEGATIVE_INFINITY;
        return best(form, fn, eval, 0);
    }

    private static double best(Linear form, ClangUnit.Function fn, Function<ClangNode, double[]> eval, int depth) {
        double lo = bound(form, eval);
        if (depth >= 2) return lo;
        for (Map.Entry<String, Double> t : form.coef.entrySet()) {
            if (t.getValue() == 0) continue;
            // a subtracted minimum is at most each argument, an added maximum at least each
            ClangNode min = extreme(t.getKey(), form.node.get(t.getKey()), fn, t.getValue() < 0 ? MIN : MAX);
            if (min == null) continue;
            for (ClangNode arg : arguments(min)) {
                Linear with = form.copy();
                double k = with.coef.remove(t.getKey());
                // k * m >= k * arg (k < 0, m <= arg; k > 0, m >= arg): the sum is at least the sum with the argument
                if (!with.add(arg, k, 0)) continue;
                with.coef.values().removeIf(c -> c == 0);
                lo = Math.max(lo, best(with, fn, eval, depth + 1));
            }
        }
        return lo;
    }

    /** The least value of the form from its variables' intervals, or negative infinity. */
    private static double bound(Linear form, Function<ClangNode, double[]> eval) {
        double lo = form.constant;
        for (Map.Entry<String, Double> t : form.coef.entrySet()) {
            double c = t.getValue();
            if (c == 0) continue;
            double[] x = eval.apply(form.node.get(t.getKey()));
            if (x == null) return Double.NEGATIVE_INFINITY;
            double v = c > 0 ? x[0] : x[1];
            if (Double.isInfinite(v) || Double.isNaN(v)) return Double.NEGATIVE_INFINITY;
            lo += c * v;
        }
        return lo;
    }

    /**
     * The call of one of {@code names} ({@code min(a, b)}, {@code fmaxf(a, b)}) the term {@code key} is: written inline,
     * or the definition of a local of {@code fn} never written after it; or null.
     */
    private static ClangNode extreme(String key, ClangNode term, ClangUnit.Function fn, Set<String> names) {
        ClangNode call = term;
        if (!key.startsWith("()")) {
            ClangNode def = ClangWholeNumbers.onlyDefinition(key, fn);
            call = def == null ? null : strip(def);
        }
        if (call == null || call.kind != CXCursor_CallExpr || arguments(call).size() != 2) return null;
        return names.contains(callee(call)) ? call : null;
    }
}
