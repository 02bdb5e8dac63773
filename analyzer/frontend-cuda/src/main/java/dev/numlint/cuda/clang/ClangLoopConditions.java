package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads of a value in the conditions of the loops around its definition (a def-use fact of {@link ClangUses}, as the
 * hand-written front end follows a sum into its loop's test): {@code while (used < limit && k < n) { used += d[k];
 * ... }} tests the sum each iteration makes in the next one, although the condition is written before the update. The
 * loops are those around the definition inside the function, up to the first that declares the variable; the
 * condition of a {@code for} loop is known only when the loop has all four parts.
 */
final class ClangLoopConditions {
    private ClangLoopConditions() {}

    /** The references of {@code usr} ({@code reads}, in source order) in the loop conditions around {@code def}. */
    static List<ClangNode> reads(ClangNode def, String usr, List<ClangNode> reads, ClangUnit.Function fn) {
        List<ClangNode> out = new ArrayList<>();
        for (ClangNode p = def.parent; p != null && p != fn.node(); p = p.parent) {
            if (!isLoop(p)) continue;
            if (declares(p, usr)) break;
            ClangNode cond = condition(p);
            if (cond == null || cond.contains(def)) continue;
            for (ClangNode r : reads) if (cond.contains(r)) out.add(r);
        }
        return out;
    }

    /** The condition of a while, do or four-part for loop, else null. */
    private static ClangNode condition(ClangNode loop) {
        if (loop.children.isEmpty()) return null;
        if (loop.kind == CXCursor_WhileStmt) return loop.children.get(0);
        if (loop.kind == CXCursor_DoStmt) return loop.children.get(loop.children.size() - 1);
        if (loop.kind == CXCursor_ForStmt && loop.children.size() == 4) return loop.children.get(1);
        return null;
    }
}
