package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.NumericFacts;
import java.util.ArrayList;
import java.util.List;

/**
 * The periodic-wrap fact on Clang's tree: a rounding of a value whose whole periods are subtracted from that same
 * value, the minimum-image convention and wraps into one period ({@code f.x -= floorf(0.5f + f.x)} in fractional
 * coordinates, {@code dx -= box * rintf(dx * invBox)}, {@code x = x - L * floor(x / L)}), also through a local that
 * holds the count ({@code real fx = floorf(0.5f + xr * ra.x); xr -= fx * l1.x;}) and a lattice vector's sum of counts
 * times cell vectors ({@code xr -= (fz * l1.z + fy * l1.y + fx * l1.x)}, a triclinic box). Where one ulp moves the
 * count, the result moves by a whole period or lattice vector to an equivalent image: continuous modulo the period,
 * the rounding itself decides nothing (a distance at exactly half a box is as near through either image). What the
 * wrapped value does next is followed on its own (the walk of the value reaches the subtraction).
 */
final class ClangPeriodicWraps {
    private ClangPeriodicWraps() {}

    /**
     * Whether {@code rounding} (a rounding call or an explicit integer cast) of {@code operand} gives a count of
     * periods subtracted, alone or times one factor (the period), from a variable or member that {@code operand}
     * reads; or, held in a local, whether every read of the local is such a count (the component it is subtracted
     * from read by its operand or by that of another count of the same sum).
     */
    static boolean wraps(ClangUnit unit, ClangNode rounding, ClangNode operand) {
        if (operand == null) return false;
        ClangNode cur = up(rounding);
        ClangNode p = cur.parent;
        String local = p == null ? null : heldIn(p, cur);
        if (local == null) return subtracted(unit, cur, operand);
        ClangNode fn = p;
        while (fn != null && !ClangUnit.FUNCTION_KINDS.contains(fn.kind)) fn = fn.parent;
        if (fn == null) return false;
        List<ClangNode> reads = new ArrayList<>();
        boolean[] other = new boolean[1];
        fn.forEach(n -> {
            if (n.kind == CXCursor_DeclRefExpr && local.equals(n.refUsr)) reads.add(n);
            if (n != p && ClangLoops.writes(n, local)) other[0] = true;
        });
        if (other[0] || reads.isEmpty()) return false;
        for (ClangNode r : reads) {
            if (!subtracted(unit, up(r), operand)) return false;
        }
        return true;
    }

    /** The local (its USR) that {@code p} initializes or assigns with {@code value}, else null. */
    private static String heldIn(ClangNode p, ClangNode value) {
        if (p.kind == CXCursor_VarDecl && p.usr != null && p.children.get(p.children.size() - 1) == value) return p.usr;
        if (p.kind == CXCursor_BinaryOperator
                && p.spelling.equals("=")
                && p.children.size() == 2
                && p.children.get(1) == value) {
            ClangNode l = strip(p.children.get(0));
            return l != null && l.kind == CXCursor_DeclRefExpr ? l.refUsr : null;
        }
        return null;
    }

    /** {@code n} with the parentheses, implicit conversions and casts around it. */
    private static ClangNode up(ClangNode n) {
        ClangNode cur = n;
        while (cur.parent != null
                && (cur.parent.kind == CXCursor_ParenExpr
                        || (cur.parent.kind == CXCursor_UnexposedExpr || isExplicitCast(cur.parent))
                                && cur.parent.children.size() == 1)) cur = cur.parent;
        return cur;
    }

    /**
     * Whether the count {@code cur}, alone or times one factor and as a term of a sum of such terms, is subtracted
     * from the value {@code operand} was computed from (or from a component another count of the sum was).
     */
    private static boolean subtracted(ClangUnit unit, ClangNode cur, ClangNode operand) {
        ClangNode p = cur.parent;
        if (p != null && p.kind == CXCursor_BinaryOperator && p.spelling.equals("*") && p.children.size() == 2) {
            cur = up(p);
            p = cur.parent;
        }
        List<ClangNode> sum = new ArrayList<>(List.of(cur));
        while (p != null && p.kind == CXCursor_BinaryOperator && p.spelling.equals("+") && p.children.size() == 2) {
            cur = up(p);
            sum.add(cur);
            p = cur.parent;
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
        if (reads(unit, operand, wrapped)) return true;
        // a lattice vector (fz * l1.z + fy * l1.y + fx * l1.x): another count of the sum was computed from the target
        ClangNode whole = sum.get(sum.size() - 1);
        boolean[] found = new boolean[1];
        whole.forEach(n -> {
            if (found[0] || n.kind != CXCursor_DeclRefExpr || n.refUsr == null) return;
            ClangNode init = initialRounding(n);
            if (init != null && reads(unit, init, wrapped)) found[0] = true;
        });
        return found[0];
    }

    /** The argument of the rounding call a local read by {@code ref} is declared with, else null. */
    private static ClangNode initialRounding(ClangNode ref) {
        ClangNode fn = ref;
        while (fn != null && !ClangUnit.FUNCTION_KINDS.contains(fn.kind)) fn = fn.parent;
        if (fn == null) return null;
        ClangNode[] arg = new ClangNode[1];
        fn.forEach(n -> {
            if (arg[0] != null || n.kind != CXCursor_VarDecl || !ref.refUsr.equals(n.usr) || n.children.isEmpty())
                return;
            ClangNode v = strip(n.children.get(n.children.size() - 1));
            while (v != null && isExplicitCast(v) && operandOf(v) != null) v = strip(operandOf(v));
            if (v == null || v.kind != CXCursor_CallExpr) return;
            String f = callee(v).replace("std::", "");
            List<ClangNode> args = arguments(v);
            if (NumericFacts.ROUNDING.contains(f) && args.size() == 1) arg[0] = args.get(0);
        });
        return arg[0];
    }

    private static boolean reads(ClangUnit unit, ClangNode e, String wrapped) {
        boolean[] reads = new boolean[1];
        e.forEach(n -> {
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
