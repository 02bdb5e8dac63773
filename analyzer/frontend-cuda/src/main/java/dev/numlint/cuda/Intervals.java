package dev.numlint.cuda;

import java.util.List;

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

    /** Whether {@code name} returns a value in a fixed interval whatever its argument (sin, tanh, __saturatef ...). */
    static boolean fixed(String name) {
        return dev.numlint.knowledge.ValueBounds.fixed(name);
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

    /** {@code a op b} for + - * / % (a CudaLexer token type), by {@link dev.numlint.knowledge.ValueBounds#arith}. */
    static void arith(E r, E a, E b, int op) {
        char o =
                switch (op) {
                    case dev.numlint.cuda.parser.CudaLexer.PLUS -> '+';
                    case dev.numlint.cuda.parser.CudaLexer.MINUS -> '-';
                    case dev.numlint.cuda.parser.CudaLexer.STAR -> '*';
                    case dev.numlint.cuda.parser.CudaLexer.DIV -> '/';
                    case dev.numlint.cuda.parser.CudaLexer.MOD -> '%';
                    default -> '?';
                };
        double[] x = dev.numlint.knowledge.ValueBounds.arith(
                o, new double[] {a.lo, a.hi}, new double[] {b.lo, b.hi}, r.type.isInteger());
        set(r, x[0], x[1]);
    }

    /**
     * The interval of a call of {@code name} with {@code args} ({@link dev.numlint.knowledge.ValueBounds#call}), or
     * false when the function bounds nothing the evaluator knows.
     */
    static boolean call(E r, String name, List<E> args) {
        List<double[]> xs = new java.util.ArrayList<>(args.size());
        for (E e : args) xs.add(new double[] {e.lo, e.hi});
        double[] x = dev.numlint.knowledge.ValueBounds.call(name, xs);
        if (x == null) return false;
        set(r, x[0], x[1]);
        return true;
    }
}
