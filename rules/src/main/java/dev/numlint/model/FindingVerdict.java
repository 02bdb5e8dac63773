package dev.numlint.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What validation measured for one finding: the verdict of running its kernel (or of the build that isolates its
 * hazard), with the kernel's statistics. Set by the scan's validation step (scan/ScanValidation) on the findings of a
 * validated kernel; the reports read it typed and write it as {@code properties.validation}. Statistics only: never a
 * buffer's contents (a recording may hold patient data).
 *
 * @param verdict                  the finding's verdict (its own build's when validation isolated its hazard, else the
 *                                 kernel's), or null when none was reached
 * @param kernel                   the kernel validated (its PTX name)
 * @param executor                 what ran it ({@code interpreter}, {@code gpu})
 * @param inputs                   how many input sets were run
 * @param elementsCompared         output elements compared
 * @param elementsDiffering        output elements that differ (the hazard's own build's count when isolated)
 * @param maxUlp                   largest distance in units in the last place
 * @param meanUlp                  mean distance in units in the last place
 * @param closerToReference        which build is closer to the reference, or null
 * @param reason                   why the kernel could not run or the verdict is inconclusive, or null
 * @param attribution              the differing elements each single-switch build alone removes
 * @param build                    the build the kernel was validated with (its compile command's source), or null
 * @param fusedInMachineCode       whether ptxas fused the finding's operation in the machine code, or null when not
 *                                 checked
 * @param floatingPointExceptions  the floating-point exceptions the as-built run raised on the finding's line, by kind
 *                                 (empty: none seen), or null when not counted
 * @param ulpHistogram             the ULP distances of the elements the hazard's switch alone changes, by bucket, or
 *                                 null
 */
public record FindingVerdict(
        Verdict verdict,
        String kernel,
        String executor,
        int inputs,
        long elementsCompared,
        Long elementsDiffering,
        long maxUlp,
        double meanUlp,
        String closerToReference,
        String reason,
        List<Attribution> attribution,
        String build,
        Boolean fusedInMachineCode,
        Map<String, Long> floatingPointExceptions,
        Map<String, Long> ulpHistogram) {

    /** One single-switch build: the rule whose hazard it turns off, its name, the differing elements it removes. */
    public record Attribution(String rule, String variant, long elementsDiffering) {}

    public FindingVerdict {
        attribution = attribution == null ? List.of() : List.copyOf(attribution);
        floatingPointExceptions = floatingPointExceptions == null
                ? null
                : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(floatingPointExceptions));
        ulpHistogram =
                ulpHistogram == null ? null : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(ulpHistogram));
    }

    /** The verdict as reports write it ({@code properties.validation}). */
    public Map<String, Object> toProperties() {
        Map<String, Object> v = new LinkedHashMap<>();
        if (fusedInMachineCode != null) v.put("fusedInMachineCode", fusedInMachineCode);
        if (floatingPointExceptions != null) v.put("floatingPointExceptions", floatingPointExceptions);
        if (ulpHistogram != null) v.put("ulpHistogram", ulpHistogram);
        v.put("verdict", verdict == null ? null : verdict.text());
        v.put("kernel", kernel);
        v.put("executor", executor);
        v.put("inputs", inputs);
        v.put("elementsCompared", elementsCompared);
        v.put("elementsDiffering", elementsDiffering);
        v.put("maxUlp", maxUlp);
        v.put("meanUlp", meanUlp);
        v.put("closerToReference", closerToReference);
        if (reason != null) v.put("reason", reason);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Attribution a : attribution) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("rule", a.rule());
            row.put("variant", a.variant());
            row.put("elementsDiffering", a.elementsDiffering());
            rows.add(row);
        }
        v.put("attribution", rows);
        if (build != null) v.put("build", build);
        return v;
    }
}
