package dev.numlint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GitHub Action's compile-commands input reaches numlint as -p, in the SARIF and the HTML run. */
class ActionCompileCommandsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void compileCommandsInputIsPassedAsMinusP(@TempDir Path tmp) throws Exception {
        String yml = Files.readString(ROOT.resolve("action.yml"));
        assertThat(yml)
                .contains("  compile-commands:\n")
                .contains("NUMLINT_COMPILE_COMMANDS: ${{ inputs.compile-commands }}");
        // a release zip whose launcher records its arguments
        Path zip = tmp.resolve("numlint-0.zip");
        Path log = tmp.resolve("calls.txt");
        String launcher = "#!/bin/sh\necho \"$*\" >> '" + log + "'\n";
        try (OutputStream o = Files.newOutputStream(zip);
                ZipOutputStream z = new ZipOutputStream(o)) {
            z.putNextEntry(new ZipEntry("numlint-0/bin/numlint"));
            z.write(launcher.getBytes(StandardCharsets.UTF_8));
            z.closeEntry();
        }
        Path work = Files.createDirectories(tmp.resolve("work"));
        ProcessBuilder pb = new ProcessBuilder(
                        "bash", ROOT.resolve("action/numlint-action.sh").toString())
                .directory(work.toFile())
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("out.txt").toFile());
        pb.environment().put("NUMLINT_ZIP", zip.toString());
        pb.environment().put("NUMLINT_HOME", tmp.resolve("home").toString());
        pb.environment().put("NUMLINT_COMPILE_COMMANDS", "build");
        pb.environment().put("NUMLINT_HTML", "r.html");
        pb.environment().remove("GITHUB_OUTPUT");
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("out.txt"))).isZero();
        assertThat(Files.readAllLines(log))
                .anySatisfy(l -> assertThat(l).startsWith("scan --format sarif").contains(" -p build "))
                .anySatisfy(l -> assertThat(l).startsWith("scan --format html").contains(" -p build "));
    }
}
