package dev.numlint.cuda;

import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Level;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.List;

/**
 * Sites whose hazard only matters where their value decides something discrete, reviewed once every layer has
 * reported: where the value only decides comparisons ({@link Impact.Reach#DECISION}), a note that says why
 * ("consequence over existence"); where it becomes an integer or an index ({@link Impact.Reach#CONVERSION}, {@link
 * Impact.Reach#INDEX}), cancels, grows or reaches something numlint could not follow ({@code reach} null), the level
 * stays. Two judgements qualify:
 *
 * <ul>
 *   <li>{@link Identity.Judgement#CHOSEN_APPROXIMATION}: an approximation the project's own build chose (a '/' or a
 *       square root under {@code -prec-div=false}, {@code -prec-sqrt=false} or {@code --use_fast_math}, a library
 *       call fast math maps to an intrinsic). The flag is reported once where the build sets it; each site restates
 *       that choice. An intrinsic written by name ({@code __fdividef}, {@code __expf}) is not the build's choice.
 *       Session 39: all 21 sampled per-site divisions and square roots of a ray tracer's deliberate fast-math float
 *       build were judged not actionable; session 37's actionable fast-math divisions were quotients truncated to bin
 *       indices.
 *   <li>{@link Identity.Judgement#DOUBLE_ROUNDING}: a contraction evaluated in double with no second product (exact
 *       or not) to cancel against: fused or not it moves by 2^-53 of its product, so a comparison flips only for a
 *       value within that of its threshold, a tie no data makes by chance. Session 40: 52 of 54 sampled NL003
 *       warnings of double-precision finite-volume and ODE code, all through comparisons, were judged not
 *       actionable (the other 2 false).
 * </ul>
 */
final class OnlyComparisons {
    private OnlyComparisons() {}

    /** {@code findings} with each chosen approximation that only decides comparisons as a note. */
    static List<Finding> review(List<Finding> findings) {
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            out.add(onlyComparisons(f) ? note(f) : f);
        }
        return out;
    }

    static boolean onlyComparisons(Finding f) {
        return f.level().atLeast(Level.WARNING)
                && phrase(f.identity().judgement()) != null
                && f.impact() != null
                && f.impact().kind() == Impact.Kind.AMPLIFIED
                && f.impact().reach() == Impact.Reach.DECISION;
    }

    /** The catalog phrase that states why a site of {@code judgement} that only decides comparisons is a note. */
    private static String phrase(Identity.Judgement judgement) {
        if (judgement == Identity.Judgement.CHOSEN_APPROXIMATION) return "chosen-approximation";
        if (judgement == Identity.Judgement.DOUBLE_ROUNDING) return "double-rounding-comparison";
        return null;
    }

    private static Finding note(Finding f) {
        // the reason stays whole: the finding's own message gives up the room it needs (Quote.fit: none if it fits)
        String key = phrase(f.identity().judgement());
        String stated = RuleCatalog.get().remark(key, f.message());
        return f.toBuilder()
                .level(Level.NOTE)
                .message(stated)
                .property("onlyComparisons", true)
                .build();
    }
}
