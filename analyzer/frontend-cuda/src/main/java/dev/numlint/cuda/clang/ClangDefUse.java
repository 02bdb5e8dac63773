package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@link ClangUnit}'s def-use facts over values: a value overwritten before a use, a subtraction of nearly equal
 * terms.
 */
final class ClangDefUse {
    private final ClangUnit unit;

    ClangDefUse(ClangUnit unit) {
        this.unit = unit;
    }

    // ------------------------------------------------------------------ cancellation of nearly equal terms

    /**
     * Whether the expression {@code text} at {@code line} holds a floating subtraction of nearly equal terms:
     * {@code x - (x + c)}, {@code x - (x - c)} or {@code (x + c) - x} with the same {@code x} (a variable, member or
     * element, no call) and a constant {@code c}. In float {@code x + c} rounds back to {@code x} whenever {@code c}
     * is below half an ulp of {@code x}, so the difference is 0 there and {@code -c} in double.
     */
    public boolean cancelsNearlyEqualTerms(int line, String text) {
        String want = squash(text);
        boolean[] hit = new boolean[1];
        for (ClangUnit.Function fn : unit.functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            fn.node().forEach(n -> {
                if (hit[0] || n.line != line || n.kind != CXCursor_BinaryOperator || !n.spelling.equals("-")) return;
                if (n.children.size() != 2 || !floating(n.canonKind)) return;
                if (!want.contains(squash(unit.text(n)))) return;
                ClangNode a = strip(n.children.get(0));
                ClangNode b = strip(n.children.get(1));
                if (sumWithConstant(b, a) || sumWithConstant(a, b)) hit[0] = true;
            });
        }
        return hit[0];
    }

    /**
     * Whether the floating addition or subtraction written {@code text} at {@code line} is evaluated in double (a
     * double literal or operand) and its result goes only through double arithmetic ({@code +}, {@code -},
     * {@code *}, {@code /}, parentheses) into a float or half: an implicit conversion (assignment, initialization,
     * argument, return), a cast, or a compound assignment to a float ({@code d.x += w * (a*b - c*d)}).
     */
    public boolean inDoubleRoundedToFloat(int line, String text) {
        String want = squash(text);
        boolean[] hit = new boolean[1];
        for (ClangUnit.Function fn : unit.functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            fn.node().forEach(n -> {
                if (hit[0] || n.line != line || n.kind != CXCursor_BinaryOperator) return;
                if (!n.spelling.equals("+") && !n.spelling.equals("-")) return;
                if (n.canonKind != CXType_Double || !squash(unit.text(n)).equals(want)) return;
                if (roundedToFloat(n)) hit[0] = true;
            });
        }
        return hit[0];
    }

    /**
     * Whether the floating sum, difference or compound update written {@code text} at {@code line} is evaluated in
     * double or long double ({@code a*b - c*d} of doubles, {@code s += a*b} into a double).
     */
    public boolean evaluatedInDouble(int line, String text) {
        String want = squash(text);
        boolean[] hit = new boolean[1];
        for (ClangUnit.Function fn : unit.functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            fn.node().forEach(n -> {
                if (hit[0] || n.line != line) return;
                boolean op = n.kind == CXCursor_BinaryOperator && (n.spelling.equals("+") || n.spelling.equals("-"));
                boolean update = n.kind == CXCursor_CompoundAssignOperator
                        && (n.spelling.equals("+=") || n.spelling.equals("-="));
                if (!op && !update) return;
                if (n.canonKind != CXType_Double && n.canonKind != CXType_LongDouble) return;
                if (squash(unit.text(n)).equals(want)) hit[0] = true;
            });
        }
        return hit[0];
    }

    private static boolean roundedToFloat(ClangNode n) {
        ClangNode c = n;
        for (ClangNode p = n.parent; p != null; c = p, p = p.parent) {
            boolean narrow = p.canonKind == CXType_Float || p.canonKind == CXType_Half || p.canonKind == CXType_Float16;
            if (p.kind == CXCursor_ParenExpr) continue;
            if (p.kind == CXCursor_BinaryOperator && p.canonKind == CXType_Double && arithmetic(p.spelling)) continue;
            if (p.kind == CXCursor_UnexposedExpr && p.canonKind == CXType_Double) continue;
            if (p.kind == CXCursor_UnexposedExpr
                    || p.kind == CXCursor_CStyleCastExpr
                    || p.kind == CXCursor_CXXStaticCastExpr
                    || p.kind == CXCursor_CXXFunctionalCastExpr) return narrow;
            // d.x += w * (...): the computation is in double, the result is rounded to the float on the left
            return p.kind == CXCursor_CompoundAssignOperator
                    && narrow
                    && p.children.size() == 2
                    && p.children.get(1) == c
                    && arithmetic(p.spelling.replace("=", ""));
        }
        return false;
    }

    private static boolean arithmetic(String op) {
        return op.equals("+") || op.equals("-") || op.equals("*") || op.equals("/");
    }

    /** Whether {@code s} is {@code x + c} or {@code x - c} (or {@code c + x}) with {@code x} written as {@code x}. */
    private boolean sumWithConstant(ClangNode s, ClangNode x) {
        if (s == null || x == null || s.kind != CXCursor_BinaryOperator || s.children.size() != 2) return false;
        if (!s.spelling.equals("+") && !s.spelling.equals("-")) return false;
        boolean[] call = new boolean[1];
        x.forEach(q -> {
            if (q.kind == CXCursor_CallExpr) call[0] = true;
        });
        if (call[0] || x.value != null) return false;
        ClangNode l = strip(s.children.get(0));
        ClangNode r = strip(s.children.get(1));
        if (l == null || r == null) return false;
        // by their trees: the nodes of a macro's expansion all have the invocation's text (GAINLINE(20), meters.lv2,
        // session 63: a height minus a top offset taken for x - (x + c))
        boolean lx = ClangSyntax.sameTree(l, x);
        boolean rx = ClangSyntax.sameTree(r, x);
        if (lx && r.value != null && r.value != 0) return true;
        return s.spelling.equals("+") && rx && l.value != null && l.value != 0;
    }

    // ------------------------------------------------------------------ def-use: a value overwritten before a use

    /** The first expression of {@code fn} (pre-order) on {@code line} whose squashed text is {@code text}, or null. */
    private ClangNode expressionAt(ClangUnit.Function fn, int line, String text) {
        for (ClangNode n : ClangBodyIndex.of(fn).onLine(line)) {
            if (n.offset >= 0
                    && clang_isExpressionKind(n.kind)
                    && squash(unit.text(n)).equals(text)) return n;
        }
        return null;
    }

    /**
     * Whether the value computed by the expression {@code defText} at {@code defLine} (stored into a variable by its
     * declaration or an assignment) no longer reaches the use {@code useText} at {@code useLine}: the use reads the
     * variable only after a write that replaces it whole on every path from the definition to the use ({@code v =
     * expression without v}, {@code memcpy(&v, src, sizeof v)}, {@code memset(&v, ...)}), and reads no other
     * variable written in between (which could carry the value). False when any of it is not found.
     */
    public boolean overwrittenBefore(int defLine, String defText, int useLine, String useText) {
        if (useLine <= defLine) return false;
        String dt = squash(defText);
        String ut = squash(useText);
        for (ClangUnit.Function fn : unit.functions()) {
            if (defLine < fn.startLine() || useLine > fn.endLine()) continue;
            ClangNode[] def = {expressionAt(fn, defLine, dt)};
            ClangNode[] use = {expressionAt(fn, useLine, ut)};
            if (def[0] == null || use[0] == null) return false;
            String v = storedInto(def[0]);
            if (v == null) return false;
            ClangNode d = def[0];
            ClangNode u = use[0];
            boolean[] readsV = new boolean[1];
            Set<String> reads = new HashSet<>();
            u.forEach(x -> {
                if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null) {
                    reads.add(x.refUsr);
                    if (x.refUsr.equals(v)) readsV[0] = true;
                }
            });
            if (!readsV[0]) return false;
            boolean[] killed = new boolean[1];
            boolean[] carried = new boolean[1];
            fn.node().forEach(k -> {
                if (k.offset < 0 || k.offset < d.endOffset || k.offset >= u.offset) return;
                // another variable the use reads, written in between, may carry the value
                String w = written(k);
                if (w != null && !w.equals(v) && reads.contains(w)) carried[0] = true;
                if (!killed[0] && replaces(k, v) && dominates(k, u, fn.node())) killed[0] = true;
            });
            return killed[0] && !carried[0];
        }
        return false;
    }

    /**
     * Whether the local variable {@code v} (USR) is dead after the statement {@code stmt} of {@code fn}: every read of
     * it outside the statement follows a write that replaces it whole, runs on every path to the read and lies in
     * every loop around the read (so no value the statement left reaches it, not even through a loop's next
     * iteration). False for a variable that is not declared in the function (a parameter, a global) or is static.
     */
    boolean deadAfter(ClangNode stmt, String v, ClangNode fn) {
        boolean[] local = new boolean[1];
        fn.forEach(x -> {
            if (x.kind == CXCursor_VarDecl
                    && v.equals(x.usr)
                    && !unit.text(x).startsWith("static")
                    && x.type != null
                    && !x.type.contains("&")) local[0] = true;
        });
        if (!local[0]) return false;
        List<ClangNode> writes = new java.util.ArrayList<>();
        fn.forEach(k -> {
            if (replaces(k, v)) writes.add(k);
        });
        boolean[] live = new boolean[1];
        fn.forEach(r -> {
            if (live[0] || r.kind != CXCursor_DeclRefExpr || !v.equals(r.refUsr) || stmt.contains(r)) return;
            if (assignedWhole(r)) return;
            boolean covered = false;
            for (ClangNode k : writes) {
                if (k.offset < 0 || k.offset >= r.offset || k.contains(r) || !dominates(k, r, fn)) continue;
                boolean inLoops = true;
                for (ClangNode p = r.parent; p != null && p != fn; p = p.parent)
                    if (isLoop(p) && !p.contains(k)) inLoops = false;
                if (inLoops) covered = true;
            }
            if (!covered) live[0] = true;
        });
        return !live[0];
    }

    /** Whether the reference {@code r} is the left side of a plain assignment (written, not read). */
    private static boolean assignedWhole(ClangNode r) {
        ClangNode c = r;
        ClangNode p = r.parent;
        while (p != null && (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_ParenExpr)) {
            c = p;
            p = p.parent;
        }
        return p != null
                && p.kind == CXCursor_BinaryOperator
                && p.spelling.equals("=")
                && !p.children.isEmpty()
                && p.children.get(0) == c;
    }

    /** The variable (USR) a declaration's initializer or an assignment's right side stores {@code e} into, or null. */
    private static String storedInto(ClangNode e) {
        // the site is itself the store: a sum's update (s += x) or an assignment to a plain variable
        if ((e.kind == CXCursor_CompoundAssignOperator || e.kind == CXCursor_BinaryOperator && e.spelling.equals("="))
                && e.children.size() == 2) {
            ClangNode l = strip(e.children.get(0));
            if (l != null && l.kind == CXCursor_DeclRefExpr) return l.refUsr;
        }
        ClangNode c = e;
        for (ClangNode p = e.parent; p != null; c = p, p = p.parent) {
            if (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_ParenExpr || p.kind == CXCursor_CStyleCastExpr)
                continue;
            if (p.kind == CXCursor_VarDecl) return p.usr;
            if (p.kind == CXCursor_BinaryOperator
                    && p.spelling.equals("=")
                    && p.children.size() == 2
                    && p.children.get(1) == c) {
                ClangNode l = strip(p.children.get(0));
                return l != null && l.kind == CXCursor_DeclRefExpr ? l.refUsr : null;
            }
            return null;
        }
        return null;
    }

    /** The variable a declaration or an assignment to a plain variable writes, or null. */
    private static String written(ClangNode k) {
        if (k.kind == CXCursor_VarDecl) return k.usr;
        if ((k.kind == CXCursor_BinaryOperator && k.spelling.equals("=") || k.kind == CXCursor_CompoundAssignOperator)
                && !k.children.isEmpty()) {
            ClangNode l = strip(k.children.get(0));
            return l != null && l.kind == CXCursor_DeclRefExpr ? l.refUsr : null;
        }
        return null;
    }

    /** Whether {@code k} replaces the whole variable {@code v} without reading it. */
    private boolean replaces(ClangNode k, String v) {
        if (k.kind == CXCursor_BinaryOperator && k.spelling.equals("=") && k.children.size() == 2) {
            ClangNode l = strip(k.children.get(0));
            if (l == null || l.kind != CXCursor_DeclRefExpr || !v.equals(l.refUsr)) return false;
            boolean[] reads = new boolean[1];
            k.children.get(1).forEach(x -> {
                if (v.equals(x.refUsr)) reads[0] = true;
            });
            return !reads[0];
        }
        if (k.kind != CXCursor_CallExpr) return false;
        String name = callee(k);
        boolean copy = name.equals("memcpy") || name.equals("std::memcpy") || name.equals("__builtin_memcpy");
        boolean set = name.equals("memset") || name.equals("std::memset") || name.equals("__builtin_memset");
        if (!copy && !set) return false;
        List<ClangNode> args = arguments(k);
        if (args.size() != 3) return false;
        // the destination is &v itself, the size the variable's whole size
        ClangNode dst = strip(args.get(0));
        if (dst == null || dst.kind != CXCursor_UnaryOperator || !dst.spelling.equals("&") || dst.children.size() != 1)
            return false;
        ClangNode var = strip(dst.children.get(0));
        if (var == null || var.kind != CXCursor_DeclRefExpr || !v.equals(var.refUsr)) return false;
        ClangNode size = args.get(2).value != null ? args.get(2) : strip(args.get(2));
        if (size == null || size.value == null) return false;
        int whole = floating(var.canonKind) || integral(var.canonKind) ? bytes(var.canonKind) : -1;
        if (var.canonKind == CXType_Float) whole = 4;
        else if (var.canonKind == CXType_Double) whole = 8;
        else if (var.canonKind == CXType_Half || var.canonKind == CXType_Float16) whole = 2;
        if (whole < 0 || size.value != whole) return false;
        // memcpy from another object: the value is replaced; memset: replaced by a constant pattern
        return true;
    }
}
