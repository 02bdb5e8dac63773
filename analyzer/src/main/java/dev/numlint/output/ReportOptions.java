package dev.numlint.output;

import java.nio.file.Path;
import java.util.List;

/**
 * What a report needs beyond the scan result: the baseline comparison, how suppressed results go into SARIF, the
 * SARIF category, the scanned paths and configuration file (audit report header).
 *
 * @param baseline       the comparison with {@code --baseline}, or null
 * @param omitSuppressed SARIF only: leave suppressed results out (for GitHub code scanning, which ignores SARIF
 *                       {@code suppressions} and would show them as open alerts); their count goes into the run's
 *                       properties. JSON and HTML always keep them.
 * @param category       SARIF {@code automationDetails.id} category (the id is {@code category + "/"})
 * @param paths          the scanned paths as given (absolute), for the audit report
 * @param configFile     the configuration file used, or null for defaults
 * @param failOn         the gate the scan ran with (--fail-on: error, warning, note or none), or null when unknown;
 *                       the audit report records it as the acceptance criterion with its outcome
 * @param sarifMinLevel  SARIF only: results below this level are left out (--sarif-min-level; code scanning shows
 *                       every result as an alert), their count goes into the run's properties; null keeps all. JSON
 *                       and HTML always keep them.
 */
public record ReportOptions(
        Baseline.Comparison baseline,
        boolean omitSuppressed,
        String category,
        List<Path> paths,
        Path configFile,
        String failOn,
        dev.numlint.model.Level sarifMinLevel) {
    public static final String DEFAULT_CATEGORY = "numlint";

    public ReportOptions(
            Baseline.Comparison baseline,
            boolean omitSuppressed,
            String category,
            List<Path> paths,
            Path configFile,
            String failOn) {
        this(baseline, omitSuppressed, category, paths, configFile, failOn, null);
    }

    public ReportOptions(
            Baseline.Comparison baseline, boolean omitSuppressed, String category, List<Path> paths, Path configFile) {
        this(baseline, omitSuppressed, category, paths, configFile, null, null);
    }

    public ReportOptions {
        category = category == null || category.isBlank() ? DEFAULT_CATEGORY : category;
        paths = paths == null ? List.of() : List.copyOf(paths);
    }

    public static ReportOptions defaults() {
        return new ReportOptions(null, false, DEFAULT_CATEGORY, List.of(), null, null, null);
    }
}
