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
        ClangNode assertion = assertion(s);
        if (assertion != null) return assertion;
        if (!inOnce(s)) return null;
        ClangNode body = soleStatement(s.children.get(0));
        return body != null && body.kind == CXCursor_IfStmt ? body : null;
    }

    /**
     * The test of an {@code assert(c)} as glibc's {@code <assert.h>} expands it, as a check that does nothing when
     * {@code c} holds and does not return when it fails: in C {@code ((void) sizeof ((c) ? 1 : 0), __extension__ ({
     * if (c) ; else __assert_fail (...); }))}, whose if is returned; in C++ {@code (static_cast<bool>(c) ? void (0) :
     * __assert_fail (...))}, whose conditional is returned (test, a branch that does nothing, the failing call, as an
     * if's children). Null for any other statement; with {@code NDEBUG} the macro leaves nothing to see. Past an
     * assertion, in the build the compile command describes, {@code c} held (session 61 round F, lame's psymodel:
     * {@code assert(el >= 0); ebb += el;} before {@code assert(ebb >= 0)}).
     */
    static ClangNode assertion(ClangNode s) {
        ClangNode e = bare(s);
        if (e == null) return null;
        if (e.kind == CXCursor_BinaryOperator && e.spelling.equals(",") && e.children.size() == 2) {
            ClangNode x = bare(e.children.get(1));
            // glog's LOG_IF(FATAL, c) of CHECK(c), after a static_cast<void>(0)
            if (x != null && x.kind == CXCursor_ConditionalOperator && failing(x)) return x;
            if (x != null && x.kind == CXCursor_UnaryOperator && x.children.size() == 1) x = bare(x.children.get(0));
            if (x == null || x.kind != CXCursor_StmtExpr || x.children.size() != 1) return null;
            ClangNode i = soleStatement(x.children.get(0));
            return i != null && i.kind == CXCursor_IfStmt && failing(i) ? i : null;
        }
        return e.kind == CXCursor_ConditionalOperator && failing(e) ? e : null;
    }

    /** Whether the if or conditional {@code c} does nothing when its test holds and calls an assertion's failure. */
    private static boolean failing(ClangNode c) {
        if (c.children.size() != 3) return false;
        ClangNode then = bare(c.children.get(1));
        ClangNode call = bare(c.children.get(2));
        // nothing: an empty statement, or a constant cast to void ('void (0)')
        boolean nothing = then == null
                || then.kind == CXCursor_NullStmt
                || (then.kind == CXCursor_CXXFunctionalCastExpr || then.kind == CXCursor_CStyleCastExpr)
                        && "void".equals(then.canon)
                        && then.children.size() == 1
                        && constant(then.children.get(0)) != null;
        if (nothing && call != null && fatal(call)) return true; // glog's CHECK(c): a fatal log message aborts
        return nothing && call != null && call.kind == CXCursor_CallExpr && ASSERT_FAIL.contains(callee(call));
    }

    /**
     * The comparison a glog or Abseil {@code CHECK_GE(a, b)} (and {@code _GT}, {@code _LE}, {@code _LT}, {@code _EQ})
     * checks, as a node of its own located at the macro's use, or null. The macro expands to {@code while
     * (std::string* r = google::Check_GEImpl(GetReferenceableValue(a), GetReferenceableValue(b), "a >= b"))
     * google::LogMessageFatal(__FILE__, __LINE__, r).stream()}: the loop's body logs a fatal message and aborts (its
     * destructor does not return), so past it {@code a >= b} held. The checks stay in release builds (session 78
     * round A: pbrt-v3's {@code CHECK_GE(v.z, 0)} before {@code (uint32_t)v.z}, a false NL001 error).
     */
    static ClangNode checkOp(ClangNode s) {
        if (s == null || s.kind != CXCursor_WhileStmt || s.children.size() != 3) return null;
        ClangNode var = s.children.get(0);
        if (var.kind != CXCursor_VarDecl || var.children.isEmpty()) return null;
        // the call itself, or (NDEBUG's CheckOpString _result = Check_GEImpl(...)) inside the result's conversions
        ClangNode[] found = {null};
        var.children.get(var.children.size() - 1).forEach(x -> {
            // the call's own name (a conversion's construct expression around it names its callee too)
            if (found[0] == null && x.kind == CXCursor_CallExpr && CHECK_OPS.containsKey(x.spelling)) found[0] = x;
        });
        ClangNode call = found[0];
        if (call == null) return null;
        String op = CHECK_OPS.get(callee(call));
        List<ClangNode> args = arguments(call);
        if (op == null || args.size() < 2 || !fatal(s.children.get(2))) return null;
        return ClangNode.comparison(op, referenceable(args.get(0)), referenceable(args.get(1)), s);
    }

    /** The comparison of each {@code Check_*Impl} of glog and Abseil. */
    private static final java.util.Map<String, String> CHECK_OPS = java.util.Map.of(
            "Check_GEImpl", ">=", "Check_GTImpl", ">", "Check_LEImpl", "<=", "Check_LTImpl", "<", "Check_EQImpl", "==");

    /** {@code x} of glog's {@code GetReferenceableValue(x)}, else {@code e}. */
    private static ClangNode referenceable(ClangNode e) {
        ClangNode c = bare(e);
        if (c != null && c.kind == CXCursor_CallExpr && callee(c).equals("GetReferenceableValue")) {
            List<ClangNode> a = arguments(c);
            if (a.size() == 1) return a.get(0);
        }
        return e;
    }

    /** Whether {@code body} constructs a fatal log message ({@code LogMessageFatal}: its destructor aborts). */
    static boolean fatal(ClangNode body) {
        boolean[] hit = {false};
        body.forEach(x -> {
            if (x.kind == CXCursor_CallExpr && x.spelling.equals("LogMessageFatal")) hit[0] = true;
        });
        return hit[0];
    }

    /** The functions an assertion calls when it fails (glibc, BSD and macOS, newlib, Bionic, MSVC's C library). */
    static final java.util.Set<String> ASSERT_FAIL =
            java.util.Set.of("__assert_fail", "__assert_rtn", "__assert", "__assert_func", "__assert2", "_wassert");

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
            } else if (t.kind == CXCursor_CXXStaticCastExpr && "bool".equals(t.canon)) {
                next = operandOf(t); // C++'s assert: static_cast<bool>(c)
            } else if (t.kind == CXCursor_UnaryOperator && t.spelling.equals("!") && t.children.size() == 1) {
                // glog's CHECK(c): !(__builtin_expect(!(c), 0)), a negation of a negated c
                ClangNode in = bare(t.children.get(0));
                if (in != null && in.kind == CXCursor_CallExpr && callee(in).equals("__builtin_expect")) {
                    List<ClangNode> args = arguments(in);
                    in = args.size() == 2 ? bare(args.get(0)) : null;
                }
                if (in != null
                        && in.kind == CXCursor_UnaryOperator
                        && in.spelling.equals("!")
                        && in.children.size() == 1) next = in.children.get(0);
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
