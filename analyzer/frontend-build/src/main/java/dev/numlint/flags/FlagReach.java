package dev.numlint.flags;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a device-code flag of the analyzed build changes in the scanned code, once every layer has reported.
 *
 * <p>The CUDA-source checks of NL002 ({@code ApproximateDivision}) and NL006 ({@code ApproximateMathFunction})
 * report every float division and every float math function or square root in device code that
 * {@code -prec-div=false}, {@code -prec-sqrt=false} or {@code --use_fast_math} makes approximate, and cite the flag
 * (evidence of kind {@code flag} at the place the build context recorded it); the PTX layer reports the approximate
 * instructions of the files built with it. A build-flag finding of these rules therefore learns how many reported
 * sites it affects (property {@code affectedSites}); when that is none, and every scanned file the analyzed build
 * compiles with the flag was analyzed, nothing in the scanned device code is affected and the finding becomes a note
 * that says so (impact bounded).
 */
public final class FlagReach {
    private FlagReach() {}

    /**
     * The findings with each active device-code NL002/NL006 flag finding reviewed.
     *
     * @param findings    every finding of the scan, after source and PTX findings were merged
     * @param contexts    the build context of each scanned file that has one, by path relative to the root
     * @param notAnalyzed scanned files (relative paths) that could not be analyzed
     */
    public static List<Finding> review(
            List<Finding> findings, Map<String, BuildContext> contexts, Set<String> notAnalyzed) {
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            out.add(candidate(f) ? review(f, findings, contexts, notAnalyzed) : f);
        }
        return out;
    }

    private static boolean candidate(Finding f) {
        return f.layer() == Layer.BUILD_FLAGS
                // rules whose other layers report each device operation a flag of theirs changes, citing the flag
                && dev.numlint.rules.RuleCatalog.get().policy(f.ruleId()).sitesCiteFlags()
                && f.identity().flag() != null
                && f.identity().flag().target() == Identity.Flag.Target.CUDA_DEVICE
                && f.identity().flag().condition() == null
                && f.level() != Level.NOTE
                && !f.suppressed();
    }

    private static Finding review(
            Finding f, List<Finding> all, Map<String, BuildContext> contexts, Set<String> notAnalyzed) {
        Identity.Flag flag = f.identity().flag();
        Set<Location> at = new HashSet<>(flag.alsoAt());
        at.add(f.location());
        int more = flag.alsoAt().size();
        Set<String> files = new HashSet<>();
        for (Map.Entry<String, BuildContext> c : contexts.entrySet()) {
            for (BuildContext.FlagOrigin o : c.getValue().origins()) {
                if (at.contains(o.location())) {
                    files.add(c.getKey());
                    break;
                }
            }
        }
        if (files.isEmpty()) return f; // the flag builds no scanned file: nothing to count
        int sites = 0;
        for (Finding g : all) {
            if (g.layer() == Layer.BUILD_FLAGS || !g.ruleId().equals(f.ruleId())) continue;
            if (cites(g, at)
                    || g.layer() == Layer.PTX && files.contains(g.location().file()) && !library(g)) sites++;
        }
        Finding.Builder b = f.toBuilder().property("affectedSites", sites);
        boolean device = files.stream().anyMatch(p -> p.endsWith(".cu") || p.endsWith(".cuh"));
        if (sites == 0 && device && files.stream().noneMatch(notAnalyzed::contains)) {
            String own = RuleCatalog.get().rule(f.ruleId()).message("flags-unaffected", "flag", flag.name());
            String via = flag.setThrough();
            b.message(FlagReporter.flagMessage(own, via == null ? "" : via, more, null))
                    .level(Level.NOTE)
                    .impact(Impact.bounded("nothing in the scanned device code is affected"));
        }
        return b.build();
    }

    /** Whether a source or PTX finding cites one of the flag's places as the flag that caused it. */
    private static boolean cites(Finding g, Set<Location> at) {
        for (Evidence e : g.evidence()) {
            if ("flag".equals(e.kind()) && e.location() != null && at.contains(e.location())) return true;
        }
        return false;
    }

    /** A PTX instruction of an inlined library routine: there regardless of the flag. */
    private static boolean library(Finding g) {
        return g.identity().libraryCode();
    }
}
