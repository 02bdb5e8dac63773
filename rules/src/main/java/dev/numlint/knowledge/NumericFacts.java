package dev.numlint.knowledge;

import java.util.Set;

/**
 * Layer-neutral knowledge the rules of every front end share (CUDA/C++ source, Java source, bytecode, PTX): which
 * functions are transcendental, which round to an integer or select one of their operands, which operations are
 * exact, and the library constants that switch FP32 math to reduced precision (NL012). One table, used everywhere.
 */
public final class NumericFacts {
    private NumericFacts() {}

    /**
     * Functions of the C math library (and CUDA's additions) with a float version named with {@code f}: {@code sqrt}
     * and {@code sqrtf}. Called on a float, the double version converts it and computes in double (C, or C++ where
     * the float overload is not the one called); the front ends read the double call as what makes the value double.
     */
    public static final Set<String> MATH_LIBRARY = Set.of(
            "sqrt",
            "rsqrt",
            "cbrt",
            "rcbrt",
            "sin",
            "cos",
            "tan",
            "asin",
            "acos",
            "atan",
            "sinh",
            "cosh",
            "tanh",
            "asinh",
            "acosh",
            "atanh",
            "exp",
            "exp2",
            "exp10",
            "expm1",
            "log",
            "log2",
            "log10",
            "log1p",
            "logb",
            "pow",
            "atan2",
            "hypot",
            "rhypot",
            "fabs",
            "floor",
            "ceil",
            "round",
            "rint",
            "nearbyint",
            "trunc",
            "fmod",
            "remainder",
            "fmin",
            "fmax",
            "fdim",
            "copysign",
            "erf",
            "erfc",
            "erfinv",
            "erfcinv",
            "tgamma",
            "lgamma",
            "sinpi",
            "cospi",
            "sincos",
            "sincospi",
            "normcdf",
            "normcdfinv",
            "j0",
            "j1",
            "y0",
            "y1",
            "ldexp",
            "frexp",
            "modf",
            "scalbn",
            "nextafter",
            "fma",
            "norm3d",
            "norm4d",
            "rnorm3d",
            "rnorm4d",
            "norm",
            "rnorm",
            "cyl_bessel_i0",
            "cyl_bessel_i1",
            "remquo",
            "nan");

    /**
     * Device math functions that are approximate whatever the flags, with no correctly rounded counterpart on the
     * CPU, to what the CPU computes instead: {@code rsqrtf} compiles to {@code rsqrt.approx.f32} (2 ulp, CUDA C
     * Programming Guide, single-precision mathematical functions), where the host computes {@code 1/sqrtf(x)} in two
     * correctly rounded steps.
     */
    public static final java.util.Map<String, String> APPROXIMATE_DEVICE_FUNCTIONS =
            java.util.Map.of("rsqrtf", "1/sqrtf");

    /** Base names (C spelling, no {@code f}/{@code l} suffix) of transcendental functions: not correctly rounded. */
    public static final Set<String> TRANSCENDENTAL = Set.of(
            "sin",
            "cos",
            "tan",
            "asin",
            "acos",
            "atan",
            "atan2",
            "sinh",
            "cosh",
            "tanh",
            "asinh",
            "acosh",
            "atanh",
            "exp",
            "exp2",
            "exp10",
            "expm1",
            "log",
            "log2",
            "log10",
            "log1p",
            "pow",
            "erf",
            "erfc",
            "erfinv",
            "erfcinv",
            "tgamma",
            "lgamma",
            "sinpi",
            "cospi",
            "sincos",
            "sincospi",
            "cbrt",
            "hypot",
            "j0",
            "j1",
            "y0",
            "y1",
            "normcdf",
            "normcdfinv");

    /**
     * Math functions (C, CUDA, C++ without {@code std::}) whose result is never negative: {@code norm} is C++'s squared
     * magnitude of a complex number (and CUDA's Euclidean norm of an array), {@code cabs} C99's complex magnitude.
     * Not {@code cbrt}: the cube root of a negative number is negative.
     */
    public static final Set<String> NON_NEGATIVE = Set.of(
            "sqrt",
            "sqrtf",
            "fabs",
            "fabsf",
            "abs",
            "exp",
            "expf",
            "exp2",
            "exp2f",
            "hypot",
            "hypotf",
            "cosh",
            "coshf",
            "norm3df",
            "norm4df",
            "normf",
            "rsqrtf",
            "rsqrt",
            "__expf",
            "__fsqrt_rn",
            "__frsqrt_rn",
            "rhypotf",
            "rhypot",
            "norm",
            "rnorm",
            "rnormf",
            "rnorm3df",
            "rnorm4df",
            "norm3d",
            "norm4d",
            "cabs",
            "cabsf",
            "fdim",
            "fdimf",
            "erfc",
            "erfcf",
            "length");

    /**
     * Functions whose result is a floating value rounded to an integer, or an integer (C, CUDA and Java spellings):
     * a one-ulp change of the argument can change the result by one.
     */
    public static final Set<String> ROUNDING = Set.of(
            "floor",
            "floorf",
            "ceil",
            "ceilf",
            "rint",
            "rintf",
            "round",
            "roundf",
            "lrint",
            "lrintf",
            "llrint",
            "llrintf",
            "lround",
            "lroundf",
            "llround",
            "llroundf",
            "trunc",
            "truncf",
            "nearbyint",
            "nearbyintf",
            "__float2int_rn",
            "__float2int_rz",
            "__float2int_ru",
            "__float2int_rd",
            "__float2uint_rn",
            "__float2uint_rz",
            "__float2uint_ru",
            "__float2uint_rd",
            "__float2ll_rn",
            "__float2ll_rz",
            "__float2ll_ru",
            "__float2ll_rd",
            "__float2ull_rn",
            "__float2ull_rz",
            "__double2int_rn",
            "__double2int_rz",
            "__double2int_rd",
            "__double2int_ru",
            "__double2uint_rn",
            "__double2uint_rz",
            "__double2ll_rn",
            "__double2ll_rz",
            "Math.floor",
            "Math.ceil",
            "Math.rint",
            "Math.round",
            "StrictMath.floor",
            "StrictMath.ceil",
            "StrictMath.rint",
            "StrictMath.round");

    /** Functions that select one of their operands (a one-ulp change can change which one is selected). */
    public static final Set<String> SELECTION = Set.of(
            "min",
            "max",
            "fmin",
            "fminf",
            "fmax",
            "fmaxf",
            "std::min",
            "std::max",
            "Math.min",
            "Math.max",
            "umin",
            "umax");

    /**
     * The decision ({@link dev.numlint.model.Identity#decision}) every floating atomic sum of one function shares, in
     * the CUDA source and PTX layers: one choice, to sum with atomics, which one deterministic reduction undoes.
     */
    public static final String ATOMIC_SUM_DECISION = "floating atomic sums";

    /**
     * {@link #ATOMIC_SUM_DECISION} of one precision: a function's double atomic sums (differences of the order of
     * n*2^-53 of the terms, a note) are not merged into its float ones (a warning).
     */
    public static String atomicSumDecision(boolean doublePrecision) {
        return ATOMIC_SUM_DECISION + (doublePrecision ? " in double" : "");
    }

    /** Floating atomic and warp reductions: the order of the additions varies between runs. */
    public static final Set<String> ATOMIC_REDUCTIONS = Set.of(
            "atomicAdd",
            "atomicAdd_block",
            "atomicAdd_system",
            "unsafeAtomicAdd",
            "safeAtomicAdd",
            "atomicSub",
            "atomicMax",
            "atomicMin",
            "atomicExch");

    /** Explicit fused multiply-add functions: {@code s = fmaf(a, b, s)} accumulates like {@code s += a*b}. */
    public static final Set<String> FMA_FUNCTIONS = Set.of(
            "fma",
            "fmaf",
            "fmal",
            "__fmaf_rn",
            "__fmaf_rz",
            "__fmaf_ru",
            "__fmaf_rd",
            "__fma_rn",
            "__fma_rz",
            "__fma_ru",
            "__fma_rd",
            "__fmaf_ieee_rn",
            "Math.fma",
            "StrictMath.fma");

    /** Largest integer below which every integer is exactly representable in float (2^24) and double (2^53). */
    public static final double FLOAT_EXACT_INTEGERS = 0x1p24;

    public static final double DOUBLE_EXACT_INTEGERS = 0x1p53;

    /** Unit roundoff of float and double: the relative error bound of one rounding. */
    public static final String FLOAT_UNIT_ROUNDOFF = "2^-24";

    public static final String DOUBLE_UNIT_ROUNDOFF = "2^-53";

    /** Whether {@code v} is 0 or a power of two (multiplying by it is exact unless it over- or underflows). */
    public static boolean isPowerOfTwoOrZero(double v) {
        double a = Math.abs(v);
        return a == 0 || (!Double.isInfinite(a) && !Double.isNaN(a) && a == Math.scalb(1.0, Math.getExponent(a)));
    }

    /**
     * The odd integer {@code m} of {@code |v| = m * 2^e} ({@code 0.75} gives 3, {@code 0.1} a 53-bit integer, a power
     * of two 1, zero 0); infinity for infinity and NaN. A whole number {@code w} times {@code v} is exact in a type that
     * holds whole numbers up to {@code limit} when {@code |w| * m} is below it: an int index times 0.75 in double (an
     * fma changes nothing).
     */
    public static double oddMantissa(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return Double.POSITIVE_INFINITY;
        if (v == 0) return 0;
        long bits = Double.doubleToRawLongBits(Math.abs(v));
        long mantissa = bits & 0x000F_FFFF_FFFF_FFFFL;
        if ((bits >>> 52) != 0) mantissa |= 1L << 52; // the implicit leading 1 of a normal number
        return (double) (mantissa >>> Long.numberOfTrailingZeros(mantissa));
    }

    /** Whether {@code v} is an integer that float holds exactly (|v| below 2^24). */
    public static boolean isExactFloatInteger(double v) {
        return v == Math.rint(v) && Math.abs(v) < FLOAT_EXACT_INTEGERS;
    }

    /**
     * Library constants that let FP32 data be multiplied in reduced precision on tensor cores (NL012), with what
     * they allow. The same names are used by the C APIs and by JCuda's JCublas/JCudnn bindings.
     */
    public static final java.util.Map<String, String> REDUCED_PRECISION_MODES = java.util.Map.of(
            "CUBLAS_TF32_TENSOR_OP_MATH", "TF32 tensor-core math for FP32 GEMMs",
            // deprecated since CUDA 11: "for single precision GEMM routines cuBLAS will use the
            // CUBLAS_COMPUTE_32F_FAST_16F compute type" (cuBLAS documentation, cublasMath_t)
            "CUBLAS_TENSOR_OP_MATH", "FP32 GEMMs multiplied in FP16 (deprecated mode)",
            "CUBLAS_COMPUTE_32F_FAST_TF32", "FP32 data multiplied in TF32",
            "CUBLAS_COMPUTE_32F_FAST_16F", "FP32 data multiplied in FP16",
            "CUBLAS_COMPUTE_32F_FAST_16BF", "FP32 data multiplied in BF16",
            "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION", "FP32 data down-converted to FP16 for tensor cores");

    /** Modes that ask for FP32 (never flagged). */
    public static final Set<String> FULL_PRECISION_MODES = Set.of(
            "CUBLAS_DEFAULT_MATH",
            "CUBLAS_PEDANTIC_MATH",
            "CUBLAS_COMPUTE_32F",
            "CUBLAS_COMPUTE_32F_PEDANTIC",
            "CUDNN_DEFAULT_MATH",
            "CUDNN_FMA_MATH");

    /** Functions that convert float data to a reduced-precision type for tensor cores (NL012 evidence). */
    public static final Set<String> TO_REDUCED_PRECISION = Set.of(
            "__float2half",
            "__float2half_rn",
            "__float2half_rz",
            "__float2half_rd",
            "__float2half_ru",
            "__floats2half2_rn",
            "__float22half2_rn",
            "__float2half2_rn",
            "__float2bfloat16",
            "__float2bfloat16_rn",
            "__float2bfloat16_rz",
            "__floats2bfloat162_rn",
            "__float22bfloat162_rn",
            "__float_to_tf32");

    private static final java.util.regex.Pattern SENTINEL = java.util.regex.Pattern.compile(
            "[-+]?\\(?[-+]?(FLT_MAX|DBL_MAX|LDBL_MAX|HUGE_VALF?|HUGE_VALL|INFINITY|__FLT_MAX__|__DBL_MAX__"
                    + "|(std::)?numeric_limits<(float|double)>::(max|infinity|lowest)\\(\\))\\)?");

    /** Magnitude from which a constant is a sentinel, not a value a computation reaches by an ulp. */
    public static final double SENTINEL_MAGNITUDE = 1e37;

    /**
     * Whether {@code text} names a sentinel: a largest finite value or an infinity by its usual names ({@code FLT_MAX},
     * {@code -INFINITY}, {@code std::numeric_limits<float>::max()}), what a running minimum or maximum starts from.
     * Whitespace is ignored. An equality test against one only asks whether the value was ever set.
     */
    public static boolean isSentinel(String text) {
        return SENTINEL.matcher(text.replaceAll("\\s+", "")).matches();
    }
}
