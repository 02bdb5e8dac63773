package dev.numlint.cuda.facts;

import java.util.List;
import java.util.function.Supplier;

/**
 * Where a hazard is: its line and column (and where it ends), the preprocessor condition of the branch it is in when
 * that branch is inactive in the analyzed configuration, the source text of the expression, whether the code runs on
 * the device and/or the host, and (computed on first request) where its value goes.
 */
public final class Site {
    private final int line;
    private final int column;
    private final int endLine;
    private final int endColumn;
    private final String condition;
    private final String text;
    private final boolean device;
    private final boolean host;
    private final Supplier<List<ValueUse>> flow;
    private final java.util.function.BooleanSupplier drawn;
    private List<ValueUse> uses;
    private String macro;
    private Boolean randomVariate;
    private int statementEnd;

    public Site(int line, int column, String text, boolean device, boolean host, Supplier<List<ValueUse>> flow) {
        this(line, column, line, 0, null, text, device, host, flow);
    }

    /**
     * A site spanning {@code line:column} to {@code endLine:endColumn} (exclusive end column, 0 where unknown);
     * {@code condition} (may be null) is the #if condition of an inactive branch analyzed with
     * --all-configurations.
     */
    public Site(
            int line,
            int column,
            int endLine,
            int endColumn,
            String condition,
            String text,
            boolean device,
            boolean host,
            Supplier<List<ValueUse>> flow) {
        this(line, column, endLine, endColumn, condition, text, device, host, flow, null);
    }

    /**
     * A site as above whose {@code drawn} (may be null) tells whether the value computed here is itself computed from
     * a random draw (a random variate).
     */
    public Site(
            int line,
            int column,
            int endLine,
            int endColumn,
            String condition,
            String text,
            boolean device,
            boolean host,
            Supplier<List<ValueUse>> flow,
            java.util.function.BooleanSupplier drawn) {
        this.drawn = drawn;
        this.line = line;
        this.column = column;
        this.endLine = endLine;
        this.endColumn = endColumn;
        this.condition = condition;
        this.text = text;
        this.device = device;
        this.host = host;
        this.flow = flow;
    }

    public int line() {
        return line;
    }

    /** 1-based column, or 0 when unknown. */
    public int column() {
        return column;
    }

    /** Line of the end of the expression (the start line when unknown). */
    public int endLine() {
        return endLine;
    }

    /**
     * The last line of the statement the expression is written in (a declaration, an expression statement, a return,
     * the condition of an if or loop): the expression's own end line when the front end did not say, or when the
     * statement ends there.
     */
    public int statementEnd() {
        return Math.max(endLine, statementEnd);
    }

    /** This site, recording that its statement ends at {@code line} (see {@link #statementEnd}). */
    public Site inStatementEndingAt(int line) {
        this.statementEnd = line;
        return this;
    }

    /** 1-based column after the expression's last character (exclusive), or 0 when unknown. */
    public int endColumn() {
        return endColumn;
    }

    /**
     * The condition under which the code is compiled when it lies in a conditional branch the analyzed configuration
     * does not compile (--all-configurations), or null.
     */
    public String condition() {
        return condition;
    }

    public String text() {
        return text;
    }

    /**
     * The macro whose body holds the whole expression (written in the {@code #define}, not passed as an argument), or
     * null: every use of the macro is then a copy of the same code.
     */
    public String macro() {
        return macro;
    }

    /** This site, recording that its expression comes wholly from {@code macro}'s body (null: from the source). */
    public Site expandedFrom(String macro) {
        this.macro = macro;
        return this;
    }

    private volatile String openBelow;

    /**
     * The variables, members or elements of a converted operand that nothing bounds from below (at most two, "'rate'",
     * "'x' and 'y'"), for the message: what a guard would have to bound; null when not known (a front end's fact).
     */
    public String openBelow() {
        return openBelow;
    }

    /** This site, recording {@link #openBelow()}. */
    public Site openBelow(String names) {
        this.openBelow = names;
        return this;
    }

    private volatile java.util.List<CallerNeed> callerNeeds;

    /**
     * The parameters of its function that a converted operand open below needs non-negative to be in range (the
     * others of the function left as they are), or null: none would do, or the function's callers cannot be known
     * (a front end's fact).
     */
    public java.util.List<CallerNeed> callerNeeds() {
        return callerNeeds;
    }

    /** This site, recording {@link #callerNeeds()}. */
    public Site callerNeeds(java.util.List<CallerNeed> needs) {
        this.callerNeeds = needs == null || needs.isEmpty() ? null : java.util.List.copyOf(needs);
        return this;
    }

    private volatile boolean wholeNumbers;

    /**
     * Whether a converted operand's values are whole numbers (integers converted, and sums, differences and products
     * of them within the significand: {@code double n = rows * cols * channels}), for the message: a negative example
     * of -1, not a fraction such values never take; false when not known (a front end's fact).
     */
    public boolean wholeNumbers() {
        return wholeNumbers;
    }

    /** This site, recording {@link #wholeNumbers()}. */
    public Site wholeNumbers(boolean v) {
        this.wholeNumbers = v;
        return this;
    }

    /** 1 in the host branch of a __CUDA_ARCH__ test, 2 in its device branch, 0 in neither. */
    private volatile int archBranch;

    /**
     * This site, recording that it lies in the branch of a {@code __CUDA_ARCH__} test that nvcc compiles for the device
     * only ({@code deviceSide}) or for the host only: code compiled for both sides then runs on that side alone.
     */
    public Site inArchBranch(boolean deviceSide) {
        if (device && host) this.archBranch = deviceSide ? 2 : 1;
        return this;
    }

    /** The code runs on the GPU (a __global__ or __device__ function or device lambda). */
    public boolean device() {
        return device && archBranch != 1;
    }

    /** The code runs on the CPU. */
    public boolean host() {
        return host && archBranch != 2;
    }

    /** Host-only code: nothing of it runs on the GPU. */
    public boolean hostOnly() {
        return host() && !device();
    }

    /**
     * What the value computed here reaches, in source order: conversions, indices, comparisons, reductions,
     * subtractions, stores and returns, followed through local variables (def-use) a few assignments deep.
     */
    /**
     * Whether the value computed here is a random variate: the expression calls a random-number generator, directly
     * or through a local variable assigned from one (computed on first request).
     */
    public boolean randomVariate() {
        if (randomVariate == null) randomVariate = drawn != null && drawn.getAsBoolean();
        return randomVariate;
    }

    private volatile boolean cancels;

    /**
     * This site, recording that its expression subtracts nearly equal terms ({@code x - (x + c)} with a constant
     * {@code c}): computed in float and in double the results differ entirely, not by an ulp (a front end's fact).
     */
    public Site cancelling() {
        cancels = true;
        return this;
    }

    public boolean cancels() {
        return cancels;
    }

    private volatile boolean inDouble;

    /**
     * This site, recording that its sum or difference is evaluated in double (or long double) and stays there: fused
     * or not, its result moves by at most an ulp of a product, 2^-53 of it (a front end's type fact).
     */
    public Site evaluatedInDouble() {
        inDouble = true;
        return this;
    }

    public boolean inDouble() {
        return inDouble;
    }

    private volatile boolean roundedToFloat;

    /**
     * This site, recording that its expression is evaluated in double and its result rounded to float (or half)
     * before anything uses it: a difference of one ulp of double moves the float by at most an ulp, unless the terms
     * cancel to 2^-29 of their size (a front end's type fact, e.g. Clang's).
     */
    public Site inDoubleRoundedToFloat() {
        roundedToFloat = true;
        return this;
    }

    public boolean roundedToFloat() {
        return roundedToFloat;
    }

    private volatile String tripFrom;

    /**
     * This site, recording that the trip count of the loops carrying its sum is a template's constant, in the
     * instantiation {@code instantiation} (its type arguments) that runs them longest (a front end's fact, e.g.
     * Clang's loops evaluated per instantiation).
     */
    public Site withTripFrom(String instantiation) {
        tripFrom = instantiation;
        return this;
    }

    /** The instantiation whose constant gives the trip count ({@link #withTripFrom}), or null. */
    public String tripFrom() {
        return tripFrom;
    }

    private volatile String stride;

    /**
     * This site, recording that the element it updates moves with the counter of the loop its sum is cited at
     * through a loop-invariant stride that may be 0 ({@code y[j*C]}, {@code y[iy]} with {@code iy += incy}): one term
     * per element, a sum over that loop only under {@code condition} ({@code "C is 0"}); null clears it (a front
     * end's fact, which the other front end may overrule).
     */
    public Site withStride(String condition) {
        this.stride = condition;
        return this;
    }

    /** The condition under which the cited loop sums into one element ({@link #withStride}), or null. */
    public String stride() {
        return stride;
    }

    private volatile String partialResults;

    /**
     * This site, recording that the one loop carrying its sum adds one partial result per thread, core or task (its
     * bound counts them, {@code numCores}, {@code omp_get_max_threads()}, or it walks the futures of the tasks) and
     * that every term is such a result ({@code parts[i]}, {@code f.get()}): a short sum of partial sums (a front
     * end's loop fact, {@code ClangPartialResults}). {@code count} names the bound.
     */
    public Site overPartialResults(String count) {
        this.partialResults = count;
        return this;
    }

    /** What counts the partial results the sum adds ({@link #overPartialResults}), or null. */
    public String partialResults() {
        return partialResults;
    }

    private volatile String openMpReduction;

    /**
     * This site, recording that the outermost loop carrying its sum is written under an OpenMP loop directive whose
     * {@code +} reduction lists the accumulator ({@code parallel for reduction(+:total)}, the text after {@code
     * #pragma omp}): where the build compiles with OpenMP, each thread sums its share and the shares are combined in
     * an order the runtime chooses (a front end's loop fact, {@code ClangOpenMp}).
     */
    public Site inOpenMpReduction(String directive) {
        this.openMpReduction = directive;
        return this;
    }

    /** The OpenMP directive whose reduction carries this site's sum ({@link #inOpenMpReduction}), or null. */
    public String openMpReduction() {
        return openMpReduction;
    }

    private volatile CleanUpLoop cleanUp;

    /**
     * This site, recording that the one loop carrying its sum is a clean-up loop ({@link CleanUpLoop}): it adds at
     * most {@code cleanUp.most()} terms (a front end's loop fact).
     */
    public Site inCleanUpLoop(CleanUpLoop cleanUp) {
        this.cleanUp = cleanUp;
        return this;
    }

    /** The clean-up loop that alone carries this site's sum ({@link #inCleanUpLoop}), or null. */
    public CleanUpLoop cleanUp() {
        return cleanUp;
    }

    private volatile boolean termsCannotCancel;

    /**
     * This site, recording that its sum or difference adds magnitudes: its terms have one sign ({@code p + q}) or
     * opposite signs ({@code p - q}, {@code p <= 0 <= q}), so no rounding of one term is magnified by cancellation (a
     * front end's sign fact, e.g. Clang's {@code ClangSigns}).
     */
    public Site withTermsThatCannotCancel() {
        termsCannotCancel = true;
        return this;
    }

    /** Whether the terms of this sum or difference cannot cancel ({@link #withTermsThatCannotCancel}). */
    public boolean termsCannotCancel() {
        return termsCannotCancel;
    }

    private volatile String neverNegative;

    /**
     * This site, recording that the value it computes goes straight into {@code variable}, a local that is never
     * negative: every value stored into it is non-negative (a front end's sign fact, e.g. Clang's
     * {@code ClangSigns}). A sum of such terms is 0 only when every term is, whatever the order, the rounding and
     * the contraction.
     */
    public Site storesNeverNegative(String variable) {
        neverNegative = variable;
        return this;
    }

    /** The never-negative local the value goes straight into ({@link #storesNeverNegative}), or null. */
    public String neverNegative() {
        return neverNegative;
    }

    private volatile boolean testsOfFixedSign;

    /**
     * This site, recording that a front end proved a test against 0 it reaches cannot flip (the tested value's sign
     * class does not depend on this site's rounding, e.g. Clang's {@code ClangSignClasses}) and dropped that use.
     */
    public Site withTestsOfFixedSign() {
        testsOfFixedSign = true;
        return this;
    }

    /** Whether a use was dropped as a test against 0 of fixed sign ({@link #withTestsOfFixedSign}). */
    public boolean testsOfFixedSign() {
        return testsOfFixedSign;
    }

    /**
     * Drops the uses the value no longer reaches (a front end's better def-use, e.g. Clang's: the variable holding it
     * is overwritten before the use).
     */
    public synchronized void dropUses(java.util.function.Predicate<ValueUse> unreached) {
        List<ValueUse> all = uses();
        if (all.stream().noneMatch(unreached)) return;
        uses = all.stream().filter(unreached.negate()).toList();
    }

    /**
     * Replaces the uses a front end's better fact reclassifies (e.g. Clang's: a comparison whose two sides agree where
     * it flips is continuous); {@code to} returns the use itself where it keeps it.
     */
    public synchronized void mapUses(java.util.function.UnaryOperator<ValueUse> to) {
        uses = uses().stream().map(to).toList();
    }

    public synchronized List<ValueUse> uses() {
        if (uses == null) {
            uses = flow == null ? List.of() : List.copyOf(flow.get());
        }
        return uses;
    }
}
