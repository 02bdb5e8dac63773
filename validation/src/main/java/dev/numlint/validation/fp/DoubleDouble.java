package dev.numlint.validation.fp;

/**
 * Double-double ("unevaluated sum of two doubles", about 106 significand bits) built from the error-free
 * transformations TwoSum and TwoProd (via {@link Math#fma}); the high-precision reference for f64 arithmetic.
 */
public final class DoubleDouble {
    public final double hi, lo;

    public DoubleDouble(double hi, double lo) {
        this.hi = hi;
        this.lo = lo;
    }

    public static DoubleDouble of(double x) {
        return new DoubleDouble(x, 0);
    }

    /** TwoSum (Knuth): s + e == a + b exactly. */
    public static DoubleDouble twoSum(double a, double b) {
        double s = a + b, bb = s - a, e = (a - (s - bb)) + (b - bb);
        return new DoubleDouble(s, e);
    }

    /** TwoProd with fma: p + e == a * b exactly (barring underflow). */
    public static DoubleDouble twoProd(double a, double b) {
        double p = a * b;
        return new DoubleDouble(p, Math.fma(a, b, -p));
    }

    private static DoubleDouble fastTwoSum(double a, double b) {
        double s = a + b;
        return new DoubleDouble(s, b - (s - a));
    }

    public DoubleDouble add(DoubleDouble o) {
        DoubleDouble s = twoSum(hi, o.hi), t = twoSum(lo, o.lo);
        double e = s.lo + t.hi;
        DoubleDouble u = fastTwoSum(s.hi, e);
        double w = t.lo + u.lo;
        if (Double.isInfinite(s.hi) || s.hi != s.hi) return of(s.hi);
        return fastTwoSum(u.hi, w);
    }

    public DoubleDouble negate() {
        return new DoubleDouble(-hi, -lo);
    }

    public DoubleDouble sub(DoubleDouble o) {
        return add(o.negate());
    }

    public DoubleDouble mul(DoubleDouble o) {
        DoubleDouble p = twoProd(hi, o.hi);
        if (Double.isInfinite(p.hi) || p.hi != p.hi) return of(p.hi);
        double e = p.lo + (hi * o.lo + lo * o.hi);
        return fastTwoSum(p.hi, e);
    }

    public DoubleDouble div(DoubleDouble o) {
        double q1 = hi / o.hi;
        if (Double.isInfinite(q1) || q1 != q1 || q1 == 0) return of(q1);
        DoubleDouble r = sub(o.mul(of(q1)));
        double q2 = r.hi / o.hi;
        r = r.sub(o.mul(of(q2)));
        double q3 = r.hi / o.hi;
        return fastTwoSum(q1, q2).add(of(q3));
    }

    public DoubleDouble sqrt() {
        if (hi <= 0 || Double.isInfinite(hi) || hi != hi) return of(Math.sqrt(hi));
        double x = Math.sqrt(hi);
        DoubleDouble r = sub(twoProd(x, x));
        return fastTwoSum(x, r.hi / (2 * x));
    }

    public DoubleDouble fma(DoubleDouble b, DoubleDouble c) {
        return mul(b).add(c);
    }

    public double doubleValue() {
        return hi + lo;
    }

    @Override
    public String toString() {
        return "(" + hi + " + " + lo + ")";
    }
}
