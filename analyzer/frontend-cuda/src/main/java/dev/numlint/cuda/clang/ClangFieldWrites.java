package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * What a call stores into a member of a local structure whose address it is given ({@code
 * vec4F_saturate_in_place(&xl);}): a function of this parse whose pointer parameter's member {@code p->m_c[0]} is
 * assigned by a statement at the top level of its body ({@code pV->m_c[0] = saturate(pV->m_c[0]);}), the last such,
 * or by a loop of its top level that assigns the element at its counter and runs over the element ({@code for (int i
 * = 0; i < 4; i++) p->c[i] = sat(p->c[i]);}). The value is evaluated in the callee with its other parameters bound to
 * the call's arguments. A write under a condition, through another pointer or an index that is not the counter, the
 * pointer written, or passed on to another call leaves the member unknown; a callee that never writes the member
 * leaves it as it was (null here, and {@link ClangFieldValues} takes the call as a write it cannot follow).
 */
final class ClangFieldWrites {
    private ClangFieldWrites() {}

    /** The interval {@code call} stores into member {@code path} of the local {@code usr} through {@code &usr}. */
    static double[] through(
            ClangIntervals intervals, ClangNode call, String usr, String path, ClangUnit.Function caller, int depth) {
        List<ClangNode> args = arguments(call);
        int at = -1;
        for (int i = 0; i < args.size(); i++) {
            ClangNode a = strip(args.get(i));
            ClangNode v =
                    a != null && a.kind == CXCursor_UnaryOperator && a.spelling.equals("&") && a.children.size() == 1
                            ? strip(a.children.get(0))
                            : null;
            if (v != null && v.kind == CXCursor_DeclRefExpr && usr.equals(v.refUsr) && at < 0) at = i;
            else if (mentions(args.get(i), usr)) return null;
        }
        if (at < 0 || call.children.isEmpty() || mentions(call.children.get(0), usr) || depth <= 2) return null;
        ClangIntervals.Callee c = intervals.defining(call.refUsr);
        if (c == null) return null;
        ClangUnit.Function fn = c.function();
        List<ClangNode> ps = ClangCallSites.parameters(fn.node());
        ClangNode body = fn.node().children.isEmpty()
                ? null
                : fn.node().children.get(fn.node().children.size() - 1);
        if (ps.size() != args.size() || ps.get(at).usr == null || body == null || body.kind != CXCursor_CompoundStmt)
            return null;
        String p = ps.get(at).usr;
        List<double[]> bound = new ArrayList<>();
        for (int i = 0; i < args.size(); i++)
            bound.add(
                    i == at
                            ? dev.numlint.knowledge.ValueBounds.unknown()
                            : intervals.of(args.get(i), caller, depth - 1));
        ClangIntervals callee = c.unit().intervals;
        return intervals.bound(fn, bound, () -> {
            ClangNode value = null;
            boolean left = false; // a return before a store: the store may not run (if (!p) return p;)
            for (ClangNode st : body.children) {
                ClangNode v = stored(st, p, path);
                if (v != null && left) return null;
                if (v != null) value = v;
                else if (ClangFieldValues.touches(st, p, path)) return null;
                left |= leaves(st);
            }
            return value == null ? null : callee.of(value, fn, depth - 1);
        });
    }

    /**
     * The value {@code st} stores into member {@code path} of what the pointer {@code p} points to: {@code p->path =
     * v;}, or a counted loop {@code for (int i = A; i < B; i++) p->m[i] = v;} whose range holds the path's index.
     */
    private static ClangNode stored(ClangNode st, String p, String path) {
        ClangNode x = strip(st);
        if (x != null && x.kind == CXCursor_ForStmt && x.children.size() == 4) {
            ClangNode s = soleStatement(x.children.get(3));
            ClangNode a = s == null ? null : strip(s);
            if (a == null || !isAssign(a) || !ClangFieldValues.rooted(a.children.get(0), p)) return null;
            ClangNode l = strip(a.children.get(0));
            if (l.kind != CXCursor_ArraySubscriptExpr || l.children.size() != 2) return null;
            ClangNode i = strip(l.children.get(1));
            String open = ClangFieldValues.suffix(l, ClangFieldValues.object(l), true);
            if (i == null || i.kind != CXCursor_DeclRefExpr || open == null || !open.endsWith("[?]")) return null;
            String head = open.substring(0, open.length() - 3);
            if (!path.startsWith(head + "[") || path.indexOf(']', head.length()) != path.length() - 1) return null;
            double k = Double.parseDouble(path.substring(head.length() + 1, path.length() - 1));
            double[] range = counted(x, i.refUsr);
            return range != null && range[0] <= k && k < range[1] && !writesIn(x.children.get(3), i.refUsr)
                    ? a.children.get(1)
                    : null;
        }
        if (x == null || !isAssign(x) || !ClangFieldValues.rooted(x.children.get(0), p)) return null;
        ClangNode l = x.children.get(0);
        String s = ClangFieldValues.suffix(l, ClangFieldValues.object(l), false);
        return path.equals(s) ? x.children.get(1) : null;
    }

    /** Whether {@code st} holds a return, a goto or a throw. */
    private static boolean leaves(ClangNode st) {
        boolean[] hit = new boolean[1];
        st.forEach(x -> hit[0] |=
                x.kind == CXCursor_ReturnStmt || x.kind == CXCursor_GotoStmt || x.kind == CXCursor_CXXThrowExpr);
        return hit[0];
    }

    private static boolean isAssign(ClangNode x) {
        return x.kind == CXCursor_BinaryOperator && x.spelling.equals("=") && x.children.size() == 2;
    }

    /** [A, B) of {@code for (int i = A; i < B; i++)} with constants A and B, the counter {@code usr}; else null. */
    private static double[] counted(ClangNode loop, String usr) {
        ClangNode init = loop.children.get(0);
        ClangNode start = null;
        if (init.kind == CXCursor_DeclStmt && init.children.size() == 1) {
            ClangNode d = init.children.get(0);
            if (d.kind == CXCursor_VarDecl && usr.equals(d.usr) && !d.children.isEmpty())
                start = d.children.get(d.children.size() - 1);
        }
        Double a = start == null ? null : folded(start);
        ClangNode cond = strip(loop.children.get(1));
        ClangNode inc = strip(loop.children.get(2));
        if (a == null
                || cond == null
                || inc == null
                || cond.kind != CXCursor_BinaryOperator
                || cond.children.size() != 2) return null;
        ClangNode v = strip(cond.children.get(0));
        Double b = folded(cond.children.get(1));
        if (v == null || b == null || v.kind != CXCursor_DeclRefExpr || !usr.equals(v.refUsr)) return null;
        if (inc.kind != CXCursor_UnaryOperator || !inc.spelling.equals("++") || inc.children.size() != 1) return null;
        ClangNode iv = strip(inc.children.get(0));
        if (iv == null || !usr.equals(iv.refUsr)) return null;
        if (cond.spelling.equals("<")) return new double[] {a, b};
        return cond.spelling.equals("<=") ? new double[] {a, b + 1} : null;
    }
}
