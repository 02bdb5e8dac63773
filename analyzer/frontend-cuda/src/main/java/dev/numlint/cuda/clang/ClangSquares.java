package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * The sign of a product whose factors other than constants pair up: {@code x * x} is never negative and {@code -x *
 * x} and {@code -0.5 * (i - c) * (i - c)} never positive, whatever {@code x} is (so {@code exp(-x * x)} lies in [0,
 * 1]). Interval arithmetic alone cannot see it: it takes the two factors as independent. Factors are told apart by
 * their text, and only factors without a call, an assignment or an increment count (two draws of {@code rand()} are
 * not one value); an element read through a class's subscript operator ({@code q[1] * q[1]} of a vector type, session
 * 52) is one value.
 */
final class ClangSquares {
    private ClangSquares() {}

    /** 1 when the product {@code mul} cannot be negative, -1 when it cannot be positive, 0 when unknown. */
    static int sign(ClangUnit unit, ClangNode mul) {
        List<ClangNode> factors = new ArrayList<>();
        int[] sign = {1};
        collect(mul, factors, sign);
        // factors told apart by their text and their trees (every node of a macro's expansion has the invocation's
        // text: (gain * 2.0) in a SCALED macro is no square)
        List<ClangNode> kinds = new ArrayList<>();
        List<Integer> count = new ArrayList<>();
        for (ClangNode f : factors) {
            Double c = folded(f);
            if (c != null) {
                if (c < 0) sign[0] = -sign[0];
                continue;
            }
            if (!pure(f)) return 0;
            String t = unit.text(f);
            if (t == null) return 0;
            int k = 0;
            while (k < kinds.size()
                    && !(squash(unit.text(kinds.get(k))).equals(squash(t)) && sameTree(kinds.get(k), f))) k++;
            if (k == kinds.size()) {
                kinds.add(f);
                count.add(0);
            }
            count.set(k, count.get(k) + 1);
        }
        if (count.isEmpty()) return 0;
        for (int k : count) if (k % 2 != 0) return 0;
        return sign[0];
    }

    /** The multiply intrinsics with a rounding mode: their two arguments are a product's factors. */
    private static final java.util.Set<String> MULTIPLIES = java.util.Set.of(
            "__fmul_rn", "__fmul_rz", "__fmul_ru", "__fmul_rd", "__dmul_rn", "__dmul_rz", "__dmul_ru", "__dmul_rd");

    /**
     * The interval of the call {@code call} of a multiply intrinsic or fused multiply-add whose two factors are one
     * value ({@code __fmaf_rn(x, x, __fmaf_rn(y, y, z * z))}, a squared norm, session 59 round C): the square is never
     * negative, given its argument intervals {@code args}; null for any other call.
     */
    static double[] ofCall(ClangUnit unit, String name, ClangNode call, List<double[]> args) {
        boolean fma = dev.numlint.knowledge.NumericFacts.FMA_FUNCTIONS.contains(name);
        if (!fma && !MULTIPLIES.contains(name) || args.size() != (fma ? 3 : 2)) return null;
        List<ClangNode> a = arguments(call);
        if (a.size() != args.size() || !pure(a.get(0)) || !pure(a.get(1))) return null;
        String t0 = unit.text(strip(a.get(0))), t1 = unit.text(strip(a.get(1)));
        if (t0 == null || t1 == null || !squash(t0).equals(squash(t1)) || !sameTree(a.get(0), a.get(1))) return null;
        double[] x = args.get(0);
        double lo = x[0] >= 0 ? x[0] * x[0] : x[1] <= 0 ? x[1] * x[1] : 0;
        double[] sq = {lo, Math.max(x[0] * x[0], x[1] * x[1])};
        return args.size() == 2 ? sq : new double[] {sq[0] + args.get(2)[0], sq[1] + args.get(2)[1]};
    }

    /** The factors of a product, through parentheses, implicit conversions and negations (each flips the sign). */
    private static void collect(ClangNode n, List<ClangNode> out, int[] sign) {
        ClangNode x = strip(n);
        if (x != null && x.kind == CXCursor_BinaryOperator && x.spelling.equals("*") && x.children.size() == 2) {
            collect(x.children.get(0), out, sign);
            collect(x.children.get(1), out, sign);
        } else if (x != null && x.kind == CXCursor_UnaryOperator && x.spelling.equals("-") && x.children.size() == 1) {
            sign[0] = -sign[0];
            collect(x.children.get(0), out, sign);
        } else if (x != null) out.add(x);
    }

    /**
     * Whether {@code n} reads the same value each time: no call but a subscript operator's, no assignment, increment or
     * decrement in it.
     */
    private static boolean pure(ClangNode n) {
        boolean[] effect = new boolean[1];
        n.forEach(x -> {
            // an element read through a subscript operator (q[1] of a vector class) is an accessor, not a draw
            if (x.kind == CXCursor_CallExpr && !"operator[]".equals(x.spelling)
                    || x.kind == CXCursor_CompoundAssignOperator
                    || x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                    || x.kind == CXCursor_UnaryOperator && (x.spelling.equals("++") || x.spelling.equals("--")))
                effect[0] = true;
        });
        return !effect[0];
    }
}
