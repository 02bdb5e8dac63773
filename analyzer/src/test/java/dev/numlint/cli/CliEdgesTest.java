package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.scan.MarkerAnalyzer;
import dev.numlint.spi.Analyzer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Usage errors, exit codes and output safety of the command line (issues 11 and 17). */
class CliEdgesTest {
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

    /** A usage error: exit 2, the error and a pointer to --help, no help text and no stack trace. */
    private static void assertUsageError(Run r, String message) {
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err())
                .contains("numlint: error: ")
                .contains(message)
                .doesNotContain("Usage:")
                .doesNotContain("\tat ")
                .doesNotContain("Exception");
        assertThat(r.err().lines().count()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().toList().get(1)).matches("Try 'numlint( \\w+)? --help' for more information\\.");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void outputNamingADirectoryIsAUsageError() throws IOException {
        write("k.cu", "x = HAZARD(NL001);\n");
        Path out = Files.createDirectories(dir.resolve("reports"));
        assertUsageError(
                run("scan", "--format", "sarif", "--output", out.toString(), dir.toString()),
                "--output '" + out + "' is a directory");
        Path file = write("plain.txt", "x");
        assertUsageError(
                run("scan", "--output", file.resolve("r.sarif").toString(), dir.toString()), "is not a directory");
    }

    @Test
    void docsOutputNamingAFileIsAUsageError() throws IOException {
        Path f = write("rules.md", "x");
        assertUsageError(run("docs", "--output", f.toString()), "--output '" + f + "' is a file");
    }

    @Test
    void configNamingADirectorySaysSo() throws IOException {
        write("k.cu", "x = HAZARD(NL003);\n");
        assertUsageError(
                run("scan", "--config", dir.toString(), dir.toString()), "--config '" + dir + "' is a directory");
    }

    @Test
    void cudaArchIsValidated() throws IOException {
        write("k.cu", "x = HAZARD(NL003);\n");
        assertUsageError(
                run("scan", "--cuda-arch=banana", dir.toString()), "--cuda-arch: 'banana' is not an " + "architecture");
        assertThat(run("scan", "--cuda-arch=sm_90a", dir.toString()).code()).isZero();
        ScanInputs in = new ScanInputs();
        for (String[] c : new String[][] {
            {"86", "compute_86"}, {"sm_80", "sm_80"}, {"compute_90a", "compute_90a"}, {"compute_100f", "compute_100f"}
        }) {
            in.cudaArch = c[0];
            assertThat(in.normalizedCudaArch()).isEqualTo(c[1]);
        }
        for (String bad : List.of("compute_", "sm80", "9", "compute_90;rm", "sm_1000")) {
            in.cudaArch = bad;
            assertThatThrownBy(in::normalizedCudaArch).isInstanceOf(Main.UsageException.class);
        }
    }

    @Test
    void missingClasspathEntryIsAUsageError() throws IOException {
        write("A.java", "class A {}\n");
        Path jar = write("lib/a.jar", "PK");
        assertUsageError(
                run("scan", "--classpath", jar + ":" + dir.resolve("nope.jar"), dir.toString()),
                "--classpath: entry '" + dir.resolve("nope.jar") + "' does not exist");
        assertThat(run("scan", "--classpath", jar.toString(), dir.toString()).code())
                .isZero();
    }

    @Test
    void compileDatabaseDirectoryWithoutTheDatabaseIsAUsageError() throws IOException {
        Path build = Files.createDirectories(dir.resolve("build"));
        write("k.cu", "x = HAZARD(NL003);\n");
        assertUsageError(
                run("scan", "-p", build.toString(), dir.toString()), "-p: no compile_commands.json in '" + build + "'");
    }

    @Test
    void presetOrMakeTargetThatNoProjectHasIsAUsageError() throws IOException {
        write("k.cu", "x = HAZARD(NL003);\n");
        write("CMakeLists.txt", "cmake_minimum_required(VERSION 3.18)\nproject(x CUDA)\nadd_executable(k k.cu)\n");
        write("tool/Makefile", "all:\n\tnvcc -c k.cu\n");
        write("tool/k.cu", "y = HAZARD(NL003);\n");
        Run preset = runAll("scan", "--ptx", "off", "--preset", "nosuch", dir.toString());
        assertUsageError(
                preset, "--preset nosuch: no evaluated CMake project has it (CMakeLists.txt: no CMakePresets.json");
        Run target = runAll("scan", "--ptx", "off", "--make-target", "nosuch", dir.toString());
        assertUsageError(target, "--make-target nosuch: no evaluated Makefile has that target (tool/Makefile)");
        // a preset one project has is no error, although another project lacks it
        write("app/CMakePresets.json", "{\"version\": 3, \"configurePresets\": [{\"name\": \"rel\"}]}\n");
        write("app/CMakeLists.txt", "cmake_minimum_required(VERSION 3.18)\nproject(a CUDA)\n");
        assertThat(runAll("scan", "--ptx", "off", "--preset", "rel", dir.toString())
                        .code())
                .isZero();
        assertThat(runAll("scan", "--ptx", "off", "--make-target", "all", dir.toString())
                        .code())
                .isZero();
    }

    /** With the real analyzers (the build files are read by the build-flag analyzer). */
    private Run runAll(String... args) {
        CommandLine cmd = Main.commandLine(dev.numlint.scan.Analyzers::load);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void invalidExcludeGlobIsAPreciseError() throws IOException {
        write("k.cu", "x = HAZARD(NL003);\n");
        assertUsageError(
                run("scan", "--exclude", "[", dir.toString()), "--exclude: unclosed '[' at position 1 in glob '['");
        assertUsageError(run("scan", "--exclude", "src/[z-a].cu", dir.toString()), "invalid glob 'src/[z-a].cu'");
    }

    @Test
    void usageErrorsPrintOneErrorAndAPointerToHelp() throws IOException {
        write("k.cu", "x = HAZARD(NL003);\n");
        assertUsageError(run("scan", "--format", "xml", dir.toString()), "--format");
        assertUsageError(run("scan", "--no-such-option", dir.toString()), "--no-such-option");
        assertUsageError(run("scan"), "PATH");
        assertUsageError(run("scan", dir.resolve("missing").toString()), "does not exist");
        write(".numlint.yml", "rules:\n  NL004: {options: {min-trip-count: -5}}\n");
        assertUsageError(run("scan", dir.toString()), "'rules.NL004.options.min-trip-count': must be at least 0");
        write(".numlint.yml", "exclude: [a]\nexclude: [b]\n");
        assertUsageError(run("scan", dir.toString()), "duplicate key 'exclude'");
    }

    /**
     * Two PATHs outside the working directory: each file is named relative to the directory that holds both (before,
     * the first PATH's files were relative and the second's absolute), and that directory, above the scanned tree,
     * is no place a configuration is read from.
     */
    @Test
    void twoPathsAreNamedFromTheDirectoryThatHoldsThemAndItsConfigurationIsNotRead() throws IOException {
        write("a/k.cu", "x = HAZARD(NL001);\n");
        write("b/m.cu", "x = HAZARD(NL001);\n");
        write(".numlint.yml", "rules:\n  NL001: {enabled: false}\n");
        Run r = run(
                "scan",
                "--format",
                "json",
                dir.resolve("a").toString(),
                dir.resolve("b").toString());
        assertThat(r.out()).contains("\"file\" : \"a/k.cu\"").contains("\"file\" : \"b/m.cu\"");
        assertThat(r.out()).doesNotContain("\"file\" : \"" + dir).contains("none: built-in defaults");
    }

    @Test
    void scanHelpListsEveryExitCode() {
        Run help = run("scan", "--help");
        assertThat(help.code()).isZero();
        String text = help.out().replaceAll("\\s+", " ");
        assertThat(text)
                .contains("2 usage or configuration error")
                .contains("3 internal error of numlint")
                .contains("--fail-on-input-problems");
        assertThat(run("validate", "--help").out().replaceAll("\\s+", " ")).contains("3 internal error");
    }

    @Test
    void internalErrorExitsWithThreeAfterTheRestOfTheScan() throws IOException {
        write("a.cu", "x = HAZARD(NL001);\n");
        write("boom.cu", "CRASH_ANALYZER\n");
        write("z.cu", "y = HAZARD(NL003);\n");
        Run r = run("scan", "--format", "json", dir.toString());
        assertThat(r.code()).isEqualTo(3);
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertThat(doc.at("/findings").size()).isEqualTo(2);
        assertThat(doc.at("/summary/executionSuccessful").asBoolean()).isFalse();
        assertThat(r.err())
                .contains("boom.cu: error: not analyzed: internal error in marker on boom.cu")
                .contains("exit code 3");
        // an internal error wins over findings (which alone give 1)
        Run text = run("scan", "--fail-on", "none", dir.toString());
        assertThat(text.code()).isEqualTo(3);
        assertThat(text.out()).contains("a.cu:1:5: error:").contains("z.cu:1:5: warning:");
    }

    @Test
    void outOfMemoryInAnAnalyzerIsAnInternalErrorNamingTheFile() throws IOException {
        write("a.cu", "x = HAZARD(NL003);\n");
        write("big.cu", "OOM_ANALYZER\n");
        Run r = run("scan", dir.toString());
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err())
                .contains("big.cu: error: not analyzed: internal error in marker on big.cu: "
                        + "java.lang.OutOfMemoryError");
        assertThat(r.out()).contains("a.cu:1:5: warning:");
    }

    @Test
    void unwritableOutputIsAnInternalError() throws IOException {
        write("a.cu", "x = HAZARD(NL003);\n");
        Run r = run("scan", "--output", "/proc/numlint-test/r.txt", dir.toString());
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err())
                .contains("numlint: error: cannot write the report to '/proc/numlint-test/r.txt'")
                .doesNotContain("\tat ");
    }

    @Test
    void inputProblemsFailTheRunOnlyWhenAskedTo() throws IOException {
        write("a.cu", "x = HAZARD(NL003);\n");
        Files.write(dir.resolve("blob.cu"), new byte[] {1, 0, 2});
        assertThat(run("scan", dir.toString()).code()).isZero();
        Run r = run("scan", "--fail-on-input-problems", dir.toString());
        assertThat(r.code()).isEqualTo(4);
        assertThat(r.err())
                .contains("blob.cu: error: not analyzed: binary file")
                .contains("1 file could not be analyzed");
        write(".numlint.yml", "fail-on-input-problems: true\n");
        assertThat(run("scan", dir.toString()).code()).isEqualTo(4);
        // findings at the threshold still give 1
        assertThat(run("scan", "--fail-on", "warning", dir.toString()).code()).isEqualTo(1);
    }

    @Test
    void controlCharactersFromFileNamesAndContentsAreEscaped() throws IOException {
        write("evil\u001b[2J.cu", "x = HAZARD(NL003);\n");
        Files.write(dir.resolve("bin\u001b]0;pwned\u0007.cu"), new byte[] {0});
        write("msg.cu", "PARTIAL_NOTE\n");
        Run r = run("scan", dir.toString());
        assertThat(r.out()).contains("evil\\x1b[2J.cu:1:5: warning:").doesNotContain("\u001b");
        assertThat(r.err())
                .contains("bin\\x1b]0;pwned\\x07.cu: error: not analyzed")
                .doesNotContain("\u001b")
                .doesNotContain("\u0007");
        Run json = run("scan", "--format", "json", dir.toString());
        assertThat(new ObjectMapper()
                        .readTree(json.out())
                        .at("/findings/0/file")
                        .asText())
                .isEqualTo("evil\u001b[2J.cu");
        assertThat(json.err()).doesNotContain("\u001b");
    }

    @Test
    void escapesCoverBidiAndC1Controls() {
        assertThat(dev.numlint.util.Escapes.text("a\u202eb\u009bc\rd\te")).isEqualTo("a\\u202eb\\x9bc\\x0dd\te");
        assertThat(dev.numlint.util.Escapes.text("plain")).isSameAs("plain");
    }

    @Test
    void jsonLeavesUnknownColumnsOut() throws IOException {
        write("k.ptx", "HAZARD(NL003)\n");
        Run r = run("scan", "--format", "json", dir.toString());
        JsonNode f = new ObjectMapper().readTree(r.out()).at("/findings/0");
        assertThat(f.get("column").asInt()).isEqualTo(1);
        JsonNode ev = f.at("/evidence/0/location");
        assertThat(ev.has("line")).isTrue();
        assertThat(ev.has("column")).as(ev.toString()).isFalse();
        assertThat(ev.has("endColumn")).as(ev.toString()).isFalse();
        assertThat(r.out()).doesNotContain("\"column\" : 0").doesNotContain("\"endColumn\" : 0");
    }
}
