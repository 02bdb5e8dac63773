package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.function.Function;

/**
 * The integral part {@code modf(x, &ip)} stores through its second argument: {@code ip} is {@code x} truncated toward
 * zero, so it lies in [trunc(lo), trunc(hi)] for {@code x} in [lo, hi]. A resampler's read position {@code f}, zero
 * at first and stepped by a non-negative increment, gives a non-negative index {@code (unsigned)ip} (session 60, an
 * audio library's frame interpolation had been a false NL001 error). Only the certain case: the local's address is
 * taken nowhere but as such an argument, and the statement holding the call is the nearest earlier statement of an
 * enclosing block that names the local, with no loop between that writes it.
 */
final class ClangIntegralParts {
    private ClangIntegralParts() {}

    private static final java.util.Set<String> MODF = java.util.Set.of("modf", "modff", "modfl", "std::modf");

    /** The interval of {@code ref}, a local of {@code fn} defined by such a call, or null. */
    static double[] of(ClangUnit unit, ClangNode ref, ClangUnit.Function fn, Function<ClangNode, double[]> eval) {
        String usr = ref.refUsr;
        if (usr == null || fn == null || !onlyOutParameter(fn.node(), usr)) return null;
        ClangNode cur = ref;
        for (ClangNode p = ref.parent; p != null && p != fn.node(); cur = p, p = p.parent) {
            // a loop around the read that stores into the local: a later iteration may read a store after the read
            if (isLoop(p) && names(p, usr, true)) return null;
            if (p.kind != CXCursor_CompoundStmt) continue;
            for (int j = p.children.indexOf(cur) - 1; j >= 0; j--) {
                ClangNode st = p.children.get(j);
                ClangNode x = argument(st, usr);
                if (x != null) {
                    double[] v = eval.apply(x);
                    if (v == null) return null;
                    // the argument's sign where its interval has no lower bound (a position stepped from 0 by a
                    // non-negative increment, ClangSigns), as ClangUnit#interval reads it
                    if (v[0] < 0 && unit.signs().nonNegativeIn(fn, x)) v = new double[] {0, Math.max(0, v[1])};
                    return new double[] {trunc(v[0]), trunc(v[1])};
                }
                if (names(st, usr, false)) return null;
            }
        }
        return null;
    }

    private static double trunc(double v) {
        return Double.isInfinite(v) || Double.isNaN(v) ? v : v < 0 ? Math.ceil(v) : Math.floor(v);
    }

    /** Whether every aliasing use of {@code usr} in {@code fn} is {@code &usr} as the second argument of modf. */
    private static boolean onlyOutParameter(ClangNode fn, String usr) {
        boolean[] ok = {true};
        int[] calls = new int[1];
        fn.forEach(x -> {
            if (!ok[0] || x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr) || !aliases(x)) return;
            if (call(x) != null) calls[0]++;
            else ok[0] = false;
        });
        return ok[0] && calls[0] > 0;
    }

    /** The modf call whose second argument is {@code &x}, x a reference to the local; null otherwise. */
    private static ClangNode call(ClangNode x) {
        ClangNode amp = outermost(x).parent;
        if (amp == null || amp.kind != CXCursor_UnaryOperator || !amp.spelling.equals("&")) return null;
        ClangNode c = amp;
        while (c.parent != null && (c.parent.kind == CXCursor_UnexposedExpr || c.parent.kind == CXCursor_ParenExpr))
            c = c.parent;
        ClangNode call = c.parent;
        if (call == null || call.kind != CXCursor_CallExpr || !MODF.contains(callee(call))) return null;
        java.util.List<ClangNode> args = arguments(call);
        return args.size() == 2 && args.get(1) == c ? call : null;
    }

    /** The first argument of a modf call in {@code st} that stores into the local {@code usr}, or null. */
    private static ClangNode argument(ClangNode st, String usr) {
        ClangNode[] found = new ClangNode[1];
        st.forEach(x -> {
            if (found[0] != null || x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr)) return;
            ClangNode call = call(x);
            if (call != null) found[0] = arguments(call).get(0);
        });
        return found[0];
    }

    /** Whether {@code n} names the local (only its writes, with {@code writesOnly}): a reference or a declaration. */
    private static boolean names(ClangNode n, String usr, boolean writesOnly) {
        boolean[] hit = new boolean[1];
        n.forEach(x -> {
            if (hit[0]) return;
            if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) hit[0] = !writesOnly || !x.children.isEmpty();
            else if (x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr))
                hit[0] = !writesOnly
                        || call(x) != null
                        || outermost(x).parent != null && ClangLoops.writes(outermost(x).parent, usr);
        });
        return hit[0];
    }
}
