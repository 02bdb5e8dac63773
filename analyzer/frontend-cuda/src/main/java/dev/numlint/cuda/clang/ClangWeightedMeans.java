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
}
