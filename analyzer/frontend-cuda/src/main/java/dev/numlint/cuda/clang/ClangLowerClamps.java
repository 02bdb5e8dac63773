package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * Whether an expression has one value for every value at most 0 of a local it reads: the local is read only in
 * conditional operators that compare it with a constant and, for every such value, pick a branch that does not read
 * it ({@code MIN(MAX(0, v), 64)}, {@code 255 - CLAMP(v, 0, 255)} of macros written as {@code ?:}, ft2-clone, session
 * 62 round F). A rounding by adding one half and truncating differs from rounding only where its result is at most
 * 0, so a clamp of this kind right after it makes both roundings equal ({@link ClangRoundingClamps}).
 */
final class ClangLowerClamps {
    private ClangLowerClamps() {}

    /** Whether {@code e} has the same value for every value {@code <= 0} of the local {@code usr}. */
    static boolean settles(ClangNode e, String usr) {
        return flat(e, usr, 0) && reads(e, usr);
    }

    private static boolean flat(ClangNode e, String usr, int depth) {
        if (e == null || depth > 32) return false;
        if (!reads(e, usr)) return true;
        ClangNode n = strip(e);
        if (n.kind == CXCursor_DeclRefExpr) return false;
        if (n.kind == CXCursor_ConditionalOperator && n.children.size() == 3) {
            ClangNode test = n.children.get(0), yes = n.children.get(1), no = n.children.get(2);
            int outcome = outcome(test, usr);
            if (outcome > 0) return flat(yes, usr, depth + 1);
            if (outcome < 0) return flat(no, usr, depth + 1);
            if (outcome == 0 && zeroAtBound(test, yes, no, usr)) return true;
            return flat(test, usr, depth + 1) && flat(yes, usr, depth + 1) && flat(no, usr, depth + 1);
        }
        if (n.kind == CXCursor_CallExpr) return false;
        if (n.kind == CXCursor_BinaryOperator && (n.spelling.equals("=") || n.spelling.equals(","))) return false;
        if (n.kind == CXCursor_CompoundAssignOperator) return false;
        if (n.kind == CXCursor_UnaryOperator && (n.spelling.equals("++") || n.spelling.equals("--"))) return false;
        for (ClangNode c : n.children) if (!flat(c, usr, depth + 1)) return false;
        return true;
    }

    /**
     * The outcome of {@code test} for every value {@code <= 0} of the local: 1 always true, -1 always false, 0 true
     * below 0 and false at 0 ({@code v < 0}), 2 unknown.
     */
    private static int outcome(ClangNode test, String usr) {
        ClangNode t = strip(test);
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return 2;
        ClangNode a = strip(t.children.get(0)), b = strip(t.children.get(1));
        String op = t.spelling;
        Double k;
        if (local(a, usr) && (k = folded(b)) != null) {
            // v op k
        } else if (local(b, usr) && (k = folded(a)) != null) {
            op = switch (op) {
                case "<" -> ">";
                case ">" -> "<";
                case "<=" -> ">=";
                case ">=" -> "<=";
                default -> op;
            };
        } else return 2;
        return switch (op) {
            case ">" -> k >= 0 ? -1 : 2;
            case ">=" -> k > 0 ? -1 : 2;
            case "<" -> k > 0 ? 1 : k == 0 ? 0 : 2;
            case "<=" -> k >= 0 ? 1 : 2;
            default -> 2;
        };
    }

    /** {@code v < 0 ? 0 : v}: 0 below 0 and the local itself at 0, which is 0 too. */
    private static boolean zeroAtBound(ClangNode test, ClangNode yes, ClangNode no, String usr) {
        Double y = folded(yes);
        return y != null
                && y == 0
                && (local(strip(no), usr)
                        || !reads(no, usr) && Double.valueOf(0).equals(folded(no)));
    }

    private static boolean local(ClangNode n, String usr) {
        ClangNode x = strip(n);
        return x != null && x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr);
    }

    private static boolean reads(ClangNode e, String usr) {
        boolean[] r = new boolean[1];
        e.forEach(x -> r[0] |= x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr));
        return r[0];
    }
}
