package dev.numlint.java;

/**
 * A value interval for range-guard analysis. {@code lo}/{@code hi} are numeric bounds (infinite when unknown);
 * {@code loGuard}/{@code hiGuard} mean "bounded by a non-constant guard" (e.g. {@code Math.min(v, max)}): the
 * programmer clamped the value, we just do not know the bound.
 */
public record Range(double lo, double hi, boolean loGuard, boolean hiGuard) {
    public static final Range ALL = new Range(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, false, false);

    public static Range point(double v) {
        return Double.isNaN(v) ? ALL : new Range(v, v, false, false);
    }

    public static Range of(double lo, double hi) {
        return new Range(lo, hi, false, false);
    }

    public boolean loBounded() {
        return loGuard || lo != Double.NEGATIVE_INFINITY;
    }

    public boolean hiBounded() {
        return hiGuard || hi != Double.POSITIVE_INFINITY;
    }

    public boolean isPoint() {
        return lo == hi && !loGuard && !hiGuard;
    }

    /** Whether every value lies strictly inside (min, max), counting symbolic guards as inside. */
    public boolean within(double minExclusive, double maxExclusive) {
        return lowSafe(minExclusive) && highSafe(maxExclusive);
    }

    public boolean lowSafe(double minExclusive) {
        return loGuard || lo > minExclusive;
    }

    public boolean highSafe(double maxExclusive) {
        return hiGuard || hi < maxExclusive;
    }

    /** Intersection (facts that hold together). */
    public Range and(Range o) {
        double l = Math.max(lo, o.lo);
        double h = Math.min(hi, o.hi);
        return new Range(l, h, (loGuard || o.loGuard), (hiGuard || o.hiGuard));
    }

    /** Union (either branch). */
    public Range or(Range o) {
        boolean lg = loBounded() && o.loBounded() && (loGuard || o.loGuard);
        boolean hg = hiBounded() && o.hiBounded() && (hiGuard || o.hiGuard);
        return new Range(Math.min(lo, o.lo), Math.max(hi, o.hi), lg, hg);
    }

    public Range max(Range o) {
        boolean lg = loGuard || o.loGuard;
        boolean hg = hiBounded() && o.hiBounded() && (hiGuard || o.hiGuard);
        return new Range(Math.max(lo, o.lo), Math.max(hi, o.hi), lg, hg);
    }

    public Range min(Range o) {
        boolean hg = hiGuard || o.hiGuard;
        boolean lg = loBounded() && o.loBounded() && (loGuard || o.loGuard);
        return new Range(Math.min(lo, o.lo), Math.min(hi, o.hi), lg, hg);
    }

    public Range add(Range o) {
        return new Range(
                        lo + o.lo,
                        hi + o.hi,
                        (loGuard || o.loGuard) && loBounded() && o.loBounded(),
                        (hiGuard || o.hiGuard) && hiBounded() && o.hiBounded())
                .fix();
    }

    public Range negate() {
        return new Range(-hi, -lo, hiGuard, loGuard);
    }

    public Range sub(Range o) {
        return add(o.negate());
    }

    public Range mul(Range o) {
        if (loGuard || hiGuard || o.loGuard || o.hiGuard) {
            // symbolic guards survive scaling by a positive constant only
            if (o.isPoint() && o.lo > 0) return new Range(lo * o.lo, hi * o.lo, loGuard, hiGuard).fix();
            if (isPoint() && lo > 0) return new Range(o.lo * lo, o.hi * lo, o.loGuard, o.hiGuard).fix();
            return ALL;
        }
        double a = lo * o.lo, b = lo * o.hi, c = hi * o.lo, d = hi * o.hi;
        return new Range(min4(a, b, c, d), max4(a, b, c, d), false, false).fix();
    }

    public Range div(Range o) {
        if (o.loGuard || o.hiGuard || o.lo <= 0 && o.hi >= 0) return ALL;
        if (loGuard || hiGuard) {
            if (o.isPoint() && o.lo > 0) return new Range(lo / o.lo, hi / o.lo, loGuard, hiGuard).fix();
            return ALL;
        }
        double a = lo / o.lo, b = lo / o.hi, c = hi / o.lo, d = hi / o.hi;
        return new Range(min4(a, b, c, d), max4(a, b, c, d), false, false).fix();
    }

    /** Rounding to an integer (Math.round/floor/ceil, (int)) moves a value by less than 1. */
    public Range widen1() {
        return new Range(lo - 1, hi + 1, loGuard, hiGuard);
    }

    private Range fix() {
        double l = Double.isNaN(lo) ? Double.NEGATIVE_INFINITY : lo;
        double h = Double.isNaN(hi) ? Double.POSITIVE_INFINITY : hi;
        return new Range(l, h, loGuard, hiGuard);
    }

    private static double min4(double a, double b, double c, double d) {
        return Math.min(Math.min(a, b), Math.min(c, d));
    }

    private static double max4(double a, double b, double c, double d) {
        return Math.max(Math.max(a, b), Math.max(c, d));
    }

    /** The values a numeric type can hold (unbounded for floating types). */
    public static Range ofType(NumType t) {
        switch (t) {
            case BYTE:
                return Range.of(Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SHORT:
                return Range.of(Short.MIN_VALUE, Short.MAX_VALUE);
            case CHAR:
                return Range.of(0, Character.MAX_VALUE);
            case INT:
                return Range.of(Integer.MIN_VALUE, Integer.MAX_VALUE);
            case LONG:
                return Range.of(Long.MIN_VALUE, Long.MAX_VALUE);
            default:
                return Range.ALL;
        }
    }
}
