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
    static double[] lerp(ClangNode plus, java.util.function.Function<ClangNode, double[]> eval) {
        if (!plus.spelling.equals("+") || plus.children.size() != 2 || !floating(plus.canonKind)) return null;
        for (int k = 0; k < 2; k++) {
            ClangNode a = plus.children.get(k);
            ClangNode p = strip(plus.children.get(1 - k));
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
