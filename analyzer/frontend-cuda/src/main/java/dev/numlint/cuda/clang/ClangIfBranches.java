package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

/**
 * The {@code if} a statement runs under: the statement is a branch of it, or a statement of a block that is one,
 * after statements that write nothing its value reads (so the test still holds of that value where it runs). Shared
 * by the running extremes of {@link ClangAllDefinitions} and the guarded stores of {@link ClangSigns}.
 */
final class ClangIfBranches {
    private ClangIfBranches() {}

    /** An {@code if} statement and whether the statement is in its then branch ({@code holds}) or its else branch. */
    record Branch(ClangNode ifStmt, boolean holds) {
        ClangNode test() {
            return ifStmt.children.get(0);
        }
    }

    /**
     * The {@code if} whose branch holds the statement {@code st} (directly, or in a block after statements that write
     * neither {@code usr}, when not null, nor a variable {@code value} reads), or null.
     */
    static Branch of(ClangNode st, ClangNode value, String usr) {
        if (st == null) return null;
        ClangNode branch = st.parent;
        if (branch != null && branch.kind == CXCursor_CompoundStmt) {
            for (ClangNode before : branch.children) {
                if (before == st) break;
                boolean[] writes = {usr != null && ClangSyntax.writesIn(before, usr)};
                value.forEach(r -> {
                    if (r.kind == CXCursor_DeclRefExpr && r.refUsr != null && ClangSyntax.writesIn(before, r.refUsr))
                        writes[0] = true;
                });
                if (writes[0]) return null;
            }
            st = branch;
            branch = branch.parent;
        }
        if (branch == null || branch.kind != CXCursor_IfStmt || branch.children.size() < 2) return null;
        if (branch.children.get(1) == st) return new Branch(branch, true);
        if (branch.children.size() >= 3 && branch.children.get(2) == st) return new Branch(branch, false);
        return null;
    }
}
