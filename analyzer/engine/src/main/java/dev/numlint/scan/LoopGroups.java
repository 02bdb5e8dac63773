package dev.numlint.scan;

import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Suppression;
import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The sums one loop carries, as one finding, for a rule whose policy says {@code group-by-loop}: the register
 * accumulators of a blocked kernel ({@code c_00 ... c_33} of a 4x4 micro-kernel) are one decision of its author, not
 * sixteen. Default-visible findings (warning and above) of one rule, level, function, file, sum type and judgement
 * (the impact's kind and consequence: one loop's sums judged alike) whose typed sum ({@link Identity#sum}) names the
 * same loop, each with its accumulator, become one finding at the first accumulator's place (the lowest line): its
 * message names the accumulators, their lines and the loop, then the first one's consequence (its impact); the other
 * sums are its related locations. Decided from the typed identity only, never from message text.
 *
 * <p>The grouped finding keeps the first accumulator's fingerprint key (its fingerprint stays while that sum stays
 * first) and is suppressed when any of its sums is (a suppression comment on any of the lines the message names: the
 * scan applies suppressions before grouping). Runs after suppression and before fingerprints.
 */
final class LoopGroups {
    private LoopGroups() {}

    /** The findings with each loop's sums grouped (input order kept; a group takes its first member's place). */
    static List<Finding> group(List<Finding> in) {
        Map<String, List<Finding>> groups = new LinkedHashMap<>();
        for (Finding f : in) {
            String key = key(f);
            if (key != null) groups.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
        }
        if (groups.values().stream().noneMatch(g -> g.size() > 1)) return in;
        List<Finding> out = new ArrayList<>(in.size());
        for (Finding f : in) {
            String key = key(f);
            List<Finding> g = key == null ? null : groups.get(key);
            if (g == null || g.size() < 2) {
                out.add(f);
            } else if (g.get(0) == f) {
                out.add(merged(g));
            }
        }
        return out;
    }

    /** The group a finding belongs to, or null when it stands alone. */
    private static String key(Finding f) {
        Identity.Sum sum = f.identity().sum();
        if (sum == null
                || sum.loop() == null
                || f.identity().accumulator() == null
                || !f.level().atLeast(Level.WARNING)
                || !RuleCatalog.get().policy(f.ruleId()).groupByLoop()) {
            return null;
        }
        return String.join(
                "\u0000",
                f.ruleId(),
                f.level().name(),
                String.valueOf(f.function()),
                f.location().file(),
                String.valueOf(sum.type()),
                sum.loop().file(),
                String.valueOf(sum.loop().startLine()),
                f.layer().name(),
                f.impact() == null ? "-" : f.impact().kind().name(),
                f.impact() == null ? "-" : String.valueOf(f.impact().consequence()));
    }

    /** One finding for the sums of {@code g} (at least two), at the first one's place. */
    private static Finding merged(List<Finding> g) {
        List<Finding> sorted = new ArrayList<>(g);
        sorted.sort(Comparator.comparingInt((Finding f) -> f.location().startLine())
                .thenComparingInt(f -> f.location().startColumn()));
        Finding first = sorted.get(0);
        List<String> names = new ArrayList<>();
        for (Finding f : sorted) {
            String n = f.identity().accumulator();
            if (!names.contains(n)) names.add(n);
        }
        int lo = first.location().startLine();
        int hi = sorted.get(sorted.size() - 1).location().startLine();
        Identity.Sum sum = first.identity().sum();
        String consequence = first.impact() != null && first.impact().consequence() != null
                ? first.impact().consequence()
                : RuleCatalog.get().phrase("loop-group-same");
        String message = RuleCatalog.get()
                .phrase(
                        "loop-group",
                        "count",
                        sorted.size(),
                        "type",
                        sum.type() == null ? "floating" : sum.type(),
                        "names",
                        shown(names),
                        "lines",
                        lo == hi ? "line " + lo : "lines " + lo + "-" + hi,
                        "loop",
                        sum.loop().startLine(),
                        "consequence",
                        consequence);
        Finding.Builder b = first.toBuilder().message(Quote.fit(message)).property("accumulators", names);
        Suppression suppression = sorted.stream()
                .map(Finding::suppression)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(null);
        b.suppression(suppression);
        for (Finding f : sorted.subList(1, sorted.size())) {
            Location at = f.location();
            String expr = f.identity().expression();
            b.related(
                    at,
                    RuleCatalog.get()
                            .phrase(
                                    "loop-group-also",
                                    "sum",
                                    expr != null
                                            ? "'" + expr + "'"
                                            : f.identity().accumulator()));
        }
        return b.build();
    }

    /** The accumulators a message names: up to four, then the last. */
    private static String shown(List<String> names) {
        if (names.size() <= 5) return String.join(", ", names);
        return String.join(", ", names.subList(0, 4)) + ", ... " + names.get(names.size() - 1);
    }
}
