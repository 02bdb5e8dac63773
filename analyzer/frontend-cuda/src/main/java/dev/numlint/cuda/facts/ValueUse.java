package dev.numlint.cuda.facts;

/**
 * One place a hazard's value reaches.
 *
 * @param kind   what the place does with the value
 * @param line   its line
 * @param column its 1-based column (0 when unknown)
 * @param text   the source text of the consuming expression
 * @param detail the function, variable or type involved (the rounding function, the cast type, the constant a
 *               variable is compared with), may be null
 * @param via    the local variable the value went through to get here, or null when it reaches it directly
 * @param randomVariate the value reaching this use is a random variate: it was computed from a random draw (a call
 *               of a generator, directly or through a local assigned from one), so a one-ulp change of it is another
 *               draw of the same distribution
 * @param direct the value reaches this use as itself, only moved, scaled, converted or passed through locals: no sum
 *               or difference with something else and no function of it on the way (a front end that does not tell
 *               says true). A cancelled difference decides what it reaches directly; squared and summed with other
 *               terms first ({@code xt*xt + yt*yt}), it decides only where they all cancel
 */
public record ValueUse(
        Kind kind,
        int line,
        int column,
        String text,
        String detail,
        String via,
        boolean randomVariate,
        boolean direct) {

    public ValueUse(Kind kind, int line, int column, String text, String detail, String via) {
        this(kind, line, column, text, detail, via, false, true);
    }

    public ValueUse(Kind kind, int line, int column, String text, String detail, String via, boolean randomVariate) {
        this(kind, line, column, text, detail, via, randomVariate, true);
    }

    /**
     * Whether a one-ulp change at this use only changes the odds of a random outcome: a comparison with a fresh
     * random draw, or an integer conversion, rounding, index, comparison, branch or selection of a random variate.
     * An atomic reduction is never statistical: its order depends on the run.
     */
    public boolean statistical() {
        if (kind == Kind.RANDOM_DRAW) return true;
        return randomVariate && kind.amplifies() && kind != Kind.ATOMIC;
    }

    /** What is done with the value. */
    public enum Kind {
        /** Converted to an integer type (cast, initialization, assignment, argument). */
        INTEGER_CONVERSION,
        /** Rounded to an integer by a function (floor, ceil, rint, __float2int_rn ...). */
        ROUNDING,
        /** Used in an array subscript or address computation. */
        INDEX,
        /** Compared (relational or equality operator), e.g. a loop bound or an if condition. */
        COMPARISON,
        /**
         * Compared with a random draw ({@code if (curand_uniform(&s) < p)}, rejection sampling): a one-ulp change
         * shifts the probability of the outcome by about one ulp, it decides no single outcome.
         */
        RANDOM_DRAW,
        /** The condition of a branch (if, while, ?:, &&, ||) without a comparison. */
        BRANCH,
        /**
         * An operand of a min/max of computed values: a one-ulp change can change which operand is selected, but only
         * where the two are within that ulp, so the result moves by no more than the value does (continuous).
         */
        SELECTION,
        /**
         * Compared with the best candidate so far, which the taken branch replaces with it ({@code if (cost < best)
         * { best = cost; bestIdx = i; }}, no else): a one-ulp change can flip the choice only where the two are within
         * that ulp, a near tie, where either candidate is as good; the best value moves by no more than the value.
         */
        BEST_CANDIDATE,
        /**
         * Added atomically (atomicAdd ...): the sum's order depends on the run (NL009's hazard), but the value enters
         * it as one term, so a one-ulp change of it moves the sum by that ulp (continuous).
         */
        ATOMIC,
        /** One operand of a subtraction whose other operand is a product too (difference of products). */
        DIFFERENCE_OF_PRODUCTS,
        /**
         * Converted to an integer that is only a quantised sample: stored into memory as at most 16 bits (a pixel, an
         * audio sample), or one 8-bit colour channel (a [0,1] value scaled by 255, or a value clamped to [0,255])
         * packed into a word. One ulp moves it by at most one level, the size of the conversion's own rounding;
         * {@link #detail} says what it is quantised into ("a stored 8-bit integer").
         */
        QUANTISED,
        /**
         * Rounded to the index of a linear (bilinear, trilinear) interpolation whose weight is the fractional part
         * ({@code i = floorf(x)}, {@code w = x - i}, the entries at {@code i} and {@code i + 1}), or used as that index:
         * where one ulp moves the index to the next cell, the weight moves from 1 to 0 with it, so the interpolated
         * value moves by about one ulp of value, not by a cell (continuous).
         */
        INTERPOLATION,
        /**
         * An {@link #INTERPOLATION}'s index that is itself tested too ({@code if (i < n - 1)}, {@code if (i > 4)}):
         * the interpolated value is continuous, but the test steps where the rounding does, so the rounding is not
         * proven continuous for the PTX layer ({@code continuousRoundings}).
         */
        TESTED_INTERPOLATION,
        /**
         * Rounded to a count of periods that is subtracted from the value itself ({@code f.x -= floorf(0.5f + f.x)},
         * {@code dx -= box * rintf(dx * invBox)}: the minimum image, a wrap into one period): where one ulp moves the
         * count, the result moves by one period to an equivalent image (continuous modulo the period).
         */
        PERIODIC_WRAP,
        /**
         * Tested against zero where the side the test guards only adds terms that carry the value as a factor, and the
         * other side does nothing ({@code w = max(0, 1 - d); if (w > 0) acc += w * v;}, or {@code if (w == 0)
         * continue;} before such terms): the test flips only where the value is about zero, where those terms are
         * zero either way (continuous).
         */
        ZERO_TERM,
        /**
         * Compared with a bound where the taken branch clamps it to the table entry that the other branch's linear
         * interpolation of it gives at that bound ({@code if (v <= 0) P = a[0]; else { i = (int)v; w = v - i; P =
         * (1-w)*a[i] + w*a[i+1]; }}): both branches agree where the test flips (continuous).
         */
        END_CLAMP,
        /**
         * The condition of an if or ?: whose two sides leave the same state where it flips (a swap that orders two
         * values, symmetric arms, a skip-zero whose terms carry the tested value as a factor: Clang's
         * {@code ClangAgreeingSides}): one ulp may flip the test, the flip changes nothing (continuous).
         */
        AGREEING_SIDES,
        /**
         * The argument of a function whose real domain has an edge ({@code sqrt}, {@code log}: below 0; {@code asin},
         * {@code acos}: outside [-1, 1]): one ulp of an ordinary value moves the result by about an ulp, but a
         * cancelled difference whose exact value is at the edge can come out beyond it, where the result is NaN.
         */
        DOMAIN_EDGE,
        /**
         * Compared with a cutoff so far below 0 that the exponential the guarded branch adds is below the type's
         * resolution there ({@code if (term > -50) e += exp(term) / d}): where one ulp flips the test, the term
         * added or skipped is negligible (continuous to within that resolution).
         */
        NEGLIGIBLE_CUTOFF,
        /** Stored to memory (array element, member, pointer target). */
        STORE,
        /** Returned from the function. */
        RETURN,
        /** Passed to a function numlint does not follow. */
        CALL;

        /**
         * Whether a one-ulp change at this use can change a discrete outcome (an integer, an index, a decision). A
         * min/max and an atomic add are continuous in the value: they pass the ulp on, they do not amplify it.
         */
        public boolean amplifies() {
            return switch (this) {
                case INTEGER_CONVERSION, ROUNDING, INDEX, COMPARISON, BRANCH -> true;
                default -> false;
            };
        }
    }
}
