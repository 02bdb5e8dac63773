package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;

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

    @Test
    void replayOfTheExampleRecordingConfirmsTheDbtContraction() throws IOException {
        Run r = run("validate", "--replay", RECORDINGS.toString(), "--gpu", "off", "--format", "json");
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
    void replayUsageErrors() throws IOException {
        assertThat(run("validate", "--replay", RECORDINGS.toString(), "--gpu", "off", "x.cu")
                        .err())
                .contains("give no PATH with it");
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
