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

    /**
     * Validates the runs of {@code files} as one log: their runs, in order, are the runs of {@code log} (written with
     * the first file's version and schema), which the tool validates with one thread. One log of many runs cost the
     * tool a third of the CPU time of as many files (the fixture scans' 68 files took 52 s of a CI build); an error
     * names its run's index, and the message maps each index to its file.
     */
    public static void assertValidAsOneLog(List<Path> files, Path log) throws IOException, InterruptedException {
        require();
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode merged = null;
        com.fasterxml.jackson.databind.node.ArrayNode runs = null;
        StringBuilder legend = new StringBuilder();
        for (Path f : files) {
            com.fasterxml.jackson.databind.JsonNode one = json.readTree(f.toFile());
            if (merged == null) {
                merged = ((com.fasterxml.jackson.databind.node.ObjectNode) one).deepCopy();
                runs = merged.putArray("runs");
            }
            for (com.fasterxml.jackson.databind.JsonNode run : one.path("runs")) {
                legend.append(String.format("runs[%d]: %s%n", runs.size(), f.getFileName()));
                runs.add(run);
            }
        }
        if (merged == null) throw new IllegalArgumentException("no SARIF files to validate");
        json.writeValue(log.toFile(), merged);
        // the tool skips a file over its size limit (10 MB) as "no valid analysis targets": the log's own size
        String kb = Long.toString(Files.size(log) / 1024 + 1);
        validate(List.of(log), List.of("--threads", "1", "--max-file-size-in-kb", kb), legend.toString());
    }

    /** Validates {@code files} in one run of the tool: no error, every file scanned, exit code 0. */
    public static void assertValid(List<Path> files) throws IOException, InterruptedException {
        validate(files, List.of(), "");
    }

    private static void validate(List<Path> files, List<String> options, String legend)
            throws IOException, InterruptedException {
        Path tool = require();
        List<String> cmd = new ArrayList<>(List.of(tool.toString(), "validate"));
        files.forEach(f -> cmd.add(f.toString()));
        cmd.addAll(options); // after the files: the parser reads what follows an option as its values

        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        List<String> errors = out.lines().filter(l -> l.contains(": error ")).collect(Collectors.toList());
        assertThat(errors).as("validator errors:%n%s%s", out, legend).isEmpty();
        assertThat(out).as("validator output").contains("Done. " + files.size() + " files scanned.");
        assertThat(p.exitValue())
                .as("validator exit code; output:%n%s%s", out, legend)
                .isZero();
    }
}
