package dev.numlint.output;

import dev.numlint.model.Finding;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.scan.ScanResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Counts per rule, shared by the text and JSON reports. */
public record Summary(
        Map<String, RuleCount> byRule,
        int findings,
        int suppressed,
        int filesAnalyzed,
        int filesNotAnalyzed,
        boolean executionSuccessful) {

    /** Findings of one rule: all (suppressed included) and suppressed. */
    public record RuleCount(String id, String name, int count, int suppressed) {}

    public static Summary of(ScanResult r) {
        RuleCatalog catalog = RuleCatalog.get();
        Map<String, int[]> counts = new TreeMap<>();
        int suppressed = 0;
        for (Finding f : r.findings()) {
            int[] c = counts.computeIfAbsent(f.ruleId(), k -> new int[2]);
            c[0]++;
            if (f.suppressed()) {
                c[1]++;
                suppressed++;
            }
        }
        Map<String, RuleCount> byRule = new LinkedHashMap<>();
        counts.forEach((id, c) -> byRule.put(
                id, new RuleCount(id, catalog.has(id) ? catalog.rule(id).name() : id, c[0], c[1])));
        return new Summary(
                byRule,
                r.findings().size(),
                suppressed,
                r.filesAnalyzed(),
                r.filesNotAnalyzed(),
                r.executionSuccessful());
    }
}
