package dev.numlint.cuda;

import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Level;
import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.List;

/**
 * Sites of an approximation the project's own build chose ({@link Identity.Judgement#CHOSEN_APPROXIMATION}: a '/'
 * or a square root under {@code -prec-div=false}, {@code -prec-sqrt=false} or {@code --use_fast_math}, a library call
 * that fast math maps to an intrinsic) whose value only decides comparisons: notes that say so ("consequence over
 * existence"). The flag is reported once where the build sets it, at its own level; each site restates that choice.
 * Where the value becomes an integer or an index ({@link Impact.Reach#CONVERSION}, {@link Impact.Reach#INDEX}) the
 * two-ulp error moves a bin or a pixel wherever the value sits near a step: the site keeps its level, as it does when
 * the value cancels, grows or reaches something numlint could not follow ({@code reach} null). An intrinsic written
 * by name ({@code __fdividef}, {@code __expf}) is not the build's choice and keeps its level.
 *
 * <p>Measured on unseen code (session 39): all 21 sampled per-site divisions and square roots of a ray tracer's
 * deliberate fast-math float build were judged not actionable; session 37's actionable fast-math divisions were
 * quotients truncated to bin indices.
 */
final class ChosenApproximations {
    private ChosenApproximations() {}

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
                && f.identity().judgement() == Identity.Judgement.CHOSEN_APPROXIMATION
                && f.impact() != null
                && f.impact().kind() == Impact.Kind.AMPLIFIED
                && f.impact().reach() == Impact.Reach.DECISION;
    }

    private static Finding note(Finding f) {
        // the reason stays whole: the finding's own message gives up the room it needs (Quote.fit: none if it fits)
        String remark = RuleCatalog.get().phrase("chosen-approximation", "message", "");
        String stated = RuleCatalog.get()
                .phrase("chosen-approximation", "message", Quote.fit(f.message(), Quote.MESSAGE - remark.length()));
        return f.toBuilder()
                .level(Level.NOTE)
                .message(stated)
                .property("onlyComparisons", true)
                .build();
    }
}
