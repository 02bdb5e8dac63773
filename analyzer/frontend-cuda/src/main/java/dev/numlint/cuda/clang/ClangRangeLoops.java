package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * The element a range-based for loop visits in a list of constants: {@code auto coords = {3.93, 0.46, 10.86}; for
 * (auto &&c : coords)} gives {@code c} a value in [0.46, 10.86] (session 51: a B-spline test's four conversions of
 * {@code floor(coord)} to {@code size_t} were unguarded errors). The list must be a local of the function whose
 * initializer is a braced list of constants and whose elements cannot change: a {@code std::initializer_list} (its
 * elements are const) or a const array or container; the loop variable must not be written in the body.
 */
final class ClangRangeLoops {
    private ClangRangeLoops() {}

    /** The interval of {@code ref}, a read of a range-for loop's variable over such a list, or null. */
    static double[] element(ClangNode ref, ClangUnit.Function fn) {
        if (ref.refUsr == null) return null;
        ClangNode loop = null;
        for (ClangNode p = ref.parent; p != null && p != fn.node(); p = p.parent) {
            if (p.kind == CXCursor_CXXForRangeStmt
                    && p.children.size() >= 3
                    && p.children.get(0).kind == CXCursor_VarDecl
                    && ref.refUsr.equals(p.children.get(0).usr)) {
                loop = p;
                break;
            }
        }
        if (loop == null || writes(loop.children.get(loop.children.size() - 1), ref.refUsr)) return null;
        ClangNode range = strip(loop.children.get(1));
        if (range == null || range.kind != CXCursor_DeclRefExpr || range.refUsr == null) return null;
        String list = range.refUsr;
        ClangNode[] decl = new ClangNode[1];
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_VarDecl && list.equals(x.usr)) decl[0] = x;
        });
        ClangNode d = decl[0];
        if (d == null || d.children.isEmpty() || d.canon == null) return null;
        boolean immutable = d.canon.contains("initializer_list") || d.canon.startsWith("const ");
        if (!immutable) return null;
        ClangNode init = d.children.get(d.children.size() - 1);
        while (init != null && init.kind != CXCursor_InitListExpr && init.children.size() == 1)
            init = init.children.get(0);
        if (init == null || init.kind != CXCursor_InitListExpr || init.children.isEmpty()) return null;
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (ClangNode e : init.children) {
            Double v = folded(e);
            if (v == null || v.isNaN()) return null;
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return new double[] {lo, hi};
    }

    private static boolean writes(ClangNode n, String usr) {
        boolean[] w = new boolean[1];
        n.forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr) && (written(x) || aliases(x))) w[0] = true;
        });
        return w[0];
    }
}
