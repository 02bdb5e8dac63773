package dev.numlint.cuda.facts;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.model.Location;
import java.util.function.Predicate;

/** Where checks report: one file's findings, its build context and the rule settings of the scan. */
public interface CudaReport {
    /** The build context of the file (flags, where they were set). */
    BuildContext build();

    /** How the file is compiled: C, host C++ or CUDA (nvcc). */
    SourceDialect dialect();

    boolean enabled(String ruleId);

    /** An integer option of a rule ({@code min-trip-count}), or {@code fallback} when unset or invalid. */
    int intOption(String ruleId, String option, int fallback);

    /** The flag that enabled a flag-driven hazard, with where it was set, or {@code fallback} as the text. */
    FlagCitation flag(Predicate<String> which, String fallback);

    /** True the first time {@code key} is asked for in this file (one finding per macro, typedef, ...). */
    boolean firstInFile(String key);

    /** The line {@code key} was first asked for with in this file; {@code line} when this is the first time. */
    int firstLineInFile(String key, int line);

    /**
     * The first {@code #error} directive the file's analyzed configuration reaches for certain (a header for another
     * CPU: {@code #if !defined(__sparc__)} / {@code #error ...}), or null: the compiler stops there.
     */
    String activeError();

    /** The location of a line and column of this file (for impact sinks). */
    Location location(int line, int column);

    /**
     * States that {@code text}, a consequence a check writes for {@code at}, is no decision of the value (where the
     * value ends up, or an intrinsic's comparison with the CPU): a finding at {@code at} whose message holds it carries
     * it as its identity's {@link dev.numlint.model.Identity#consequence}, so that a layer that follows the value to a
     * decision states its own consequence in its place.
     */
    void consequenceWithoutDecision(Site at, String text);

    /**
     * States that the value computed at {@code at} is rounded at {@code lines} of this file only where the rounding is
     * continuous (an interpolation's index whose weight moves with it, a periodic wrap), though the value may decide
     * something else too: a finding at {@code at} carries them as the property {@code continuousRoundings}, and the
     * PTX layer's "rounded to an integral value" at one of those lines does not raise it (LayerMerge).
     */
    default void continuousRoundings(Site at, java.util.List<Integer> lines) {}

    /**
     * States that the finding reported next at {@code at} holds only where a caller passes one of {@code needs}
     * negative: it carries them as the property {@link CallerNeed#PROPERTY}, and the scan's review makes it a note
     * where every call of the program passes them non-negative.
     */
    default void callerNeeds(Site at, java.util.List<CallerNeed> needs) {}

    /**
     * States that a finding at {@code at} is about a loop-carried sum computed in {@code type} ({@code float},
     * {@code double}) whose loop is written at {@code loopLine} (0: unknown): the finding carries it as its identity's
     * {@link dev.numlint.model.Identity#sum}, which the scan groups sums of one loop by and the review of precision
     * families reads.
     */
    default void sum(Site at, String type, int loopLine) {}

    /**
     * States that the finding of {@code ruleId} at {@code at} is about code nvcc compiles for the GPU and only there
     * (its {@code -fmad}, its fast-math flags; the host compiler does nothing of the kind here): the finding carries
     * the property {@link dev.numlint.model.Finding#DEVICE_CODE}, and the scan makes it a note where the PTX of every unit shows that nvcc
     * emitted no code for its function (scan/LineFacts).
     */
    default void deviceOnly(String ruleId, Site at) {}

    /**
     * Reports a finding at {@code at}; {@code impact} (may be null) sets the level below the rule's ceiling and adds
     * the sink as a related location; {@code flag} (may be null) adds the flag's origin as evidence.
     */
    void report(
            String ruleId,
            String function,
            Site at,
            String message,
            Confidence confidence,
            Impact impact,
            FlagCitation flag);

    /**
     * Reports a finding whose impact the source proves from the code's structure (a loop-invariant step is a
     * stepping whatever the value decides): a PTX finding of the same rule on the line adds its evidence, but does not
     * raise the impact or the level (property {@code impactProven}).
     */
    void reportProven(String ruleId, String function, Site at, String message, Confidence confidence, Impact impact);

    /** {@link #reportProven} with the build flag that enabled the hazard ({@code flag}, may be null). */
    void reportProven(
            String ruleId,
            String function,
            Site at,
            String message,
            Confidence confidence,
            Impact impact,
            FlagCitation flag);

    /**
     * Reports a finding whose hazard is what the code costs on the GPU alone ({@link
     * dev.numlint.model.Identity.Judgement#COST}, property {@code costOnly}), a note: the value is computed as float
     * would compute it, its difference decides nothing, or the CPU computes the same thing ({@code why}: a phrase
     * key of the catalog, the impact's consequence); the front end's review names a one-thread launch in it.
     */
    void reportCostOnly(String ruleId, String function, Site at, String message, Confidence confidence, String why);

    /**
     * Reports a finding of host code whose level rests on its difference from a float computation on a GPU ({@link
     * dev.numlint.model.Identity.Judgement#PORT}, property {@code portOnly}): where the scan holds no device code the
     * front end's review makes it a note.
     */
    void reportPortOnly(String ruleId, String function, Site at, String message, Confidence confidence, Impact impact);

    /**
     * Reports a site whose hazard exists only through a flag the project's build sets for all of its device code
     * ({@code flag}: {@code --use_fast_math}, {@code -prec-div=false}, {@code -prec-sqrt=false}; {@link
     * dev.numlint.model.Identity.Judgement#CHOSEN_APPROXIMATION}, property {@code chosenApproximation}): where its
     * value only decides comparisons the front end's review makes it a note.
     */
    void reportChosen(
            String ruleId,
            String function,
            Site at,
            String message,
            Confidence confidence,
            Impact impact,
            FlagCitation flag);

    /**
     * Reports a contraction evaluated in double whose products do not cancel ({@link
     * dev.numlint.model.Identity.Judgement#DOUBLE_ROUNDING}, property {@code doubleRounding}): where its value only
     * decides comparisons the front end's review makes it a note.
     */
    void reportInDouble(
            String ruleId,
            String function,
            Site at,
            String message,
            Confidence confidence,
            Impact impact,
            FlagCitation flag);

    /** Why a difference of products is judged without cancellation ({@link #reportWithoutCancellation}). */
    enum NoCancellation {
        /** One component of a complex product or a 2-D rotation: no loss of the pair's accuracy. */
        PAIRED_COMPONENT("pairedComponent"),
        /** A sum or difference whose terms' signs make it a sum of magnitudes ({@link Site#termsCannotCancel}). */
        TERMS_CANNOT_CANCEL("termsCannotCancel"),
        /** Evaluated in double and kept there, deciding nothing ({@link Site#inDouble}): 2^-53 of a product. */
        IN_DOUBLE("inDouble");

        /** The finding's property the layer merge reads. */
        public final String property;

        NoCancellation(String property) {
            this.property = property;
        }
    }

    /**
     * Reports a finding judged without cancellation ({@code why}): a PTX finding of the same rule on the line that
     * calls it a difference of products does not raise it, while one that follows the value to an amplifying use does
     * (the finding's property {@link NoCancellation#property}).
     */
    void reportWithoutCancellation(
            NoCancellation why,
            String ruleId,
            String function,
            Site at,
            String message,
            Confidence confidence,
            Impact impact,
            FlagCitation flag);

    /**
     * {@link #report} of a choice the function makes once ({@code decision}: NL012's reduced format, {@code 2^-11}):
     * the scan merges the findings of one decision in one function, of both layers, into one (the finding's
     * {@link dev.numlint.model.Identity#decision}). An implementation that does not track decisions reports plainly.
     */
    default void reportDecision(
            String ruleId,
            String function,
            Site at,
            String message,
            Confidence confidence,
            Impact impact,
            String decision) {
        report(ruleId, function, at, message, confidence, impact, null);
    }
}
