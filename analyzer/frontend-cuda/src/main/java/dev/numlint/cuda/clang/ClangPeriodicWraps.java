package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * The periodic-wrap fact on Clang's tree: a rounding of a value whose whole periods are subtracted from that same
 * value, the minimum-image convention and wraps into one period ({@code f.x -= floorf(0.5f + f.x)} in fractional
 * coordinates, {@code dx -= box * rintf(dx * invBox)}, {@code x = x - L * floor(x / L)}). Where one ulp moves the
 * count of periods, the result moves by one period to an equivalent image: continuous modulo the period, the
 * rounding itself decides nothing (a distance at exactly half a box is as near through either image). What the wrapped
 * value does next is followed on its own (the walk of the value reaches the subtraction).
 */
final class ClangPeriodicWraps {
    private ClangPeriodicWraps() {}

    /**
     * Whether {@code rounding} (a rounding call or an explicit integer cast) of {@code operand} gives a count of
     * periods subtracted, alone or times one factor (the period), from a variable or member that {@code operand}
     * reads.
     */
    static boolean wraps(ClangUnit unit, ClangNode rounding, ClangNode operand) {
        if (operand == null) return false;
        ClangNode cur = rounding;
        ClangNode p = cur.parent;
        boolean scaled = false;
        for (int steps = 0; steps < 12 && p != null; steps++) {
            if (p.kind == CXCursor_ParenExpr
                    || (p.kind == CXCursor_UnexposedExpr || isExplicitCast(p)) && p.children.size() == 1) {
                cur = p;
                p = p.parent;
                continue;
            }
            if (!scaled && p.kind == CXCursor_BinaryOperator && p.spelling.equals("*") && p.children.size() == 2) {
                scaled = true;
                cur = p;
                p = p.parent;
                continue;
            }
            break;
        }
        if (p == null || p.children.size() != 2 || p.children.get(1) != cur) return false;
        boolean subtracts = p.kind == CXCursor_CompoundAssignOperator && p.spelling.equals("-=")
                || p.kind == CXCursor_BinaryOperator && p.spelling.equals("-");
        if (!subtracts) return false;
        ClangNode target = strip(p.children.get(0));
        if (target == null || !floating(target.canonKind)) return false;
        String wrapped = bare(unit.text(target));
        // (w + 0.5f) - floorf(w + 0.5f): the rounded value itself, wrapped into one period
        if (wrapped.equals(bare(unit.text(operand)))) return true;
        if (target.kind != CXCursor_DeclRefExpr && target.kind != CXCursor_MemberRefExpr) return false;
        boolean[] reads = new boolean[1];
        operand.forEach(n -> {
            if ((n.kind == CXCursor_DeclRefExpr || n.kind == CXCursor_MemberRefExpr)
                    && wrapped.equals(bare(unit.text(n)))) reads[0] = true;
        });
        return reads[0];
    }

    /** The text without white space and without parentheses around the whole. */
    private static String bare(String text) {
        String t = squash(text);
        while (t.length() > 2 && t.charAt(0) == '(' && closes(t) == t.length() - 1) t = t.substring(1, t.length() - 1);
        return t;
    }

    /** The index of the parenthesis that closes the one at 0. */
    private static int closes(String t) {
        int depth = 0;
        for (int i = 0; i < t.length(); i++) {
            if (t.charAt(i) == '(') depth++;
            else if (t.charAt(i) == ')' && --depth == 0) return i;
        }
        return -1;
    }
}
