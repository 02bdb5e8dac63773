package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.scan.ScanResult;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Microsoft's SARIF multitool ({@code validate}) for the tests: zero errors allowed. The tool is installed by {@code
 * .ci/run} ({@code npm ci --prefix .ci}); without it a test that needs it is skipped locally and fails on CI (env
 * CI=true). The fixtures' scans are validated by {@code FixtureTest} (the SARIF of each scan it makes, and the golden
 * sample's), so the fixture tree is not scanned a second time for it.
 */
public final class SarifMultitool {
    static final Path TOOL = Path.of("../.ci/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");

    private SarifMultitool() {}

    /** The installed tool; skips the calling test when it is absent outside CI, fails it on CI. */
    static Path require() {
        Path tool = TOOL.toAbsolutePath().normalize();
        if (!Files.isExecutable(tool)) {
            String msg = "SARIF validator not installed at " + tool + ": run `npm ci --prefix .ci && chmod u+x "
                    + ".ci/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool` (done by .ci/run)";
            if ("true".equals(System.getenv("CI"))) fail(msg);
            assumeTrue(false, msg);
        }
        return tool;
    }

    /** Writes {@code r} as SARIF to {@code file}. */
    public static Path write(Path file, ScanResult r) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            SarifReport.write(r, w);
        }
        return file;
    }

    /** Writes the golden sample's SARIF ({@link SarifReportTest#scanSample}) into {@code dir}. */
    public static Path writeSample(Path dir) throws IOException {
        return write(dir.resolve("sample.sarif"), SarifReportTest.scanSample());
    }

    /** Validates {@code files} in one run of the tool: no error, every file scanned, exit code 0. */
    public static void assertValid(List<Path> files) throws IOException, InterruptedException {
        Path tool = require();
        List<String> cmd = new ArrayList<>(List.of(tool.toString(), "validate"));
        files.forEach(f -> cmd.add(f.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        List<String> errors = out.lines().filter(l -> l.contains(": error ")).collect(Collectors.toList());
        assertThat(errors).as("validator errors:%n%s", out).isEmpty();
        assertThat(out).as("validator output").contains("Done. " + files.size() + " files scanned.");
        assertThat(p.exitValue()).as("validator exit code; output:%n%s", out).isZero();
    }
}
