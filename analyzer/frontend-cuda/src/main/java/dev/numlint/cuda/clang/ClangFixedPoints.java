package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * A conversion to fixed point by adding one half: {@code (int32_t)(x * K + 0.5)} where {@code K} is a power of two,
 * 2^k with k from {@link #MIN_BITS} on, written as a constant or held by a variable Clang's intervals give one value
 * ({@code const float f = (float)(1 << 24);}, {@code const int RANGE = 1 << SHIFT;}). The result counts steps of
 * 2^-k of the value's unit; adding one half and truncating moves a negative value one step toward zero, an error of
 * the size of the representation's own rounding (session 71 round D and session 72 round B: ten such conversions of
 * an image codec's and an image library's fixed-point samples and weights, all judged tolerant).
 */
final class ClangFixedPoints {
    private ClangFixedPoints() {}

    /** The fewest fraction bits that make a scale a fixed-point conversion: a step of 1/256 of the unit or finer. */
    static final int MIN_BITS = 8;

    /** The fraction bits k of {@code conversion}'s operand {@code x * 2^k + 0.5} (either order), or 0. */
    static int bits(ClangUnit unit, ClangUnit.Conversion conversion) {
        ClangNode sum = strip(conversion.operand());
        while (sum != null && isExplicitCast(sum) && floating(sum.canonKind)) sum = strip(operandOf(sum));
        if (sum == null || sum.kind != CXCursor_BinaryOperator || !sum.spelling.equals("+") || sum.children.size() != 2)
            return 0;
        for (int i = 0; i < 2; i++) {
            Double half = constant(sum.children.get(i));
            ClangNode product = strip(sum.children.get(1 - i));
            if (half == null || half != 0.5 || product == null) continue;
            if (product.kind != CXCursor_BinaryOperator
                    || !product.spelling.equals("*")
                    || product.children.size() != 2) return 0;
            for (ClangNode factor : product.children) {
                double[] v = conversion.in() == null ? null : unit.interval(factor, conversion.in());
                if (v == null || v[0] != v[1] || !(v[0] > 0)) continue;
                int k = Math.getExponent(v[0]);
                if (v[0] == Math.scalb(1.0, k) && k >= MIN_BITS && k <= 62) return k;
            }
            return 0;
        }
        return 0;
    }
}
