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
 * calls anything (a store through another pointer may alias the element; a call may write it). Two exceptions: a
 * store to an element of another declared array (not through a pointer) cannot alias an element of a declared array,
 * and the assignment whose value holds the read stores after it: a kernel's {@code s_y[ty][tx] = 0.299f * R + ...;
 * s_cb[ty][tx] = ...; d_y[i] = s_y[ty][tx];} stores the value it just computed (session 87 round AR: a JPEG encoder's
 * Y, Cb and Cr of unsigned char R, G and B, stored to {@code char}, "200.7 wraps to -56").
 */
final class ClangForwardedStores {
    private ClangForwardedStores() {}

    /** The interval of the value the read {@code n} ({@code *p}, {@code a[i]}) gets from such a store, or null. */
    static double[] of(ClangIntervals intervals, ClangNode n, ClangUnit.Function fn, int depth) {
        String key = ClangGuards.Path.key(n);
        if (key == null || fn == null) return null;
        ClangNode statement = blockStatement(n, fn);
        if (statement == null) return null;
        ClangNode block = statement.parent;
        if (writesBefore(statement, n.offset, n)) return null;
        String array = declaredArray(n);
        for (int k = block.children.indexOf(statement) - 1; k >= 0; k--) {
            ClangNode s = block.children.get(k);
            ClangNode e = strip(s);
            if (e != null && e.kind == CXCursor_BinaryOperator && e.spelling.equals("=") && e.children.size() == 2) {
                ClangNode value = e.children.get(1);
                if (!key.equals(ClangGuards.Path.key(e.children.get(0)))) {
                    // an element of another declared array, or any store where the array read is a local one whose
                    // elements no pointer or reference can reach: no alias of the element read
                    String other = declaredArray(e.children.get(0));
                    boolean apart = other != null ? !other.equals(array) : unaliased(fn, array);
                    if (array != null
                            && apart
                            && !writesBefore(value, Integer.MAX_VALUE, null)
                            && !writesBefore(e.children.get(0), Integer.MAX_VALUE, null)) continue;
                    return null;
                }
                if (writesBefore(value, Integer.MAX_VALUE, null)) return null;
                return intervals.of(value, fn, depth - 1);
            }
            if (writesBefore(s, Integer.MAX_VALUE, null)) return null;
        }
        return null;
    }

    /**
     * The statement of the innermost block ({@code { ... }}) of {@code fn} that holds {@code n} ({@code n} itself when
     * it is one), or null when no block of {@code fn} holds it: its parent is that block.
     */
    static ClangNode blockStatement(ClangNode n, ClangUnit.Function fn) {
        ClangNode statement = n;
        while (statement.parent != null
                && statement.parent != fn.node()
                && statement.parent.kind != CXCursor_CompoundStmt) statement = statement.parent;
        return statement.parent != null && statement.parent.kind == CXCursor_CompoundStmt ? statement : null;
    }

    /** The declared array (its USR) whose element {@code e} is ({@code s[i][j]}), or null: a pointer's, or none. */
    private static String declaredArray(ClangNode e) {
        ClangNode n = strip(e);
        if (n == null || n.kind != CXCursor_ArraySubscriptExpr) return null;
        while (n != null && n.kind == CXCursor_ArraySubscriptExpr && !n.children.isEmpty())
            n = strip(n.children.get(0));
        return n != null
                        && n.kind == CXCursor_DeclRefExpr
                        && (n.canonKind == CXType_ConstantArray || n.canonKind == CXType_IncompleteArray)
                ? n.refUsr
                : null;
    }

    /**
     * Whether the declared array {@code usr} is one of {@code fn}'s own (a local or {@code __shared__} array) that no
     * pointer or reference can reach: every use of its name is indexed down to an element (no row or array decays to
     * a pointer), and no element has its address taken, binds a reference or is passed to a call.
     */
    private static boolean unaliased(ClangUnit.Function fn, String usr) {
        if (usr == null) return false;
        boolean[] declared = {false};
        boolean[] escapes = {false};
        fn.node().forEach(x -> {
            if (escapes[0]) return;
            if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) declared[0] = true;
            if (x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr)) return;
            ClangNode e = x;
            ClangNode p = up(e);
            while (p != null
                    && p.kind == CXCursor_ArraySubscriptExpr
                    && !p.children.isEmpty()
                    && strip(p.children.get(0)) == strip(e)) {
                e = p;
                p = up(e);
            }
            boolean element = e != x && e.canonKind != CXType_ConstantArray && e.canonKind != CXType_IncompleteArray;
            boolean taken = p == null
                    || p.kind == CXCursor_UnaryOperator && "&".equals(p.spelling)
                    || p.kind == CXCursor_VarDecl
                            && (p.canonKind == CXType_LValueReference || p.canonKind == CXType_RValueReference)
                    || p.kind == CXCursor_CallExpr;
            if (!element || taken) escapes[0] = true;
        });
        return declared[0] && !escapes[0];
    }

    /** The parent of {@code e} past parentheses and implicit conversions. */
    private static ClangNode up(ClangNode e) {
        ClangNode p = e.parent;
        while (p != null
                && (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_ParenExpr)
                && p.children.size() == 1) p = p.parent;
        return p;
    }

    /**
     * Whether {@code s} assigns, steps or calls anything at an offset before {@code offset}; an assignment that holds
     * {@code read} (its value) stores after the read and does not count.
     */
    private static boolean writesBefore(ClangNode s, int offset, ClangNode read) {
        boolean[] hit = new boolean[1];
        s.forEach(x -> {
            if (hit[0] || x.offset >= offset) return;
            if (read != null && x.kind == CXCursor_BinaryOperator && x.spelling.equals("=") && holds(x, read)) return;
            hit[0] = x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                    || x.kind == CXCursor_CompoundAssignOperator
                    || x.kind == CXCursor_UnaryOperator && (x.spelling.equals("++") || x.spelling.equals("--"))
                    || x.kind == CXCursor_CallExpr;
        });
        return hit[0];
    }

    /** Whether {@code read} lies in the value (the right side) of the assignment {@code x}. */
    private static boolean holds(ClangNode x, ClangNode read) {
        if (x.children.size() != 2) return false;
        for (ClangNode p = read; p != null; p = p.parent) if (p == x.children.get(1)) return true;
        return false;
    }
}
