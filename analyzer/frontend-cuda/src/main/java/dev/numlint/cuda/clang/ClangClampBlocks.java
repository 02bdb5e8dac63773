package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * The statement of a clamp's branch that sets the value: the branch itself, or the one assignment of the value in a
 * block whose other statements neither write it nor leave, before it or after it ({@code { nclip++; x = M; }}, {@code
 * { norm = 0.0; cerr << "control value less than zero"; }}: session 73 round E, a synthesis library's controls that
 * log what they clamp).
 */
final class ClangClampBlocks {
    private ClangClampBlocks() {}

    /** The statement of {@code then} that sets {@code usr}, or null when the block is no such clamp. */
    static ClangNode setting(ClangNode then, ClangGuards.Path usr) {
        if (then.kind != CXCursor_CompoundStmt || then.children.isEmpty()) return then;
        ClangNode set = null;
        for (ClangNode st : then.children) {
            ClangNode x = strip(st);
            boolean assigns = x != null
                    && x.kind == CXCursor_BinaryOperator
                    && x.spelling.equals("=")
                    && x.children.size() == 2
                    && usr.key().equals(ClangGuards.Path.key(x.children.get(0)));
            if (assigns && set == null) set = st;
            else if (ClangGuards.writes(st, usr) || ClangGuards.leaves(st)) return null;
        }
        return set;
    }
}
