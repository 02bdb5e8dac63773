package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * A loop's counter divided by the loop's own bound: in the body of {@code for (int i = 0; i < n; i++)}, {@code i / (n -
 * 1)} and {@code i / n} lie in [0, 1] whatever {@code n} is, and {@code c * i / (n - 1)} in [0, c] for a constant
 * {@code c >= 0} (a tone curve's {@code 65535 * i / (n - 1)}, a ramp's {@code (float) i / (n - 1) * 255}, a
 * cross-fade's weight {@code i / n}), as is {@code (i << k) / n} in [0, 2^k] (a gradient's 16.16 weight {@code (j <<
 * 16) / (float)p->distance}, session 84 round AA). Interval arithmetic alone cannot see it: the numerator and the
 * denominator share {@code n}. The counter must start at a value that cannot be negative and only grow ({@link
 * ClangIntervals}' counter), the body must not write it, the division must lie in the body, and the loop must not write
 * the bound (a local or parameter, or a member the loop assigns nowhere). {@code i <= m} bounds {@code i / m} the same
 * way. Where {@code n - 1} is 0 the one iteration divides 0 by 0; the interval is that of the iterations that divide by
 * a bound of at least 1.
 */
final class ClangCounterRatios {
    private ClangCounterRatios() {}

    /**
     * [0, c] when {@code div} (a {@code /}) divides a loop counter (times c) by that loop's bound, else null; {@code
     * counter} gives the counter's interval in its loop ({@code (loop, reference)}), or null when it is no counter.
     */
    static double[] ratio(ClangUnit unit, ClangNode div, BiFunction<ClangNode, ClangNode, double[]> counter) {
        if (div.children.size() != 2) return null;
        ClangNode num = withoutCasts(div.children.get(0));
        ClangNode den = withoutCasts(div.children.get(1));
        double scale = 1;
        ClangNode ref = num;
        if (num != null
                && num.kind == CXCursor_BinaryOperator
                && num.spelling.equals("*")
                && num.children.size() == 2) {
            Double a = folded(num.children.get(0));
            Double b = folded(num.children.get(1));
            if (a != null && a >= 0 && b == null) {
                scale = a;
                ref = withoutCasts(num.children.get(1));
            } else if (b != null && b >= 0 && a == null) {
                scale = b;
                ref = withoutCasts(num.children.get(0));
            } else return null;
        } else if (num != null
                && num.kind == CXCursor_BinaryOperator
                && num.spelling.equals("<<")
                && num.children.size() == 2) {
            // a fixed-point counter, (j << 16) / (float)n: j times 2^16 (a shift into the sign bit is undefined)
            Double k = folded(num.children.get(1));
            if (k == null || k < 0 || k > 62 || folded(num.children.get(0)) != null) return null;
            scale = Math.pow(2, k);
            ref = withoutCasts(num.children.get(0));
        }
        return bounded(unit, div, ref, den, scale, counter);
    }

    /**
     * [0, c] when {@code mul} multiplies a loop counter by a local set to {@code c / n} just before the loop, {@code n}
     * the loop's bound: {@code d = 255.0 / (double)mx; for (i = 0; i <= mx; i++) xtb[i] = rint(i * d);} (session 84
     * round AE, a paint program's level table, a false NL001 error "300 wraps"). The local's last write before the
     * loop, in the block that holds the loop, is that division, and nothing between writes the local or {@code n};
     * the loop writes neither (the counter and the bound as for {@link #ratio}). Null otherwise.
     */
    static double[] scaled(ClangUnit unit, ClangNode mul, BiFunction<ClangNode, ClangNode, double[]> counter) {
        if (!mul.spelling.equals("*") || mul.children.size() != 2) return null;
        for (int k = 0; k < 2; k++) {
            ClangNode ref = withoutCasts(mul.children.get(k));
            ClangNode d = withoutCasts(mul.children.get(1 - k));
            if (ref == null || d == null || ref.kind != CXCursor_DeclRefExpr || d.kind != CXCursor_DeclRefExpr)
                continue;
            if (ref.refUsr == null || d.refUsr == null) continue;
            ClangNode loop = loopOf(mul, ref.refUsr);
            ClangNode block = loop == null ? null : loop.parent;
            if (block == null || block.kind != CXCursor_CompoundStmt || writesIn(loop, d.refUsr)) continue;
            ClangNode q = null;
            List<ClangNode> between = new java.util.ArrayList<>();
            for (int j = block.children.indexOf(loop) - 1; j >= 0 && q == null; j--) {
                ClangNode st = block.children.get(j);
                ClangNode a = ClangAllDefinitions.definition(st, d.refUsr);
                if (a != null) q = withoutCasts(a);
                else if (writesIn(st, d.refUsr) || labelled(st) != st) break;
                else between.add(st);
            }
            if (q == null || q.kind != CXCursor_BinaryOperator || !q.spelling.equals("/") || q.children.size() != 2)
                continue;
            Double c = folded(q.children.get(0));
            ClangNode den = withoutCasts(q.children.get(1));
            boolean moved = false;
            for (ClangNode st : between) moved |= den != null && writesAny(st, den);
            if (c == null || c < 0 || den == null || moved) continue;
            double[] r = bounded(unit, mul, ref, den, c, counter);
            if (r != null) return r;
        }
        return null;
    }

    /** [0, scale] when {@code ref} at {@code at} is the counter of a loop bounded by {@code den}, else null. */
    private static double[] bounded(
            ClangUnit unit,
            ClangNode at,
            ClangNode ref,
            ClangNode den,
            double scale,
            BiFunction<ClangNode, ClangNode, double[]> counter) {
        if (ref == null || den == null || ref.kind != CXCursor_DeclRefExpr || ref.refUsr == null) return null;
        ClangNode loop = loopOf(at, ref.refUsr);
        if (loop == null) return null;
        ClangNode body = loop.children.get(loop.children.size() - 1);
        double[] x = counter.apply(loop, ref);
        if (x == null || x[0] < 0 || writesIn(body, ref.refUsr)) return null;
        boolean minusOne = den.kind == CXCursor_BinaryOperator
                && den.spelling.equals("-")
                && den.children.size() == 2
                && Double.valueOf(1).equals(folded(den.children.get(1)));
        ClangNode bound = minusOne ? withoutCasts(den.children.get(0)) : den;
        if (!invariant(unit, loop, bound)) return null;
        for (ClangNode test : conjuncts(loop.children.get(loop.children.size() - 3))) {
            if (test.kind != CXCursor_BinaryOperator || test.children.size() != 2) continue;
            String op = test.spelling;
            ClangNode l = withoutCasts(test.children.get(0));
            ClangNode r = withoutCasts(test.children.get(1));
            ClangNode other;
            if (reads(l, ref.refUsr) && (op.equals("<") || op.equals("<="))) other = r;
            else if (reads(r, ref.refUsr) && (op.equals(">") || op.equals(">="))) other = l;
            else continue;
            boolean strict = op.length() == 1;
            // i < n: i / n and i / (n - 1); i <= m: i / m
            if (strict && same(unit, other, bound)) return new double[] {0, scale};
            if (!strict && !minusOne && same(unit, other, bound)) return new double[] {0, scale};
            if (!strict
                    && minusOne
                    && other != null
                    && other.kind == CXCursor_BinaryOperator
                    && other.spelling.equals("-")
                    && other.children.size() == 2
                    && Double.valueOf(1).equals(folded(other.children.get(1)))
                    && same(unit, withoutCasts(other.children.get(0)), bound)) return new double[] {0, scale};
        }
        return null;
    }

    /**
     * [0, 1] when {@code div} is {@code (j - lo) / (hi - lo)} in the body of {@code for (j = lo; j < hi; j++)} (or
     * {@code <=}) that writes neither {@code j} in its body nor anything {@code lo} and {@code hi} read: the fraction
     * of the way from {@code lo} to {@code hi}, as a colour ramp's weight between two keys ({@code t = (float)(j -
     * keys[i].pos) / (float)(keys[i + 1].pos - keys[i].pos)}, session 74 round D: a tracker's fire palette). In the
     * loop {@code lo <= j < hi}, so the divisor is at least 1 wherever the division runs. Null otherwise.
     */
    static double[] offsetRatio(ClangNode div) {
        if (div.children.size() != 2) return null;
        ClangNode num = withoutCasts(div.children.get(0));
        ClangNode den = withoutCasts(div.children.get(1));
        if (!difference(num) || !difference(den)) return null;
        ClangNode j = withoutCasts(num.children.get(0));
        ClangNode lo = num.children.get(1);
        ClangNode hi = den.children.get(0);
        if (j == null || j.kind != CXCursor_DeclRefExpr || j.refUsr == null) return null;
        if (!sameTree(lo, den.children.get(1))) return null;
        ClangNode loop = loopOf(div, j.refUsr);
        ClangLoops.Header h = loop == null ? null : ClangLoops.header(loop);
        if (h == null || !j.refUsr.equals(h.var()) || !h.op().equals("<") && !h.op().equals("<=")) return null;
        if (!sameTree(h.bound(), hi) || !sameTree(start(loop.children.get(0)), lo)) return null;
        if (writesIn(h.body(), j.refUsr) || writesAny(loop, lo) || writesAny(loop, hi)) return null;
        return new double[] {0, 1};
    }

    private static boolean difference(ClangNode n) {
        return n != null && n.kind == CXCursor_BinaryOperator && n.spelling.equals("-") && n.children.size() == 2;
    }

    /** The value a for statement's initialization gives its counter ({@code int j = lo}, {@code j = lo}), or null. */
    private static ClangNode start(ClangNode init) {
        ClangNode i = strip(init);
        if (i != null && i.kind == CXCursor_BinaryOperator && i.spelling.equals("=") && i.children.size() == 2)
            return i.children.get(1);
        if (i == null || i.kind != CXCursor_DeclStmt || i.children.size() != 1) return null;
        ClangNode d = i.children.get(0);
        return d.kind == CXCursor_VarDecl && !d.children.isEmpty() ? d.children.get(d.children.size() - 1) : null;
    }

    /** Whether the loop writes a variable {@code e} reads, or a member of a name {@code e} reads. */
    private static boolean writesAny(ClangNode loop, ClangNode e) {
        boolean[] bad = new boolean[1];
        e.forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && writesIn(loop, x.refUsr)) bad[0] = true;
            if (x.kind == CXCursor_MemberRefExpr && x.spelling != null)
                loop.forEach(y -> {
                    if (y.kind == CXCursor_MemberRefExpr && x.spelling.equals(y.spelling) && written(y)) bad[0] = true;
                });
        });
        return bad[0];
    }

    /**
     * The for statement around {@code n} whose initialization declares {@code usr} or, declared before the loop (C89),
     * assigns it ({@code for (x = 0; x < s; x++)}), or null.
     */
    private static ClangNode loopOf(ClangNode n, String usr) {
        for (ClangNode p = n.parent; p != null; p = p.parent) {
            if (p.kind != CXCursor_ForStmt || p.children.size() < 4) continue;
            ClangNode init = strip(p.children.get(0));
            if (init != null
                    && init.kind == CXCursor_BinaryOperator
                    && init.spelling.equals("=")
                    && init.children.size() == 2
                    && reads(withoutCasts(init.children.get(0)), usr)) return p;
            if (init == null || init.kind != CXCursor_DeclStmt) continue;
            for (ClangNode d : init.children) if (d.kind == CXCursor_VarDecl && usr.equals(d.usr)) return p;
        }
        return null;
    }

    /** The operands of a condition's {@code &&}s (also {@link ClangLoopBoundValues}). */
    static List<ClangNode> conjuncts(ClangNode cond) {
        List<ClangNode> tests = new ArrayList<>();
        List<ClangNode> todo = new ArrayList<>(List.of(cond));
        while (!todo.isEmpty()) {
            ClangNode x = strip(todo.remove(todo.size() - 1));
            if (x != null && x.kind == CXCursor_BinaryOperator && x.spelling.equals("&&") && x.children.size() == 2)
                todo.addAll(x.children);
            else if (x != null) tests.add(x);
        }
        return tests;
    }

    /**
     * Whether the loop leaves {@code bound} as it is: a local or parameter it does not write, or a member (read through
     * a local or {@code this}) of which it assigns no member of that name.
     */
    private static boolean invariant(ClangUnit unit, ClangNode loop, ClangNode bound) {
        if (bound == null) return false;
        if (bound.kind == CXCursor_DeclRefExpr) return bound.refUsr != null && !writesIn(loop, bound.refUsr);
        if (bound.kind != CXCursor_MemberRefExpr || bound.spelling == null || bound.spelling.isEmpty()) return false;
        boolean[] bad = new boolean[1];
        loop.forEach(x -> {
            if (x.kind == CXCursor_MemberRefExpr && bound.spelling.equals(x.spelling) && written(x)) bad[0] = true;
        });
        return !bad[0] && key(unit, bound) != null;
    }

    private static boolean reads(ClangNode n, String usr) {
        return n != null && n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr);
    }

    /** Whether {@code a} and {@code b} read the same variable, or the same member by the same text. */
    private static boolean same(ClangUnit unit, ClangNode a, ClangNode b) {
        if (a == null || b == null || a.kind != b.kind) return false;
        if (a.kind == CXCursor_DeclRefExpr) return a.refUsr != null && a.refUsr.equals(b.refUsr);
        String ka = key(unit, a);
        return ka != null && ka.equals(key(unit, b));
    }

    /** A member read's text without blanks, when it is a chain of names ({@code c->n}, {@code this->size}), or null. */
    private static String key(ClangUnit unit, ClangNode member) {
        if (member.kind != CXCursor_MemberRefExpr) return null;
        String t = unit.text(member);
        if (t == null) return null;
        t = t.replaceAll("\\s+", "");
        return t.matches("[A-Za-z_]\\w*((\\.|->)[A-Za-z_]\\w*)*") ? t : null;
    }
}
