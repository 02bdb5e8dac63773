package dev.numlint.cuda;

import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One finding per build decision: the sites of an approximation the project's own build chose ({@link
 * Identity.Judgement#CHOSEN_APPROXIMATION}: a '/' or a square root under {@code --use_fast_math} or {@code
 * -prec-div=false}) whose value still decides something after {@link OnlyComparisons} (it becomes an integer or an
 * index, cancels, or goes where numlint does not follow) restate the flag, which the build-flags layer reports where
 * it is set. Each such site becomes a note that names the flag's place, and the flag's finding lists the sites as
 * related locations and says how many reach an integer or an index: the decision (keep fast math, or write {@code
 * __fdiv_rn} where an index is made) is taken once, at the flag, with every consequence in view.
 *
 * <p>Session 39's reviewers judged all 21 sampled per-site divisions and square roots of a deliberate fast-math
 * build not actionable, and session 44's all 15; session 37's actionable ones (quotients truncated to bin indices)
 * are what the flag's finding now names first. A site whose flag the scan does not report (given only on numlint's
 * command line) keeps its level: nothing else would show it.
 */
final class BuildChoices {
    /** At most this many sites are listed as related locations of one flag (the count says how many in all). */
    static final int MAX_RELATED = 50;

    private BuildChoices() {}

    static List<Finding> review(List<Finding> findings) {
        Map<String, Integer> flags = new HashMap<>();
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            if (f.layer() != Layer.BUILD_FLAGS) continue;
            flags.putIfAbsent(key(f.ruleId(), f.location().file(), f.location().startLine()), i);
            // a flag a build file writes is one finding there; a site's evidence names the compile command that
            // carries it (compile_commands.json:13), which the flag's finding holds as its evidence
            for (Evidence e : f.evidence()) {
                Location l = e.location();
                if (l == null) continue;
                flags.putIfAbsent(key(f.ruleId(), l.file(), l.startLine()), i);
                // "in 43 of 43 compile commands": a site of another unit cites its own command's line in the same
                // database; the flag's text decides which finding it restates
                for (Evidence t : f.evidence())
                    if ("flag".equals(t.kind())) flags.putIfAbsent(key(f.ruleId(), l.file(), t.text()), i);
            }
        }
        if (flags.isEmpty()) return findings;
        List<Finding> out = new ArrayList<>(findings);
        Map<Integer, List<Finding>> sites = new TreeMap<>();
        for (int i = 0; i < out.size(); i++) {
            Finding f = out.get(i);
            Location flag = restated(f);
            if (flag == null) continue;
            Integer at = flags.get(key(f.ruleId(), flag.file(), flag.startLine()));
            if (at == null) at = flags.get(key(f.ruleId(), flag.file(), flagText(f)));
            if (at == null) continue;
            out.set(i, site(f, findings.get(at).location())); // named where the flag's finding is
            sites.computeIfAbsent(at, k -> new ArrayList<>()).add(f);
        }
        sites.forEach((at, list) -> out.set(at, flag(out.get(at), list)));
        return out;
    }

    /** Where the build set the approximation {@code f} restates, or null when {@code f} restates none. */
    static Location restated(Finding f) {
        if (f.layer() == Layer.BUILD_FLAGS
                || f.suppressed()
                || !f.level().atLeast(Level.WARNING)
                || f.identity().judgement() != Identity.Judgement.CHOSEN_APPROXIMATION) return null;
        for (Evidence e : f.evidence()) {
            if ("flag".equals(e.kind()) && e.location() != null) return e.location();
        }
        return null;
    }

    private static String key(String rule, String file, Object lineOrFlag) {
        return rule + '\u0000' + file + '\u0000' + lineOrFlag;
    }

    /** The text of {@code f}'s flag evidence ({@code --use_fast_math}), or null. */
    private static String flagText(Finding f) {
        for (Evidence e : f.evidence()) if ("flag".equals(e.kind()) && e.location() != null) return e.text();
        return null;
    }

    private static Finding site(Finding f, Location flag) {
        String where = flag.file().replaceAll(".*/", "") + ":" + flag.startLine(); // the path: a related location
        String stated = RuleCatalog.get().remark("chosen-approximation-site", f.message(), "site", where);
        return f.toBuilder()
                .level(Level.NOTE)
                .message(stated)
                .property("restatesFlag", flag.file() + ":" + flag.startLine())
                .build();
    }

    private static Finding flag(Finding flag, List<Finding> sites) {
        List<Finding> discrete = sites.stream().filter(BuildChoices::discrete).toList();
        Finding first = discrete.isEmpty() ? sites.get(0) : discrete.get(0);
        String key = discrete.isEmpty() ? "chosen-approximation-flag-other" : "chosen-approximation-flag";
        int count = discrete.isEmpty() ? sites.size() : discrete.size();
        String site = first.location().file().replaceAll(".*/", "") + ":"
                + first.location().startLine();
        Finding.Builder b = flag.toBuilder()
                .message(RuleCatalog.get().remark(key, flag.message(), "count", count, "site", site))
                .property("restatedSites", sites.size())
                .property("restatedSitesDiscrete", discrete.size());
        List<Finding> listed = new ArrayList<>(discrete);
        sites.stream().filter(s -> !discrete(s)).forEach(listed::add);
        for (Finding s : listed.subList(0, Math.min(MAX_RELATED, listed.size()))) {
            String why = s.impact() != null && s.impact().consequence() != null
                    ? s.impact().consequence()
                    : s.message();
            b.related(s.location(), Quote.fit(why));
        }
        return b.build();
    }

    /** Whether the site's value becomes an integer or an index (the gravest consequence a few ulp have). */
    private static boolean discrete(Finding f) {
        return f.impact() != null
                && (f.impact().reach() == Impact.Reach.CONVERSION || f.impact().reach() == Impact.Reach.INDEX);
    }
}
