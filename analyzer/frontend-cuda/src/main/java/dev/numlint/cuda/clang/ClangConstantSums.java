package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.facts.FunctionFacts;

/**
 * Sums of one constant on Clang's tree, as the hand-written {@code AccumulationSites.constantSum}: {@code acc += c}
 * where {@code c} is a constant expression or a choice between a constant and zero ({@code w > t ? c : 0},
 * {@code w > t ? 0 : c}), and the function gives the scalar {@code acc} no other value than one constant (its
 * initialiser, {@code float fCount = 0;}, or one plain assignment) and this update. Its partial sums are
 * {@code initial + k * c}, which {@code SerialAccumulation.unreachable} compares with the threshold the sum is tested
 * against.
 */
final class ClangConstantSums {
    private ClangConstantSums() {}

    /** The constant sum {@code s} is, or null. */
    static FunctionFacts.ConstantSum of(ClangSites.Sum s) {
        ClangNode n = s.node();
        if (n.kind != CXCursor_CompoundAssignOperator || !n.spelling.equals("+=")) return null;
        ClangNode acc = strip(s.target());
        if (acc == null || acc.kind != CXCursor_DeclRefExpr || acc.refUsr == null) return null;
        Double step = constantTerm(s.term());
        if (step == null) return null;
        String usr = acc.refUsr;
        Double[] initial = {null};
        int[] updates = {0};
        boolean[] other = {false};
        s.in().node().forEach(x -> {
            if (other[0]) return;
            if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) {
                ClangNode init = x.children.isEmpty() ? null : strip(x.children.get(x.children.size() - 1));
                if (init == null || init.kind == CXCursor_TypeRef) return; // declared without a value
                if (init.value == null || initial[0] != null) other[0] = true;
                else initial[0] = init.value;
                return;
            }
            if (x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr)) return;
            ClangNode p = x.parent;
            while (p != null
                    && (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_ParenExpr)
                    && p.children.size() == 1) {
                p = p.parent;
            }
            if (p == null) return;
            boolean lhs = !p.children.isEmpty() && strip(p.children.get(0)) == x;
            if (p == n && lhs) {
                updates[0]++;
            } else if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=") && lhs) {
                ClangNode v = strip(p.children.get(1));
                if (v.value == null || initial[0] != null) other[0] = true;
                else initial[0] = v.value;
            } else if (p.kind == CXCursor_CompoundAssignOperator && lhs
                    || p.kind == CXCursor_UnaryOperator
                            && (p.spelling.equals("++") || p.spelling.equals("--") || p.spelling.equals("&"))) {
                other[0] = true;
            }
        });
        return !other[0] && initial[0] != null && updates[0] == 1
                ? new FunctionFacts.ConstantSum(initial[0], step)
                : null;
    }

    /** A constant, or a choice between a constant and zero: the constant; null for anything else. */
    private static Double constantTerm(ClangNode term) {
        ClangNode e = strip(term);
        if (e == null) return null;
        if (e.value != null) return e.value;
        if (e.kind != CXCursor_ConditionalOperator || e.children.size() != 3) return null;
        ClangNode x = strip(e.children.get(1));
        ClangNode y = strip(e.children.get(2));
        if (x == null || y == null || x.value == null || y.value == null) return null;
        if (y.value == 0) return x.value;
        if (x.value == 0) return y.value;
        return null;
    }
}
