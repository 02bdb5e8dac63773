package dev.numlint.cuda;

import dev.numlint.knowledge.NumericFacts;
import java.math.BigDecimal;
import java.util.TreeSet;

/**
 * Values known to take one of a few exact values ({@link E#set}): a constant, {@code copysign(c, x)} with constant c
 * (±c whatever x is), a comparison or a bool (0 or 1), a conditional between such values ({@code (u > 0) ? 1 : 0}),
 * a sum, difference, product or negation of such values computed without rounding ({@code 0.5*(1.0 + copysign(1.0,
 * u))} is 0 or 1), a conversion that keeps them, and a local whose only definition is one of these. A product by a
 * factor whose every value is zero or a power of two is exact (barring overflow and underflow, which an fma shares),
 * as a product by a constant power of two is. The Clang side's {@code ClangValueSets} computes the same fact.
 */
final class ValueSets {
    /** The most values a set holds before it is given up. */
    static final int MAX = 8;

    private ValueSets() {}

    /** The values of {@code v}: its set, its constant, or 0 and 1 for a bool; null when not known to be few. */
    static double[] of(E v) {
        if (v == null) return null;
        if (v.cval != null) return new double[] {v.cval};
        if (v.set != null) return v.set;
        if (v.type != null && v.type.kind == CType.Kind.BOOL) return new double[] {0, 1};
        return null;
    }

    /** Whether every value {@code v} can take is zero or a power of two in magnitude. */
    static boolean powerOfTwoFactor(E v) {
        double[] s = of(v);
        if (s == null) return false;
        for (double d : s) if (!NumericFacts.isPowerOfTwoOrZero(Math.abs(d))) return false;
        return true;
    }

    /** Whether every value {@code v} can take is one float holds exactly. */
    static boolean floatHeld(E v) {
        double[] s = of(v);
        if (s == null) return false;
        for (double d : s) if ((double) (float) d != d) return false;
        return true;
    }

    static double[] union(double[] a, double[] b) {
        if (a == null || b == null) return null;
        TreeSet<Double> out = new TreeSet<>();
        for (double d : a) out.add(d);
        for (double d : b) out.add(d);
        return out.size() > MAX ? null : toArray(out);
    }

    static double[] negated(double[] a) {
        if (a == null) return null;
        double[] r = new double[a.length];
        for (int i = 0; i < a.length; i++) r[i] = -a[i];
        return r;
    }

    /** ±|c| for each value c of copysign's first argument. */
    static double[] copysign(double[] a) {
        if (a == null) return null;
        TreeSet<Double> out = new TreeSet<>();
        for (double d : a) {
            out.add(Math.abs(d));
            out.add(-Math.abs(d));
        }
        return out.size() > MAX ? null : toArray(out);
    }

    /** The values after a conversion to {@code t}; null when one of them does not survive it unchanged. */
    static double[] converted(double[] a, CType t) {
        if (a == null || t == null) return null;
        if (t.kind == CType.Kind.BOOL) return new double[] {0, 1};
        for (double d : a) {
            if (!Double.isFinite(d)) return null;
            if (t.kind == CType.Kind.FLOAT && (double) (float) d != d) return null;
            if (t.isInteger() && (d != Math.rint(d) || Math.abs(d) > 0x1p31)) return null;
            if (t.isUnsignedInt() && d < 0) return null; // wraps
            if (!t.isInteger() && !t.isFpScalar()) return null;
        }
        return a;
    }

    /**
     * Every value of {@code a op b} ({@code +}, {@code -} or {@code *}, {@code plus}/{@code minus}/{@code times}),
     * each exact in {@code t}; null when one would be rounded or the set grows too large.
     */
    static double[] arith(double[] a, double[] b, char op, CType t) {
        if (a == null || b == null || t == null || !(t.isFpScalar() || t.isInteger())) return null;
        TreeSet<Double> out = new TreeSet<>();
        for (double p : a) {
            for (double q : b) {
                BigDecimal x = new BigDecimal(p);
                BigDecimal y = new BigDecimal(q);
                BigDecimal exact = op == '+' ? x.add(y) : op == '-' ? x.subtract(y) : x.multiply(y);
                double r = exact.doubleValue();
                if (!Double.isFinite(r) || new BigDecimal(r).compareTo(exact) != 0) return null;
                if (t.kind == CType.Kind.FLOAT && (double) (float) r != r) return null;
                if (t.isInteger() && Math.abs(r) >= 0x1p31) return null; // may overflow the integer type
                out.add(r == 0 ? 0.0 : r);
                if (out.size() > MAX) return null;
            }
        }
        return toArray(out);
    }

    private static double[] toArray(TreeSet<Double> s) {
        double[] r = new double[s.size()];
        int i = 0;
        for (double d : s) r[i++] = d;
        return r;
    }
}
