package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.model.FindingVerdict;
import dev.numlint.model.Impact;
import dev.numlint.model.Location;
import dev.numlint.model.Verdict;
import dev.numlint.scan.Analyzers;
import dev.numlint.scan.MarkerAnalyzer;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.PtxMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML audit report: its content, escaping of everything from the scanned tree, and — in headless Chromium —
 * that the findings table holds every result, the filters change what is shown and no injected markup runs.
 * Screenshots go to target/html-report/.
 */
class HtmlReportTest {
    static final Path SHOTS = Path.of("target/html-report");
    private static final Pattern ROW = Pattern.compile("<tr class=\"finding[^\"]*\"[^>]*>");

    @TempDir
    Path tmp;

    private static ScanResult scan(Path root, List<Path> paths, List<Analyzer> analyzers) {
        return Scanner.scan(ScanOptions.builder(root)
                .paths(paths)
                .analyzers(analyzers)
                .ptx(PtxMode.OFF, null)
                .build());
    }

    private static ScanResult examples;

    /** The scan of the repository's examples/ (every analyzer, PTX off): run once for the two tests that render it. */
    private static synchronized ScanResult examplesScan(Path root, Path examples) {
        if (HtmlReportTest.examples == null) HtmlReportTest.examples = scan(root, List.of(examples), Analyzers.load());
        return HtmlReportTest.examples;
    }

    private static ReportOptions options(List<Path> paths, Baseline.Comparison b) {
        return new ReportOptions(b, false, null, paths, null);
    }

    private Path hostileTree() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("src/<b>dir</b>"));
        Files.writeString(
                dir.resolve("x<script>alert(1)<!--'\" onmouseover=alert(2) .cu"),
                "// </script><script>document.title='pwned'</script>\n"
                        + "y = HAZARD(NL003); <img src=x onerror=\"document.title='pwned'\"></pre></details>\n"
                        + "z = HAZARD(NL001); // numlint: ignore NL001 -- <script>document.title='pwned'</script>\n");
        Files.writeString(tmp.resolve("src/bin.cu"), "\0\0binary");
        return tmp.resolve("src");
    }

    @Test
    void everythingFromTheScannedTreeIsEscaped() throws IOException {
        Path src = hostileTree();
        ScanResult r = scan(src, List.of(src), List.of(new MarkerAnalyzer()));
        assertThat(r.findings()).hasSize(2);
        String html = HtmlReport.render(r, options(List.of(src), null));
        assertThat(count(html, "<script")).as("only the report's own script").isEqualTo(1);
        assertThat(html)
                .doesNotContain("<img")
                .doesNotContain("<b>dir")
                .doesNotContain("<!--'")
                .contains("&lt;script&gt;document.title&#x3D;&#39;pwned&#39;&lt;/script&gt;")
                .contains("&lt;img src&#x3D;x onerror&#x3D;&quot;document.title&#x3D;&#39;pwned&#39;&quot;&gt;")
                .contains("x&lt;script&gt;alert(1)&lt;!--&#39;&quot; onmouseover&#x3D;alert(2) .cu")
                .contains("data-dir=\"&lt;b&gt;dir&lt;/b&gt;\"");
        assertThat(html)
                .as("the justification is shown, escaped")
                .contains("inSource: &lt;script&gt;document.title&#x3D;&#39;pwned&#39;&lt;/script&gt;");
        assertThat(html)
                .contains("Content-Security-Policy")
                .contains("default-src 'none'")
                .doesNotContainPattern("(src|href|action)=\"?(https?:|//)")
                .doesNotContain("<link")
                .doesNotContain("<iframe")
                .doesNotContain("@import");
    }

    @Test
    void controlCharactersFromTheScannedTreeAreReplaced() {
        Finding f = Finding.builder("NL003")
                .level(dev.numlint.model.Level.WARNING)
                .location(Location.line("k\u001b[2J.cu", 1))
                .message("a*b+c\u0007 may become one fma\u001b]0;title\u0007")
                .layer(dev.numlint.model.Layer.CUDA_SOURCE)
                .fingerprint("00112233445566778899aabbccddeeff")
                .build();
        ScanResult r = new ScanResult(tmp, List.of(f), List.of(), 1, 0, true);
        String html = HtmlReport.render(r, options(List.of(tmp), null));
        assertThat(html)
                .doesNotContainPattern("[\\x00-\\x08\\x0b-\\x1f]")
                .contains("<td class=\"msg\">a*b+c\uFFFD may become one fma\uFFFD]0;title\uFFFD</td>")
                .contains("<span class=\"pos\">k\uFFFD[2J.cu:1</span>");
    }

    @Test
    void aFindingPlacedInGitConfigIsNeverQuoted() throws IOException {
        // an analyzer's finding that points at .git/config (as a hostile .ptx's debug information could): neither the
        // snippet, nor the suppression and fingerprint lines, nor git, read the file: it is no source of the tree
        Path src = Files.createDirectories(tmp.resolve("src"));
        Files.createDirectories(src.resolve(".git"));
        Files.writeString(
                src.resolve(".git/config"),
                "1\n2\n3\n4\n5\n6\n\textraheader = AUTHORIZATION: basic THE-CHECKOUT-TOKEN"
                        + " // numlint: ignore NL001 -- x\n");
        Files.writeString(src.resolve("k.cu"), "y = HAZARD(NL001@.git/config:7);\n");
        ScanResult r = scan(src, List.of(src), List.of(new MarkerAnalyzer()));
        assertThat(r.findings()).singleElement().satisfies(f -> {
            assertThat(f.location().file()).isEqualTo(".git/config");
            assertThat(f.suppressed()).isFalse();
        });
        String html = HtmlReport.render(r, options(List.of(src), null));
        assertThat(html).doesNotContain("THE-CHECKOUT-TOKEN");
    }

    @Test
    void recordsToolRuleSetConfigurationFindingsAndNotAnalyzedFiles() throws IOException {
        Path src = hostileTree();
        Path cfg = tmp.resolve("numlint.yml");
        Files.writeString(cfg, "rules:\n  NL007: {level: warning}\n");
        ScanResult r = scan(src, List.of(src), List.of(new MarkerAnalyzer()));
        Finding f = r.findings().get(0).toBuilder()
                .impact(Impact.amplified("truncated to a pixel index", Location.line("k.cu", 9)))
                .verdict(new FindingVerdict(
                        Verdict.CONFIRMED,
                        null,
                        null,
                        0,
                        1000,
                        12L,
                        3,
                        1.5,
                        null,
                        null,
                        List.of(),
                        null,
                        null,
                        null,
                        null))
                .build();
        List<Finding> fs = new ArrayList<>(r.findings());
        fs.set(0, f);
        ScanResult annotated = new ScanResult(
                r.root(), fs, r.notifications(), r.filesAnalyzed(), r.filesNotAnalyzed(), r.executionSuccessful());
        String html = HtmlReport.render(annotated, new ReportOptions(null, false, null, List.of(src), cfg));
        String cfgHash = HtmlReport.hex(HtmlReport.sha256(Files.readAllBytes(cfg)));
        assertThat(html)
                .contains("numlint " + dev.numlint.rules.RuleCatalog.toolVersion())
                .contains("sha256:" + HtmlReport.ruleSetHash())
                .contains("sha256:" + cfgHash)
                .contains(f.fingerprint())
                .contains("<span class=\"imp imp-amplified\">amplified</span><br>truncated to a pixel index")
                .contains("sink <code>k.cu:9</code>")
                .contains("<span class=\"verdict v-confirmed\">confirmed</span>")
                .contains("12 of 1000 elements differ")
                .contains("Largest ULP difference per validated finding")
                .contains("who and when (git blame): not available");
        assertThat(html)
                .as("the binary file is listed as not analyzed, with its reason")
                .containsPattern("<tr class=\"na\"><td><code>bin\\.cu</code></td><td>not analyzed</td>");
        assertThat(HtmlReport.ruleSetHash()).matches("[0-9a-f]{64}");
        assertThat(HtmlReport.render(annotated, new ReportOptions(null, false, null, List.of(src), cfg, "warning")))
                .contains("no unsuppressed finding at level warning or above (--fail-on warning): "
                        + "<b class=\"gate-fail\">not met</b>");
        assertThat(HtmlReport.render(annotated, new ReportOptions(null, false, null, List.of(src), cfg, "error")))
                .as("the only error finding is suppressed")
                .contains("<b class=\"gate-pass\">met</b>");
        assertThat(rows(html)).hasSize(2);
    }

    @Test
    void hostileReportRunsOnlyItsOwnScriptInChromium() throws Exception {
        Chromium chrome = Chromium.require(tmp);
        Path src = hostileTree();
        ScanResult r = scan(src, List.of(src), List.of(new MarkerAnalyzer()));
        Path report = SHOTS.resolve("hostile.html");
        Files.createDirectories(SHOTS);
        Files.writeString(report, HtmlReport.render(r, options(List.of(src), null)), StandardCharsets.UTF_8);
        String dom = chrome.dumpDom(report.toAbsolutePath().toUri().toString());
        assertThat(dom)
                .as("the report's script ran (its CSP hash is right)")
                .contains("data-ready=\"1\"")
                .contains("<title>numlint audit report</title>")
                .doesNotContain("pwned</title>");
        assertThat(rows(dom)).hasSize(2);
        chrome.screenshot(report.toAbsolutePath().toUri().toString(), SHOTS.resolve("hostile.png"), 1400, 1000);
    }

    @Test
    void examplesReportInChromiumHoldsEveryResultAndFiltersWork() throws Exception {
        Chromium chrome = Chromium.require(tmp);
        Path root = Path.of("..").toAbsolutePath().normalize();
        Path examples = root.resolve("examples");
        ScanResult r = examplesScan(root, examples);
        assertThat(r.findings()).hasSizeGreaterThan(10);
        // a baseline that lacks the first finding and has one that is gone, so every state appears
        List<Finding> base =
                new ArrayList<>(r.findings().subList(1, r.findings().size()));
        base.add(Finding.builder("NL002")
                .level(dev.numlint.model.Level.WARNING)
                .location(Location.line("examples/old/gone.cu", 3))
                .message("fixed since")
                .layer(dev.numlint.model.Layer.CUDA_SOURCE)
                .fingerprint("0123456789abcdef0123456789abcdef")
                .build());
        Baseline.Comparison cmp = baselineOf(base).compare(r.findings());
        Path report = SHOTS.resolve("examples.html");
        Files.createDirectories(SHOTS);
        Files.writeString(report, HtmlReport.render(r, options(List.of(examples), cmp)), StandardCharsets.UTF_8);
        String url = report.toAbsolutePath().toUri().toString();
        int total = r.findings().size() + 1;

        String dom = chrome.dumpDom(url);
        List<String> rows = rows(dom);
        assertThat(rows).as("every result, and the absent one").hasSize(total);
        assertThat(rows).noneMatch(t -> t.contains(" hidden"));
        assertThat(shown(dom)).isEqualTo(total);
        for (Finding f : r.findings()) {
            // the location as shown: it may wrap after a '/', never inside file:line:col (example paths are plain)
            String loc = f.location().shortText();
            StringBuilder shown = new StringBuilder();
            HtmlReport.locationDirs(loc).forEach(d -> shown.append(d).append("<wbr>"));
            assertThat(dom).contains(shown + "<span class=\"pos\">" + loc.substring(loc.lastIndexOf('/') + 1));
        }

        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put(
                "rule=NL003",
                r.findings().stream().filter(f -> f.ruleId().equals("NL003")).count());
        expected.put(
                "level=error",
                r.findings().stream()
                        .filter(f -> f.level().id().equals("error"))
                        .count());
        // one Chromium run per filter: each key once (rule, level, state) and a directory within a combination
        expected.put("state=absent", 1L);
        expected.put(
                "rule=NL004&dir=examples/pi",
                r.findings().stream()
                        .filter(f -> f.ruleId().equals("NL004")
                                && f.location().file().startsWith("examples/pi/"))
                        .count());
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            String filtered = chrome.dumpDom(url + "#" + e.getKey());
            List<String> rs = rows(filtered);
            long visible = rs.stream().filter(t -> !t.contains(" hidden")).count();
            assertThat(visible).as(e.getKey()).isEqualTo(e.getValue()).isLessThan(total);
            assertThat(rs).hasSize(total);
            assertThat(shown(filtered)).as(e.getKey()).isEqualTo(e.getValue().intValue());
        }
        assertThat(expected.get("rule=NL003")).isPositive();
        assertThat(expected.get("rule=NL004&dir=examples/pi")).isPositive();
        chrome.screenshot(url + "#rule=NL003", SHOTS.resolve("examples-NL003.png"), 1400, 1400);
    }

    @Test
    void aLocationWrapsAfterASlashOnlyNeverInsideFileLineColumn() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src/a-rather-long-directory/and-another-one"));
        Files.writeString(src.resolve("kernel_with_a_long_name.cu"), "y = HAZARD(NL003);\n");
        ScanResult r = scan(tmp, List.of(tmp.resolve("src")), List.of(new MarkerAnalyzer()));
        String html = HtmlReport.render(r, options(List.of(tmp.resolve("src")), null));
        assertThat(html)
                .contains("<td class=\"loc\"><code>src/<wbr>a-rather-long-directory/<wbr>and-another-one/<wbr>"
                        + "<span class=\"pos\">kernel_with_a_long_name.cu:1:")
                .contains("td.loc .pos{white-space:nowrap}");
        assertThat(HtmlReport.locationDirs("k.cu:3:1")).isEmpty();
        assertThat(HtmlReport.locationDirs("a/b/k.cu:3")).containsExactly("a/", "b/");
    }

    @Test
    void theSummaryCountsWhatTheListShows() throws IOException {
        Path src = hostileTree();
        ScanResult r = scan(src, List.of(src), List.of(new MarkerAnalyzer()));
        List<Finding> fs = new ArrayList<>(r.findings());
        // a finding whose impact the by-rule table had no column for, and a baseline with one fixed result
        fs.set(
                0,
                fs.get(0).toBuilder()
                        .impact(Impact.of(Impact.Kind.EXACT, "a power of two"))
                        .build());
        ScanResult s = new ScanResult(r.root(), fs, r.notifications(), 1, 1, true);
        List<Finding> base = new ArrayList<>(fs);
        base.add(Finding.builder("NL002")
                .level(dev.numlint.model.Level.WARNING)
                .location(Location.line("old/gone.cu", 3))
                .message("fixed since")
                .layer(dev.numlint.model.Layer.CUDA_SOURCE)
                .fingerprint("0123456789abcdef0123456789abcdef")
                .build());
        Baseline.Comparison cmp = baselineOf(base, r.root()).compare(fs);
        String html = HtmlReport.render(s, options(List.of(src), cmp));
        int card = Integer.parseInt(first(html, "<div class=\"card\"><b>(\\d+)</b><span>findings</span>"));
        assertThat(card).isEqualTo(fs.size());
        assertThat(html)
                .contains("<span id=\"shown\" class=\"shown\">" + card + " of " + card
                        + " findings shown, 1 of 1 fixed (absent)</span>");
        String byRule =
                html.substring(html.indexOf("Findings by rule and impact"), html.indexOf("Findings by directory"));
        int total = 0;
        for (Matcher m = Pattern.compile("<td>(\\d+)</td><td>\\d+</td></tr>").matcher(byRule); m.find(); ) {
            total += Integer.parseInt(m.group(1));
        }
        assertThat(total).as("the by-rule totals").isEqualTo(card);
        assertThat(rows(html)).hasSize(card + 1);
    }

    @Test
    void aLegendExplainsEveryImpactAndConfidence() throws IOException {
        Path src = hostileTree();
        String html =
                HtmlReport.render(scan(src, List.of(src), List.of(new MarkerAnalyzer())), options(List.of(src), null));
        assertThat(html).contains("<div class=\"panel wide legend\" id=\"legend\">");
        String legend = html.substring(
                html.indexOf("id=\"legend\""), html.indexOf("</section>", html.indexOf("id=\"legend\"")));
        for (Impact.Kind k : Impact.Kind.values()) {
            assertThat(legend).containsPattern("<dt>(<span[^>]*>)?" + k.id() + "(</span>)?</dt><dd>\\w");
        }
        assertThat(legend).containsPattern("<dt><span class=\"muted\">unclassified</span></dt><dd>\\w");
        for (dev.numlint.model.Confidence c : dev.numlint.model.Confidence.values()) {
            assertThat(legend).containsPattern("<dt>" + c.id() + "</dt><dd>\\w");
        }
    }

    @Test
    void examplesReportPrintsCompactlyWithTheStateColumnWhole() throws Exception {
        Chromium chrome = Chromium.require(tmp);
        Path root = Path.of("..").toAbsolutePath().normalize();
        Path examples = root.resolve("examples");
        ScanResult r = examplesScan(root, examples);
        Path report = SHOTS.resolve("examples-print.html");
        Files.createDirectories(SHOTS);
        String html = HtmlReport.render(r, options(List.of(examples), null));
        Files.writeString(report, html, StandardCharsets.UTF_8);
        int pages = chrome.printedPages(report.toAbsolutePath().toUri().toString(), SHOTS.resolve("examples.pdf"));
        Files.writeString(
                SHOTS.resolve("examples-pages.txt"),
                pages + " pages, " + r.findings().size() + " findings\n");
        // every record printed (details opened), no page break forced or left by a record that would not split:
        // measured with Chromium: 24 pages for these 46 findings before (27 for 51 with PTX on), 14 after
        assertThat(pages)
                .as("pages for %d findings", r.findings().size())
                .isLessThanOrEqualTo(r.findings().size() * 2 / 5);
        String print = html.substring(html.indexOf("@media print{"));
        assertThat(print)
                .as("the State column's labels wrap instead of being clipped")
                .contains(".st{white-space:normal")
                .doesNotContain("tr.detail{break-inside:avoid}")
                .as("no page break forced per finding")
                .doesNotContainPattern("break-(before|after):\\s*(page|always)");
    }

    /** A baseline holding {@code results}, through a SARIF file as numlint writes it. */
    private Baseline baselineOf(List<Finding> results) throws IOException {
        return baselineOf(results, Path.of("..").toAbsolutePath().normalize());
    }

    private Baseline baselineOf(List<Finding> results, Path root) throws IOException {
        ScanResult r = new ScanResult(root, results, List.of(), 0, 0, true);
        Path f = tmp.resolve("base.sarif");
        try (var w = Files.newBufferedWriter(f)) {
            SarifReport.write(r, w);
        }
        return Baseline.load(f);
    }

    static List<String> rows(String html) {
        List<String> out = new ArrayList<>();
        Matcher m = ROW.matcher(html);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static String first(String s, String regex) {
        Matcher m = Pattern.compile(regex).matcher(s);
        assertThat(m.find()).as(regex).isTrue();
        return m.group(1);
    }

    private static int shown(String dom) {
        Matcher m = Pattern.compile("data-shown=\"(\\d+)\"").matcher(dom);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static int count(String s, String needle) {
        int n = 0;
        for (int i = s.toLowerCase().indexOf(needle);
                i >= 0;
                i = s.toLowerCase().indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void theValidationSectionShowsVerdictsAttributionUlpHistogramsAndExceptionsPerLine() throws IOException {
        Path src = hostileTree();
        ScanResult r = scan(src, List.of(src), List.of(new MarkerAnalyzer()));
        FindingVerdict v = new FindingVerdict(
                Verdict.CONFIRMED,
                "fwd<script>x</script>",
                null,
                0,
                4096,
                300L,
                40,
                0,
                null,
                null,
                List.of(
                        new FindingVerdict.Attribution("NL003", "fmad=false", 280L),
                        new FindingVerdict.Attribution("NL003", "unfuse-fma", 280L),
                        new FindingVerdict.Attribution("NL002", "prec-div=true", 20L)),
                "nvcc -ptx -lineinfo -arch=compute_90 --use_fast_math k.cu (from the compile_commands.json entry)",
                null,
                new LinkedHashMap<>(Map.of("division-by-zero", 3L)),
                new LinkedHashMap<>(Map.of("1", 200L, "16-255", 100L)));
        List<Finding> fs = new ArrayList<>(r.findings());
        fs.set(0, fs.get(0).toBuilder().verdict(v).build());
        ScanResult annotated = new ScanResult(
                r.root(), fs, r.notifications(), r.filesAnalyzed(), r.filesNotAnalyzed(), r.executionSuccessful());
        String html = HtmlReport.render(annotated, options(List.of(src), null));
        int at = html.indexOf("<div class=\"panel wide\" id=\"validation\">");
        assertThat(at).as("the validation section").isPositive();
        String section = html.substring(at, html.indexOf("</div>", at));
        // verdict per finding: linked to its row, with its elements, largest ULP and the histogram as an inline SVG bar
        assertThat(section)
                .contains("<a href=\"#f1\">1</a>")
                .contains("<span class=\"verdict v-confirmed\">confirmed</span>")
                .contains("<td>300 of 4096</td><td>40</td>")
                .contains("<svg class=\"uhist\"")
                .contains("<rect class=\"u0\" x=\"0\" y=\"0\" width=\"107\" height=\"12\"><title>1 ulp: 200</title>")
                .contains("<rect class=\"u3\" x=\"107\" y=\"0\" width=\"53\" height=\"12\">")
                .contains("1 ulp: 200, 16-255 ulp: 100");
        // the attribution table: every single-switch build, the command the builds were made with
        assertThat(section)
                .contains("<td>NL003</td><td><code>fmad&#x3D;false</code></td><td>280</td>")
                .contains("<code>unfuse-fma</code>")
                .contains("<td>NL002</td><td><code>prec-div&#x3D;true</code></td><td>20</td>")
                .contains("--use_fast_math k.cu (from the compile_commands.json entry)");
        // exceptions per line, and everything from the tree escaped
        assertThat(section).contains("division-by-zero 3").contains("fwd&lt;script&gt;x&lt;/script&gt;");
        assertThat(count(html, "<script")).as("only the report's own script").isEqualTo(1);
        assertThat(HtmlReport.render(r, options(List.of(src), null)))
                .as("no section without validation")
                .doesNotContain("id=\"validation\"");
    }
}
