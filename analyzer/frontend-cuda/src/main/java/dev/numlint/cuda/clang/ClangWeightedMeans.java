package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * A weighted mean {@code (x1*w1 + x2*w2 + ...) / (w1 + w2 + ...)}: each weight of the denominator, written the same,
 * is a factor of one term of the numerator. With weights that are not negative it is a convex combination of the
 * {@code x}: it lies between the smallest and the largest of them. Colours merged in proportion to masses,
 * {@code rgb32(((double)a.red*m1 + (double)b.red*m2) / (m1 + m2), ...)} (session 49: six false errors of one round,
 * "-69.235 gives 187 on x86" for a mean of unsigned char channels). When every {@code x} is never negative
 * ({@link ClangSigns}) the mean is not negative either, as long as its weights are not: what a conversion to unsigned
 * of it assumes, the guard names.
 */
final class ClangWeightedMeans {
    private ClangWeightedMeans() {}

    /** The guard a weighted mean of non-negative values gives the division {@code div}, or null. */
    static String guard(ClangUnit unit, ClangNode div) {
        if (div.kind != CXCursor_BinaryOperator || !div.spelling.equals("/") || div.children.size() != 2) return null;
        List<ClangNode> num = new ArrayList<>();
        List<ClangNode> den = new ArrayList<>();
        ClangSyntax.operands(div.children.get(0), "+", num, 0);
        ClangSyntax.operands(div.children.get(1), "+", den, 0);
        if (num.size() < 2 || num.size() != den.size()) return null;
        ClangUnit.Function fn = unit.functionOf(div);
        if (fn == null) return null;
        List<String> weights = new ArrayList<>();
        for (ClangNode d : den) weights.add(squash(unit.text(d)));
        for (ClangNode t : num) {
            ClangNode m = strip(t);
            if (m == null || m.kind != CXCursor_BinaryOperator || !m.spelling.equals("*") || m.children.size() != 2)
                return null;
            ClangNode a = m.children.get(0);
            ClangNode b = m.children.get(1);
            ClangNode value;
            if (weights.remove(squash(unit.text(b)))) value = a;
            else if (weights.remove(squash(unit.text(a)))) value = b;
            else return null;
            if (!unit.signs().nonNegativeIn(fn, value)) return null;
        }
        if (!weights.isEmpty()) return null;
        return "a weighted mean of values >= 0 (line " + div.line + "), not negative while its weights are not";
    }

    /**
     * A weighted mean accumulated in a loop: {@code s / n} where the locals {@code s} and {@code n} start at 0 and are
     * written only by {@code s += x * w;} and {@code n += w;} in one block of a loop, with the same weight {@code w},
     * never negative: a convex combination of the {@code x}, within their interval (a Gaussian blur of bytes,
     * {@code sum += image[k] * weight; norm += weight;} then {@code (unsigned char)(sum / norm)}, session 69 round C:
     * a false error "300 wraps to 44"). With no term (or only zero weights) the quotient is 0/0: NaN, which x86 and
     * the GPU convert alike to 0 for the bytes and shorts such a mean is stored in (docs/validation/
     * conversions-session69). Null for anything else.
     */
    static double[] accumulated(ClangUnit unit, ClangNode div, ClangUnit.Function fn) {
        if (fn == null || div.kind != CXCursor_BinaryOperator || !div.spelling.equals("/") || div.children.size() != 2)
            return null;
        // the values' interval is asked of the unit: a value that reaches this mean again (sum += sum / norm * w)
        // must not ask it once more (session 69: a stack overflow on two real trees before this guard)
        if (!ClangIntervalMemo.enter(ClangWeightedMeans.class, div)) return null;
        try {
            return accumulatedMean(unit, div, fn);
        } finally {
            ClangIntervalMemo.exit(ClangWeightedMeans.class, div);
        }
    }

    private static double[] accumulatedMean(ClangUnit unit, ClangNode div, ClangUnit.Function fn) {
        ClangNode s = strip(div.children.get(0));
        ClangNode n = strip(div.children.get(1));
        if (s == null || n == null || s.kind != CXCursor_DeclRefExpr || n.kind != CXCursor_DeclRefExpr) return null;
        if (s.refUsr == null || n.refUsr == null || s.refUsr.equals(n.refUsr)) return null;
        ClangNode[] init = new ClangNode[2];
        List<ClangNode> writesOfS = new ArrayList<>();
        List<ClangNode> writesOfN = new ArrayList<>();
        boolean[] other = {false};
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_VarDecl && !x.children.isEmpty()) {
                if (s.refUsr.equals(x.usr)) init[0] = x.children.get(x.children.size() - 1);
                if (n.refUsr.equals(x.usr)) init[1] = x.children.get(x.children.size() - 1);
            }
            if (x.kind != CXCursor_DeclRefExpr || !s.refUsr.equals(x.refUsr) && !n.refUsr.equals(x.refUsr)) return;
            if (aliases(x)) other[0] = true;
            else if (written(x)) (s.refUsr.equals(x.refUsr) ? writesOfS : writesOfN).add(outermost(x).parent);
        });
        if (other[0] || writesOfS.size() != 1 || writesOfN.size() != 1) return null;
        if (!Double.valueOf(0).equals(folded(init[0])) || !Double.valueOf(0).equals(folded(init[1]))) return null;
        ClangNode su = writesOfS.get(0);
        ClangNode nu = writesOfN.get(0);
        if (su.kind != CXCursor_CompoundAssignOperator || nu.kind != CXCursor_CompoundAssignOperator) return null;
        if (!su.spelling.equals("+=")
                || !nu.spelling.equals("+=")
                || su.children.size() != 2
                || nu.children.size() != 2) return null;
        if (su.parent != nu.parent || innermostLoop(su) == null) return null;
        ClangNode term = strip(su.children.get(1));
        ClangNode w = nu.children.get(1);
        if (term == null
                || term.kind != CXCursor_BinaryOperator
                || !term.spelling.equals("*")
                || term.children.size() != 2) return null;
        ClangNode value = sameTree(term.children.get(1), w)
                ? term.children.get(0)
                : sameTree(term.children.get(0), w) ? term.children.get(1) : null;
        if (value == null || !unit.signs().nonNegativeIn(fn, w)) return null;
        double[] v = unit.interval(strip(value), fn);
        return v == null || Double.isInfinite(v[0]) || Double.isInfinite(v[1]) ? null : v;
    }
}
