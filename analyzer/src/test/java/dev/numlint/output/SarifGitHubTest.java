package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.model.Finding;
import dev.numlint.scan.MarkerAnalyzer;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SARIF for GitHub code scanning: automationDetails, semanticVersion, per-rule precision and problem.severity,
 * suppressed results left out with {@code omit} (kept by default), baseline states; and the SARIF Multitool accepts
 * the baseline and omit variants (skipped without the tool, like {@code FixtureTest}'s, {@link SarifMultitool}).
 */
class SarifGitHubTest {
    @TempDir
    Path tmp;

    private ScanResult scan() throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Files.writeString(
                src.resolve("a.cu"),
                "x = HAZARD(NL003);\ny = HAZARD(NL001); // numlint: ignore NL001 -- " + "clamped to [0, 255] above\n");
        Files.writeString(src.resolve("b.cu"), "z = HAZARD(NL007);\n");
        return Scanner.scan(ScanOptions.builder(src)
                .path(src)
                .analyzers(List.of(new MarkerAnalyzer()))
                .build());
    }

    private static JsonNode sarif(ScanResult r, ReportOptions o) throws IOException {
        StringWriter w = new StringWriter();
        SarifReport.write(r, o, w);
        return new ObjectMapper().readTree(w.toString());
    }

    @Test
    void runAndRuleMetadataForCodeScanning() throws IOException {
        JsonNode run = sarif(scan(), ReportOptions.defaults()).path("runs").get(0);
        assertThat(run.path("automationDetails").path("id").asText()).isEqualTo("numlint/");
        JsonNode driver = run.path("tool").path("driver");
        assertThat(driver.path("semanticVersion").asText()).isEqualTo(dev.numlint.rules.RuleCatalog.toolVersion());
        for (JsonNode rule : driver.path("rules")) {
            assertThat(rule.path("properties").path("precision").asText()).isIn("very-high", "high", "medium", "low");
            assertThat(rule.path("properties").path("problem.severity").asText())
                    .isIn("error", "warning", "recommendation");
        }
        assertThat(run.path("results")).hasSize(3);
        assertThat(run.path("results").get(0).has("baselineState"))
                .as("no baseline, no state")
                .isFalse();
        JsonNode cat = sarif(scan(), new ReportOptions(null, false, "numlint-gpu", List.of(), null))
                .path("runs")
                .get(0);
        assertThat(cat.path("automationDetails").path("id").asText()).isEqualTo("numlint-gpu/");
    }

    @Test
    void suppressedResultsAreKeptByDefaultAndLeftOutWithOmit() throws IOException {
        ScanResult r = scan();
        JsonNode keep = sarif(r, ReportOptions.defaults()).path("runs").get(0);
        List<String> kept = new ArrayList<>();
        keep.path("results").forEach(x -> kept.add(x.path("ruleId").asText() + (x.has("suppressions") ? "(s)" : "")));
        assertThat(kept).containsExactly("NL003", "NL001(s)", "NL007");
        JsonNode omit = sarif(r, new ReportOptions(null, true, null, List.of(), null))
                .path("runs")
                .get(0);
        List<String> left = new ArrayList<>();
        omit.path("results").forEach(x -> left.add(x.path("ruleId").asText()));
        assertThat(left).containsExactly("NL003", "NL007");
        assertThat(omit.path("properties").path("suppressedResultsOmitted").asInt())
                .isEqualTo(1);
        // the audit formats keep them
        StringWriter json = new StringWriter();
        JsonReport.write(r, new ReportOptions(null, true, null, List.of(), null), json);
        assertThat(json.toString()).contains("clamped to [0, 255] above");
        assertThat(HtmlReport.render(r, new ReportOptions(null, true, null, List.of(), null)))
                .contains("clamped to [0, 255] above");
    }

    @Test
    void baselineAndOmitVariantsPassTheSarifMultitool() throws Exception {
        SarifMultitool.require();
        ScanResult r = scan();
        // baseline: the NL007 result, a result that is gone since, and the NL003 with another level (updated)
        List<Finding> old = new ArrayList<>();
        for (Finding f : r.findings()) {
            if (f.ruleId().equals("NL007")) {
                old.add(f);
            } else if (f.ruleId().equals("NL003")) {
                old.add(f.toBuilder().level(dev.numlint.model.Level.ERROR).build());
            }
        }
        old.add(r.findings().get(0).toBuilder()
                .ruleId("NL002")
                .fingerprint("ffffffffffffffffffffffffffffffff")
                .build());
        Path basePath = tmp.resolve("base.sarif");
        write(basePath, new ScanResult(r.root(), old, List.of(), 0, 0, true), ReportOptions.defaults());
        Baseline.Comparison cmp = Baseline.load(basePath).compare(r.findings());
        Path withBaseline = tmp.resolve("with-baseline.sarif");
        write(withBaseline, r, new ReportOptions(cmp, true, "numlint/pr", List.of(), null));
        JsonNode doc = new ObjectMapper().readTree(withBaseline.toFile());
        List<String> states = new ArrayList<>();
        doc.path("runs")
                .get(0)
                .path("results")
                .forEach(x -> states.add(x.path("ruleId").asText() + ":"
                        + x.path("baselineState").asText()));
        assertThat(states).containsExactly("NL003:updated", "NL007:unchanged", "NL002:absent");

        SarifMultitool.assertValid(List.of(basePath, withBaseline));
    }

    private static void write(Path f, ScanResult r, ReportOptions o) throws IOException {
        try (Writer w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
            SarifReport.write(r, o, w);
        }
    }
}
