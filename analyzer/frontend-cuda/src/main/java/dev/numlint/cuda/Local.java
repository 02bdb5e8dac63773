package dev.numlint.cuda;

import org.antlr.v4.runtime.tree.ParseTree;

/** A local variable or parameter of the function body {@link FunctionAnalyzer} walks. */
final class Local {
    final String name;
    final CType type;
    final int loopDepth;
    final Double cval;
    final int line;
    /** A single-use temporary holding a floating product (its text), or null. */
    String product;
    /**
     * The interval of the variable's only definition, its initializer ({@link Intervals}); unknown otherwise. The
     * walk's reaching definitions ({@link ReachingDefinitions}) take precedence where they know the variable.
     */
    double lo = Double.NEGATIVE_INFINITY;

    double hi = Double.POSITIVE_INFINITY;
    /**
     * Every value the variable holds is a whole number of at most this magnitude (a loop counter with constant
     * integer bounds and step, or a variable set once from such values), or null.
     */
    Double intBound;
    /** The few exact values of a local whose only definition takes them ({@link E#set}), or null. */
    double[] values;
    /**
     * A floating variable whose only definition, its initializer, is a value float holds exactly ({@code double da =
     * a} of a float a): its products with other such values are exact in double.
     */
    boolean floatValued;
    /** The variable's initial value cannot be negative (threadIdx.x, an unsigned value, a constant >= 0). */
    boolean nonNegInit;
    /** The block (or for statement) its declaration belongs to: where it can be given a value, or null. */
    ParseTree scopeNode;

    Local(String name, CType type, int loopDepth, Double cval, int line) {
        this.name = name;
        this.type = type;
        this.loopDepth = loopDepth;
        this.cval = cval;
        this.line = line;
    }
}
