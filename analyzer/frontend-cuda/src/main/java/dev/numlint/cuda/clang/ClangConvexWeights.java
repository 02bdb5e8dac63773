package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * The weights of a convex combination {@code a * (1 - w) + b * w} ({@link ClangIntervals}): the complement written in
 * place, or held in a local defined once ({@code float fh = ceilf(off) - off; float fl = 1.0f - fh;}: a slice
 * interpolation of a medical image converter, session 64 round F, whose bytes stay bytes).
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
