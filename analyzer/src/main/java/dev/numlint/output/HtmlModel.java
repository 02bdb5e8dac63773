package dev.numlint.output;

import dev.numlint.model.BuildContext;
import dev.numlint.scan.ScanResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The HTML report's model: what {@code html/report.mustache} prints, built by {@link HtmlReport}. Plain values only;
 * the template escapes every text when it prints it. A null field or an empty text prints nothing (and is false in a
 * section); a list is a section repeated per element.
 */
final class HtmlModel {
    private HtmlModel() {}

    record Meta(String key, String text, List<String> codes, GitView git, Gate gate) {
        static Meta of(String key, String text) {
            return new Meta(key, text, List.of(), null, null);
        }
    }

    record GitView(String describe, String workTree, List<String> modified, int more) {
        public boolean anyModified() {
            return !modified.isEmpty();
        }
    }

    record Gate(String criterion, String cls, String verdict) {}

    record BuildContexts(boolean open, int count, List<BuildRow> rows) {
        public boolean one() {
            return count == 1;
        }
    }

    record BuildRow(String dir, String files, String settings, List<Origin> origins) {
        public boolean anyOrigin() {
            return !origins.isEmpty();
        }
    }

    record Origin(String flag, String at) {}

    record Count(String label, long n) {}

    record RuleRow(String title, String id, String level, List<String> cells, int total, int suppressed) {}

    record DirRow(String dir, int findings, int suppressed) {}

    record BaselinePanel(String file, List<Count> states, Chart chart) {}

    record ValidationPanel(List<Count> verdicts, int notValidated, Chart chart, Chart ulpChart) {}

    record Filter(String key, String label, List<String> values) {}

    record Row(
            int n,
            String level,
            boolean suppressed,
            boolean absent,
            String states,
            String dir,
            String rule,
            String ruleTitle,
            List<String> locationDirs,
            String locationName,
            String function,
            String message,
            ImpactView impact,
            ValidationView validation,
            String status,
            String state,
            Code code,
            List<EvidenceView> evidence,
            List<RelatedView> related,
            String confidence,
            String layer,
            String fingerprint,
            SuppressionView suppression,
            String ruleText) {
        public boolean anyEvidence() {
            return !evidence.isEmpty();
        }

        public boolean anyRelated() {
            return !related.isEmpty();
        }
    }

    record ImpactView(String kind, String consequence, String sink, String errorBound) {}

    record ValidationView(String verdict, String verdictClass, List<String> parts, Chart chart) {}

    record Code(List<CodeLine> numbered, String source) {}

    record CodeLine(int no, boolean hit, String text) {}

    record EvidenceView(String kind, String text, String at) {}

    record RelatedView(String location, String message) {}

    record SuppressionView(String kind, String justification, String at, String blame) {}

    record Notices(long notAnalyzed, long others, List<NoticeRow> rows) {}

    record NoticeRow(String cls, String file, String level, String kind, String message) {}

    record Bar(String label, long value, String cls) {}

    /** One bar of a chart, placed: the template draws it. */
    record PlacedBar(
            String tip,
            String label,
            int labelX,
            int textY,
            String cls,
            int barX,
            int rectY,
            long barWidth,
            int barHeight,
            long valueX,
            long value) {}

    record Chart(String title, int width, int height, List<PlacedBar> bars) {}

    /** A horizontal bar chart (inline SVG drawn by chart.mustache), or null when there are no bars. */
    static Chart chart(String title, List<Bar> bars) {
        if (bars.isEmpty()) {
            return null;
        }
        long max = Math.max(1, bars.stream().mapToLong(Bar::value).max().orElse(1));
        int rowH = 20;
        int labelW = 200;
        int barW = 260;
        List<PlacedBar> placed = new ArrayList<>();
        int y = 4;
        for (Bar b : bars) {
            long w = Math.round((double) b.value() * barW / max);
            String label = b.label().length() > 28 ? b.label().substring(0, 27) + "\u2026" : b.label();
            placed.add(new PlacedBar(
                    b.label() + ": " + b.value(),
                    label,
                    labelW - 6,
                    y + 14,
                    b.cls(),
                    labelW,
                    y + 3,
                    Math.max(w, b.value() > 0 ? 2 : 0),
                    rowH - 6,
                    labelW + w + 5,
                    b.value()));
            y += rowH;
        }
        return new Chart(title, labelW + barW + 60, bars.size() * rowH + 8, placed);
    }

    /**
     * Build settings per directory that holds findings: the build-flag audit's and --nvcc-flags' settings of the
     * source files with findings (build files themselves have none); files of one directory with different settings
     * get a row each.
     */
    static BuildContexts buildContexts(ScanResult r) {
        Map<String, Map<String, List<String>>> byDir = new TreeMap<>();
        Map<String, BuildContext> contexts = new HashMap<>();
        TreeSet<String> files = new TreeSet<>();
        r.findings().forEach(f -> files.add(f.location().file()));
        for (String file : files) {
            if (isBuildFile(file)) {
                continue;
            }
            BuildContext bc;
            try {
                Path p = Path.of(file);
                bc = r.buildContext(p.isAbsolute() ? p : r.root().resolve(p).normalize());
            } catch (RuntimeException e) {
                continue;
            }
            String key = settings(bc) + "\n" + bc.origins();
            contexts.putIfAbsent(key, bc);
            byDir.computeIfAbsent(HtmlReport.dir(file), k -> new LinkedHashMap<>())
                    .computeIfAbsent(key, k -> new ArrayList<>())
                    .add(file);
        }
        if (byDir.isEmpty()) {
            return null;
        }
        List<BuildRow> rows = new ArrayList<>();
        byDir.forEach((d, m) -> m.forEach((key, fs) -> {
            BuildContext bc = contexts.get(key);
            List<String> names = new ArrayList<>();
            fs.forEach(f -> names.add(f.substring(f.lastIndexOf('/') + 1)));
            List<Origin> origins = new ArrayList<>();
            for (BuildContext.FlagOrigin fo : bc.origins()) {
                origins.add(new Origin(
                        fo.flag(), fo.location() == null ? null : fo.location().shortText()));
            }
            rows.add(new BuildRow(d, m.size() > 1 ? String.join(", ", names) : null, settings(bc), origins));
        }));
        return new BuildContexts(rows.size() <= 12, rows.size(), rows);
    }

    /** A build file (BuildFileNames, meson.build and configure.ac included) or a pom.xml: no build context row. */
    private static boolean isBuildFile(String file) {
        String n = file.substring(file.replace('\\', '/').lastIndexOf('/') + 1);
        return dev.numlint.spi.BuildFileNames.isBuildFile(n) || n.equals("pom.xml");
    }

    static String settings(BuildContext bc) {
        List<String> s = new ArrayList<>();
        s.add("fast-math " + onOff(bc.effectiveFastMath()));
        s.add("prec-div " + onOff(bc.effectivePrecDiv()));
        s.add("prec-sqrt " + onOff(bc.effectivePrecSqrt()));
        s.add("ftz " + onOff(bc.effectiveFtz()));
        s.add("fmad " + onOff(bc.effectiveFmad()));
        if (bc.cudaArch() != null) {
            s.add("arch " + bc.cudaArch());
        }
        if (bc.hostArch() != null) {
            s.add("host -march=" + bc.hostArch() + (bc.hostContracts() ? " (contracts to FMA)" : ""));
        }
        if (Boolean.TRUE.equals(bc.hostFastMath())) {
            s.add("host -ffast-math");
        }
        if (bc.hostX87()) {
            s.add("host x87 (-m32/-mfpmath=387)");
        }
        if (!bc.nvccFlags().isEmpty()) {
            s.add("nvcc " + String.join(" ", bc.nvccFlags()));
        }
        return String.join(", ", s);
    }

    private static String onOff(boolean b) {
        return b ? "on" : "off";
    }

    static ValidationView validationView(dev.numlint.model.FindingVerdict v) {
        if (v == null) {
            return null;
        }
        String verdict = verdictText(v);
        List<String> parts = new ArrayList<>();
        addIf(parts, v.kernel(), "kernel");
        addIf(parts, v.executor(), "executor");
        addIf(parts, v.inputs(), "input sets");
        Long diff = v.elementsDiffering();
        long cmp = v.elementsCompared();
        parts.add(diff + " of " + cmp + " elements differ");
        addIf(parts, v.maxUlp(), "max ulp");
        addIf(parts, v.meanUlp(), "mean ulp");
        addIf(parts, v.closerToReference(), "closer to the reference");
        addIf(parts, v.reason(), "reason");
        Chart chart = null;
        if (v.ulpHistogram() != null && !v.ulpHistogram().isEmpty()) {
            List<Bar> bars = new ArrayList<>();
            v.ulpHistogram().forEach((k, n) -> bars.add(new Bar(k + " ulp", n == null ? 0 : n, "b-ulp")));
            chart = chart("ULP histogram of the differing elements", bars);
        } else if (cmp > 0 && diff != null) {
            long same = cmp - diff;
            chart = chart(
                    "Elements compared",
                    List.of(
                            new Bar("equal", same, "b-equal"),
                            new Bar("differing (max " + v.maxUlp() + " ulp)", diff, "b-ulp")));
        }
        return new ValidationView(verdict, verdict.replaceAll("[^a-z-]", ""), parts, chart);
    }

    /** The verdict as the reports print it ({@code null} when none was reached). */
    static String verdictText(dev.numlint.model.FindingVerdict v) {
        return String.valueOf(v.verdict() == null ? null : v.verdict().text());
    }

    private static void addIf(List<String> parts, Object x, String label) {
        if (x != null) {
            parts.add(label + " " + x);
        }
    }
}
