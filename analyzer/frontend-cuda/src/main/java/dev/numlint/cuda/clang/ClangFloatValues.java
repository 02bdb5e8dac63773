package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.NumericFacts;

/**
 * Which double operands hold a float value (24 significant bits), so that a product of two of them is exact in double
 * and an fma changes nothing: a float (or half) widened to double, a constant float holds exactly, such a value scaled
 * by a power of two ({@code p / 2.0}), and a local double every definition of which is such a value ({@code double
 * da = m[k];} with {@code m} a float array), neither compound-assigned, incremented nor aliased. As the hand-written
 * front end's exactness of float values held in doubles (issue 26).
 */
final class ClangFloatValues {
    /** How many locals deep a definition is followed. */
    private static final int DEPTH = 3;

    private ClangFloatValues() {}

    /** Whether the value of {@code x} in {@code fn} is a float value. */
    static boolean floatValue(ClangNode x, ClangUnit.Function fn) {
        return floatValue(x, fn, DEPTH);
    }

    private static boolean floatValue(ClangNode x, ClangUnit.Function fn, int depth) {
        if (x == null) return false;
        if (x.value != null) return (double) (float) (double) x.value == x.value;
        if (x.canonKind == CXType_Float || x.canonKind == CXType_Half) return true;
        if (x.kind == CXCursor_ParenExpr && x.children.size() == 1) return floatValue(x.children.get(0), fn, depth);
        if (x.kind == CXCursor_UnexposedExpr && x.children.size() == 1) {
            ClangNode c = x.children.get(0);
            // a widening of a float, or an lvalue read of a double local (no conversion of the value)
            return (floating(c.canonKind) || c.canonKind == CXType_Half) && floatValue(c, fn, depth);
        }
        if (isExplicitCast(x)) {
            ClangNode op = operandOf(x);
            return op != null && floating(op.canonKind) && floatValue(op, fn, depth);
        }
        if (x.kind == CXCursor_BinaryOperator
                && (x.spelling.equals("*") || x.spelling.equals("/"))
                && x.children.size() == 2) {
            // a scaling by a power of two keeps the significand
            for (int k = 0; k < 2; k++) {
                if (k == 0 && x.spelling.equals("/")) continue;
                Double v = constant(x.children.get(k));
                if (v != null && v != 0 && NumericFacts.isPowerOfTwoOrZero(Math.abs(v)))
                    return floatValue(x.children.get(1 - k), fn, depth);
            }
            return false;
        }
        if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && depth > 0) return heldLocal(x.refUsr, fn, depth);
        return false;
    }

    /** A local of {@code fn} whose every definition is a float value, written no other way and never aliased. */
    private static boolean heldLocal(String usr, ClangUnit.Function fn, int depth) {
        boolean[] local = {false};
        boolean[] ok = {true};
        int[] defs = {0};
        fn.node().forEach(n -> {
            if (!ok[0]) return;
            if (n.kind == CXCursor_VarDecl && usr.equals(n.usr)) {
                local[0] = true;
                ClangNode init = n.children.isEmpty() ? null : n.children.get(n.children.size() - 1);
                if (init != null && clang_isExpressionKind(init.kind)) {
                    defs[0]++;
                    if (!floatValue(init, fn, depth - 1)) ok[0] = false;
                }
                String t = n.type == null ? "" : n.type;
                if (t.contains("&") || t.startsWith("static")) ok[0] = false;
            }
            if (n.kind != CXCursor_DeclRefExpr || !usr.equals(n.refUsr)) return;
            if (aliases(n)) ok[0] = false;
            ClangNode c = n;
            ClangNode p = n.parent;
            while (p != null && p.kind == CXCursor_ParenExpr) {
                c = p;
                p = p.parent;
            }
            if (p == null || p.children.isEmpty() || p.children.get(0) != c) return;
            if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=") && p.children.size() == 2) {
                defs[0]++;
                if (!floatValue(p.children.get(1), fn, depth - 1)) ok[0] = false;
            } else if (p.kind == CXCursor_CompoundAssignOperator
                    || p.kind == CXCursor_UnaryOperator && (p.spelling.equals("++") || p.spelling.equals("--"))) {
                ok[0] = false;
            }
        });
        return local[0] && ok[0] && defs[0] > 0;
    }
}
