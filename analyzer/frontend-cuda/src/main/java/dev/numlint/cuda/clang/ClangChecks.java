package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.List;

/**
 * Precondition checks as libraries write them in macros, read as the tests they are. GLib's {@code
 * g_return_if_fail(expr)} expands to {@code do { if (__builtin_expect(({ int v; if (expr) v = 1; else v = 0; v; }), 1))
 * { } else { g_return_if_fail_warning(...); return; } } while (0)}: a statement that runs once, an if whose branch for
 * a holding test is empty and whose other branch leaves, and a test behind a branch-prediction hint and a statement
 * expression that makes it 0 or 1. Past the statement, {@code expr} held (session 59, chafa: an add-half rounding of a
 * height checked non-negative this way had been a false warning).
 */
final class ClangChecks {
    private ClangChecks() {}

    /**
     * The if statement a {@code do { if (...) ...; } while (0)} runs once ({@code s} itself when it is an if), or null.
     * A {@code break} or {@code continue} in that if leaves the {@code do}, not the block around it: see {@link
     * #inOnce}.
     */
    static ClangNode ifOf(ClangNode s) {
        if (s == null) return null;
        if (s.kind == CXCursor_IfStmt) return s;
        if (!inOnce(s)) return null;
        ClangNode body = soleStatement(s.children.get(0));
        return body != null && body.kind == CXCursor_IfStmt ? body : null;
    }

    /** Whether {@code s} is a {@code do { ... } while (0)}: its body runs exactly once. */
    static boolean inOnce(ClangNode s) {
        if (s == null || s.kind != CXCursor_DoStmt || s.children.size() != 2) return false;
        Double c = constant(s.children.get(1));
        return c != null && c == 0;
    }

    /**
     * The condition a test states, seen through parentheses, a hint {@code __builtin_expect(c, v)} and a statement
     * expression that only turns a condition into 0 or 1 ({@code ({ int v; if (c) v = 1; else v = 0; v; })}); the
     * test itself otherwise.
     */
    static ClangNode condition(ClangNode test) {
        ClangNode t = bare(test);
        for (int d = 0; d < 4 && t != null; d++) {
            ClangNode next = null;
            if (t.kind == CXCursor_CallExpr && callee(t).equals("__builtin_expect")) {
                List<ClangNode> args = arguments(t);
                if (args.size() == 2) next = args.get(0);
            } else if (t.kind == CXCursor_StmtExpr && t.children.size() == 1) {
                next = zeroOrOne(t.children.get(0));
            }
            if (next == null) return t;
            t = bare(next);
        }
        return t;
    }

    /**
     * The condition {@code c} of a block {@code { int v; if (c) v = 1; else v = 0; v; }}, or null: a declaration of
     * {@code v}, the if that stores 1 and 0 into it, and {@code v} as the block's value.
     */
    private static ClangNode zeroOrOne(ClangNode block) {
        if (block.kind != CXCursor_CompoundStmt || block.children.size() != 3) return null;
        ClangNode decl = block.children.get(0), st = block.children.get(1), value = bare(block.children.get(2));
        if (decl.kind != CXCursor_DeclStmt || decl.children.size() != 1) return null;
        String v = decl.children.get(0).usr;
        if (v == null || st.kind != CXCursor_IfStmt || st.children.size() != 3) return null;
        if (value == null || value.kind != CXCursor_DeclRefExpr || !v.equals(value.refUsr)) return null;
        return stores(st.children.get(1), v, 1) && stores(st.children.get(2), v, 0) ? st.children.get(0) : null;
    }

    /** Whether the branch {@code s} is the one statement {@code v = k}. */
    private static boolean stores(ClangNode s, String v, double k) {
        ClangNode e = bare(soleStatement(s));
        if (e == null || e.kind != CXCursor_BinaryOperator || !e.spelling.equals("=") || e.children.size() != 2)
            return false;
        ClangNode l = bare(e.children.get(0));
        Double c = constant(e.children.get(1));
        return l != null && l.kind == CXCursor_DeclRefExpr && v.equals(l.refUsr) && c != null && c == k;
    }
}
