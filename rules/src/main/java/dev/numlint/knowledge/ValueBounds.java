package dev.numlint.knowledge;

import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

/**
 * Interval arithmetic of source expressions, shared by every front end that bounds a value by its construction
 * (constants, integer types, functions with a bounded result, clamps, and + - * / of these): the CUDA front end's
 * hand-written {@code Intervals} and Clang's {@code ClangIntervals}. An interval is a {@code double[] {lo, hi}};
 * infinite bounds mean unknown.
 *
 * <p>Assumptions, kept simple: real arithmetic (float rounding moves a bound by a few ulp; the checks leave room for
 * it) and finite operands (no NaN or infinity comes in from data). An operation that can make NaN from finite operands
 * makes no use of a bound it does not have: sqrt and log of a possibly negative operand, 0/0 and a divisor interval
 * containing 0 give an unbounded result on the side they cannot bound. A NaN converted to an unsigned integer of up to
 * 32 bits gives 0 on x86 and on the GPU, so a lower bound of 0 for {@code sqrtf(x)} stands either way.
 */
public final class ValueBounds {
    public static final double INF = Double.POSITIVE_INFINITY;

    /** The interval that says nothing: every value. */
    public static double[] unknown() {
        return new double[] {-INF, INF};
    }

    private ValueBounds() {}

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
            Map.entry("atan2f", new double[] {-Math.PI, Math.PI}),
            // the C library's pseudo-random integers: in [0, RAND_MAX], 2^31 - 1 on glibc, the largest RAND_MAX a
            // 32-bit int allows (random, lrand48 and nrand48 return a long in [0, 2^31) everywhere)
            Map.entry("rand", new double[] {0, Integer.MAX_VALUE}),
            Map.entry("rand_r", new double[] {0, Integer.MAX_VALUE}),
            Map.entry("random", new double[] {0, Integer.MAX_VALUE}),
            Map.entry("lrand48", new double[] {0, Integer.MAX_VALUE}),
            Map.entry("nrand48", new double[] {0, Integer.MAX_VALUE}),
            // uniform doubles: [0, 1) from the C library's 48-bit generators, (0, 1] from cuRAND's and hipRAND's
            // (session 74 round E: '(unsigned char)(255 * drand48())' was said to wrap a negative value)
            Map.entry("drand48", new double[] {0, 1}),
            Map.entry("erand48", new double[] {0, 1}),
            Map.entry("curand_uniform", new double[] {0, 1}),
            Map.entry("curand_uniform_double", new double[] {0, 1}),
            Map.entry("hiprand_uniform", new double[] {0, 1}),
            Map.entry("hiprand_uniform_double", new double[] {0, 1}));

    /** Monotonically increasing functions: the result's interval is the function of the argument's bounds. */
    private static final Map<String, DoubleUnaryOperator> INCREASING = Map.ofEntries(
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

    /** sin and cos (their float versions and intrinsics): periodic, computed over an interval shorter than 2 pi. */
    private static final java.util.Set<String> PERIODIC =
            java.util.Set.of("sin", "sinf", "__sinf", "cos", "cosf", "__cosf");

    /**
     * Increasing functions whose range is bounded (also in {@link #FIXED}): the result's interval is the function of
     * the argument's bounds, an argument beyond the domain taken at the domain's end.
     */
    private static final Map<String, DoubleUnaryOperator> BOUNDED_INCREASING = Map.of(
            "atan", Math::atan,
            "atanf", Math::atan,
            "asin", x -> Math.asin(Math.max(-1, Math.min(1, x))),
            "asinf", x -> Math.asin(Math.max(-1, Math.min(1, x))),
            "tanh", Math::tanh,
            "tanhf", Math::tanh);

    /** Whether {@code name} returns a value in a fixed interval whatever its argument (sin, tanh, __saturatef ...). */
    public static boolean fixed(String name) {
        return FIXED.containsKey(name);
    }

    /** The values of an integer type of {@code bytes} bytes (1 byte and unsigned: also bool), or null. */
    public static double[] ofInteger(int bytes, boolean unsigned) {
        if (bytes <= 0 || bytes > 8) return null;
        double span = Math.pow(2, bytes * 8.0);
        return unsigned ? new double[] {0, span - 1} : new double[] {-span / 2, span / 2 - 1};
    }

    /**
     * {@code a op b} for {@code op} one of '+', '-', '*', '/', '%'; {@code integer}: the result's type is an integer
     * (a quotient truncates). Unknown ({@code [-inf, inf]}) for another operator. An integer remainder by a divisor
     * whose interval excludes 0 has the sign of the dividend and a magnitude below the divisor's and not above the
     * dividend's: {@code r % 155} of a non-negative {@code r} is in [0, 154].
     */
    public static double[] arith(char op, double[] a, double[] b, boolean integer) {
        return switch (op) {
            case '+' -> new double[] {a[0] + b[0], a[1] + b[1]};
            case '-' -> new double[] {a[0] - b[1], a[1] - b[0]};
            case '*' -> product(a[0], a[1], b[0], b[1]);
            case '/' -> {
                if (b[0] == 0 && b[1] >= 0 && (a[0] >= 0 || a[1] <= 0)) {
                    // a divisor that is not negative, 0 included ((2r+1)*(2r+1), a count): the quotient keeps the
                    // dividend's sign (x / 0 is an infinity of that sign in floating point; 0 / 0 is no number)
                    if (integer) yield a[0] >= 0 ? new double[] {0, a[1]} : new double[] {a[0], 0};
                    yield a[0] >= 0 ? new double[] {0, INF} : new double[] {-INF, 0};
                }
                if (integer || b[0] <= 0 && b[1] >= 0) {
                    // a non-negative integer divided by a positive one: in [0, a]
                    yield integer && b[0] >= 1 && a[0] >= 0 ? new double[] {0, a[1]} : new double[] {-INF, INF};
                }
                yield product(a[0], a[1], 1 / b[1], 1 / b[0]);
            }
            case '%' -> remainder(a, b, integer);
            default -> new double[] {-INF, INF};
        };
    }

    private static double[] remainder(double[] a, double[] b, boolean integer) {
        if (!integer || b[0] <= 0 && b[1] >= 0) return new double[] {-INF, INF};
        double m = Math.max(Math.abs(b[0]), Math.abs(b[1])) - 1;
        double lo = a[0] >= 0 ? 0 : Math.max(a[0], -m);
        double hi = a[1] <= 0 ? 0 : Math.min(a[1], m);
        return new double[] {lo, hi};
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

    /** {@code v * 2^k}, 0 for a zero {@code v} whatever {@code k} (no NaN of 0 times infinity). */
    private static double scaled(double v, double k) {
        return v == 0 ? 0 : v * Math.pow(2, k);
    }

    /**
     * The interval of a call of {@code name} with arguments of the intervals {@code args}, or null when the function
     * bounds nothing this class knows.
     */
    public static double[] call(String name, List<double[]> args) {
        DoubleUnaryOperator bounded = args.size() == 1 ? BOUNDED_INCREASING.get(name) : null;
        if (bounded != null) {
            // increasing with a bounded range: atan(1.0) is pi/4, not anything in [-pi/2, pi/2] (session 75 round
            // A: a reconstruction's PI written as 4 * atan(1.0), so that every angle it offset stayed "negative")
            double[] x = args.get(0);
            return new double[] {bounded.applyAsDouble(x[0]), bounded.applyAsDouble(x[1])};
        }
        if (args.size() == 1 && PERIODIC.contains(name)) {
            // sin and cos of an interval shorter than a period: their values at its ends, and 1 or -1 where a peak or
            // a trough lies inside (session 75 round F: sin(i * pi / 512) for i in [0, 256] is not negative)
            double[] x = args.get(0);
            double shift = name.startsWith("cos") ? Math.PI / 2 : 0;
            double a = x[0] + shift, b = x[1] + shift;
            if (Double.isFinite(a) && Double.isFinite(b) && b - a < 2 * Math.PI) {
                double lo = Math.min(Math.sin(a), Math.sin(b)), hi = Math.max(Math.sin(a), Math.sin(b));
                if (Math.ceil((a - Math.PI / 2) / (2 * Math.PI)) <= Math.floor((b - Math.PI / 2) / (2 * Math.PI)))
                    hi = 1;
                if (Math.ceil((a + Math.PI / 2) / (2 * Math.PI)) <= Math.floor((b + Math.PI / 2) / (2 * Math.PI)))
                    lo = -1;
                // the ends' values to within the libraries' error (a few ulp, which keeps their sign)
                return new double[] {Math.max(-1, lo - Math.abs(lo) * 1e-15), Math.min(1, hi + Math.abs(hi) * 1e-15)};
            }
        }
        double[] fixed = FIXED.get(name);
        if (fixed != null) return fixed.clone();
        if (args.size() == 1 && INCREASING.containsKey(name)) {
            double[] x = args.get(0);
            DoubleUnaryOperator f = INCREASING.get(name);
            return new double[] {f.applyAsDouble(x[0]), f.applyAsDouble(x[1])};
        }
        if (NumericFacts.FMA_FUNCTIONS.contains(name)) {
            if (args.size() != 3) return null;
            return arith('+', arith('*', args.get(0), args.get(1), false), args.get(2), false);
        }
        switch (name) {
            case "sqrt",
                    "sqrtf",
                    "__fsqrt_rn",
                    "__fsqrt_rz",
                    "__fsqrt_ru",
                    "__fsqrt_rd",
                    // the double square roots with a rounding mode (session 79 round E: a recurrence-analysis
                    // library's __dsqrt_rd(D) of a D >= 9 was "nothing bounds it below", its sqrt twin in range)
                    "__dsqrt_rn",
                    "__dsqrt_rz",
                    "__dsqrt_ru",
                    "__dsqrt_rd",
                    "cbrt",
                    "cbrtf" -> {
                if (args.size() != 1) return null;
                double[] x = args.get(0);
                if (name.startsWith("cbrt")) return new double[] {Math.cbrt(x[0]), Math.cbrt(x[1])};
                return new double[] {Math.sqrt(Math.max(0, x[0])), x[1] < 0 ? INF : Math.sqrt(x[1])};
            }
            case "log", "logf", "logl", "log2", "log2f", "log10", "log10f", "__logf", "__log2f", "__log10f" -> {
                // increasing where defined: -inf at 0, no number below; finite results only, as everywhere here
                if (args.size() != 1) return null;
                double[] x = args.get(0);
                if (x[1] < 0) return null;
                double base = name.contains("log2") ? Math.log(2) : name.contains("log10") ? Math.log(10) : 1;
                return new double[] {x[0] <= 0 ? -INF : Math.log(x[0]) / base, Math.log(x[1]) / base};
            }
            case "fabs", "fabsf", "abs", "labs", "llabs" -> {
                if (args.size() != 1) return null;
                double[] x = args.get(0);
                double lo = x[0] >= 0 ? x[0] : x[1] <= 0 ? -x[1] : 0;
                return new double[] {lo, Math.max(Math.abs(x[0]), Math.abs(x[1]))};
            }
            case "ldexp", "ldexpf", "ldexpl", "scalbn", "scalbnf", "scalbnl", "scalbln", "scalblnf", "scalblnl" -> {
                // x * 2^e: increasing in x; in e increasing where x is positive, decreasing where negative (a scale
                // ldexp(1, 63 - ilogb(max)) is positive, session 65)
                if (args.size() != 2) return null;
                double[] x = args.get(0), e = args.get(1);
                return new double[] {scaled(x[0], x[0] >= 0 ? e[0] : e[1]), scaled(x[1], x[1] >= 0 ? e[1] : e[0])};
            }
            case "pow", "powf", "__powf" -> {
                // a base that is not negative gives a power that is not negative (pow(10, floor(log10(x))), a step
                // of a power of ten); a base of either sign, nothing known (an odd power keeps its sign)
                if (args.size() != 2) return null;
                // an even whole power, or a power that is no whole number (NaN for a negative base; finite results
                // only, as everywhere here), of a base of either sign is not negative (session 75 round B: a rate
                // control's pow(resRatio, 2.0 / 3.0) factor)
                double[] e = args.get(1);
                if (args.get(0)[0] < 0
                        && e[0] == e[1]
                        && Double.isFinite(e[0])
                        && (e[0] % 2 == 0 || e[0] != Math.rint(e[0]))) return new double[] {0, INF};
                if (args.get(0)[0] < 0) return null;
                // a base in [0, b] to a power in [0, e]: at most max(1, b^e) (a gamma curve of a value in [0, 1]
                // stays in [0, 1]; pow(0, 0) is 1)
                double[] base = args.get(0), exp = args.get(1);
                if (exp[0] < 0 && base[0] >= 1) {
                    // a base of at least 1: increasing in the power, monotone in the base for each power, so the
                    // corners bound it; pow(10, -abs(v) / 200.0) is in (0, 1] (session 81 round J: a synthesizer's
                    // tremolo depth 256 * (1.0 - level) "wrapped" a short)
                    double lo = INF, hi = -INF;
                    for (double b0 : base)
                        for (double e0 : exp) {
                            double v = Math.pow(b0, e0);
                            if (Double.isNaN(v)) return new double[] {0, INF};
                            lo = Math.min(lo, v);
                            hi = Math.max(hi, v);
                        }
                    return new double[] {lo, hi};
                }
                if (exp[0] < 0) return new double[] {0, INF};
                if (base[1] <= 1) return new double[] {0, 1};
                double hi = Math.pow(base[1], exp[1]);
                // a base of at least 1 to a power >= 0: at least 1 (pow(10, step / 20), a decibel step's factor)
                double lo = base[0] >= 1 ? Math.max(1, Math.pow(base[0], exp[0])) : 0;
                return new double[] {Double.isNaN(lo) ? 0 : lo, Double.isNaN(hi) ? INF : Math.max(1, hi)};
            }
            case "hypot", "hypotf", "norm3df", "norm4df", "normf", "rhypotf", "rsqrt", "rsqrtf", "__frsqrt_rn" -> {
                return new double[] {0, INF};
            }
            case "__fadd_rn",
                    "__fadd_rz",
                    "__fadd_ru",
                    "__fadd_rd",
                    "__dadd_rn",
                    "__dadd_rz",
                    "__dadd_ru",
                    "__dadd_rd" -> {
                // the arithmetic intrinsics with a rounding mode: their operator's interval
                return args.size() == 2 ? arith('+', args.get(0), args.get(1), false) : null;
            }
            case "__fsub_rn",
                    "__fsub_rz",
                    "__fsub_ru",
                    "__fsub_rd",
                    "__dsub_rn",
                    "__dsub_rz",
                    "__dsub_ru",
                    "__dsub_rd" -> {
                return args.size() == 2 ? arith('-', args.get(0), args.get(1), false) : null;
            }
            case "__fmul_rn",
                    "__fmul_rz",
                    "__fmul_ru",
                    "__fmul_rd",
                    "__dmul_rn",
                    "__dmul_rz",
                    "__dmul_ru",
                    "__dmul_rd" -> {
                return args.size() == 2 ? arith('*', args.get(0), args.get(1), false) : null;
            }
            case "__fdiv_rn",
                    "__fdiv_rz",
                    "__fdiv_ru",
                    "__fdiv_rd",
                    "__ddiv_rn",
                    "__ddiv_rz",
                    "__ddiv_ru",
                    "__ddiv_rd",
                    "__fdividef" -> {
                return args.size() == 2 ? arith('/', args.get(0), args.get(1), false) : null;
            }
            case "fmin", "fminf", "min", "umin", "fminimum" -> {
                if (args.size() != 2) return null;
                double[] a = args.get(0), b = args.get(1);
                return new double[] {Math.min(a[0], b[0]), Math.min(a[1], b[1])};
            }
            case "fmax", "fmaxf", "max", "umax", "fmaximum" -> {
                if (args.size() != 2) return null;
                double[] a = args.get(0), b = args.get(1);
                return new double[] {Math.max(a[0], b[0]), Math.max(a[1], b[1])};
            }
            case "clamp", "clampf", "__clamp" -> {
                if (args.size() != 3) return null;
                double[] x = args.get(0), a = args.get(1), b = args.get(2);
                // a clamp requires lo <= hi (std::clamp's precondition, undefined otherwise; CUDA's and GLSL's alike):
                // its value is never below lo (std::clamp(x, 0.0, n - 1.0) of an unsigned n is never negative)
                return new double[] {
                    Math.max(a[0], Math.min(Math.max(x[0], a[0]), b[0])), Math.min(Math.max(x[1], a[1]), b[1])
                };
            }
            case "modf", "modff", "modfl" -> {
                // the fractional part, of x's sign: in (-1, 1), [0, 1) for x >= 0 (session 60, a PDF library's
                // digits: dig = modff(v / 10.0f, &v); (char)(dig * 10.0 + 0.5))
                if (args.size() != 2) return null;
                double[] x = args.get(0);
                return new double[] {x[0] >= 0 ? 0 : -1, x[1] <= 0 ? 0 : 1};
            }
            case "fmod", "fmodf" -> {
                if (args.size() != 2) return null;
                double[] x = args.get(0), y = args.get(1);
                // |fmod(x, y)| < |y|, of x's sign; a divisor that may be 0 gives NaN there, no finite value, as
                // everywhere in these intervals (session 76 round B: fmod(t, count) of a uint8_t count, said to
                // be reaching 300 when converted to uint8_t); |fmod(x, y)| <= |x| too, so its sign is x's whatever y is
                // (session 82 round T: fmodf((float)sampleIndex, rate) of a size_t index, an "unguarded" NL001)
                double m = Math.max(Math.abs(y[0]), Math.abs(y[1]));
                if (m == 0 || Double.isNaN(m) || Double.isNaN(x[0]) || Double.isNaN(x[1])) return null;
                if (m == INF && x[0] < 0 && x[1] > 0) return null;
                return new double[] {x[0] >= 0 ? 0 : Math.max(x[0], -m), x[1] <= 0 ? 0 : Math.min(x[1], m)};
            }
            default -> {
                return null;
            }
        }
    }
}
