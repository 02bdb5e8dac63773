package dev.numlint.java;

import java.util.Map;
import org.eclipse.jdt.core.dom.Expression;

/**
 * The evaluator of the range analysis as its recognisers see it: the range of a sub-expression. {@link RangeAnalysis}
 * implements it and hands it to {@link RangeGuards} and {@link RangePatterns}, so that they recurse without calling
 * back into the class they were split out of.
 */
interface RangeEvaluator {
    /** How deep the evaluation recurses; past it a range is unbounded. */
    int MAX_DEPTH = 12;

    /**
     * The range of {@code e} when the variables named in {@code assume} lie in the given ranges, {@code depth} levels
     * into the evaluation.
     */
    Range of(Expression e, Map<String, Range> assume, int depth);
}
