package dev.numlint.cuda;

/** What the analysis knows about one expression. */
final class E {
    static final E UNKNOWN = new E(CType.UNKNOWN);

    CType type;
    /** Compile-time value, or null. */
    Double cval;
    /** Contains a non-constant floating-point operand (variable, array element, call on floats). */
    boolean fpLeaf;
    /** Contains a non-constant single-precision operand. */
    boolean f32Leaf;
    /** Contains a double-typed variable (deliberate double arithmetic). */
    boolean dblVar;
    /** Text of the double literal or double function that promoted float operands to double, or null. */
    String promoter;
    /** Name of a float variable promoted (for the message). */
    String promotedVar;
    /** The value is range-limited (clamp, saturate, ternary with comparison, compared variable). */
    boolean guarded;
    /**
     * What makes the value range-limited, for a message ("'x < 0.0f' (line 12)", "fminf"), or null: set with
     * {@link #guarded}.
     */
    String guard;
    /**
     * A comparison the interval does not see may narrow the value: a leaf variable is compared or clamped somewhere in
     * the function, or a conditional expression tests it. Only without one may a finite interval overrule
     * {@link #guarded}.
     */
    boolean compared;
    /** The value cannot be negative (sqrt, fabs, exp ...). */
    boolean nonNeg;
    /** A double literal (unsuffixed). */
    String dblLiteral;
    /**
     * The expression is a float literal ({@code 0.1f}) whose float value is not the number its digits denote (0.1f is
     * 0.100000001490116...): its text, or null. 0.5f, 1.0f, 0.25f are exact: null.
     */
    String floatLiteral;
    /** The first such float literal that this expression's double arithmetic widened to double, or null. */
    String widenedLiteral;
    /** The value's interval as the expression's construction proves it ({@link Intervals}); infinite when unknown. */
    double lo = Double.NEGATIVE_INFINITY;

    double hi = Double.POSITIVE_INFINITY;
    /** Name when the expression is a plain variable. */
    String var;
    /**
     * The value is a whole number of at most this magnitude (a bounded loop counter, a sum or product of such), or
     * null; constants answer through {@link #wholeBound}.
     */
    Double intMag;
    /**
     * The few exact values the expression takes ({@code copysign(1.0, u)}: -1 and 1; {@code (u > 0) ? 1 : 0}), sorted,
     * or null; constants and bools answer through {@link ValueSets#of}.
     */
    double[] set;

    E(CType type) {
        this.type = type;
    }

    static E of(CType t) {
        return new E(t);
    }

    /**
     * The bound on the magnitude of a whole-number value: {@link #intMag}, the magnitude of an integer constant, or
     * the range of its integer type (an {@code unsigned int} is below 2^32, an {@code int} at most 2^31 in
     * magnitude); null when the value may be fractional or is unbounded.
     */
    static Double wholeBound(E v) {
        if (v == null) return null;
        if (v.intMag != null) return v.intMag;
        if (v.cval != null && dev.numlint.knowledge.FloatExactness.isInteger(v.cval)) return Math.abs(v.cval);
        if (v.type.kind == CType.Kind.BOOL) return 1.0;
        if (v.type.kind == CType.Kind.INT && v.type.size > 0 && v.type.size <= 8)
            return Math.scalb(1.0, 8 * v.type.size - (v.type.unsigned ? 0 : 1));
        return null;
    }
}
