package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * The value an element or a pointer's target holds right after a statement of the same block stored it, with nothing
 * written in between: {@code *pd = (float)*ps; if (*ps != (unsigned char)*pd) fail = 1;} reads back the value just
 * stored, a conversion of an {@code unsigned char}, so the conversion back is in [0, 255] (session 64 round D: an
 * image tool's check that a conversion can be undone was 9 false errors and warnings, in a macro).
 *
 * <p>Conservative: the store is the nearest earlier statement of the block that holds the read's statement that
 * writes anything, and no statement between them, nor the read's own statement before the read, assigns, steps or
 * calls anything (a store through another pointer may alias the element; a call may write it).
 */
final class ClangForwardedStores {
    private ClangForwardedStores() {}

    /** The interval of the value the read {@code n} ({@code *p}, {@code a[i]}) gets from such a store, or null. */
    static double[] of(ClangIntervals intervals, ClangNode n, ClangUnit.Function fn, int depth) {
        String key = ClangGuards.Path.key(n);
        if (key == null || fn == null) return null;
        ClangNode statement = n;
        while (statement.parent != null
                && statement.parent != fn.node()
                && statement.parent.kind != CXCursor_CompoundStmt) statement = statement.parent;
        ClangNode block = statement.parent;
        if (block == null || block.kind != CXCursor_CompoundStmt) return null;
        if (writesBefore(statement, n.offset)) return null;
        for (int k = block.children.indexOf(statement) - 1; k >= 0; k--) {
            ClangNode s = block.children.get(k);
            ClangNode e = strip(s);
            if (e != null && e.kind == CXCursor_BinaryOperator && e.spelling.equals("=") && e.children.size() == 2) {
                if (!key.equals(ClangGuards.Path.key(e.children.get(0)))) return null;
                ClangNode value = e.children.get(1);
                if (writesBefore(value, Integer.MAX_VALUE)) return null;
                return intervals.of(value, fn, depth - 1);
            }
            if (writesBefore(s, Integer.MAX_VALUE)) return null;
        }
        return null;
    }

    /** Whether {@code s} assigns, steps or calls anything at an offset before {@code offset}. */
    private static boolean writesBefore(ClangNode s, int offset) {
        boolean[] hit = new boolean[1];
        s.forEach(x -> {
            if (hit[0] || x.offset >= offset) return;
            hit[0] = x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                    || x.kind == CXCursor_CompoundAssignOperator
                    || x.kind == CXCursor_UnaryOperator && (x.spelling.equals("++") || x.spelling.equals("--"))
                    || x.kind == CXCursor_CallExpr;
        });
        return hit[0];
    }
}
