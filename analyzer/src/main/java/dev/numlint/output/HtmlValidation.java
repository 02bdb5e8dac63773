package dev.numlint.output;

import dev.numlint.model.Finding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTML report's validation section (template partial {@code validation.mustache}): the verdict of every
 * validated finding with its elements, largest ULP difference and ULP histogram (an inline SVG bar of the
 * buckets, no script), the attribution table of each validated kernel (the elements each single-switch build
 * removes, with the command the builds were made with), and the floating-point exceptions counted on each finding's
 * line. Statistics only, read from the findings' typed verdicts ({@code Finding.verdict}); never buffer contents. Every value
 * is printed by the template, which escapes it.
 */
final class HtmlValidation {
    private HtmlValidation() {}

    /** The ULP histogram's buckets, in order (FindingResult.bucket). */
    static final List<String> BUCKETS = List.of("1", "2-3", "4-15", "16-255", "256-65535", ">=65536", "nan-mismatch");

    record Section(List<VerdictRow> verdicts, List<AttributionRow> attribution, List<ExceptionRow> exceptions) {
        public boolean anyAttribution() {
            return !attribution.isEmpty();
        }

        public boolean anyExceptions() {
            return !exceptions.isEmpty();
        }
    }

    /** One validated finding: its row number in the findings table, where, its verdict and statistics. */
    record VerdictRow(
            int n,
            String rule,
            String location,
            String kernel,
            String verdict,
            String verdictClass,
            String elements,
            String maxUlp,
            Histogram histogram) {}

    /** A bar of the ULP histogram's buckets: one segment per nonempty bucket, its width its share of the total. */
    record Histogram(long total, List<Segment> segments, String text) {}

    record Segment(String bucket, long n, int x, int width, String cls) {}

    /** One single-switch build of a kernel and the differing elements it alone removes. */
    record AttributionRow(String kernel, String rule, String variant, String elements, String build) {}

    /** The floating-point exceptions on one finding's line. */
    record ExceptionRow(int n, String rule, String location, String counts) {}

    static final int HISTOGRAM_WIDTH = 160;

    /** The section, or null when no finding was validated; finding i is row i + 1 of the findings table. */
    static Section of(List<Finding> findings) {
        List<VerdictRow> verdicts = new ArrayList<>();
        Map<String, AttributionRow> attribution = new LinkedHashMap<>();
        List<ExceptionRow> exceptions = new ArrayList<>();
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            dev.numlint.model.FindingVerdict v = f.verdict();
            if (v == null) continue;
            int n = i + 1;
            String where = f.location().file() + ":" + f.location().startLine();
            String kernel = v.kernel() == null ? "" : dev.numlint.util.Demangler.simpleName(v.kernel());
            String verdict = HtmlModel.verdictText(v);
            String elements = v.elementsDiffering() + " of " + v.elementsCompared();
            verdicts.add(new VerdictRow(
                    n,
                    f.ruleId(),
                    where,
                    kernel,
                    verdict,
                    verdict.replaceAll("[^a-z-]", ""),
                    elements,
                    Long.toString(v.maxUlp()),
                    histogram(v.ulpHistogram())));
            for (dev.numlint.model.FindingVerdict.Attribution a : v.attribution()) {
                String key = f.location().file() + "\u0000" + v.kernel() + "\u0000" + a.variant();
                attribution.putIfAbsent(
                        key,
                        new AttributionRow(
                                kernel + " (" + f.location().file() + ")",
                                String.valueOf(a.rule()),
                                String.valueOf(a.variant()),
                                String.valueOf(a.elementsDiffering()),
                                v.build() == null ? "" : v.build()));
            }
            if (v.floatingPointExceptions() != null
                    && !v.floatingPointExceptions().isEmpty()) {
                List<String> parts = new ArrayList<>();
                v.floatingPointExceptions().forEach((kind, count) -> parts.add(kind + " " + count));
                exceptions.add(new ExceptionRow(n, f.ruleId(), where, String.join(", ", parts)));
            }
        }
        if (verdicts.isEmpty()) return null;
        return new Section(verdicts, new ArrayList<>(attribution.values()), exceptions);
    }

    /** The histogram bar of a ULP histogram (bucket to elements), or null when it is empty or absent. */
    static Histogram histogram(Map<String, Long> m) {
        if (m == null || m.isEmpty()) return null;
        long total = 0;
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String b : BUCKETS) {
            Long x = m.get(b);
            if (x != null && x > 0) {
                counts.put(b, x.longValue());
                total += x.longValue();
            }
        }
        if (total == 0) return null;
        List<Segment> segs = new ArrayList<>();
        List<String> text = new ArrayList<>();
        int x = 0;
        int i = 0;
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            i++;
            int w = i == counts.size()
                    ? HISTOGRAM_WIDTH - x
                    : (int) Math.max(1, Math.round((double) e.getValue() * HISTOGRAM_WIDTH / total));
            w = Math.max(0, Math.min(w, HISTOGRAM_WIDTH - x));
            segs.add(new Segment(e.getKey(), e.getValue(), x, w, "u" + BUCKETS.indexOf(e.getKey())));
            text.add(e.getKey() + " ulp: " + e.getValue());
            x += w;
        }
        return new Histogram(total, segs, String.join(", ", text));
    }
}
