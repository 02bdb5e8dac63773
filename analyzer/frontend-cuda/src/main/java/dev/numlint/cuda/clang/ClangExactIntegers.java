package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.List;

/**
 * Exact integer values computed in floating point ({@link ClangWholeNumbers}'s arithmetic): {@code +}, {@code -},
 * {@code *} and a unary minus of whole numbers are whole numbers, computed exactly while every intermediate stays
 * within the type's significand (2^53 in double, 2^24 in float); so is {@code pow(b, e)} of a whole base and a whole
 * exponent {@code e >= 0} whose result stays below 2^53, in host code only. Then a product of two such values is the
 * same fused or not, and an fma changes nothing ({@code 3 * (pow(p, d - 1) - pow(p, d - 2)) + 1} with {@code p} and
 * {@code d} bounded).
 *
 * <p>Why {@code pow} is exact there: a libm whose {@code pow} is within 1 ulp returns the exact result whenever it
 * is representable (the next double is a whole ulp away). glibc's {@code pow} (since 2.28) is documented within
 * 0.52 ulp; checked on glibc 2.36: every base {@code b} and exponent {@code e >= 2} with {@code b^e < 2^53} (and
 * their negations), {@code e = 1} to 10^8 and {@code e = 0}: 390 million calls, none inexact (session 30,
 * docs/frontend/fixes-session30-exact.md). CUDA's device {@code pow} is documented within 2 ulp, so a device or
 * host-and-device function's {@code pow} is not taken to be exact; nor is {@code powf} or another library's.
 *
 * <p>Magnitudes are intervals: an integer of unknown range is its type's (a product of two 32-bit integers can
 * reach 2^62), narrowed by loop bounds, what its construction proves and the conditions that guard the read
 * ({@link #guarded}: {@code d < 3 || ... pow(p, d - 1)} reads {@code d >= 3}). An interval past the significand is
 * no proof: the product stays a hazard.
 */
final class ClangExactIntegers {
    private ClangExactIntegers() {}

    /** The interval of a whole-number value within {@code limit}, or null ({@link ClangWholeNumbers#range}). */
    interface Range {
        double[] of(ClangUnit unit, ClangNode x, ClangUnit.Function fn, int depth, double limit);
    }

    /**
     * The interval of floating arithmetic on whole numbers ({@code -a}, {@code a + b}, {@code a - b}, {@code a * b},
     * host {@code pow(a, e)}), each intermediate within {@code limit}; null for another expression or one not proven.
     */
    static double[] arithmetic(
            ClangUnit unit, ClangNode n, ClangUnit.Function fn, int depth, double limit, Range range) {
        if (!floating(n.canonKind)) return null;
        if (n.kind == CXCursor_UnaryOperator && n.children.size() == 1 && "-".equals(n.spelling)) {
            double[] a = range.of(unit, n.children.get(0), fn, depth, limit);
            return a == null ? null : new double[] {-a[1], -a[0]};
        }
        if (n.kind == CXCursor_BinaryOperator && n.children.size() == 2 && "+-*".contains(n.spelling)) {
            double[] a = range.of(unit, n.children.get(0), fn, depth, limit);
            double[] b = a == null ? null : range.of(unit, n.children.get(1), fn, depth, limit);
            if (b == null) return null;
            double[] r = combine(n.spelling, a, b);
            return within(r, limit) ? r : null;
        }
        if (n.kind == CXCursor_CallExpr && fn.host() && !fn.device() && n.canonKind == CXType_Double) {
            String f = callee(n).replace("std::", "");
            List<ClangNode> args = arguments(n);
            if (!f.equals("pow") || args.size() != 2) return null;
            double[] b = range.of(unit, args.get(0), fn, depth, limit);
            double[] e = exponent(unit, args.get(1), fn, depth);
            if (b == null || e == null || e[0] < 0 || Double.isInfinite(e[1])) return null;
            double m = Math.max(Math.abs(b[0]), Math.abs(b[1]));
            double hi = m <= 1 ? 1 : Math.pow(m, e[1]);
            if (!(hi <= limit) || hi >= 0x1p53) return null;
            return new double[] {b[0] >= 0 ? 0 : -hi, hi};
        }
        return null;
    }

    /** The whole-number interval of a pow exponent: an integer expression or a whole constant; null otherwise. */
    private static double[] exponent(ClangUnit unit, ClangNode x, ClangUnit.Function fn, int depth) {
        ClangNode n = strip(x);
        if (n == null) return null;
        if (n.value != null) return n.value == Math.rint(n.value) ? new double[] {n.value, n.value} : null;
        if (isExplicitCast(n)) return exponent(unit, operandOf(n), fn, depth);
        return integral(n.canonKind) ? ClangWholeNumbers.integers(unit, n, fn, depth) : null;
    }

    private static boolean within(double[] r, double limit) {
        return Math.max(Math.abs(r[0]), Math.abs(r[1])) <= limit;
    }

    /** Interval arithmetic of {@code a op b} for {@code +}, {@code -}, {@code *}. */
    static double[] combine(String op, double[] a, double[] b) {
        return switch (op) {
            case "+" -> new double[] {a[0] + b[0], a[1] + b[1]};
            case "-" -> new double[] {a[0] - b[1], a[1] - b[0]};
            default -> {
                double[] p = {mul(a[0], b[0]), mul(a[0], b[1]), mul(a[1], b[0]), mul(a[1], b[1])};
                yield new double[] {
                    Math.min(Math.min(p[0], p[1]), Math.min(p[2], p[3])),
                    Math.max(Math.max(p[0], p[1]), Math.max(p[2], p[3]))
                };
            }
        };
    }

    /** A product of interval ends where 0 times an infinite end is 0. */
    private static double mul(double x, double y) {
        return x == 0 || y == 0 ? 0 : x * y;
    }

    /**
     * {@code r}, the interval of the integer local {@code ref} reads, narrowed by the conditions that must hold where
     * it is read: the right operand of {@code a || b} reads where {@code a} is false, of {@code a && b} where it is
     * true, the branches of an {@code if} or {@code ?:} where its condition is true or false. A condition states a
     * bound when it compares the same local with a constant ({@code d < 3}, {@code 2 <= d}), or joins such
     * comparisons with {@code &&} (true) or {@code ||} (false). Only a local (or parameter) that nothing writes after
     * its declaration and whose address is never taken.
     */
    static double[] guarded(ClangNode ref, double[] r, ClangUnit.Function fn) {
        if (ref.refUsr == null) return r;
        // a local or parameter written nowhere after its declaration, its address never taken: the value tested is
        // the value read
        ClangBodyIndex.Variable v = ClangBodyIndex.of(fn).of(ref.refUsr);
        if (!v.writes().isEmpty()) return r;
        for (ClangNode x : v.refs()) if (aliases(x)) return r;
        double lo = r[0], hi = r[1];
        ClangNode c = ref;
        for (ClangNode p = ref.parent; p != null; c = p, p = p.parent) {
            ClangNode cond = null;
            boolean truth = true;
            if (p.kind == CXCursor_BinaryOperator && p.children.size() == 2 && p.children.get(1) == c) {
                if (p.spelling.equals("||")) {
                    cond = p.children.get(0);
                    truth = false;
                } else if (p.spelling.equals("&&")) {
                    cond = p.children.get(0);
                }
            } else if ((p.kind == CXCursor_IfStmt || p.kind == CXCursor_ConditionalOperator)
                    && p.children.size() >= 2
                    && p.children.get(0) != c) {
                cond = p.children.get(0);
                truth = p.children.get(1) == c;
            }
            if (cond == null) continue;
            double[] b = {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
            bounds(cond, ref.refUsr, truth, b, 0);
            lo = Math.max(lo, b[0]);
            hi = Math.min(hi, b[1]);
        }
        return lo <= hi ? new double[] {lo, hi} : r;
    }

    /** Narrows {@code b} by what {@code cond} being {@code truth} states about the integer local {@code usr}. */
    private static void bounds(ClangNode cond, String usr, boolean truth, double[] b, int depth) {
        ClangNode e = strip(cond);
        if (e == null || depth > 8 || e.kind != CXCursor_BinaryOperator || e.children.size() != 2) return;
        String op = e.spelling;
        if (op.equals("&&") && truth || op.equals("||") && !truth) {
            bounds(e.children.get(0), usr, truth, b, depth + 1);
            bounds(e.children.get(1), usr, truth, b, depth + 1);
            return;
        }
        ClangNode l = strip(e.children.get(0)), r = strip(e.children.get(1));
        Double k;
        if (local(l, usr) && (k = constant(r)) != null) {
            // as written: usr op k
        } else if (local(r, usr) && (k = constant(l)) != null) {
            op = mirrored(op); // k op usr is usr op' k
        } else {
            return;
        }
        if (!truth) op = negatedComparison(op);
        switch (op) {
            case "<" -> b[1] = Math.min(b[1], Math.ceil(k) - 1);
            case "<=" -> b[1] = Math.min(b[1], Math.floor(k));
            case ">" -> b[0] = Math.max(b[0], Math.floor(k) + 1);
            case ">=" -> b[0] = Math.max(b[0], Math.ceil(k));
            case "==" -> {
                b[0] = Math.max(b[0], k);
                b[1] = Math.min(b[1], k);
            }
            default -> {}
        }
    }

    private static boolean local(ClangNode n, String usr) {
        return n != null && n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr);
    }
}
