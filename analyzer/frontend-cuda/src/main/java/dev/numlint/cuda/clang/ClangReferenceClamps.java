package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.List;

/**
 * A clamp done in place by a helper that takes the value by reference ({@code clipTest(data_[k]);} with {@code
 * StkFloat& clipTest(StkFloat& s) { if (s > 1.0) s = 1.0; else if (s < -1.0) s = -1.0; ... }}): after the call the
 * value lies between the helper's two constants. The callee is a function of the same parse (the unit and the
 * project headers it includes), the only one of its name and arity; the argument is the very variable, member or
 * element the conversion reads, passed to a parameter of non-const lvalue reference type; the helper's body sets that
 * parameter to a constant below one constant and above another (one {@code if}/{@code else if} chain or two
 * {@code if}s) and writes it nowhere after. One-sided helpers and any other call are no guard.
 */
final class ClangReferenceClamps {
    private ClangReferenceClamps() {}

    /** The guard the statement {@code s} gives {@code usr} when it is such a call, else null. */
    static String of(ClangUnit unit, ClangNode s, ClangGuards.Path usr) {
        ClangNode call = strip(s);
        if (call == null || call.kind != CXCursor_CallExpr) return null;
        List<ClangNode> args = arguments(call);
        int at = -1;
        for (int i = 0; i < args.size(); i++) {
            ClangNode a = strip(args.get(i));
            if (a != null && usr.key().equals(ClangGuards.Path.key(a))) at = i;
        }
        if (at < 0) return null;
        ClangUnit.Function callee = definition(unit, ClangSyntax.callee(call), args.size());
        if (callee == null) return null;
        List<ClangNode> params = ClangCallSites.parameters(callee.node());
        ClangNode p = params.get(at);
        String t = p.type == null ? "" : p.type.replace(" ", "");
        if (p.usr == null || !t.endsWith("&") || t.endsWith("&&") || t.startsWith("const")) return null;
        double[] range = range(callee, p.usr);
        if (range == null) return null;
        return "the call '" + unit.text(call) + "' (line " + call.line + "), which clamps its reference parameter '"
                + p.spelling + "' to [" + ClangClampHelpers.bound(range[0]) + ", " + ClangClampHelpers.bound(range[1])
                + "]";
    }

    /** The one function of the same parse named {@code name} with {@code arity} parameters and a body, else null. */
    static ClangUnit.Function definition(ClangUnit unit, String name, int arity) {
        java.util.Map<ClangNode, ClangUnit.Function> found = new java.util.IdentityHashMap<>();
        for (ClangUnit u : ClangIncludes.sameParse(unit)) {
            for (ClangUnit.Function f : u.functions()) {
                if (ClangVariateParams.simpleName(f).equals(name)
                        && ClangCallSites.parameters(f.node()).size() == arity) found.put(f.node(), f);
            }
        }
        return found.size() == 1 ? found.values().iterator().next() : null;
    }

    /**
     * {@code {lo, hi}} when the body of {@code fn} sets the parameter {@code usr} to a constant {@code hi} where it is
     * above {@code hi} and to a constant {@code lo} where it is below {@code lo}, at its top level, and no later
     * statement writes it; else null.
     */
    private static double[] range(ClangUnit.Function fn, String usr) {
        ClangNode body = null;
        for (ClangNode c : fn.node().children) if (c.kind == CXCursor_CompoundStmt) body = c;
        if (body == null) return null;
        Double lo = null, hi = null;
        ClangGuards.Path param = new ClangGuards.Path(usr, java.util.Set.of(), false);
        boolean after = false;
        for (ClangNode st : body.children) {
            boolean clamp = false;
            for (ClangNode s = st; s != null && s.kind == CXCursor_IfStmt && s.children.size() >= 2; ) {
                double[] side = side(s.children.get(0), s.children.get(1), usr);
                if (side == null) break;
                if (side[0] > 0) hi = side[1];
                else lo = side[1];
                clamp = true;
                s = s.children.size() == 3 ? s.children.get(2) : null;
            }
            if (clamp) {
                after = lo != null && hi != null;
                continue;
            }
            // a write after the clamps undoes them; a return before them skips them
            if (after && ClangGuards.writes(st, param) || !after && returns(st)) return null;
        }
        return after && lo <= hi ? new double[] {lo, hi} : null;
    }

    /**
     * {@code {+1, v}} for a branch {@code if (p > v) { p = v; ... }}, {@code {-1, v}} for {@code if (p < v) p = v;}
     * (either operand order, {@code >=}/{@code <=} too), with {@code v} a constant; else null.
     */
    private static double[] side(ClangNode test, ClangNode then, String usr) {
        ClangNode t = strip(test);
        while (t != null && t.kind == CXCursor_ParenExpr && t.children.size() == 1) t = strip(t.children.get(0));
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return null;
        ClangNode a = strip(t.children.get(0)), b = strip(t.children.get(1));
        boolean left = a != null && a.kind == CXCursor_DeclRefExpr && usr.equals(a.refUsr);
        boolean right = b != null && b.kind == CXCursor_DeclRefExpr && usr.equals(b.refUsr);
        if (left == right) return null;
        Double bound = folded(left ? b : a);
        String op = t.spelling;
        boolean above = op.equals(">") || op.equals(">=");
        boolean below = op.equals("<") || op.equals("<=");
        if (bound == null || !above && !below) return null;
        int side = above == left ? 1 : -1;
        List<ClangNode> stmts = then.kind == CXCursor_CompoundStmt ? then.children : List.of(then);
        Double set = null;
        for (ClangNode st : stmts) {
            ClangNode e = strip(st);
            if (e != null && e.kind == CXCursor_BinaryOperator && e.spelling.equals("=") && e.children.size() == 2) {
                ClangNode l = strip(e.children.get(0));
                if (l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr)) {
                    set = folded(e.children.get(1));
                    if (set == null) return null;
                    continue;
                }
            }
            if (mentions(st, usr)) return null;
        }
        // the value it is set to must lie on the kept side of the bound
        if (set == null || side > 0 && set > bound || side < 0 && set < bound) return null;
        return new double[] {side, bound};
    }

    private static boolean returns(ClangNode n) {
        boolean[] hit = new boolean[1];
        n.forEach(x -> hit[0] |= x.kind == CXCursor_ReturnStmt);
        return hit[0];
    }
}
