package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.scan.MarkerAnalyzer;
import dev.numlint.spi.Analyzer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MainTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {}

    Run run(String... args) {
        CommandLine cmd = Main.commandLine(() -> List.<Analyzer>of(new MarkerAnalyzer()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private Path write(String rel, String text) throws IOException {
        Path p = dir.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    @Test
    void exitCodeFollowsFailOn() throws IOException {
        write("k.cu", "x = HAZARD(NL003);\n");
        assertThat(run("scan", dir.toString()).code()).isZero();
        assertThat(run("scan", "--fail-on", "warning", dir.toString()).code()).isEqualTo(1);
        assertThat(run("scan", "--fail-on", "note", dir.toString()).code()).isEqualTo(1);
        write("u.cu", "y = HAZARD(NL001);\n");
        assertThat(run("scan", dir.toString()).code()).isEqualTo(1);
        assertThat(run("scan", "--fail-on", "none", dir.toString()).code()).isZero();
    }

    @Test
    void aFailedGateNamesTheFindingsThatFailedIt() throws IOException {
        // before: exit 1 with counts only (issue 30)
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 12; i++) many.append("y = HAZARD(NL001);\n");
        write("u.cu", many + "z = HAZARD(NL003);\n");
        Run r = run("scan", "--format", "json", "--fail-on", "error", dir.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("numlint: 12 findings at or above --fail-on error fail the run:");
        assertThat(r.err().lines().filter(l -> l.matches("  .*u\\.cu:[0-9]+(:[0-9]+)?: error: .*\\[NL001\\]")))
                .hasSize(10);
        assertThat(r.err()).contains("  ... and 2 more (all in the report)").doesNotContain("[NL003]");
        Run clean = run("scan", "--fail-on", "none", dir.toString());
        assertThat(clean.err()).doesNotContain("fail the run");
    }

    @Test
    void aTextReportThatCannotBeWrittenExitsWith3LikeTheOtherFormats() throws IOException {
        // before: the text report's PrintWriter kept the write error to itself and the scan exited 0 (issue 30)
        write("k.cu", "x = HAZARD(NL003);\n");
        java.io.Writer full = new java.io.Writer() {
            @Override
            public void write(char[] b, int off, int len) throws IOException {
                throw new IOException("No space left on device");
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        for (String format : List.of("text", "json")) {
            CommandLine cmd = Main.commandLine(() -> List.<Analyzer>of(new MarkerAnalyzer()));
            StringWriter err = new StringWriter();
            cmd.setOut(new PrintWriter(full));
            cmd.setErr(new PrintWriter(err, true));
            assertThat(cmd.execute("scan", "--format", format, dir.toString()))
                    .as(format + ": " + err)
                    .isEqualTo(Main.EXIT_INTERNAL);
            assertThat(err.toString()).contains("cannot write the report");
        }
    }

    @Test
    void anOutputThatIsADeviceIsWrittenInPlaceNeverReplaced() throws IOException {
        Path devNull = Path.of("/dev/null");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(devNull) && !Files.isRegularFile(devNull));
        write("k.cu", "x = HAZARD(NL003);\n");
        for (String format : List.of("text", "sarif")) {
            Run r = run("scan", "--format", format, "--output", "/dev/null", dir.toString());
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(Files.isRegularFile(devNull)).isFalse();
        }
    }

    @Test
    void gitlabCodeQualityReportHoldsTheFieldsGitlabReads() throws IOException {
        write(
                "k.cu",
                "y = HAZARD(NL001);\nz = HAZARD(NL003);\n"
                        + "w = HAZARD(NL001); // numlint: ignore NL001 -- clamped by the caller\n");
        Run r = run("scan", "--format", "gitlab", "--fail-on", "none", dir.toString());
        assertThat(r.code()).as(r.err()).isZero();
        com.fasterxml.jackson.databind.JsonNode issues =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        assertThat(issues.isArray()).isTrue();
        assertThat(issues).hasSize(2); // the suppressed one is left out
        com.fasterxml.jackson.databind.JsonNode first = issues.get(0);
        assertThat(first.path("check_name").asText()).startsWith("NL001 ");
        assertThat(first.path("severity").asText()).isEqualTo("critical");
        assertThat(first.path("description").asText()).contains("HAZARD(NL001)");
        assertThat(first.path("fingerprint").asText()).matches("[0-9a-f]{32}");
        assertThat(first.path("location").path("path").asText()).endsWith("k.cu");
        assertThat(first.path("location").path("lines").path("begin").asInt()).isEqualTo(1);
        assertThat(issues.get(1).path("severity").asText()).isEqualTo("major");
        assertThat(issues.get(0).path("fingerprint").asText())
                .isNotEqualTo(issues.get(1).path("fingerprint").asText());
        Run errorsOnly = run("scan", "--format", "gitlab", "--sarif-min-level", "error", dir.toString());
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(errorsOnly.out()))
                .hasSize(1);
    }

    @Test
    void enableAndDisableOverTheConfiguration() throws IOException {
        // before: rules could be turned off in .numlint.yml only (issue 30)
        write("k.cu", "y = HAZARD(NL001);\nz = HAZARD(NL003);\n");
        write(".numlint.yml", "rules:\n  NL003: {enabled: false}\n");
        Run plain = run("scan", dir.toString());
        assertThat(plain.out()).contains("[NL001]").doesNotContain("[NL003]");
        Run r = run("scan", "--disable", "NL001", "--enable", "NL003", "--fail-on", "error", dir.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("[NL003]").doesNotContain("[NL001]");
        Run list = run("scan", "--disable", "NL001,NL003", dir.toString());
        assertThat(list.out()).doesNotContain("[NL001]").doesNotContain("[NL003]");
        Run unknown = run("scan", "--disable", "NL999", dir.toString());
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("--disable: unknown rule 'NL999'");
        Run both = run("scan", "--disable", "NL001", "--enable", "NL001", dir.toString());
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("rule NL001 is both in --enable and in --disable");
    }

    @Test
    void jsonCarriesTheProvenanceTheHtmlReportShows() throws IOException {
        // before: only the tool name and version (issue 30)
        write("k.cu", "z = HAZARD(NL003);\n");
        write(".numlint.yml", "rules:\n  NL001: {enabled: false}\n");
        Run r = run("scan", "--format", "json", dir.toString());
        com.fasterxml.jackson.databind.JsonNode p = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(r.out())
                .path("provenance");
        assertThat(p.path("ruleSet").asText()).matches("sha256:[0-9a-f]{64}");
        assertThat(p.path("configuration").path("file").asText()).endsWith(".numlint.yml");
        assertThat(p.path("configuration").path("sha256").asText())
                .isEqualTo(java.util.HexFormat.of().formatHex(sha256(Files.readAllBytes(dir.resolve(".numlint.yml")))));
        assertThat(p.path("scannedPaths")).hasSize(1);
        assertThat(p.path("scannedPaths").get(0).asText()).isEqualTo(dir.toString());
        assertThat(p.path("date").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(p.path("git").has("commit")).isTrue();
    }

    private static byte[] sha256(byte[] b) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(b);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void githubAnnotationsAreEscapedAndLimited() throws IOException {
        write("a,b.cu", "y = HAZARD(NL001);\nz = HAZARD(NL003);\n");
        Run r = run("scan", "--annotations", "github", "--fail-on", "none", dir.toString());
        assertThat(r.code()).isZero();
        // warnings and errors (the SARIF's --sarif-min-level), a file name with ',' escaped as the runner requires
        List<String> lines = r.err().lines().filter(l -> l.startsWith("::")).toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).matches("::error file=.*a%2Cb\\.cu,line=1,.*title=NL001::.*\\[NL001\\]");
        assertThat(lines.get(1)).matches("::warning file=.*a%2Cb\\.cu,line=2,.*title=NL003::.*\\[NL003\\]");
        Run errorsOnly = run(
                "scan", "--annotations", "github", "--sarif-min-level", "error", "--fail-on", "none", dir.toString());
        assertThat(errorsOnly.err().lines().filter(l -> l.startsWith("::"))).hasSize(1);
        Run none = run("scan", "--fail-on", "none", dir.toString());
        assertThat(none.err()).doesNotContain("::error");
    }

    @Test
    void suppressedFindingsDoNotFailTheScanButAreCounted() throws IOException {
        write("u.cu", "y = HAZARD(NL001); // numlint: ignore NL001 -- value is clamped above\n");
        Run r = run("scan", dir.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .doesNotContain("u.cu:1")
                .contains("NL001 float-to-unsigned-conversion: 1 (1 suppressed)")
                .contains("1 finding (1 suppressed) in 1 file analyzed");
    }

    @Test
    void textOutputIsCompilerStyleWithSummary() throws IOException {
        write("src/k.cu", "x = HAZARD(NL003);\n\ny = HAZARD(NL003);\n");
        write("A.java", "HAZARD(NL011)");
        Run r = run("scan", dir.toString());
        assertThat(r.out())
                .isEqualTo(
                        """
                A.java:1:1: warning: marker HAZARD(NL011) found [NL011]
                src/k.cu:1:5: warning: marker HAZARD(NL003) found [NL003]
                src/k.cu:3:5: warning: marker HAZARD(NL003) found [NL003]

                NL003 fma-contraction: 2
                NL011 float-to-signed-narrowing: 1
                3 findings in 2 files analyzed
                """);
        assertThat(r.err()).isEmpty();
    }

    @Test
    void jsonOutput() throws IOException {
        write("k.cu", "x = HAZARD(NL003,kern);\n");
        write("blob.h", "a\0b");
        Run r = run("scan", "--format", "json", dir.toString());
        assertThat(r.code()).isZero();
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertThat(doc.at("/tool/name").asText()).isEqualTo("numlint");
        JsonNode f = doc.at("/findings/0");
        assertThat(f.get("ruleId").asText()).isEqualTo("NL003");
        assertThat(f.get("level").asText()).isEqualTo("warning");
        assertThat(f.get("file").asText()).isEqualTo("k.cu");
        assertThat(f.get("line").asInt()).isEqualTo(1);
        assertThat(f.get("column").asInt()).isEqualTo(5);
        assertThat(f.get("layer").asText()).isEqualTo("cuda-source");
        assertThat(f.get("function").asText()).isEqualTo("kern");
        assertThat(f.get("fingerprint").asText()).hasSize(32);
        assertThat(f.get("suppressed").asBoolean()).isFalse();
        assertThat(f.get("evidence").get(0).get("kind").asText()).isEqualTo("source");
        for (String k :
                List.of("endLine", "endColumn", "message", "confidence", "related", "justification", "properties")) {
            assertThat(f.has(k)).as(k).isTrue();
        }
        assertThat(doc.at("/notifications/0/id").asText()).isEqualTo("binary-file");
        assertThat(doc.at("/notifications/0/file").asText()).isEqualTo("blob.h");
        assertThat(doc.at("/summary/findings").asInt()).isEqualTo(1);
        assertThat(doc.at("/summary/filesAnalyzed").asInt()).isEqualTo(1);
        assertThat(doc.at("/summary/filesNotAnalyzed").asInt()).isEqualTo(1);
        assertThat(doc.at("/summary/byRule/NL003/count").asInt()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("blob.h: error: not analyzed: binary file (NUL byte at offset 1)\n");
    }

    @Test
    void sarifToAFileLeavesStdoutEmpty() throws IOException {
        write("k.cu", "x = HAZARD(NL001);\n");
        Path out = dir.resolve("out/r.sarif");
        Run r = run(
                "scan",
                "--format",
                "sarif",
                "--output",
                out.toString(),
                dir.resolve("k.cu").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        JsonNode doc = new ObjectMapper().readTree(out.toFile());
        assertThat(doc.at("/runs/0/results/0/ruleId").asText()).isEqualTo("NL001");
        assertThat(doc.at("/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri")
                        .asText())
                .isEqualTo("k.cu");
    }

    @Test
    void usageErrorsExitWithTwo() throws IOException {
        Run missing = run("scan", dir.resolve("nope").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("PATH '" + dir.resolve("nope") + "' does not exist");
        assertThat(run("scan", "--format", "xml", dir.toString()).code()).isEqualTo(2);
        assertThat(run("scan").code()).isEqualTo(2);
        assertThat(run("frobnicate").code()).isEqualTo(2);
        assertThat(run("scan", "--fail-on", "fatal", dir.toString()).code()).isEqualTo(2);
        assertThat(run("scan", "--config", dir.resolve("none.yml").toString(), dir.toString())
                        .code())
                .isEqualTo(2);
        assertThat(run("scan", "--nvcc-flags", "-Xcompiler '-O2", dir.toString())
                        .code())
                .isEqualTo(2);
        Run glob = run("scan", "--exclude", "src/{a,b", dir.toString());
        assertThat(glob.code()).isEqualTo(2);
        assertThat(glob.err()).contains("--exclude: unclosed '{'");
    }

    @Test
    void malformedConfigurationExitsWithTwoNamingTheKey() throws IOException {
        write("k.cu", "x = HAZARD(NL001);\n");
        write(".numlint.yml", "rules:\n  NL001: {enabled: false, level: loud}\n");
        Run r = run("scan", dir.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("'rules.NL001.level'").contains("error, warning, note");
        write(".numlint.yml", "rulez: {}\n");
        assertThat(run("scan", dir.toString()).err())
                .contains("'rulez': unknown key (allowed: rules, exclude, "
                        + "max-file-size, max-file-size-by-layer, fail-on-input-problems, include-extensions, "
                        + "bundled-code)");
    }

    @Test
    void configurationFromTheScannedDirectoryOrConfigOption() throws IOException {
        write("k.cu", "x = HAZARD(NL001);\n");
        write(".numlint.yml", "rules:\n  NL001: {enabled: false}\n");
        assertThat(run("scan", dir.toString()).code()).isZero();
        Path other = write("other/cfg.yml", "rules:\n  NL001: {level: note}\n");
        Run r = run("scan", "--config", other.toString(), "--fail-on", "warning", dir.toString());
        assertThat(r.code()).isZero();
        // quiet by default: notes are counted, not listed; --notes lists them
        assertThat(r.out())
                .doesNotContain("k.cu:1:5: note:")
                .contains("1 note not shown")
                .contains("--notes");
        Run all = run("scan", "--notes", "--config", other.toString(), "--fail-on", "warning", dir.toString());
        assertThat(all.out()).contains("k.cu:1:5: note:").doesNotContain("not shown");
    }

    @Test
    void binaryAndHugeFilesAreReportedAndTheScanGoesOn() throws IOException {
        write("k.cu", "x = HAZARD(NL001);\n");
        Files.write(dir.resolve("b.cu"), new byte[] {0x7f, 'E', 'L', 'F', 0, 0});
        write("huge.cu", "HAZARD(NL001)\n" + "/* padding */\n".repeat(200));
        write(".numlint.yml", "max-file-size: 1000\n");
        Run r = run("scan", dir.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out())
                .contains("k.cu:1:5: error:")
                .doesNotContain("huge.cu:1")
                .contains("1 file analyzed; 2 files not analyzed");
        assertThat(r.err())
                .contains("b.cu: error: not analyzed: binary file")
                .contains("huge.cu: error: not analyzed: the file has");
    }

    @Test
    void unreadableFileIsReported() throws IOException {
        write("k.cu", "x = HAZARD(NL003);\n");
        Path p = write("locked.cu", "HAZARD(NL001)\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("---------"));
        try {
            assumeFalse(Files.isReadable(p), "running as root: chmod 000 does not stop reading");
            Run r = run("scan", dir.toString());
            assertThat(r.code()).isZero();
            assertThat(r.err()).contains("locked.cu: error: not analyzed: cannot read");
        } finally {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        }
    }

    @Test
    void excludeOption() throws IOException {
        write("gen/k.cu", "x = HAZARD(NL001);\n");
        write("src/k.cu", "x = HAZARD(NL003);\n");
        Run r = run("scan", "--exclude", "gen/**", dir.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("src/k.cu").doesNotContain("gen/k.cu");
    }

    @Test
    void rulesListing() throws IOException {
        Run text = run("rules");
        assertThat(text.code()).isZero();
        assertThat(text.out().lines())
                .hasSize(RuleCatalog.get().all().size())
                .first()
                .asString()
                .startsWith("NL001  error    float-to-unsigned");
        Run json = run("rules", "--format", "json");
        JsonNode arr = new ObjectMapper().readTree(json.out());
        assertThat(arr).hasSize(RuleCatalog.get().all().size());
        for (String k : List.of("id", "name", "level", "summary", "category", "cwe", "layers", "helpUri")) {
            assertThat(arr.get(0).has(k)).as(k).isTrue();
        }
        assertThat(arr.get(6).get("level").asText()).isEqualTo("note");
    }

    @Test
    void docsCommandWritesOneFilePerRuleAndAnIndex() throws IOException {
        write("docs/NL099-retired-rule.md", "old");
        write("docs/notes.txt", "kept");
        Run r = run("docs", "--output", dir.resolve("docs").toString());
        assertThat(r.code()).isZero();
        try (var s = Files.list(dir.resolve("docs"))) {
            assertThat(s.map(p -> p.getFileName().toString()).sorted().toList())
                    .hasSize(RuleCatalog.get().all().size() + 2)
                    .contains("README.md", "NL001-float-to-unsigned-conversion.md", "notes.txt")
                    .doesNotContain("NL099-retired-rule.md");
        }
    }

    @Test
    void versionAndHelp() {
        assertThat(run("--version").out()).startsWith("numlint ");
        Run help = run("scan", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("--fail-on", "--nvcc-flags", "--cache-dir", "--exclude", "--classpath");
    }

    @Test
    void nvccFlagsAreSplitLikeAShell() {
        assertThat(ScanCommand.tokenize(" --use_fast_math  -Xcompiler \"-O3 -march=native\" -D'A B' "))
                .containsExactly("--use_fast_math", "-Xcompiler", "-O3 -march=native", "-DA B");
    }
}
