package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * The branches of a file's functions that a constant test never takes: the else of {@code if (1)}, the then of
 * {@code if (0)} or of a macro or constant that folds to 0 ({@code if (USE_SCALAR_PATH)}). The compiler drops them;
 * what they hold cannot change what the program computes (session 59, round B: a resampler's scalar fallback after
 * {@code if (1)}, whose SSE path always runs, held two serial-sum warnings). A test Clang cannot fold (a variable, a
 * template's dependent value) takes either branch.
 */
public final class ClangNeverTaken {
    private ClangNeverTaken() {}

    /** Where a branch never taken lies (lines and columns, the end inclusive) and why ("the else of 'if (1)' ..."). */
    public record Branch(int startLine, int startColumn, int endLine, int endColumn, String why) {
        /** Whether the position {@code line}:{@code column} (column 0: anywhere on the line) lies in the branch. */
        public boolean holds(int line, int column) {
            if (line < startLine || line > endLine) return false;
            if (column <= 0) return line > startLine && line < endLine;
            return (line > startLine || column >= startColumn) && (line < endLine || column <= endColumn);
        }
    }

    /** The branches of {@code unit}'s functions that their constant tests never take. */
    public static List<Branch> of(ClangUnit unit) {
        List<Branch> out = new ArrayList<>();
        for (ClangUnit.Function fn : unit.functions()) {
            if (fn.node() == null) continue;
            fn.node().forEach(n -> {
                if (n.kind != CXCursor_IfStmt || n.children.size() < 2 || n.offset < 0) return;
                ClangNode test = n.children.get(0);
                // if (T x = ...), if constexpr with a dependent test: no constant
                if (test.kind == CXCursor_DeclStmt || test.kind == CXCursor_VarDecl) return;
                Double v = folded(test);
                if (v == null || v.isNaN()) return;
                String at = "'if (" + unit.text(test) + ")' at line " + n.line;
                if (v == 0) {
                    ClangNode then = n.children.get(1);
                    out.add(new Branch(then.line, then.column, then.endLine, then.endColumn, "the branch of " + at));
                } else if (n.children.size() >= 3) {
                    ClangNode other = n.children.get(2);
                    out.add(new Branch(other.line, other.column, other.endLine, other.endColumn, "the else of " + at));
                }
            });
        }
        return out;
    }
}
