package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.function.Function;

/**
 * The interval of a shift of a value that is not negative: {@code a >> k} lies in [a_lo >> k_hi, a_hi >> k_lo], {@code
 * a << k} in [a_lo * 2^k_lo, a_hi * 2^k_hi] while that fits the result's type (session 65 round G: a sound chip's step
 * {@code (UINT32)(clock / 128.0 * freq / rate + 0.5f)} with {@code freq = ((pitch_hi << 8) + frequency) >> div} was an
 * add-half rounding "of negative values": a shift had no interval). A shift of a value that may be negative or a left
 * shift by a count that may be negative is unknown; a left shift past the type's range is in the type's non-negative
 * range (a signed overflow is undefined behaviour, an unsigned one wraps); a right shift by any count is in [0, a_hi]
 * (a negative count is undefined behaviour).
 */
final class ClangShifts {
    private ClangShifts() {}

    /** The interval of {@code n} when it is such a shift, else null. */
    static double[] of(ClangNode n, Function<ClangNode, double[]> eval) {
        if (n.children.size() != 2 || !integral(n.canonKind)) return null;
        boolean right = n.spelling.equals(">>");
        if (!right && !n.spelling.equals("<<")) return null;
        double[] a = eval.apply(n.children.get(0));
        double[] k = eval.apply(n.children.get(1));
        if (a == null || k == null || !(a[0] >= 0) || Double.isNaN(a[1]) || Double.isNaN(k[0]) || Double.isNaN(k[1]))
            return null;
        // a count below 0 is undefined behaviour: a right shift of a value >= 0 by any valid count is in [0, a_hi]
        if (right && k[0] < 0) return new double[] {0, a[1]};
        if (right) return new double[] {Math.floor(a[0] / Math.pow(2, k[1])), Math.floor(a[1] / Math.pow(2, k[0]))};
        if (k[0] < 0) return null;
        double hi = a[1] * Math.pow(2, k[1]);
        double max = Math.pow(2, bytes(n.canonKind) * 8 - (unsignedKind(n.canonKind) ? 0 : 1)) - 1;
        // past the type's range: a signed shift into the sign bit or beyond is undefined behaviour, so a value >= 1
        // shifted left stays in [a_lo * 2^k_lo, max] (1 << depth of an unknown depth, session 75 round G: an image
        // library's (1 << srcDepth) - 1, the largest sample); an unsigned one wraps anywhere in its range
        if (!(hi <= max))
            return unsignedKind(n.canonKind)
                    ? new double[] {0, max}
                    : new double[] {Math.min(a[0] * Math.pow(2, k[0]), max), max};
        return new double[] {a[0] * Math.pow(2, k[0]), hi};
    }
}
