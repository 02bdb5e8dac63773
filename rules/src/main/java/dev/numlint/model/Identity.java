package dev.numlint.model;

import java.util.List;
import java.util.Set;

/**
 * What a finding is about, in typed form, set by the check or front end that produces it. The scan merges the
 * findings of several layers and analyzers from these fields (scan/LayerMerge), never by reading a finding's
 * message or evidence text. Every field may be empty: a producer sets what it knows.
 *
 * @param written     the operation as written, the first one of the flagged expression: a called name
 *                    ({@code __fdividef}) or a cast ({@code (unsigned char)}); null when the expression starts with
 *                    neither. Several findings of one rule on one line with the same written operation are one
 * @param expression  the flagged expression as a message quotes it (null when unknown)
 * @param operations  the arithmetic the flagged code performs or the instruction computes ({@link Operation})
 * @param accumulator the variable a compound update adds to ({@code sum} of {@code sum += t}), or null
 * @param decision    a choice the function makes once (a reduced-precision format, {@code 2^-11}) whose findings
 *                    are one decision, or null
 * @param hazard      the hazard independently of the build that compiled it (PTX: the message without the
 *                    instructions it quotes, so that {@code add.rn.f32} and {@code add.rn.ftz.f32} of two builds are
 *                    one hazard), or null
 * @param instruction the opcode of the PTX instruction the finding is about ({@code fma}, {@code ex2}), or null
 * @param origin      where a PTX finding's line information came from, or null for other layers
 * @param consequence the consequence the message states that is no decision of the value (where the value ends up,
 *                    {@code only stored (line 9): a few ulp apart}, or an intrinsic's comparison with the CPU), exactly
 *                    as written in the message: a layer that follows the value to a decision states its own consequence
 *                    in its place; null when the message states a decision or none
 * @param code        the written code the finding quotes, as its tokens
 *                    ({@code knowledge/WrittenCode.tokens}): two findings whose code has the same tokens are copies
 *                    of the same written code, whatever its layout or comments; empty when the producer quotes no code
 * @param macro       the macro whose body holds the whole hazard, at whose use the finding is reported (its uses are
 *                    copies of one written site), or null
 * @param libraryCode the PTX instruction is a step of an inlined library routine, not the programmer's operation
 * @param judgement   how the producer judged the impact ({@link Judgement}), or null: as any finding
 * @param symbol      the function's name as the compiled code names it (a PTX finding's mangled kernel name), or null:
 *                    validation runs the kernel of that name
 * @param flag        the build flag a build-file finding is about ({@link Flag}), or null for other layers
 * @param sum         the loop-carried accumulation the finding is about ({@link Sum}), or null
 * @param statementEnd the last line of the statement the flagged code is written in, when it ends below the finding's
 *                    location (an expression written over several lines: {@code float x = x0 + a * b} and
 *                    {@code + i * v;} on the next); 0 when unknown or on the location's lines. A PTX finding of the
 *                    same operation at a line of that statement is the same written hazard (scan/LayerMerge)
 */
public record Identity(
        String written,
        String expression,
        Set<Operation> operations,
        String accumulator,
        String decision,
        String hazard,
        String instruction,
        Origin origin,
        String consequence,
        List<String> code,
        String macro,
        boolean libraryCode,
        Judgement judgement,
        String symbol,
        Flag flag,
        int statementEnd,
        Sum sum) {

    /** The identity of a finding whose producer states nothing. */
    public static final Identity NONE = new Identity(
            null, null, Set.of(), null, null, null, null, null, null, List.of(), null, false, null, null, null, 0,
            null);

    public Identity {
        operations = operations == null ? Set.of() : Set.copyOf(operations);
        code = code == null ? List.of() : List.copyOf(code);
    }

    /**
     * The origin of a PTX finding's line: whether the source line its line information names can hold the finding's
     * operation at all (the construct its rule's policy names: a conversion, a division, double math, a product and
     * a sum; null when the line is unknown), the lines of the same file it was inlined at, and the lines where the
     * finding's other instructions (its value's uses) are written that can hold it.
     *
     * @param lineHoldsOperation false when the named line cannot hold the operation (the scheduler moved the
     *                           instruction next to a branch, nvcc hoisted it out of a loop); null when unknown
     * @param inlinedAt          the call sites the instruction's function was inlined at
     * @param candidates         lines of the finding's other instructions that can hold the operation, nearest first
     */
    public record Origin(Boolean lineHoldsOperation, List<Location> inlinedAt, List<Location> candidates) {
        public Origin {
            inlinedAt = inlinedAt == null ? List.of() : List.copyOf(inlinedAt);
            candidates = candidates == null ? List.of() : List.copyOf(candidates);
        }

        public Origin(Boolean lineHoldsOperation, List<Location> inlinedAt) {
            this(lineHoldsOperation, inlinedAt, List.of());
        }
    }

    public Identity withWritten(String v) {
        return new Identity(
                v,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withExpression(String v) {
        return new Identity(
                written,
                v,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withOperations(Set<Operation> v) {
        return new Identity(
                written,
                expression,
                v,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withAccumulator(String v) {
        return new Identity(
                written,
                expression,
                operations,
                v,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withDecision(String v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                v,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withHazard(String v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                v,
                instruction,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withInstruction(String v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                v,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withOrigin(Origin v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                v,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withConsequence(String v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                v,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withCode(List<String> v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                v,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withMacro(String v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                v,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withLibraryCode(boolean v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                macro,
                v,
                judgement,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withJudgement(Judgement v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                v,
                symbol,
                flag,
                statementEnd,
                sum);
    }

    public Identity withSymbol(String v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                v,
                flag,
                statementEnd,
                sum);
    }

    public Identity withFlag(Flag v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                v,
                statementEnd,
                sum);
    }

    public Identity withStatementEnd(int v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                v,
                sum);
    }

    public Identity withSum(Sum v) {
        return new Identity(
                written,
                expression,
                operations,
                accumulator,
                decision,
                hazard,
                instruction,
                origin,
                consequence,
                code,
                macro,
                libraryCode,
                judgement,
                symbol,
                flag,
                statementEnd,
                v);
    }

    /**
     * A loop-carried accumulation as its producer saw it: the floating type it sums in and where its loop is written.
     * Several sums of one loop (the register accumulators of a blocked kernel) are one finding where the rule's policy
     * says {@code group-by-loop}; a float sum is a precision family's contract where the function has a double twin.
     *
     * @param type the type the sum is computed in ({@code float}, {@code double}), or null when unknown
     * @param loop where the loop that carries it is written (its first line), or null when unknown
     */
    public record Sum(String type, Location loop) {
        /** Whether the sum is computed in single precision. */
        public boolean singlePrecision() {
            return "float".equals(type);
        }
    }

    /**
     * A build flag as the build file sets it, for the stages that review what the flag reaches (flags/FlagReach).
     *
     * @param name       the flag as written ({@code --use_fast_math})
     * @param target     which code it compiles
     * @param setThrough how the build sets it (the variable, option or property), or null
     * @param condition  the build condition under which it is set, or null when unconditional
     * @param alsoAt     the other places in the build files that set the same flag (the finding's group)
     */
    public record Flag(String name, Target target, String setThrough, String condition, List<Location> alsoAt) {
        public Flag {
            alsoAt = alsoAt == null ? List.of() : List.copyOf(alsoAt);
        }

        /** The code a flag compiles. */
        public enum Target {
            /** CUDA device code. */
            CUDA_DEVICE,
            /** The host code of CUDA units. */
            CUDA_HOST,
            /** C/C++ host code. */
            HOST
        }
    }

    /** How a producer judged a finding's impact, which the merge with another layer respects. */
    public enum Judgement {
        /** Proven from the code's structure (a constant step, a range): another layer confirms it, never raises it. */
        PROVEN,
        /**
         * One component of a complex product or rotation: another layer's difference of products is no news, only
         * an amplifying use it followed raises it.
         */
        PAIRED_COMPONENT,
        /**
         * A sum or difference whose terms' signs make it a sum of magnitudes (proven from the code): another layer's
         * difference of products is no news, only an amplifying use it followed raises it.
         */
        TERMS_CANNOT_CANCEL,
        /**
         * A sum or difference evaluated in double and kept there, deciding nothing: another layer's difference of
         * products is no news (2^-53 of a product), only an amplifying use it followed raises it.
         */
        IN_DOUBLE,
        /**
         * The finding's level rests on what the code costs on the GPU alone (double arithmetic whose result float
         * would hold as well or whose difference decides nothing): where the code runs as one thread only, the cost
         * is nothing, and the front end's review makes it a note.
         */
        COST,
        /**
         * The finding's level rests on how host code differs from a float computation of the same expression on a
         * GPU (host code that evaluates in double what a GPU port would compute in float, the double result the more
         * accurate): where the scan holds no device code there is no such computation to differ from, and the front
         * end's review makes it a note.
         */
        PORT,
        /**
         * The hazard is an approximation a flag of the project's own build chose for all of its device code
         * ({@code --use_fast_math}, {@code -prec-div=false}, {@code -prec-sqrt=false}), reported once at the flag: a
         * site whose value only decides comparisons restates that choice, and the front end's review makes it a note;
         * a site whose value becomes an integer or an index keeps its level (the one-ulp error moves a bin or a pixel).
         */
        CHOSEN_APPROXIMATION,
        /**
         * A contraction evaluated in double whose products do not cancel: fused or not, it moves by an ulp of a
         * product (2^-53 of it), so a comparison it reaches flips only for a value within that of its threshold, a
         * tie that a difference of products (reported as cancellation) makes, not data; the front end's review makes
         * a site that only decides comparisons a note; an integer or an index it reaches keeps its level.
         */
        DOUBLE_ROUNDING
    }
}
