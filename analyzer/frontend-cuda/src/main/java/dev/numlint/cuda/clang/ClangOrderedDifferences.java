package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * A difference whose operands a test orders ({@code if (a > b) ... (unsigned)(a - b)}): not negative where the
 * test holds, a guard of the conversions of what it scales ({@link ClangGuards}).
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
        String left = operandKey(a);
        String right = operandKey(b);
        if (left == null || right == null) return null;
        ClangNode c = d;
        for (ClangNode p = d.parent; p != null; c = p, p = p.parent) {
            ClangNode test = null;
            if (p.kind == CXCursor_IfStmt && p.children.size() >= 2 && p.children.get(1) == c) test = p.children.get(0);
            if (p.kind == CXCursor_ConditionalOperator && p.children.size() == 3 && p.children.get(1) == c)
                test = p.children.get(0);
            if (test == null || !orders(test, left, right)) continue;
            if (p.kind == CXCursor_IfStmt) {
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
            return "the test '" + unit.text(test) + "' (line " + test.line + ")";
        }
        return null;
    }

    /** The key of a difference's operand: a variable, member or element ({@link ClangGuards.Path#key}), else null. */
    static String operandKey(ClangNode e) {
        ClangNode n = strip(e);
        while (n != null && isExplicitCast(n)) n = strip(operandOf(n));
        return n == null ? null : ClangGuards.Path.key(n);
    }

    /** Whether {@code test}, or a conjunct of it, states {@code left > right} or {@code left >= right}. */
    private static boolean orders(ClangNode test, String left, String right) {
        ClangNode t = strip(test);
        while (t != null && t.kind == CXCursor_ParenExpr && t.children.size() == 1) t = strip(t.children.get(0));
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return false;
        if (t.spelling.equals("&&"))
            return orders(t.children.get(0), left, right) || orders(t.children.get(1), left, right);
        String x = operandKey(t.children.get(0));
        String y = operandKey(t.children.get(1));
        if (x == null || y == null) return false;
        return switch (t.spelling) {
            case ">", ">=" -> x.equals(left) && y.equals(right);
            case "<", "<=" -> x.equals(right) && y.equals(left);
            default -> false;
        };
    }
}
