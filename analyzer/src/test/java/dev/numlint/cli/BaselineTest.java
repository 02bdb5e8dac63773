package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.scan.MarkerAnalyzer;
import dev.numlint.spi.Analyzer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code --baseline}: baseline states in SARIF, JSON and text, and {@code --fail-on} counting new results only. */
class BaselineTest {
    @TempDir
    Path tmp;

    Path src;
    Path baseline;

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        CommandLine cmd = Main.commandLine(() -> List.<Analyzer>of(new MarkerAnalyzer()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @BeforeEach
    void baselineOfATreeWithTwoHazards() throws IOException {
        src = tmp.resolve("src");
        Files.createDirectories(src);
        Files.writeString(src.resolve("a.cu"), "x = HAZARD(NL003);\ny = HAZARD(NL002);\n");
        Files.writeString(src.resolve("b.cu"), "z = HAZARD(NL011);\n");
        baseline = tmp.resolve("base/numlint.sarif");
        Run r = run("scan", "--format", "sarif", "--output", baseline.toString(), src.toString());
        assertThat(r.code()).isZero();
    }

    private JsonNode sarif(String... extra) throws IOException {
        Path out = tmp.resolve("now.sarif");
        List<String> args = new ArrayList<>(List.of(
                "scan",
                "--format",
                "sarif",
                "--output",
                out.toString(),
                "--baseline",
                baseline.toString(),
                "--fail-on",
                "none"));
        args.addAll(List.of(extra));
        args.add(src.toString());
        Run r = run(args.toArray(String[]::new));
        assertThat(r.code()).as(r.err()).isZero();
        return new ObjectMapper().readTree(out.toFile());
    }

    private static List<String> states(JsonNode sarif) {
        List<String> s = new ArrayList<>();
        sarif.path("runs")
                .get(0)
                .path("results")
                .forEach(r -> s.add(r.path("ruleId").asText() + ":"
                        + r.path("baselineState").asText()));
        return s;
    }

    @Test
    void unchangedTreeHasNoNewResults() throws IOException {
        assertThat(states(sarif())).containsExactly("NL003:unchanged", "NL002:unchanged", "NL011:unchanged");
        Run t = run("scan", "--baseline", baseline.toString(), "--fail-on", "note", src.toString());
        assertThat(t.code())
                .as("nothing new: the gate passes although there are findings")
                .isZero();
        assertThat(t.out())
                .doesNotContain("a.cu:")
                .doesNotContain("b.cu:")
                .contains("compared with baseline " + baseline + ": 0 new, 3 unchanged, 0 updated, 0 fixed (absent)");
        assertThat(run("scan", "--fail-on", "note", src.toString()).code())
                .as("without the baseline it fails")
                .isEqualTo(1);
    }

    @Test
    void findingsWithRelatedLocationsStayUnchanged() throws IOException {
        // SARIF writes their message with embedded links to the related locations ("... (see [text](1))") and its
        // own brackets escaped: the baseline compares the plain message with the plain message
        Files.writeString(src.resolve("c.cu"), "a[i] = 1;\nw = HAZARD(NL001); // RELATED_ABOVE\n");
        Run r = run("scan", "--format", "sarif", "--output", baseline.toString(), src.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        JsonNode now = sarif();
        JsonNode related = now.path("runs").get(0).path("results").get(3);
        assertThat(related.path("message").path("text").asText())
                .isEqualTo("marker HAZARD(NL001) found in a\\[i\\], from the line above "
                        + "(see [a\\[i\\] defined here](1))");
        assertThat(states(now))
                .containsExactly("NL003:unchanged", "NL002:unchanged", "NL011:unchanged", "NL001:unchanged");
        Run t = run("scan", "--baseline", baseline.toString(), "--fail-on", "note", src.toString());
        assertThat(t.out()).contains(": 0 new, 4 unchanged, 0 updated, 0 fixed (absent)");
        assertThat(t.code()).isZero();
        // the fixed finding is absent with its plain message
        Files.writeString(src.resolve("c.cu"), "a[i] = 1;\n");
        JsonNode fixed = sarif();
        assertThat(fixed.path("runs")
                        .get(0)
                        .path("results")
                        .get(3)
                        .path("message")
                        .path("text")
                        .asText())
                .isEqualTo("marker HAZARD(NL001) found in a[i], from the line above");
    }

    @Test
    void sarifLeavesNotesOutByDefaultAndABaselineComparesWhatItHolds() throws IOException {
        Files.writeString(src.resolve("n.cu"), "n = HAZARD(NL007);\n"); // NL007 is a note
        Run r = run("scan", "--format", "sarif", "--output", baseline.toString(), src.toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode run =
                new ObjectMapper().readTree(baseline.toFile()).path("runs").get(0);
        List<String> rules = new ArrayList<>();
        run.path("results").forEach(x -> rules.add(x.path("ruleId").asText()));
        assertThat(rules).containsExactly("NL003", "NL002", "NL011");
        assertThat(run.path("properties").path("sarifMinLevel").asText()).isEqualTo("warning");
        assertThat(run.path("properties").path("resultsBelowMinLevelOmitted").asInt())
                .isEqualTo(1);
        // JSON keeps every finding
        Run json = run("scan", "--format", "json", src.toString());
        assertThat(json.out()).contains("\"ruleId\" : \"NL007\"");
        // the note is not in the baseline: not compared, not new
        Run t = run("scan", "--baseline", baseline.toString(), "--fail-on", "warning", src.toString());
        assertThat(t.out())
                .contains(": 0 new, 3 unchanged, 0 updated, 0 fixed (absent); 1 below warning not compared (the "
                        + "baseline holds warning and above)");
        assertThat(t.code()).isZero();
        // --sarif-min-level note keeps notes in SARIF
        assertThat(states(sarif("--sarif-min-level", "note")))
                .containsExactly("NL003:unchanged", "NL002:unchanged", "NL011:unchanged", "NL007:new");
        // an unknown level is a usage error
        assertThat(run("scan", "--sarif-min-level", "info", src.toString()).code())
                .isEqualTo(2);
    }

    @Test
    void linesMovedByAnUnrelatedEditStayUnchanged() throws IOException {
        Files.writeString(src.resolve("a.cu"), "// a new comment\n\nx = HAZARD(NL003);\ny = HAZARD(NL002);\n");
        assertThat(states(sarif())).containsExactly("NL003:unchanged", "NL002:unchanged", "NL011:unchanged");
    }

    @Test
    void oneAddedHazardIsExactlyOneNewResultAndFailsTheGate() throws IOException {
        Files.writeString(src.resolve("c.cu"), "w = HAZARD(NL001);\n");
        assertThat(states(sarif()))
                .containsExactly("NL003:unchanged", "NL002:unchanged", "NL011:unchanged", "NL001:new");
        Run t = run("scan", "--baseline", baseline.toString(), src.toString());
        assertThat(t.code()).as("the new NL001 is an error").isEqualTo(1);
        assertThat(t.out().lines().filter(l -> l.contains(": error: ") || l.contains(": warning: ")))
                .as("paths are relative to the scanned directory (outside the working directory)")
                .containsExactly("c.cu:1:5: error: marker HAZARD(NL001) found [NL001]");
        assertThat(t.out()).contains("1 new, 3 unchanged, 0 updated, 0 fixed (absent)");

        JsonNode json = new ObjectMapper()
                .readTree(run(
                                "scan",
                                "--format",
                                "json",
                                "--baseline",
                                baseline.toString(),
                                "--fail-on",
                                "none",
                                src.toString())
                        .out());
        List<String> js = new ArrayList<>();
        json.path("findings")
                .forEach(f -> js.add(f.path("ruleId").asText() + ":"
                        + f.path("baselineState").asText()));
        assertThat(js).containsExactlyInAnyOrder("NL003:unchanged", "NL002:unchanged", "NL011:unchanged", "NL001:new");
        assertThat(json.path("baseline").path("new").asInt()).isEqualTo(1);
        assertThat(json.path("baseline").path("unchanged").asInt()).isEqualTo(3);
    }

    @Test
    void newWarningFailsOnlyAtWarningLevel() throws IOException {
        Files.writeString(src.resolve("c.cu"), "w = HAZARD(NL003);\n");
        assertThat(run("scan", "--baseline", baseline.toString(), src.toString())
                        .code())
                .isZero();
        assertThat(run("scan", "--baseline", baseline.toString(), "--fail-on", "warning", src.toString())
                        .code())
                .isEqualTo(1);
        assertThat(run("scan", "--baseline", baseline.toString(), "--fail-on", "none", src.toString())
                        .code())
                .isZero();
    }

    @Test
    void suppressedNewFindingDoesNotFail() throws IOException {
        Files.writeString(src.resolve("c.cu"), "w = HAZARD(NL001); // numlint: ignore NL001 -- clamped above\n");
        assertThat(run("scan", "--baseline", baseline.toString(), src.toString())
                        .code())
                .isZero();
    }

    @Test
    void fixedHazardIsAbsentWithItsOldLocation() throws IOException {
        Files.writeString(src.resolve("a.cu"), "x = HAZARD(NL003);\ny = 1.0f;\n");
        JsonNode s = sarif();
        assertThat(states(s)).containsExactly("NL003:unchanged", "NL011:unchanged", "NL002:absent");
        JsonNode absent = s.path("runs").get(0).path("results").get(2);
        assertThat(absent.path("locations")
                        .get(0)
                        .path("physicalLocation")
                        .path("artifactLocation")
                        .path("uri")
                        .asText())
                .endsWith("a.cu");
        assertThat(absent.path("locations")
                        .get(0)
                        .path("physicalLocation")
                        .path("region")
                        .path("startLine")
                        .asInt())
                .isEqualTo(2);
        assertThat(absent.path("message").path("text").asText()).isEqualTo("marker HAZARD(NL002) found");
        Run t = run("scan", "--baseline", baseline.toString(), "--fail-on", "note", src.toString());
        assertThat(t.code()).isZero();
        assertThat(t.out()).contains("0 new, 2 unchanged, 0 updated, 1 fixed (absent)");
    }

    @Test
    void absentResultsOfABaselineAreNotCarriedForward() throws IOException {
        Files.writeString(src.resolve("a.cu"), "x = HAZARD(NL003);\n");
        Path second = tmp.resolve("second.sarif");
        assertThat(run(
                                "scan",
                                "--format",
                                "sarif",
                                "--output",
                                second.toString(),
                                "--baseline",
                                baseline.toString(),
                                src.toString())
                        .code())
                .isZero();
        baseline = second;
        assertThat(states(sarif())).containsExactly("NL003:unchanged", "NL011:unchanged");
    }

    @Test
    void changedLevelIsUpdated() throws IOException {
        Path cfg = tmp.resolve("strict.yml");
        Files.writeString(cfg, "rules:\n  NL003: {level: error}\n");
        assertThat(states(sarif("--config", cfg.toString())))
                .containsExactly("NL003:updated", "NL002:unchanged", "NL011:unchanged");
        Run t = run("scan", "--config", cfg.toString(), "--baseline", baseline.toString(), src.toString());
        assertThat(t.code()).as("an updated result is not new").isZero();
        assertThat(t.out()).contains("0 new, 2 unchanged, 1 updated, 0 fixed (absent)");
    }

    @Test
    void unreadableBaselineIsAUsageErrorNamingTheFile() throws IOException {
        Path notJson = tmp.resolve("broken.sarif");
        Files.writeString(notJson, "{ this is not json");
        Path otherTool = tmp.resolve("other.sarif");
        Files.writeString(
                otherTool,
                "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"CodeQL\"}}," + "\"results\":[]}]}");
        Path noFingerprint = tmp.resolve("nofp.sarif");
        Files.writeString(
                noFingerprint,
                "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"numlint\"}},"
                        + "\"results\":[{\"ruleId\":\"NL001\",\"message\":{\"text\":\"m\"}}]}]}");
        for (Path bad : List.of(notJson, otherTool, noFingerprint, tmp.resolve("missing.sarif"), tmp)) {
            Run r = run("scan", "--baseline", bad.toString(), src.toString());
            assertThat(r.code()).as(bad.toString()).isEqualTo(2);
            assertThat(r.out()).isEmpty();
            List<String> lines = r.err().lines().toList();
            assertThat(lines.get(0))
                    .startsWith("numlint: error: baseline '" + bad + "' is not a readable numlint SARIF");
            assertThat(lines.subList(1, lines.size()))
                    .as("at most the usual pointer to --help")
                    .allMatch(l -> l.startsWith("Try 'numlint scan --help'"));
        }
    }

    @Test
    void htmlReportThroughTheCommandLineCarriesTheBaseline() throws IOException {
        Files.writeString(src.resolve("c.cu"), "w = HAZARD(NL001);\n");
        Path html = tmp.resolve("out/report.html");
        Run r = run(
                "scan",
                "--format",
                "html",
                "--output",
                html.toString(),
                "--baseline",
                baseline.toString(),
                src.toString());
        assertThat(r.code()).as("the new NL001 fails the gate").isEqualTo(1);
        assertThat(r.out()).isEmpty();
        String h = Files.readString(html);
        assertThat(h)
                .startsWith("<!DOCTYPE html>")
                .contains("1 new, 3 unchanged, 0 updated, 0 fixed (absent)")
                .contains("no unsuppressed new finding at level error or above (--fail-on error): "
                        + "<b class=\"gate-fail\">not met</b>")
                .contains("data-state=\"open new\"");
        assertThat(h.split("data-state=\"open unchanged\"", -1)).hasSize(4);
    }
}
