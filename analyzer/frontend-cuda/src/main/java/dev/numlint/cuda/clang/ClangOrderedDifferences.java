package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * A difference whose operands a test orders ({@code if (a > b) ... (unsigned)(a - b)}, or a loop's {@code for (j = 0;
 * j < n; j++) ... n - j}): not negative where the test holds, a guard of the conversions of what it scales ({@link
 * ClangGuards}).
 */
final class ClangOrderedDifferences {
    private ClangOrderedDifferences() {}

    /**
     * The test that orders the operands of the difference {@code d} = {@code a - b}: an enclosing {@code if (a > b)}
     * or {@code if (a >= b)} ({@code b < a}, {@code b <= a}; a conjunct of the test) whose branch holds {@code d}, or
     * the condition of a conditional that selects it; the difference is then positive (not negative), an integer
     * operand included ({@code if (total > elapsed) n = (total - elapsed) * speed;}). Null when no such test holds
     * or a variable of either operand is written between the test and the difference.
     */
    static String orderedBy(ClangUnit unit, ClangNode d, ClangNode a, ClangNode b) {
        String left = orderKey(unit, a);
        String right = orderKey(unit, b);
        if (left == null || right == null) return null;
        ClangNode c = d;
        for (ClangNode p = d.parent; p != null; c = p, p = p.parent) {
            ClangNode test = null;
            boolean holds = true;
            if (p.kind == CXCursor_IfStmt && p.children.size() >= 2 && p.children.get(1) == c) test = p.children.get(0);
            // the else branch: the test failed (if (k <= lev + 0.01) ... else ... k - (lev + 0.01); session 61)
            if (p.kind == CXCursor_IfStmt && p.children.size() == 3 && p.children.get(2) == c) {
                test = p.children.get(0);
                holds = false;
            }
            if (p.kind == CXCursor_ConditionalOperator && p.children.size() == 3 && p.children.get(0) != c) {
                test = p.children.get(0);
                holds = p.children.get(1) == c;
            }
            // the body of a loop whose test held to enter it: for (j = 0; j < n; j++) ... n - j - 1 (session 72
            // round C: an audio library's reversed list index); a do-while's body runs once before its test
            boolean loop = p.kind == CXCursor_ForStmt && p.children.size() == 4 && p.children.get(3) == c
                    || p.kind == CXCursor_WhileStmt && p.children.size() == 2 && p.children.get(1) == c;
            if (loop) test = p.children.get(p.kind == CXCursor_ForStmt ? 1 : 0);
            if (test == null || !orders(unit, test, left, right, holds)) continue;
            if (p.kind == CXCursor_IfStmt || loop) {
                ClangNode ifStmt = p;
                for (ClangNode o : java.util.List.of(a, b)) {
                    boolean[] written = new boolean[1];
                    o.forEach(x -> {
                        ClangGuards.Path v = ClangGuards.Path.of(x);
                        if (v != null && ClangGuards.writtenBetween(ifStmt, d, v)) written[0] = true;
                    });
                    if (written[0]) return null;
                }
            }
            return (holds ? "the test '" : "the failed test '") + ClangQuotes.test(unit, test) + "' (line " + test.line
                    + ")";
        }
        return raised(unit, d, a, b);
    }

    /**
     * The clamp that raised {@code a} to at least {@code b} before the difference {@code a - b}: an earlier statement
     * of an enclosing block {@code a = a > b ? a : b} (a {@code max} macro, {@code fmax(a, b)}, {@code std::max}),
     * with only clamps from above of {@code a} after it ({@code a = a < c ? a : c}, {@code fmin(a, c)}) and nothing
     * else writing {@code a} or {@code b} up to the difference (session 64 round E: an image library's colour index
     * {@code (size_t)((Yr - d_Y0R) / rstep)} after {@code Yr = TIFFmax(Yr, d_Y0R); Yr = TIFFmin(Yr, d_YCR);}). An upper
     * clamp below {@code b} would take it under again: taken as a range the code means ("taken as in range").
     */
    private static String raised(ClangUnit unit, ClangNode d, ClangNode a, ClangNode b) {
        String left = operandKey(a);
        String right = operandKey(b);
        ClangGuards.Path pa = ClangGuards.Path.of(strip(a)), pb = ClangGuards.Path.of(strip(b));
        if (left == null || right == null || pa == null || pb == null) return null;
        ClangNode c = d;
        for (ClangNode p = d.parent; p != null; c = p, p = p.parent) {
            if (p.kind != CXCursor_CompoundStmt) continue;
            for (int k = p.children.indexOf(c) - 1; k >= 0; k--) {
                ClangNode s = p.children.get(k);
                int clamp = clampOf(s, left, right);
                if (clamp > 0) return "the clamp '" + unit.text(s) + "' (line " + s.line + ")";
                if (clamp < 0) continue; // a = min(a, c): writes a, not b
                if (ClangGuards.writes(s, pa) || ClangGuards.writes(s, pb)) return null;
            }
        }
        return null;
    }

    /**
     * 1 when {@code s} is {@code a = max(a, b)} (as a conditional or a call), -1 when it is {@code a = min(a, c)} for
     * any {@code c}, 0 otherwise; {@code a} and {@code b} by their keys.
     */
    private static int clampOf(ClangNode s, String a, String b) {
        ClangNode e = strip(s);
        if (e == null || e.kind != CXCursor_BinaryOperator || !e.spelling.equals("=") || e.children.size() != 2)
            return 0;
        if (!a.equals(operandKey(e.children.get(0)))) return 0;
        ClangNode v = bare(e.children.get(1));
        if (v == null) return 0;
        boolean max;
        if (v.kind == CXCursor_ConditionalOperator && v.children.size() == 3) {
            ClangNode t = bare(v.children.get(0));
            if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return 0;
            boolean greater = t.spelling.startsWith(">");
            if (!greater && !t.spelling.startsWith("<")) return 0;
            String l = operandKey(t.children.get(0)), r = operandKey(t.children.get(1));
            String then = operandKey(v.children.get(1)), other = operandKey(v.children.get(2));
            if (l == null || r == null || then == null || other == null) return 0;
            // L > R ? L : R and L < R ? R : L are max(L, R); the others min
            if (then.equals(l) && other.equals(r)) max = greater;
            else if (then.equals(r) && other.equals(l)) max = !greater;
            else return 0;
            if (!(l.equals(a) || r.equals(a))) return 0;
            String peer = l.equals(a) ? r : l;
            return max ? (peer.equals(b) ? 1 : 0) : -1;
        }
        if (v.kind != CXCursor_CallExpr || arguments(v).size() != 2) return 0;
        String name = callee(v).replace("std::", "");
        if (ClangGuards.MAX_CALLS.contains(name)) max = true;
        else if (ClangGuards.MIN_CALLS.contains(name)) max = false;
        else return 0;
        String kx = operandKey(arguments(v).get(0)),
                ky = operandKey(arguments(v).get(1));
        if (!a.equals(kx) && !a.equals(ky)) return 0;
        String peer = a.equals(kx) ? ky : kx;
        return max ? (b.equals(peer) ? 1 : 0) : -1;
    }

    /**
     * {@link #operandKey}, or for an operand of variables, constants and arithmetic only ({@code lev + 0.01}) its
     * text: the same text in the test and the difference is the same value where nothing between writes it.
     */
    private static String orderKey(ClangUnit unit, ClangNode e) {
        String k = operandKey(e);
        if (k != null) return k;
        ClangNode n = bare(e);
        if (n == null || n.kind != CXCursor_BinaryOperator) return null;
        boolean[] plain = {true};
        n.forEach(x -> {
            if (x.kind == CXCursor_CallExpr
                    || x.kind == CXCursor_CompoundAssignOperator
                    || x.kind == CXCursor_UnaryOperator && (x.spelling.equals("++") || x.spelling.equals("--"))
                    || x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")) plain[0] = false;
        });
        String t = unit.text(n);
        return plain[0] && t != null ? "=" + squash(t) : null;
    }

    /** The key of a difference's operand: a variable, member or element ({@link ClangGuards.Path#key}), else null. */
    static String operandKey(ClangNode e) {
        ClangNode n = strip(e);
        while (n != null && isExplicitCast(n)) n = strip(operandOf(n));
        return n == null ? null : ClangGuards.Path.key(n);
    }

    /**
     * Whether {@code test} states {@code left > right} or {@code left >= right} where it came out {@code holds}: a
     * conjunct of one that held, or a disjunct of one that failed ({@code left <= right} failed).
     */
    private static boolean orders(ClangUnit unit, ClangNode test, String left, String right, boolean holds) {
        ClangNode t = strip(test);
        while (t != null && t.kind == CXCursor_ParenExpr && t.children.size() == 1) t = strip(t.children.get(0));
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return false;
        if (t.spelling.equals(holds ? "&&" : "||"))
            return orders(unit, t.children.get(0), left, right, holds)
                    || orders(unit, t.children.get(1), left, right, holds);
        String x = orderKey(unit, t.children.get(0));
        String y = orderKey(unit, t.children.get(1));
        if (x == null || y == null) return false;
        String op = holds ? t.spelling : negatedComparison(t.spelling);
        if (op == null) return false;
        return switch (op) {
            case ">", ">=" -> x.equals(left) && y.equals(right);
            case "<", "<=" -> x.equals(right) && y.equals(left);
            default -> false;
        };
    }

    /**
     * The extreme that orders the difference {@code d} = {@code a - b}: {@code b} the least element of a range ({@code
     * const double mn = *std::min_element(first, last);}) and {@code a} an element read from that range ({@code
     * first[x]}, {@code *first++}), or {@code a} the greatest ({@code std::max_element}) and {@code b} such an element:
     * the difference is not negative (session 61 round B: a text plotter's {@code (*begin++ - min) / range}). The
     * extreme is a local never written again; the range's first iterator is only moved forward ({@code ++}, {@code
     * +=}) in the function. Null otherwise.
     */
    static String extreme(ClangUnit unit, ClangNode d, ClangNode a, ClangNode b) {
        ClangUnit.Function fn = unit.functionOf(d);
        if (fn == null) return null;
        for (int k = 0; k < 2; k++) {
            ClangNode m = withoutCasts(k == 0 ? b : a), x = k == 0 ? a : b;
            if (m == null || m.kind != CXCursor_DeclRefExpr) continue;
            ClangNode value = ClangAllDefinitions.onlyValue(unit, fn, m);
            ClangNode call = value == m ? null : withoutCasts(dereferenced(value));
            if (call == null || call.kind != CXCursor_CallExpr) continue;
            String name = callee(call).replace("std::", "");
            if (!name.equals(k == 0 ? "min_element" : "max_element")
                    || arguments(call).isEmpty()) continue;
            ClangNode first = withoutCasts(arguments(call).get(0));
            String base = first != null && first.kind == CXCursor_DeclRefExpr ? first.refUsr : null;
            if (base == null || !base.equals(elementBase(x)) || !onlyForward(fn.node(), base)) continue;
            return "'" + unit.text(d) + "' (line " + d.line + "), not negative: '" + unit.text(m) + "' is the "
                    + (k == 0 ? "least" : "greatest") + " element of the range (line " + value.line + ")";
        }
        return null;
    }

    /** The operand {@code e} dereferences ({@code *p}, an iterator's {@code operator*}), or null. */
    private static ClangNode dereferenced(ClangNode e) {
        ClangNode s = withoutCasts(e);
        if (s == null) return null;
        if (s.kind == CXCursor_UnaryOperator && s.spelling.equals("*") && s.children.size() == 1)
            return s.children.get(0);
        if (s.kind == CXCursor_CallExpr && s.spelling.equals("operator*") && s.children.size() == 2)
            return s.children.get(1);
        return null;
    }

    /** The variable an element read {@code e} reads through: {@code p} of {@code p[i]}, {@code *p}, {@code *p++}. */
    private static String elementBase(ClangNode e) {
        ClangNode s = withoutCasts(e);
        if (s == null) return null;
        ClangNode p = s.kind == CXCursor_ArraySubscriptExpr && s.children.size() == 2 ? s.children.get(0) : null;
        if (p == null) p = dereferenced(s);
        p = withoutCasts(p);
        // *p++: the increment's operand (a pointer's ++, or an iterator's operator++)
        if (p != null && p.kind == CXCursor_UnaryOperator && p.spelling.equals("++") && p.children.size() == 1)
            p = withoutCasts(p.children.get(0));
        else if (p != null && p.kind == CXCursor_CallExpr && p.spelling.equals("operator++") && p.children.size() >= 2)
            p = withoutCasts(p.children.get(1));
        return p != null && p.kind == CXCursor_DeclRefExpr ? p.refUsr : null;
    }

    /**
     * Whether the function only moves {@code usr} forward: no assignment, decrement, other compound assignment or
     * address taken; {@code ++} and {@code +=} of a non-negative constant are allowed.
     */
    private static boolean onlyForward(ClangNode body, String usr) {
        boolean[] ok = {true};
        body.forEach(x -> {
            if (!ok[0] || x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr)) return;
            ClangNode c = outermost(x), p = c.parent;
            if (p == null) return;
            String op = p.kind == CXCursor_CallExpr && p.spelling.startsWith("operator") && p.children.indexOf(c) == 1
                    ? p.spelling.substring("operator".length())
                    : p.kind == CXCursor_UnaryOperator
                                    || (p.kind == CXCursor_BinaryOperator || p.kind == CXCursor_CompoundAssignOperator)
                                            && p.children.indexOf(c) == 0
                            ? p.spelling
                            : null;
            if (op == null || op.equals("++")) return;
            if (op.equals("+=") && p.children.size() == 2) {
                Double step = constant(p.children.get(1));
                if (step != null && step >= 0) return;
            }
            if (op.equals("=") || op.equals("--") || op.equals("&") || op.endsWith("=") && !isComparison(op))
                ok[0] = false;
        });
        return ok[0];
    }
}
