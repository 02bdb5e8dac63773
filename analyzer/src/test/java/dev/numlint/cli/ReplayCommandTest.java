package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.scan.Analyzers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code numlint validate --replay} on the committed recording of the DBT example, and the usage errors of
 * {@code --replay} and {@code record} (which runs nothing when its arguments are wrong).
 */
class ReplayCommandTest {
    static final Path RECORDINGS = Path.of("../examples/recordings");

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        CommandLine cmd = Main.commandLine(Analyzers::load);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return new Run(cmd.execute(args), out.toString(), err.toString());
    }

    private static Run exampleReplay;

    /**
     * {@code validate --replay} of the example recordings without the project, as JSON: the same run for the two
     * tests that read it, so it is run once (a replay interprets every launch of the recording).
     */
    static synchronized Run exampleReplay() {
        if (exampleReplay == null)
            exampleReplay = run("validate", "--replay", RECORDINGS.toString(), "--gpu", "off", "--format", "json");
        return exampleReplay;
    }

    @Test
    void replayOfTheExampleRecordingConfirmsTheDbtContraction() throws IOException {
        Run r = exampleReplay();
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        JsonNode rep = new ObjectMapper().readTree(r.out());
        assertThat(rep.path("environment").path("gpu").asText()).startsWith("not used");
        JsonNode fp = rep.path("kernels").get(0);
        assertThat(fp.path("kernel").asText()).isEqualTo("_Z14forwardProjectPKfS0_S0_Pt8Geometry");
        assertThat(fp.path("verdict").asText()).isEqualTo("confirmed");
        assertThat(fp.path("launch").path("asBuiltReproduced").asText()).startsWith("yes");
        Run text = run("validate", "--replay", RECORDINGS.toString(), "--gpu", "off");
        assertThat(text.out()).contains("NL003 confirmed", "1 confirmed, 1 not observed, 0 not runnable");
    }

    @Test
    void replayWithTheProjectRebuildsEachVariantFromItsOwnCompileCommand() throws IOException {
        assumeTrue(
                dev.numlint.toolchain.Nvcc.find(null, System.getenv("PATH")).isPresent(),
                "nvcc not found: the project's units cannot be rebuilt");
        // without the project: the recorded PTX with PTX-level switches, and the report says so
        Run alone = exampleReplay();
        JsonNode guessed =
                new ObjectMapper().readTree(alone.out()).path("kernels").get(0);
        assertThat(guessed.path("build").asText()).as(alone.out()).contains("no compile command");
        // with it: examples/dbt's CMakeLists.txt builds backproject.cu with --use_fast_math
        Run r = run(
                "validate",
                "--replay",
                RECORDINGS.toString(),
                "--gpu",
                "off",
                "--ptx",
                "off",
                "--format",
                "json",
                Path.of("../examples/dbt").toString());
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        JsonNode fp = new ObjectMapper().readTree(r.out()).path("kernels").get(0);
        assertThat(fp.path("kernel").asText()).isEqualTo("_Z14forwardProjectPKfS0_S0_Pt8Geometry");
        assertThat(fp.path("build").asText())
                .as(fp.toString())
                .contains("--use_fast_math", "backproject.cu", "CMake")
                .doesNotContain("guessed");
        java.util.Map<String, String> flags = new java.util.LinkedHashMap<>();
        for (JsonNode v : fp.path("variants"))
            flags.put(v.path("variant").asText(), v.path("flags").toString());
        // the nvcc builds: the command with only the variant's flag changed; the PTX-level switches beside them
        assertThat(flags).containsKeys("as-built", "strict", "fmad=false", "ptx-strict", "unfuse-fma");
        assertThat(flags.get("fmad=false")).contains("--use_fast_math", "-fmad=false");
        assertThat(flags.get("strict")).contains("--use_fast_math", "-ftz=false", "-prec-div=true");
        assertThat(fp.path("attribution").toString()).contains("fmad=false").contains("unfuse-fma");
        assertThat(fp.path("launch").path("compileCommandReproduces").asText()).isNotEmpty();
        assertThat(fp.path("verdict").asText()).isEqualTo("confirmed");
        JsonNode nl003 = null;
        for (JsonNode f : fp.path("findings")) if (f.path("rule").asText().equals("NL003")) nl003 = f;
        assertThat(nl003).as(fp.toString()).isNotNull();
        assertThat(nl003.path("verdict").asText()).isEqualTo("confirmed");
    }

    @Test
    void aSassOnlyRecordingReplaysOnTheInterpreterFromTheProjectsOwnBuild() throws IOException {
        assumeTrue(
                dev.numlint.toolchain.Nvcc.find(null, System.getenv("PATH")).isPresent(),
                "nvcc not found: the project's units cannot be rebuilt");
        // a separable-compilation build loads a SASS-only image: the recording holds no PTX for the kernel
        Path recs = dir.resolve("recordings");
        Path from = RECORDINGS.resolve("dbt");
        try (var files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path to = recs.resolve("dbt").resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(to);
                else if (!f.getFileName().toString().endsWith(".ptx.txt")) Files.copy(f, to);
            }
        }
        Run alone = run("validate", "--replay", recs.toString(), "--gpu", "off", "--format", "json");
        JsonNode none = new ObjectMapper().readTree(alone.out()).path("kernels").get(0);
        assertThat(none.path("verdict").asText()).as(alone.out()).isEqualTo("not-runnable");
        assertThat(none.path("reason").asText()).contains("SASS-only", "give the project's PATH");
        Run r = run(
                "validate",
                "--replay",
                recs.toString(),
                "--gpu",
                "off",
                "--ptx",
                "off",
                "--format",
                "json",
                Path.of("../examples/dbt").toString());
        JsonNode fp = new ObjectMapper().readTree(r.out()).path("kernels").get(0);
        assertThat(fp.path("launch").path("module").asText())
                .as(fp.toString())
                .contains("the project's as-built build", "SASS only");
        assertThat(fp.path("launch").path("asBuiltReproduced").asText()).startsWith("yes");
        assertThat(fp.path("verdict").asText()).isEqualTo("confirmed");
        assertThat(fp.path("attribution").toString()).contains("unfuse-fma");
    }

    @Test
    void replayUsageErrors() throws IOException {
        // no GPU on this host: --gpu require is refused for what the probe found, not for a missing feature
        Run require = run("validate", "--replay", RECORDINGS.toString(), "--gpu", "require");
        assertThat(require.code()).isEqualTo(2);
        assertThat(require.err())
                .contains("--gpu require: no GPU can be used here")
                .doesNotContain("not implemented");
        Run none = run("validate", "--replay", dir.toString(), "--gpu", "off");
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).contains("no recording here");
        assertThat(run("validate", "--gpu", "off").err()).contains("give a PATH to validate, or --replay DIR");
    }

    @Test
    void recordRunsNothingOnBadArguments() throws IOException {
        Path marker = dir.resolve("ran");
        Path script = Files.writeString(dir.resolve("prog.sh"), "#!/bin/sh\ntouch " + marker + "\n");
        script.toFile().setExecutable(true);
        Run noOutput = run("record", "--", script.toString());
        assertThat(noOutput.code()).isEqualTo(2);
        Run badSize = run(
                "record", "--max-bytes", "lots", "--output", dir.resolve("r").toString(), "--", script.toString());
        assertThat(badSize.err()).contains("--max-bytes: not a size: lots");
        Files.createDirectories(dir.resolve("full"));
        Files.writeString(dir.resolve("full/x"), "x");
        Run notEmpty = run(
                "record",
                "--capture-library",
                script.toString(),
                "--output",
                dir.resolve("full").toString(),
                "--",
                script.toString());
        assertThat(notEmpty.err()).contains("not empty");
        assertThat(marker).doesNotExist();
        assertThat(RecordCommand.size("512M")).isEqualTo(512L << 20);
        assertThat(RecordCommand.size("2GiB")).isEqualTo(2L << 30);
    }
}
