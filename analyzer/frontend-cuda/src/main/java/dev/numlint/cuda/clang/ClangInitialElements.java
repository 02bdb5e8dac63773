package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.function.Function;

/**
 * An element of a local array read at a constant index before anything but element reads touched the array: the
 * value its initializer list gives that index ({@code real cell[6] = {0.0, 800.0, 0.0, 800.0, 0.0, 800.0};} then
 * {@code (uint32_t)((cell[1] - cell[0]) * (cell[3] - cell[2]) * (cell[5] - cell[4]) * rho)}: 800 * 800 * 800 * rho;
 * session 82 round Q, a particle code's box sizes, eleven false NL001 errors "as low as -10618" from the hull of all
 * elements, the array being handed to a function later). The read's value is the initializer's when no reference of
 * the array that is not an element read comes before it, and none lies in a loop around it (a later iteration would
 * read after it); the array is a non-static local of fixed size and the function has no goto. An index past the
 * list is 0.
 */
final class ClangInitialElements {
    private ClangInitialElements() {}

    /** The interval of {@code read} ({@code base[k]}) from the array's initializer, or null when not known so. */
    static double[] of(
            ClangUnit unit, ClangNode read, ClangNode base, ClangUnit.Function fn, Function<ClangNode, double[]> eval) {
        ClangNode index = read.children.size() == 2 ? strip(read.children.get(1)) : null;
        // (a node of a macro's expansion has the offset of the macro's name: no order among them is known)
        if (index == null || index.value == null || read.offset < 0) return null;
        double k = index.value;
        if (k < 0 || k != Math.rint(k) || base.canonKind != CXType_ConstantArray) return null;
        String usr = base.refUsr;
        ClangNode[] decl = {null};
        boolean[] bad = {false};
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) decl[0] = x;
            if (x.kind == CXCursor_GotoStmt) bad[0] = true;
        });
        ClangNode d = decl[0];
        if (bad[0] || d == null || d.children.isEmpty() || d.offset > read.offset) return null;
        String stated = d.parent == null ? null : unit.text(d.parent);
        if (stated == null
                || stated.strip().startsWith("static")
                || stated.strip().startsWith("thread_local")) return null;
        ClangNode init = d.children.get(d.children.size() - 1);
        String list = unit.text(init);
        // a designated initializer ([3] = x, .f = x) places its values elsewhere than in their order
        if (init.kind != CXCursor_InitListExpr || list == null || list.contains("[") || list.contains("=")) return null;
        fn.node().forEach(x -> {
            if (bad[0] || x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr) || x == base) return;
            if (elementRead(x)) return;
            if (x.offset <= read.offset || inLoopAround(x, read, fn.node())) bad[0] = true;
        });
        if (bad[0]) return null;
        if (k >= init.children.size()) return new double[] {0, 0};
        return eval.apply(init.children.get((int) k));
    }

    /** Whether the reference {@code x} of an array is the base of an element that is only read. */
    private static boolean elementRead(ClangNode x) {
        ClangNode c = x;
        ClangNode p = x.parent;
        while (p != null && (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_ParenExpr)) {
            c = p;
            p = p.parent;
        }
        if (p == null || p.kind != CXCursor_ArraySubscriptExpr || p.children.get(0) != c) return false;
        return !written(p) && !aliases(p);
    }

    /** Whether a loop of {@code fn} holds both {@code x} and {@code read}. */
    private static boolean inLoopAround(ClangNode x, ClangNode read, ClangNode fn) {
        for (ClangNode p = read.parent; p != null && p != fn; p = p.parent) {
            if (isLoop(p) && within(x, p)) return true;
        }
        return false;
    }
}
