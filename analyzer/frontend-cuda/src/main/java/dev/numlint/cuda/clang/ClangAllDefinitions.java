package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The interval of an unaliased local from every definition of it in its function, whatever the control flow: each
 * value it holds was assigned by one of them ({@code int samplerate = 0;} then, in a loop, {@code samplerate =
 * rates[k];}: both non-negative, so is every read of it). The fallback of {@link ClangIntervals}' reaching
 * definition where no single definition is known to reach the use (one inside a loop or a branch the use is
 * after). Only plain assignments and initializers: a compound assignment, an increment or a decrement of it makes
 * it unknown here. A running maximum ({@code if (r[i] > m) m = r[i];}) only raises the local: its value is above
 * one the local held, so it bounds the hull from above only (session 57: a dithering library's buffer size from a
 * maximum that starts at 0); a running minimum likewise from below.
 */
final class ClangAllDefinitions {
    private ClangAllDefinitions() {}

    /**
     * The hull of {@code eval} over the initializer and the assigned values of the local {@code usr} of {@code fn}, or
     * null when it has another kind of write or none.
     */
    static double[] hull(ClangUnit unit, ClangUnit.Function fn, String usr, Function<ClangNode, double[]> eval) {
        // a definition that reads the local itself (x = x + 1): unknown here, not a hull of hulls
        if (!OPEN.get().add(usr)) return null;
        try {
            return compute(unit, fn, usr, eval);
        } finally {
            OPEN.get().remove(usr);
        }
    }

    private static final ThreadLocal<java.util.Set<String>> OPEN = ThreadLocal.withInitial(java.util.HashSet::new);

    private static double[] compute(
            ClangUnit unit, ClangUnit.Function fn, String usr, Function<ClangNode, double[]> eval) {
        List<ClangNode> values = new ArrayList<>();
        boolean[] other = {false};
        boolean[] local = {false};
        fn.node().forEach(n -> {
            // a local of the function (a parameter's first value is its caller's, no definition here)
            if (n.kind == CXCursor_VarDecl && usr.equals(n.usr)) local[0] = true;
            if (other[0]) return;
            if (n.kind == CXCursor_DeclStmt || n.kind == CXCursor_BinaryOperator) {
                ClangNode v = ClangIntervals.definition(n, usr);
                if (v != null) values.add(v);
            } else if (n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr) && ClangSyntax.written(n)) {
                ClangNode p = ClangSyntax.outermost(n).parent;
                if (p.kind != CXCursor_BinaryOperator || !p.spelling.equals("=")) other[0] = true;
            }
        });
        if (!local[0] || other[0] || values.isEmpty() || values.size() > 16) return null;
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (ClangNode v : values) {
            double[] x = eval.apply(v);
            if (x == null) return null;
            int side = running(unit, v, usr);
            if (side >= 0) hi = Math.max(hi, x[1]);
            if (side <= 0) lo = Math.min(lo, x[0]);
        }
        if (lo == Double.POSITIVE_INFINITY) lo = Double.NEGATIVE_INFINITY;
        if (hi == Double.NEGATIVE_INFINITY) hi = Double.POSITIVE_INFINITY;
        return new double[] {lo, hi};
    }

    /**
     * 1 when the assignment of {@code value} to the local runs only where its test found the value above the local's
     * ({@code if (x > m) m = x;}, the assignment first in its branch or after statements that write neither), -1 when
     * below it, 0 otherwise. A NaN fails the test and is never assigned.
     */
    private static int running(ClangUnit unit, ClangNode value, String usr) {
        ClangNode st = value.parent;
        if (st == null || st.kind != CXCursor_BinaryOperator || !"=".equals(st.spelling)) return 0;
        ClangNode branch = st.parent;
        if (branch != null && branch.kind == CXCursor_CompoundStmt) {
            for (ClangNode before : branch.children) {
                if (before == st) break;
                boolean[] writes = {ClangSyntax.writesIn(before, usr)};
                value.forEach(r -> {
                    if (r.kind == CXCursor_DeclRefExpr && r.refUsr != null && ClangSyntax.writesIn(before, r.refUsr))
                        writes[0] = true;
                });
                if (writes[0]) return 0;
            }
            st = branch;
            branch = branch.parent;
        }
        if (branch == null || branch.kind != CXCursor_IfStmt || branch.children.size() < 2) return 0;
        if (branch.children.get(1) != st) return 0;
        ClangNode t = ClangSyntax.strip(branch.children.get(0));
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return 0;
        String op = t.spelling;
        ClangNode l = ClangSyntax.strip(t.children.get(0)), r = ClangSyntax.strip(t.children.get(1));
        String v = ClangSyntax.bare(unit.text(value));
        if (v == null) return 0;
        boolean localLeft = local(l, usr) && v.equals(ClangSyntax.bare(unit.text(r)));
        boolean localRight = local(r, usr) && v.equals(ClangSyntax.bare(unit.text(l)));
        if (!localLeft && !localRight) return 0;
        boolean above = localLeft ? op.equals("<") || op.equals("<=") : op.equals(">") || op.equals(">=");
        boolean below = localLeft ? op.equals(">") || op.equals(">=") : op.equals("<") || op.equals("<=");
        return above ? 1 : below ? -1 : 0;
    }

    private static boolean local(ClangNode n, String usr) {
        return n != null && n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr);
    }

    /** {@code n}, or the initializer of the local it reads when the function never writes that local again. */
    static ClangNode onlyValue(ClangUnit unit, ClangUnit.Function fn, ClangNode n) {
        if (n == null || n.kind != CXCursor_DeclRefExpr || n.refUsr == null) return n;
        if (!unit.intervals.unaliasedLocals(fn).contains(n.refUsr) || ClangSyntax.writesIn(fn.node(), n.refUsr))
            return n;
        ClangNode[] init = {null};
        fn.node().forEach(d -> {
            if (d.kind == CXCursor_VarDecl && n.refUsr.equals(d.usr) && !d.children.isEmpty()) {
                ClangNode last = d.children.get(d.children.size() - 1);
                if (ClangSyntax.clang_isExpressionKind(last.kind)) init[0] = ClangSyntax.withoutCasts(last);
            }
        });
        return init[0] != null ? init[0] : n;
    }
}
