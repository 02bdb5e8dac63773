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
 * after). Plain assignments and initializers give the hull; a compound assignment by a value of known sign moves it
 * one way ({@code v += e} with {@code e >= 0} and {@code ++v} raise it: no upper bound; {@code -=} and {@code --}
 * lower it; {@code *=} and {@code /=} by a value {@code >= 0} keep the sign of every value it was given); any other
 * write makes it unknown here. A running maximum ({@code if (r[i] > m) m = r[i];}) only raises the local: its value is above
 * one the local held, so it bounds the hull from above only (session 57: a dithering library's buffer size from a
 * maximum that starts at 0); a running minimum likewise from below. The test may be one operand of a {@code &&} ({@code
 * if (r[i] > 0 && m < r[i]) m = r[i];}).
 */
final class ClangAllDefinitions {
    private ClangAllDefinitions() {}

    /**
     * The hull of {@code eval} over the initializer and the assigned values of the local {@code usr} of {@code fn}, or
     * null when it has another kind of write or none.
     */
    static double[] hull(ClangUnit unit, ClangUnit.Function fn, String usr, Function<ClangNode, double[]> eval) {
        // a definition that reads the local itself (x = x + 1): unknown here, not a hull of hulls
        if (!ClangIntervalMemo.enter(ClangAllDefinitions.class, usr)) return null;
        try {
            return compute(unit, fn, usr, eval);
        } finally {
            ClangIntervalMemo.exit(ClangAllDefinitions.class, usr);
        }
    }

    private static double[] compute(
            ClangUnit unit, ClangUnit.Function fn, String usr, Function<ClangNode, double[]> eval) {
        List<ClangNode> values = new ArrayList<>();
        boolean[] other = {false};
        boolean[] local = {false};
        // compound writes that move the local one way: raise (v += e, e >= 0; ++v), lower, or scale (v *= e, v /= e,
        // e >= 0: the sign kept)
        boolean[] moves = new boolean[4];
        fn.node().forEach(n -> {
            // a local of the function (a parameter's first value is its caller's, no definition here)
            if (n.kind == CXCursor_VarDecl && usr.equals(n.usr)) local[0] = true;
            if (other[0]) return;
            // a comma's operands are visited themselves
            if (n.kind == CXCursor_DeclStmt || n.kind == CXCursor_BinaryOperator && !n.spelling.equals(",")) {
                ClangNode v = definition(n, usr);
                if (v != null) values.add(v);
            } else if (n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr) && ClangSyntax.written(n)) {
                ClangNode p = ClangSyntax.outermost(n).parent;
                int move = p.kind == CXCursor_BinaryOperator && p.spelling.equals("=") ? -1 : move(p, n, eval);
                if (move >= 0) moves[move] = true;
                else if (move == -2) other[0] = true;
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
        if (moves[RAISE]) hi = Double.POSITIVE_INFINITY;
        if (moves[LOWER]) lo = Double.NEGATIVE_INFINITY;
        if (moves[SHRINK] && !moves[SCALE]) {
            // divided by factors >= 1 (or multiplied by factors in [0, 1]): towards 0 from every value it was given
            if (lo >= 0) return new double[] {0, hi};
            if (hi <= 0) return new double[] {lo, 0};
            return new double[] {Math.min(lo, 0), Math.max(hi, 0)};
        }
        if (moves[SCALE] || moves[SHRINK]) {
            // scaled by factors >= 0: the sign of every value it was given (a level divided by pow(10, s / 20) in a
            // loop stays >= 0, session 65 round G)
            if (lo >= 0) return new double[] {0, Double.POSITIVE_INFINITY};
            if (hi <= 0) return new double[] {Double.NEGATIVE_INFINITY, 0};
            return null;
        }
        return new double[] {lo, hi};
    }

    private static final int RAISE = 0;
    private static final int LOWER = 1;
    private static final int SCALE = 2;
    private static final int SHRINK = 3;

    /**
     * How the write {@code p} of the local {@code ref} moves it: {@link #RAISE}, {@link #LOWER}, {@link #SCALE},
     * {@link #SHRINK} (divided by at least 1, multiplied by at most 1), or -2 for any other write (an operand of unknown sign, an assignment through a call).
     */
    private static int move(ClangNode p, ClangNode ref, Function<ClangNode, double[]> eval) {
        if (p.kind == CXCursor_UnaryOperator)
            return p.spelling.equals("++") ? RAISE : p.spelling.equals("--") ? LOWER : -2;
        if (p.kind != CXCursor_CompoundAssignOperator || p.children.size() != 2) return -2;
        if (ClangSyntax.outermost(ref) != p.children.get(0)) return -2;
        int self = selfScaled(p, ref, eval);
        if (self != -1) return self;
        double[] e = eval.apply(p.children.get(1));
        if (e == null || Double.isNaN(e[0]) || Double.isNaN(e[1])) return -2;
        String op = p.spelling;
        if (op.equals("+=")) return e[0] >= 0 ? RAISE : e[1] <= 0 ? LOWER : -2;
        if (op.equals("-=")) return e[0] >= 0 ? LOWER : e[1] <= 0 ? RAISE : -2;
        if (op.equals("/=") && e[0] >= 1 || op.equals("*=") && e[0] >= 0 && e[1] <= 1) return SHRINK;
        if (op.equals("*=") || op.equals("/=")) return e[0] >= 0 ? SCALE : -2;
        return -2;
    }

    /**
     * The move of {@code v -= v / e}, {@code v -= v * e}, {@code v += v * e} or {@code v += v / e} ({@code p}, the
     * local {@code ref}; {@code e} not reading it): a decay toward 0 ({@link #SHRINK}: {@code v * (1 - 1/e)} with e >=
     * 1, {@code v * (1 - e)} with e in [0, 1]; session 86 round AO, a colour quantiser's neighbourhood radius {@code
     * radius -= radius / 30} from 32), a scaling that keeps the sign ({@link #SCALE}: {@code v * (1 + e)}, e >= 0),
     * -2 for another such update, -1 when the update is not of this form.
     */
    private static int selfScaled(ClangNode p, ClangNode ref, Function<ClangNode, double[]> eval) {
        ClangNode rhs = ClangSyntax.strip(p.children.get(1));
        if (rhs == null
                || rhs.kind != CXCursor_BinaryOperator
                || rhs.children.size() != 2
                || !(rhs.spelling.equals("*") || rhs.spelling.equals("/"))) return -1;
        ClangNode l = ClangSyntax.strip(rhs.children.get(0)), r = ClangSyntax.strip(rhs.children.get(1));
        boolean left = local(l, ref.refUsr);
        if (!left && !(rhs.spelling.equals("*") && local(r, ref.refUsr))) return -1;
        ClangNode other = left ? rhs.children.get(1) : rhs.children.get(0);
        boolean[] reads = {false};
        other.forEach(x -> reads[0] |= x.kind == CXCursor_DeclRefExpr && ref.refUsr.equals(x.refUsr));
        if (reads[0]) return -2;
        double[] e = eval.apply(other);
        if (e == null || Double.isNaN(e[0]) || Double.isNaN(e[1])) return -2;
        boolean divides = rhs.spelling.equals("/");
        if (p.spelling.equals("-=")) {
            if (divides ? e[0] >= 1 : e[0] >= 0 && e[1] <= 1) return SHRINK;
            return -2;
        }
        if (p.spelling.equals("+=")) return (divides ? e[0] > 0 : e[0] >= 0) ? SCALE : -2;
        return -2;
    }

    /**
     * 1 when the assignment of {@code value} to the local runs only where its test found the value above the local's
     * ({@code if (x > m) m = x;}, the assignment first in its branch or after statements that write neither), -1 when
     * below it, 0 otherwise. A NaN fails the test and is never assigned.
     */
    private static int running(ClangUnit unit, ClangNode value, String usr) {
        ClangNode st = value.parent;
        if (st == null || st.kind != CXCursor_BinaryOperator || !"=".equals(st.spelling)) return 0;
        ClangIfBranches.Branch branch = ClangIfBranches.of(st, value, usr);
        if (branch == null || !branch.holds()) return 0;
        String v = ClangSyntax.bare(unit.text(value));
        if (v == null) return 0;
        // the assignment runs only where every operand of a && holds: one of them may be the test
        // (if (b[j] > 0 && m < b[j]) m = b[j];, session 66 round B: a pitch detector's running peaks)
        List<ClangNode> tests = new ArrayList<>();
        ClangSyntax.operands(branch.test(), "&&", tests, 0);
        for (ClangNode t : tests) {
            int side = side(unit, t, v, usr);
            if (side != 0) return side;
        }
        return 0;
    }

    /** 1 when the test {@code t} holds only where {@code v} is above the local, -1 below, 0 otherwise. */
    private static int side(ClangUnit unit, ClangNode t, String v, String usr) {
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return 0;
        String op = t.spelling;
        ClangNode l = ClangSyntax.strip(t.children.get(0)), r = ClangSyntax.strip(t.children.get(1));
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

    /** The one value of a braced initializer of a scalar ({@code const float s{std::max(x, 0.01f)}}), else {@code init}. */
    private static ClangNode braced(ClangNode init) {
        ClangNode n = init;
        while (n.kind == CXCursor_UnexposedExpr && n.children.size() == 1) n = n.children.get(0);
        return n.kind == CXCursor_InitListExpr && n.children.size() == 1 && n.canonKind == init.canonKind
                ? n.children.get(0)
                : init;
    }

    /**
     * The value a statement stores into the whole variable: {@code v = e;} or {@code T v = e;}, also as an operand of a
     * comma ({@code for (rc = 0, col = 0; ...)}, the later write when both write it); else null.
     */
    static ClangNode definition(ClangNode st, String usr) {
        if (st.kind == CXCursor_BinaryOperator && st.spelling.equals(",") && st.children.size() == 2) {
            ClangNode later = definition(st.children.get(1), usr);
            return later != null ? later : definition(st.children.get(0), usr);
        }
        if (st.kind == CXCursor_DeclStmt) {
            for (ClangNode d : st.children) {
                if (d.kind == CXCursor_VarDecl && usr.equals(d.usr) && !d.children.isEmpty()) {
                    ClangNode init = braced(d.children.get(d.children.size() - 1));
                    return ClangSyntax.clang_isExpressionKind(init.kind) ? init : null;
                }
            }
            return null;
        }
        if (st.kind == CXCursor_BinaryOperator && st.spelling.equals("=") && st.children.size() == 2) {
            ClangNode l = ClangSyntax.strip(st.children.get(0));
            if (l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr)) return st.children.get(1);
        }
        return null;
    }
}
