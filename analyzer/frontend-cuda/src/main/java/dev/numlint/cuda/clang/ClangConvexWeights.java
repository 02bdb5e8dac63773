package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * The weights of a convex combination {@code a * (1 - w) + b * w} ({@link ClangIntervals}): the complement written in
 * place, or held in a local defined once ({@code float fh = ceilf(off) - off; float fl = 1.0f - fh;}: a slice
 * interpolation of a medical image converter, session 64 round F, whose bytes stay bytes); and the interpolation
 * written {@code a + w * (b - a)} ({@link #lerp}).
 */
final class ClangConvexWeights {
    private ClangConvexWeights() {}

    /**
     * [lo, hi] widened by the rounding of a blend computed in the floating type {@code kind}: 2^-20 of each bound in
     * float (a few ulps of 2^-24), 2^-50 in double (a few of 2^-53). A blend of an {@code unsigned int} in double stays
     * within its range ({@code red = alpha * image[i] + (1. - alpha) * red}, session 84 round AC: gnuplot's X11
     * alpha blending, a false NL001 error "reaches 4294971391"); in float it does not (4294967295 is no float).
     */
    static double[] rounded(double lo, double hi, int kind) {
        double e = kind == CXType_Float || kind == CXType_Half || kind == CXType_Float16 ? 0x1p-20 : 0x1p-50;
        return new double[] {lo - Math.abs(lo) * e, hi + Math.abs(hi) * e};
    }

    /**
     * Whether {@code u} is {@code 1 - w} ({@code 1.0f - w}, {@code w} by its text and tree), or a local of
     * {@code fn} whose one definition is, neither it nor {@code w}'s variable written after it.
     */
    static boolean complement(ClangUnit unit, ClangIntervals iv, ClangNode u, ClangNode w, ClangUnit.Function fn) {
        if (direct(unit, u, w)) return true;
        if (fn == null || u.kind != CXCursor_DeclRefExpr || u.refUsr == null) return false;
        if (w.kind != CXCursor_DeclRefExpr || w.refUsr == null) return false;
        ClangIntervals.Definitions defs = iv.definitions(fn);
        ClangNode init = strip(defs.initial().get(u.refUsr));
        if (init == null || defs.written().contains(u.refUsr) || defs.written().contains(w.refUsr)) return false;
        if (!iv.unaliasedLocals(fn).contains(u.refUsr)
                || !iv.unaliasedLocals(fn).contains(w.refUsr)) return false;
        return direct(unit, init, w);
    }

    /**
     * The interval of {@code plus} when it is {@code a + w * (b - a)} (either order of the sum and of the product; the
     * two {@code a} the same expression, casts aside) with {@code w} in [0, 1]: between {@code a} and {@code b}, a
     * relative 2^-20 wider for the roundings (session 77 round B: a gradient table's channels, {@code start.r + ratio
     * * (end.r - start.r)} with {@code ratio = i / span} of a loop to {@code span}); null otherwise.
     */
    static double[] lerp(
            ClangIntervals iv,
            ClangNode plus,
            ClangUnit.Function fn,
            java.util.function.Function<ClangNode, double[]> eval) {
        if (!plus.spelling.equals("+") || plus.children.size() != 2 || !floating(plus.canonKind)) return null;
        for (int k = 0; k < 2; k++) {
            ClangNode a = plus.children.get(k);
            ClangNode p = strip(plus.children.get(1 - k));
            // the scaled difference held in a local: float d = b - a; d *= w; ... a + d
            ClangNode held = p == null ? null : scaledDifference(iv, fn, p, plus);
            if (held != null) p = held;
            if (p == null || p.kind != CXCursor_BinaryOperator || !p.spelling.equals("*") || p.children.size() != 2)
                continue;
            for (int j = 0; j < 2; j++) {
                ClangNode d = uncastAll(p.children.get(1 - j));
                if (d == null || d.kind != CXCursor_BinaryOperator || !d.spelling.equals("-") || d.children.size() != 2)
                    continue;
                if (!sameTree(uncastAll(d.children.get(1)), uncastAll(a))) continue;
                double[] w = eval.apply(p.children.get(j));
                if (w[0] < 0 || w[1] > 1) continue;
                double[] x = eval.apply(a), y = eval.apply(d.children.get(0));
                double lo = Math.min(x[0], y[0]), hi = Math.max(x[1], y[1]);
                return new double[] {lo - Math.abs(lo) * 0x1p-20, hi + Math.abs(hi) * 0x1p-20};
            }
        }
        return null;
    }

    /**
     * A local that holds {@code (b - a) * w} where {@code use} reads it: declared with {@code b - a}, then scaled once
     * by {@code d *= w} in the same block, and written nowhere else (session 78 round D: a terminal visualizer's
     * gradient, {@code float next = to[c] - from[c]; next *= n / (float)size; out[c] = from[c] + next;}, reported "as
     * low as -65535"). The product as a node of its own, its factors the declaration's initializer and the scaling's
     * operand; null for anything else.
     */
    private static ClangNode scaledDifference(ClangIntervals iv, ClangUnit.Function fn, ClangNode ref, ClangNode use) {
        if (iv == null || fn == null || ref.kind != CXCursor_DeclRefExpr || ref.refUsr == null) return null;
        String v = ref.refUsr;
        ClangNode init = iv.definitions(fn).initial().get(v);
        ClangNode diff = init == null ? null : strip(init);
        if (diff == null || diff.kind != CXCursor_BinaryOperator || !diff.spelling.equals("-")) return null;
        if (!iv.unaliasedLocals(fn).contains(v)) return null;
        ClangNode decl = init.parent;
        ClangNode block = decl == null || decl.parent == null ? null : decl.parent.parent;
        if (block == null || block.kind != CXCursor_CompoundStmt || decl.parent.kind != CXCursor_DeclStmt) return null;
        ClangNode[] scaled = {null};
        int[] writes = {0};
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && v.equals(x.refUsr) && ClangSyntax.written(x)) {
                writes[0]++;
                ClangNode op = ClangSyntax.outermost(x).parent;
                if (op.kind == CXCursor_CompoundAssignOperator && op.spelling.equals("*=")) scaled[0] = op;
            }
        });
        ClangNode op = scaled[0];
        if (writes[0] != 1 || op == null || op.parent != block || op.children.size() != 2) return null;
        if (!(decl.parent.offset < op.offset && op.endOffset <= use.offset && block.contains(use))) return null;
        // the difference's operands unchanged from the declaration to the use (a, b, and what the weight reads)
        java.util.Set<String> read = new java.util.HashSet<>();
        diff.forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null) read.add(x.refUsr);
        });
        op.children.get(1).forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null) read.add(x.refUsr);
        });
        for (ClangNode st : block.children) {
            if (st.offset <= decl.parent.offset || st.offset >= use.offset && !st.contains(use)) continue;
            if (writesAny(st, read)) return null;
        }
        return ClangNode.product(diff, op.children.get(1));
    }

    /** Whether {@code st} assigns to any of {@code vars}, whole or through a member or an element. */
    private static boolean writesAny(ClangNode st, java.util.Set<String> vars) {
        boolean[] hit = {false};
        st.forEach(x -> {
            if (hit[0] || !ClangSyntax.assignment(x) || x.children.isEmpty()) return;
            // the variable the target is part of: through members, elements and dereferences, not their indexes
            ClangNode t = strip(x.children.get(0));
            for (int d = 0; d < 16 && t != null && !t.children.isEmpty(); d++) {
                if (t.kind != CXCursor_ArraySubscriptExpr
                        && t.kind != CXCursor_MemberRefExpr
                        && t.kind != CXCursor_ParenExpr
                        && !(t.kind == CXCursor_UnaryOperator && t.spelling.equals("*"))) break;
                t = strip(t.children.get(0));
            }
            if (t != null && t.kind == CXCursor_DeclRefExpr && vars.contains(t.refUsr)) hit[0] = true;
        });
        return hit[0];
    }

    /** Whether {@code u} is {@code 1 - w} as written. */
    private static boolean direct(ClangUnit unit, ClangNode u, ClangNode w) {
        if (u.kind != CXCursor_BinaryOperator || !u.spelling.equals("-") || u.children.size() != 2) return false;
        Double one = ClangSyntax.folded(u.children.get(0));
        return one != null
                && one == 1.0
                && squash(unit.text(u.children.get(1))).equals(squash(unit.text(w)))
                && sameTree(u.children.get(1), w); // a macro's expansion: every node has the invocation's text
    }
}
