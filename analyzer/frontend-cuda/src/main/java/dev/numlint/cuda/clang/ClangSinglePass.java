package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

/**
 * A loop whose body never reaches its end and never continues: every path through it leaves the loop ({@code break},
 * {@code return}), so the body runs at most once, whatever its condition says. A physics engine's block solver,
 * {@code for (;;) { ... if (ok) { ...; break; } ... break; }} (session 62 round F): a sum it updates gets one term per
 * entry, not one per iteration. A {@code goto} or a label in the body, a {@code continue} of this loop, or a branch
 * that may complete normally keeps the loop as a loop.
 */
final class ClangSinglePass {
    private ClangSinglePass() {}

    /** Whether the body of the loop statement {@code loop} runs at most once per entry. */
    static boolean of(ClangNode loop) {
        if (loop == null || loop.children.isEmpty()) return false;
        if (loop.kind != CXCursor_ForStmt && loop.kind != CXCursor_WhileStmt && loop.kind != CXCursor_DoStmt)
            return false;
        ClangNode body =
                loop.kind == CXCursor_DoStmt ? loop.children.get(0) : loop.children.get(loop.children.size() - 1);
        if (body.kind != CXCursor_CompoundStmt) return false;
        boolean[] jumps = new boolean[1];
        body.forEach(x -> jumps[0] |=
                x.kind == CXCursor_GotoStmt || x.kind == CXCursor_IndirectGotoStmt || x.kind == CXCursor_LabelStmt);
        return !jumps[0] && !completes(body) && !continues(body);
    }

    /**
     * Whether {@code n} is a statement of the body of a do-while directly inside {@code loop} that does not hold
     * {@code update}: it runs at least once whenever the do-while does, and the value it stores is there after it.
     */
    static boolean doBodyStatement(ClangNode n, ClangNode loop, ClangNode update) {
        ClangNode d = ClangSyntax.innermostLoop(n);
        if (d == null || d == loop || d.kind != CXCursor_DoStmt || d.children.size() != 2 || d.contains(update))
            return false;
        ClangNode body = d.children.get(0);
        if (body.kind != CXCursor_CompoundStmt || n.parent != body || ClangSyntax.innermostLoop(d) != loop)
            return false;
        // a jump in the body may skip the statement in the pass that leaves: not taken as run
        boolean[] jumps = new boolean[1];
        body.forEach(x -> jumps[0] |= x.kind == CXCursor_BreakStmt
                || x.kind == CXCursor_ContinueStmt
                || x.kind == CXCursor_GotoStmt
                || x.kind == CXCursor_ReturnStmt
                || x.kind == CXCursor_LabelStmt);
        return !jumps[0];
    }

    /** Whether control may reach the end of the statement {@code st} (a conservative yes for any other kind). */
    private static boolean completes(ClangNode st) {
        switch (st.kind) {
            case CXCursor_BreakStmt, CXCursor_ReturnStmt, CXCursor_ContinueStmt -> {
                return false;
            }
            case CXCursor_CompoundStmt -> {
                for (ClangNode c : st.children) if (!completes(c)) return false;
                return true;
            }
            case CXCursor_IfStmt -> {
                // condition, then, else: a branch that completes lets the if complete
                if (st.children.size() != 3) return true;
                return completes(st.children.get(1)) || completes(st.children.get(2));
            }
            default -> {
                return true;
            }
        }
    }

    /** Whether {@code st} holds a {@code continue} of the enclosing loop (not of a loop nested in it). */
    private static boolean continues(ClangNode st) {
        if (st.kind == CXCursor_ContinueStmt) return true;
        if (st.kind == CXCursor_ForStmt || st.kind == CXCursor_WhileStmt || st.kind == CXCursor_DoStmt) return false;
        for (ClangNode c : st.children) if (continues(c)) return true;
        return false;
    }
}
