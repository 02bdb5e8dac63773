package dev.numlint.spotbugs;

import java.util.Set;

/**
 * The values {@link FloatConversionDetector} tracks through the operand stack and locals (OpcodeStack user values):
 * what a value was loaded or computed from, the conversion and narrowing that produced it, its interval, and the part
 * of a linear interpolation it is.
 */
final class ConversionValues {
    private ConversionValues() {}

    /**
     * What is known about a stack value.
     *
     * @param var        variable it was last loaded from (L3, S:owner.name, F:L0:owner.name) or null
     * @param sources    variables it was computed from
     * @param clamped    computed from a Math.min/Math.max result
     * @param convPc     pc of the float-to-integer conversion that produced it, or -1
     * @param convFrom   "float" or "double" when convPc is set
     * @param convOp     the conversion, e.g. "F2I" or "Math.round"
     * @param narrowPc   pc of the I2B/I2S that narrowed a converted value, or -1
     * @param narrowTo   "byte" or "short"
     * @param narrowArr  array variable whose elements hold narrowed float values (for BALOAD/SALOAD results)
     */
    record Val(
            String var,
            Set<String> sources,
            boolean clamped,
            int convPc,
            String convFrom,
            String convOp,
            int narrowPc,
            String narrowTo,
            String narrowArr,
            Rng range,
            Lerp lerp,
            boolean unitArray) {
        static final Val EMPTY = new Val(null, Set.of(), false, -1, null, null, -1, null, null, Rng.ALL, null, false);

        Val(
                String var,
                Set<String> sources,
                boolean clamped,
                int convPc,
                String convFrom,
                String convOp,
                int narrowPc,
                String narrowTo,
                String narrowArr) {
            this(var, sources, clamped, convPc, convFrom, convOp, narrowPc, narrowTo, narrowArr, Rng.ALL, null, false);
        }

        Val withVar(String v) {
            return new Val(
                    v,
                    Vars.union(sources, null, v),
                    clamped,
                    convPc,
                    convFrom,
                    convOp,
                    narrowPc,
                    narrowTo,
                    narrowArr,
                    range,
                    null,
                    unitArray);
        }

        Val withRange(Rng r) {
            return new Val(
                    var, sources, clamped, convPc, convFrom, convOp, narrowPc, narrowTo, narrowArr, r, lerp, unitArray);
        }

        Val withLerp(Lerp l) {
            return new Val(
                    var, sources, clamped, convPc, convFrom, convOp, narrowPc, narrowTo, narrowArr, range, l,
                    unitArray);
        }
    }

    /** A closed value interval; infinite bounds when unknown. */
    record Rng(double lo, double hi) {
        static final Rng ALL = new Rng(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);

        static Rng of(double lo, double hi) {
            return Double.isNaN(lo) || Double.isNaN(hi) ? ALL : new Rng(lo, hi);
        }

        boolean within(double min, double max) {
            return lo >= min && hi <= max;
        }

        boolean finite() {
            return !Double.isInfinite(lo) && !Double.isInfinite(hi);
        }

        Rng or(Rng o) {
            return of(Math.min(lo, o.lo), Math.max(hi, o.hi));
        }

        Rng add(Rng o) {
            return of(lo + o.lo, hi + o.hi);
        }

        Rng sub(Rng o) {
            return of(lo - o.hi, hi - o.lo);
        }

        Rng mul(Rng o) {
            if (!finite() || !o.finite()) {
                // 0 * inf is NaN: only finite products are tracked
                return ALL;
            }
            double a = lo * o.lo;
            double b = lo * o.hi;
            double c = hi * o.lo;
            double d = hi * o.hi;
            return of(Math.min(Math.min(a, b), Math.min(c, d)), Math.max(Math.max(a, b), Math.max(c, d)));
        }

        Rng div(Rng o) {
            if (!finite() || !o.finite() || o.lo <= 0 && o.hi >= 0) {
                return ALL;
            }
            double a = lo / o.lo;
            double b = lo / o.hi;
            double c = hi / o.lo;
            double d = hi / o.hi;
            return of(Math.min(Math.min(a, b), Math.min(c, d)), Math.max(Math.max(a, b), Math.max(c, d)));
        }

        /** Truncation toward zero (F2I, D2I, F2L, D2L) keeps a value between the truncated bounds. */
        Rng truncate() {
            return of(trunc(lo), trunc(hi));
        }

        private static double trunc(double v) {
            return Double.isInfinite(v) ? v : v < 0 ? Math.ceil(v) : Math.floor(v);
        }
    }

    /**
     * A part of a linear interpolation {@code (1 - f) * a + f * b} with the weight f in a variable: {@code kind} 1 is
     * {@code 1 - f}, 2 the term {@code (1 - f) * a}, 3 the term {@code f * b}; {@code term} is the range of a or b.
     * The sum of the two terms lies between a and b: the programmer's f is the interpolation weight in [0, 1].
     */
    record Lerp(String weight, int kind, Rng term) {}

    /** {@code w * t} as a term of an interpolation: w is 1 - f or a plain load of the weight f, t has a finite range. */
    static Lerp term(Val w, Val t, Rng tr) {
        if (w == null || !tr.finite()) {
            return null;
        }
        if (w.lerp != null && w.lerp.kind() == 1) {
            return new Lerp(w.lerp.weight(), 2, tr);
        }
        if (w.var != null && w.lerp == null && (t == null || !w.var.equals(t.var))) {
            return new Lerp(w.var, 3, tr);
        }
        return null;
    }

    static Val loaded(Val existing, String var) {
        return (existing == null ? Val.EMPTY : existing).withVar(var);
    }

    static Val combine(Val a, Val b) {
        if (a == null && b == null) {
            return null;
        }
        Val x = a == null ? Val.EMPTY : a;
        Val y = b == null ? Val.EMPTY : b;
        return new Val(
                null, Vars.union(x.sources, y.sources, null), x.clamped || y.clamped, -1, null, null, -1, null, null);
    }
}
