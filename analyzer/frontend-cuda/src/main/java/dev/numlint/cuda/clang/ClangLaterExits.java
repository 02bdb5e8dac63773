package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.HashSet;
import java.util.Set;

/**
 * An early exit after a conversion but before its result is used: {@code const size_t lo = (size_t)(f); const size_t
 * hi = (size_t)ceil(f); if (f < 0) return y[0]; ... y[lo] ...} (a tone mapper's lookup, session 69 round F: two
 * false errors and a copy). Where the test sends the value out of range away, the converted result is never read:
 * whatever x86 and the GPU give for it differs nowhere. Only the certain case: the conversion is in the initializer of
 * a local the block's statement declares, the exit is one of the block's later statements, and no statement between
 * reads one of those locals or writes the value.
 */
final class ClangLaterExits {
    private ClangLaterExits() {}

    /**
     * The guard an exit after statement {@code i} of {@code block} gives the read {@code at} of {@code usr} in that
     * statement's declaration, or null.
     */
    static String of(ClangUnit unit, ClangNode block, int i, ClangNode at, ClangGuards.Path usr) {
        ClangNode decl = block.children.get(i);
        if (decl.kind != CXCursor_DeclStmt) return null;
        Set<String> locals = new HashSet<>();
        for (ClangNode d : decl.children) {
            if (d.kind == CXCursor_VarDecl && d.usr != null && !d.children.isEmpty() && within(at, d))
                locals.add(d.usr);
        }
        if (locals.isEmpty()) return null;
        for (int k = i + 1; k < block.children.size(); k++) {
            ClangNode s = block.children.get(k);
            if (ClangSyntax.labelled(s) != s) return null; // entered through a label: the exit may be skipped
            ClangNode check = ClangChecks.ifOf(s);
            if (check != null && !reads(check, locals)) {
                String g = ClangGuards.chainExit(unit, check, usr, check != s);
                if (g != null) return g + " before the result is used";
            }
            if (s.kind == CXCursor_DeclStmt) { // const size_t hi = (size_t)ceil(f);: a sibling conversion
                for (ClangNode d : s.children) if (d.kind == CXCursor_VarDecl && d.usr != null) locals.add(d.usr);
            }
            if (reads(s, locals) || ClangGuards.writes(s, usr)) return null;
        }
        return null;
    }

    /** Whether {@code s} refers to one of {@code locals}. */
    private static boolean reads(ClangNode s, Set<String> locals) {
        boolean[] hit = {false};
        s.forEach(x -> hit[0] |= x.refUsr != null && locals.contains(x.refUsr));
        return hit[0];
    }
}
