package dev.numlint.knowledge;

import java.util.Set;

/**
 * What the Java SE specification says about java.lang.Math results, for the source and bytecode layers alike.
 * Pure and without dependencies: the SpotBugs plugin carries a copy of this package in its jar.
 */
public final class JavaMathFunctions {
    /**
     * java.lang.Math functions that are not correctly rounded (1 to 2 ulp, implementation-specific, may be
     * intrinsified differently per JVM and CPU). sqrt, abs, floor, ceil, rint, round, min, max, fma are exact or
     * correctly rounded and not in this set.
     */
    public static final Set<String> TRANSCENDENTAL = Set.of(
            "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "exp", "log", "log10", "pow", "sinh", "cosh", "tanh",
            "cbrt", "expm1", "log1p", "hypot");

    private JavaMathFunctions() {}

    /**
     * Whether {@code Math.pow(base, exponent)} is exact by the specification: "if both arguments are integers, then
     * the result is exactly equal to the mathematical result ... if that result can in fact be represented exactly
     * as a double value". Known values (may be null when only the integer type is known) tighten the answer: with
     * both known the result must be representable; a power-of-two base with an integer exponent always is (up to
     * overflow).
     */
    public static boolean powIsExact(boolean baseInteger, Double base, boolean exponentInteger, Double exponent) {
        if (!baseInteger || !exponentInteger) return false;
        if (base != null && exponent != null) {
            double r = Math.pow(base, exponent);
            if (Double.isInfinite(r) || Double.isNaN(r)) return false;
            if (exponent < 0) return FloatExactness.isPowerOfTwo(base) || Math.abs(base) == 1;
            if (exponent > 2000 || Math.abs(base) > Long.MAX_VALUE / 2) return false;
            // representable: the exact integer power equals the double
            java.math.BigInteger exact =
                    java.math.BigInteger.valueOf((long) (double) base).pow((int) (double) exponent);
            return new java.math.BigDecimal(r).compareTo(new java.math.BigDecimal(exact)) == 0;
        }
        // integer base and exponent: exact whenever the result is representable, i.e. for the non-negative
        // exponents that keep it below 2^53 (pow(2, k), pow(10, digits), pow(n, 2)); a negative exponent only for
        // a power-of-two base
        if (exponent != null && exponent < 0) return base != null && FloatExactness.isPowerOfTwo(base);
        return true;
    }

    /**
     * Whether a call of {@code name} with one constant argument {@code arg} (may be null when unknown) is exact by
     * the specification: exp(0), log(1), sin(0), cos(0), tan(0), atan(0) ... return exactly 1 or 0.
     */
    public static boolean exactAt(String name, Double arg) {
        if (arg == null) return false;
        double a = arg;
        switch (name) {
            case "sin":
            case "tan":
            case "asin":
            case "atan":
            case "sinh":
            case "tanh":
            case "expm1":
            case "log1p":
            case "cbrt":
                return a == 0;
            case "cos":
            case "cosh":
            case "exp":
                return a == 0;
            case "log":
            case "log10":
                return a == 1;
            default:
                return false;
        }
    }
}
