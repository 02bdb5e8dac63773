package dev.numlint.cuda;

import java.util.List;
import java.util.Map;

/**
 * Value intervals of source expressions: what an expression's own construction proves about its value (constants,
 * integer types, functions with a bounded result, clamps, and + - * / of these). The front end keeps one interval per
 * expression ({@link E#lo}, {@link E#hi}); NL001/NL011 take a conversion whose interval lies inside the target
 * range as guarded.
 *
 * <p>Assumptions, kept simple: the evaluator follows real arithmetic (float rounding moves a bound by a few ulp;
 * the checks leave room for it) and assumes finite operands, i.e. no NaN or infinity comes in from data. An
 * operation that can make NaN from finite operands makes no use of a bound it does not have: sqrt and log of a
 * possibly negative operand, 0/0 and a divisor interval containing 0 give an unbounded (unknown) result on the side
 * they cannot bound. A NaN converted to an unsigned integer of up to 32 bits gives 0 on x86 (the low bits of the
 * 0x80000000... "indefinite" integer) and 0 on the GPU, so a lower bound of 0 for {@code sqrtf(x)} stands either way.
 */
final class Intervals {
    static final double INF = Double.POSITIVE_INFINITY;

    private Intervals() {}

    /** Functions whose result lies in a fixed interval whatever their (finite) argument. */
    private static final Map<String, double[]> FIXED = Map.ofEntries(
            Map.entry("sin", new double[] {-1, 1}),
            Map.entry("sinf", new double[] {-1, 1}),
            Map.entry("__sinf", new double[] {-1, 1}),
            Map.entry("cos", new double[] {-1, 1}),
            Map.entry("cosf", new double[] {-1, 1}),
            Map.entry("__cosf", new double[] {-1, 1}),
            Map.entry("sinpi", new double[] {-1, 1}),
            Map.entry("sinpif", new double[] {-1, 1}),
            Map.entry("cospi", new double[] {-1, 1}),
            Map.entry("cospif", new double[] {-1, 1}),
            Map.entry("tanh", new double[] {-1, 1}),
            Map.entry("tanhf", new double[] {-1, 1}),
            Map.entry("erf", new double[] {-1, 1}),
            Map.entry("erff", new double[] {-1, 1}),
            Map.entry("normcdf", new double[] {0, 1}),
            Map.entry("normcdff", new double[] {0, 1}),
            Map.entry("erfc", new double[] {0, 2}),
            Map.entry("erfcf", new double[] {0, 2}),
            Map.entry("__saturatef", new double[] {0, 1}),
            Map.entry("saturate", new double[] {0, 1}),
            Map.entry("atan", new double[] {-Math.PI / 2, Math.PI / 2}),
            Map.entry("atanf", new double[] {-Math.PI / 2, Math.PI / 2}),
            Map.entry("asin", new double[] {-Math.PI / 2, Math.PI / 2}),
            Map.entry("asinf", new double[] {-Math.PI / 2, Math.PI / 2}),
            Map.entry("acos", new double[] {0, Math.PI}),
            Map.entry("acosf", new double[] {0, Math.PI}),
            Map.entry("atan2", new double[] {-Math.PI, Math.PI}),
            Map.entry("atan2f", new double[] {-Math.PI, Math.PI}));

    /** Monotonically increasing functions: the result's interval is the function of the argument's bounds. */
    private static final Map<String, java.util.function.DoubleUnaryOperator> INCREASING = Map.ofEntries(
            Map.entry("exp", Math::exp),
            Map.entry("expf", Math::exp),
            Map.entry("__expf", Math::exp),
            Map.entry("exp2", x -> Math.pow(2, x)),
            Map.entry("exp2f", x -> Math.pow(2, x)),
            Map.entry("exp10", x -> Math.pow(10, x)),
            Map.entry("exp10f", x -> Math.pow(10, x)),
            Map.entry("__exp10f", x -> Math.pow(10, x)),
            Map.entry("floor", Math::floor),
            Map.entry("floorf", Math::floor),
            Map.entry("ceil", Math::ceil),
            Map.entry("ceilf", Math::ceil),
            Map.entry("trunc", x -> x < 0 ? Math.ceil(x) : Math.floor(x)),
            Map.entry("truncf", x -> x < 0 ? Math.ceil(x) : Math.floor(x)),
            Map.entry("round", x -> Math.signum(x) * Math.floor(Math.abs(x) + 0.5)),
            Map.entry("roundf", x -> Math.signum(x) * Math.floor(Math.abs(x) + 0.5)),
            Map.entry("rint", Math::rint),
            Map.entry("rintf", Math::rint),
            Map.entry("nearbyint", Math::rint),
            Map.entry("nearbyintf", Math::rint));

    /** Whether {@code name} returns a value in a fixed interval whatever its argument (sin, tanh, __saturatef ...). */
    static boolean fixed(String name) {
        return FIXED.containsKey(name);
    }

    /** The values of an integer type, or null for other types. */
    static double[] ofType(CType t) {
        if (t.kind == CType.Kind.BOOL) return new double[] {0, 1};
        if (t.kind != CType.Kind.INT || t.size <= 0 || t.size > 8) return null;
        double span = Math.pow(2, t.size * 8.0);
        return t.unsigned ? new double[] {0, span - 1} : new double[] {-span / 2, span / 2 - 1};
    }

    /** Sets {@code r}'s interval; an integer result outside its type's range wraps or overflows: the whole type. */
    static void set(E r, double lo, double hi) {
        if (Double.isNaN(lo)) lo = -INF;
        if (Double.isNaN(hi)) hi = INF;
        double[] t = ofType(r.type);
        if (t != null && (lo < t[0] || hi > t[1])) {
            lo = t[0];
            hi = t[1];
        }
        r.lo = lo;
        r.hi = hi;
    }

    /** The interval a value has by its type alone, when the analysis knows nothing else about it. */
    static void byType(E r) {
        double[] t = ofType(r.type);
        if (t != null && r.lo == -INF && r.hi == INF) {
            r.lo = t[0];
            r.hi = t[1];
        }
    }

    /** {@code a op b} for + - * / (a CudaLexer token type). */
    static void arith(E r, E a, E b, int op) {
        double lo;
        double hi;
        switch (op) {
            case dev.numlint.cuda.parser.CudaLexer.PLUS -> {
                lo = a.lo + b.lo;
                hi = a.hi + b.hi;
            }
            case dev.numlint.cuda.parser.CudaLexer.MINUS -> {
                lo = a.lo - b.hi;
                hi = a.hi - b.lo;
            }
            case dev.numlint.cuda.parser.CudaLexer.STAR -> {
                double[] p = product(a.lo, a.hi, b.lo, b.hi);
                lo = p[0];
                hi = p[1];
            }
            case dev.numlint.cuda.parser.CudaLexer.DIV -> {
                if (r.type.isInteger() || b.lo <= 0 && b.hi >= 0) {
                    lo = -INF;
                    hi = INF;
                    if (r.type.isInteger() && b.lo >= 1 && a.lo >= 0) {
                        lo = 0; // a non-negative integer divided by a positive one: in [0, a]
                        hi = a.hi;
                    }
                } else {
                    double[] p = product(a.lo, a.hi, 1 / b.hi, 1 / b.lo);
                    lo = p[0];
                    hi = p[1];
                }
            }
            default -> {
                lo = -INF;
                hi = INF;
            }
        }
        set(r, lo, hi);
    }

    /** Interval product; 0 * infinity counts as 0 (a zero bound of finite operands). */
    private static double[] product(double alo, double ahi, double blo, double bhi) {
        double[] ps = {mul(alo, blo), mul(alo, bhi), mul(ahi, blo), mul(ahi, bhi)};
        double lo = INF;
        double hi = -INF;
        for (double p : ps) {
            lo = Math.min(lo, p);
            hi = Math.max(hi, p);
        }
        return new double[] {lo, hi};
    }

    private static double mul(double x, double y) {
        return x == 0 || y == 0 ? 0 : x * y;
    }

    /**
     * The interval of a call of {@code name} with {@code args}, or false when the function bounds nothing the
     * evaluator knows.
     */
    static boolean call(E r, String name, List<E> args) {
        double[] fixed = FIXED.get(name);
        if (fixed != null) {
            set(r, fixed[0], fixed[1]);
            return true;
        }
        if (args.size() == 1 && INCREASING.containsKey(name)) {
            E x = args.get(0);
            var f = INCREASING.get(name);
            set(r, f.applyAsDouble(x.lo), f.applyAsDouble(x.hi));
            return true;
        }
        switch (name) {
            case "sqrt", "sqrtf", "__fsqrt_rn", "__fsqrt_rz", "__fsqrt_ru", "__fsqrt_rd", "cbrt", "cbrtf" -> {
                if (args.size() != 1) return false;
                E x = args.get(0);
                boolean cube = name.startsWith("cbrt");
                if (cube) set(r, Math.cbrt(x.lo), Math.cbrt(x.hi));
                else set(r, Math.sqrt(Math.max(0, x.lo)), x.hi < 0 ? INF : Math.sqrt(x.hi));
                return true;
            }
            case "fabs", "fabsf", "abs", "labs", "llabs" -> {
                if (args.size() != 1) return false;
                E x = args.get(0);
                double lo = x.lo >= 0 ? x.lo : x.hi <= 0 ? -x.hi : 0;
                set(r, lo, Math.max(Math.abs(x.lo), Math.abs(x.hi)));
                return true;
            }
            case "hypot", "hypotf", "norm3df", "norm4df", "normf", "rhypotf", "rsqrt", "rsqrtf", "__frsqrt_rn" -> {
                set(r, 0, INF);
                return true;
            }
            case "fmin", "fminf", "min", "umin", "fminimum" -> {
                if (args.size() != 2) return false;
                E a = args.get(0);
                E b = args.get(1);
                set(r, Math.min(a.lo, b.lo), Math.min(a.hi, b.hi));
                return true;
            }
            case "fmax", "fmaxf", "max", "umax", "fmaximum" -> {
                if (args.size() != 2) return false;
                E a = args.get(0);
                E b = args.get(1);
                set(r, Math.max(a.lo, b.lo), Math.max(a.hi, b.hi));
                return true;
            }
            case "clamp", "clampf", "__clamp" -> {
                if (args.size() != 3) return false;
                E x = args.get(0);
                E a = args.get(1);
                E b = args.get(2);
                set(r, Math.min(Math.max(x.lo, a.lo), b.lo), Math.min(Math.max(x.hi, a.hi), b.hi));
                return true;
            }
            case "fmod", "fmodf" -> {
                if (args.size() != 2) return false;
                E x = args.get(0);
                E y = args.get(1);
                double m = Math.max(Math.abs(y.lo), Math.abs(y.hi));
                if (m == INF || y.lo <= 0 && y.hi >= 0) return false;
                set(r, x.lo >= 0 ? 0 : -m, x.hi <= 0 ? 0 : m);
                return true;
            }
            default -> {
                return false;
            }
        }
    }
}
