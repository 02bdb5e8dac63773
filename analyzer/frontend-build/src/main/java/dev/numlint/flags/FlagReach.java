package dev.numlint.flags;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.UnitArithmetic;
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
        return review(findings, contexts, notAnalyzed, Map.of());
    }

    /**
     * The same review, judged first by what the layers saw of the units the flag compiles ({@code units}): a flag
     * that changes only single-precision device arithmetic changes nothing in units whose every device operation is
     * double, the fact of the PTX (preferred) or of the source.
     *
     * @param units what the layers saw of each compiled unit's arithmetic, by unit (relative path)
     */
    public static List<Finding> review(
            List<Finding> findings,
            Map<String, BuildContext> contexts,
            Set<String> notAnalyzed,
            Map<String, List<UnitArithmetic>> units) {
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            out.add(candidate(f) ? review(f, findings, contexts, notAnalyzed, units) : f);
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
            Finding f,
            List<Finding> all,
            Map<String, BuildContext> contexts,
            Set<String> notAnalyzed,
            Map<String, List<UnitArithmetic>> units) {
        Identity.Flag flag = f.identity().flag();
        Set<Location> at = new HashSet<>(flag.alsoAt());
        at.add(f.location());
        // the other places that write the flag (the compile commands that carry it are evidence, not places)
        int more = (int) flag.alsoAt().stream()
                .filter(l -> !l.file().endsWith("compile_commands.json"))
                .count();
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
        Finding doubleOnly = doubleOnly(f, flag, more, files, units);
        if (doubleOnly != null) return doubleOnly;
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

    /**
     * The finding as a note when every unit the flag compiles is known, from its PTX or else its source, to do no
     * single-precision device arithmetic; null when a unit does, or when no layer saw one of them.
     */
    private static Finding doubleOnly(
            Finding f, Identity.Flag flag, int more, Set<String> files, Map<String, List<UnitArithmetic>> units) {
        List<String> compiled =
                files.stream().filter(p -> p.endsWith(".cu")).sorted().toList();
        if (compiled.isEmpty()) return null;
        boolean allPtx = true;
        for (String u : compiled) {
            UnitArithmetic fact = fact(units.get(u));
            if (fact == null || !fact.doubleOnly()) return null;
            allPtx &= fact.layer() == Layer.PTX;
        }
        RuleCatalog cat = RuleCatalog.get();
        String seen = cat.phrase(allPtx ? "units-double-ptx" : "units-double-source");
        String own = cat.rule(f.ruleId()).message("flags-all-double", "flag", flag.name(), "count", compiled.size());
        String via = flag.setThrough();
        return f.toBuilder()
                .message(FlagReporter.flagMessage(own, via == null ? "" : via, more, null))
                .level(Level.NOTE)
                .impact(Impact.bounded(seen))
                .evidence(new Evidence(
                        "units",
                        seen + ": " + String.join(", ", compiled.subList(0, Math.min(5, compiled.size()))),
                        null))
                .property("doubleOnlyUnits", compiled.size())
                .build();
    }

    /** The fact of a unit to judge by: the PTX's when the PTX layer saw it, else the source's; null when none. */
    private static UnitArithmetic fact(List<UnitArithmetic> facts) {
        if (facts == null || facts.isEmpty()) return null;
        UnitArithmetic ptx = null;
        UnitArithmetic source = null;
        for (UnitArithmetic u : facts) {
            if (u.layer() == Layer.PTX) {
                // several PTX units of one file (two compile commands): float in any is float
                if (ptx == null || !u.doubleOnly()) ptx = u;
            } else if (source == null || !u.doubleOnly()) {
                source = u;
            }
        }
        return ptx != null ? ptx : source;
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
