package dev.numlint.scan;

import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run of the same hazard on neighbouring lines of one function, as one finding, for a rule whose policy says
 * {@code group-runs}: the three colour channels of a pixel converted to bytes ({@code out[0] = (unsigned char)(r)},
 * {@code out[1] = ...g}, {@code out[2] = ...b}), the two parts of a date, are one decision of their author (one clamp
 * helper fixes them all), not three findings. Default-visible findings (warning and above) of one rule, level, layer,
 * function, file, written operation ({@code (unsigned char)}), judgement and suppression state, each at most
 * {@link #GAP} lines below the previous one, become one finding at the first one's place: its message is the first
 * one's with the count and the lines of the others, and the others are its related locations. Decided from the typed
 * identity and the locations only, never from message text. Runs after suppression (a suppressed site stays apart)
 * and before fingerprints (the group keeps the first site's fingerprint key).
 *
 * <p>Session 69's round B: 72 of 110 default-visible findings of two C image libraries were per-channel conversions
 * of this kind, one decision of their authors repeated per channel and per pixel format.
 */
final class RunGroups {
    /** The most lines between two neighbours of a run (a channel per line, with a comment or a blank between). */
    static final int GAP = 2;

    private RunGroups() {}

    /** The findings with each run grouped (input order kept; a run takes its first member's place). */
    static List<Finding> group(List<Finding> in) {
        Map<String, List<Finding>> byKey = new LinkedHashMap<>();
        for (Finding f : in) {
            String key = key(f);
            if (key != null) byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
        }
        Map<Finding, Finding> replaced = new IdentityHashMap<>();
        for (List<Finding> same : byKey.values()) {
            if (same.size() < 2) continue;
            List<Finding> sorted = new ArrayList<>(same);
            sorted.sort(Comparator.comparingInt((Finding f) -> f.location().startLine())
                    .thenComparingInt(f -> f.location().startColumn()));
            List<Finding> run = new ArrayList<>();
            for (Finding f : sorted) {
                if (!run.isEmpty()
                        && f.location().startLine()
                                        - run.get(run.size() - 1).location().startLine()
                                > GAP) {
                    close(run, replaced);
                    run = new ArrayList<>();
                }
                run.add(f);
            }
            close(run, replaced);
        }
        if (replaced.isEmpty()) return in;
        List<Finding> out = new ArrayList<>(in.size());
        for (Finding f : in) {
            if (!replaced.containsKey(f)) out.add(f);
            else if (replaced.get(f) != null) out.add(replaced.get(f));
        }
        return out;
    }

    /** Records a run of two or more: its first member becomes the group, the others go (mapped to null). */
    private static void close(List<Finding> run, Map<Finding, Finding> replaced) {
        if (run.size() < 2) return;
        replaced.put(run.get(0), merged(run));
        for (Finding f : run.subList(1, run.size())) replaced.put(f, null);
    }

    /** The run a finding may belong to, or null when it stands alone. */
    private static String key(Finding f) {
        if (f.function() == null
                || !f.level().atLeast(Level.WARNING)
                || !RuleCatalog.get().policy(f.ruleId()).groupRuns()) {
            return null;
        }
        return String.join(
                "\u0000",
                f.ruleId(),
                f.level().name(),
                f.layer().name(),
                f.function(),
                f.location().file(),
                String.valueOf(f.identity().written()),
                String.valueOf(f.identity().judgement()),
                String.valueOf(f.suppression() != null));
    }

    /** One finding for the run {@code g} (at least two, by line), at the first one's place. */
    private static Finding merged(List<Finding> g) {
        Finding first = g.get(0);
        List<Integer> lines = new ArrayList<>();
        for (Finding f : g.subList(1, g.size())) {
            int l = f.location().startLine();
            if (!lines.contains(l) && l != first.location().startLine()) lines.add(l);
        }
        String shown;
        // every other member on the first one's line (two launches' arguments in one call, session 71 round C): the
        // message said "1 more like it at lines " with no line after it
        if (lines.isEmpty()) shown = "the same line";
        else if (lines.size() == 1) shown = "line " + lines.get(0);
        else if (lines.size() <= 4)
            shown = "lines "
                    + String.join(", ", lines.stream().map(String::valueOf).toList());
        else shown = "lines " + lines.get(0) + "-" + lines.get(lines.size() - 1);
        String remark = RuleCatalog.get().phrase("run-group", "message", "", "count", g.size() - 1, "lines", shown);
        String message = RuleCatalog.get()
                .phrase(
                        "run-group",
                        "message",
                        Quote.fit(first.message(), Quote.MESSAGE - remark.length()),
                        "count",
                        g.size() - 1,
                        "lines",
                        shown);
        Finding.Builder b = first.toBuilder().message(message).property("runLines", lines);
        for (Finding f : g.subList(1, g.size())) {
            String expr = f.identity().expression();
            b.related(
                    f.location(),
                    RuleCatalog.get().phrase("run-group-also", "sum", expr != null ? "'" + expr + "'" : f.message()));
        }
        return b.build();
    }
}
