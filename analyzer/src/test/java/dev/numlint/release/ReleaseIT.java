package dev.numlint.release;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.rules.RuleCatalog;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release zip and the GitHub Action's script, from a clean directory that has only Java: the zip (built by
 * {@code mvn package}) is unpacked into a temporary directory and run with a PATH that holds java and basic shell
 * tools but no Maven, no JAVA_HOME and no numlint checkout. Runs in the {@code verify} phase, after the zip exists.
 */
class ReleaseIT {
    static final String VERSION = RuleCatalog.toolVersion();
    static final Path ZIP = Path.of("target/numlint-" + VERSION + ".zip");
    static final Path ACTION_SCRIPT = Path.of("../action/numlint-action.sh");
    /** The shell tools the launcher and the action script use; everything else (Maven above all) is absent. */
    static final List<String> TOOLS = List.of(
            "sh",
            "bash",
            "env",
            "dirname",
            "basename",
            "readlink",
            "mkdir",
            "mktemp",
            "rm",
            "ls",
            "head",
            "chmod",
            "unzip",
            "sed",
            "cat",
            "uname",
            "grep",
            "tr",
            "cp",
            "mv");

    @TempDir
    Path tmp;

    Path tools;
    Path sample;

    record Run(int code, String out, String err) {}

    @BeforeEach
    void cleanMachine() throws IOException {
        assertThat(ZIP)
                .as("the release zip is built by `mvn package` in the analyzer module")
                .isRegularFile();
        tools = Files.createDirectories(tmp.resolve("tools"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Files.createSymbolicLink(tools.resolve("java"), java);
        for (String t : TOOLS) {
            Path p = which(t);
            if (p != null) {
                Files.createSymbolicLink(tools.resolve(t), p);
            }
        }
        sample = Files.createDirectories(tmp.resolve("sample/src"));
        Files.writeString(
                sample.resolve("quantize.cu"),
                """
                __global__ void quantize(const float* in, unsigned char* out, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        out[i] = (unsigned char) in[i];
                    }
                }

                __global__ void quantizeClamped(const float* in, unsigned char* out, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) {
                        // numlint: ignore NL001 -- the caller clamps in[] to [0, 255] (see clamp_kernel)
                        out[i] = (unsigned char) in[i];
                    }
                }
                """);
        sample = sample.getParent();
    }

    private static Path which(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                return p;
            }
        }
        return null;
    }

    private Run run(Path cwd, Map<String, String> extraEnv, String... cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        Map<String, String> env = pb.environment();
        env.clear();
        env.put("PATH", tools.toString());
        env.put("HOME", Files.createDirectories(tmp.resolve("home")).toString());
        env.put("TMPDIR", Files.createDirectories(tmp.resolve("t")).toString());
        env.put("LANG", "C.UTF-8");
        env.putAll(extraEnv);
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + List.of(cmd));
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** Unpacks the zip with java.util.zip (no unzip needed), applying the Unix modes the zip records. */
    private Path unpack(Path into) throws IOException {
        Map<String, Integer> modes = unixModes(ZIP);
        try (ZipInputStream z = new ZipInputStream(Files.newInputStream(ZIP))) {
            for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
                Path target = into.resolve(e.getName()).normalize();
                assertThat(target.startsWith(into))
                        .as("zip entry %s inside the target directory", e.getName())
                        .isTrue();
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                    continue;
                }
                Files.createDirectories(target.getParent());
                Files.copy(z, target);
                Integer mode = modes.get(e.getName());
                if (mode != null && (mode & 0100) != 0) {
                    assertThat(target.toFile().setExecutable(true)).isTrue();
                }
            }
        }
        return into.resolve("numlint-" + VERSION);
    }

    /** Unix permission bits of every entry, from the zip's central directory (external attributes). */
    static Map<String, Integer> unixModes(Path zip) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(zip)).order(ByteOrder.LITTLE_ENDIAN);
        int eocd = -1;
        for (int i = b.limit() - 22; i >= Math.max(0, b.limit() - 65_557); i--) {
            if (b.getInt(i) == 0x06054b50) {
                eocd = i;
                break;
            }
        }
        assertThat(eocd).as("end of central directory").isNotNegative();
        int entries = b.getShort(eocd + 10) & 0xffff;
        int pos = b.getInt(eocd + 16);
        Map<String, Integer> modes = new HashMap<>();
        for (int i = 0; i < entries; i++) {
            assertThat(b.getInt(pos)).isEqualTo(0x02014b50);
            int nameLen = b.getShort(pos + 28) & 0xffff;
            int extraLen = b.getShort(pos + 30) & 0xffff;
            int commentLen = b.getShort(pos + 32) & 0xffff;
            int external = b.getInt(pos + 38);
            byte[] name = new byte[nameLen];
            b.get(pos + 46, name);
            modes.put(new String(name, StandardCharsets.UTF_8), (external >>> 16) & 0777);
            pos += 46 + nameLen + extraLen + commentLen;
        }
        return modes;
    }

    @Test
    void zipHoldsLaunchersJarAndDocs() throws IOException {
        Map<String, Integer> modes = new TreeMap<>(unixModes(ZIP));
        String top = "numlint-" + VERSION + "/";
        assertThat(modes)
                .containsKeys(
                        top + "bin/numlint",
                        top + "bin/numlint.cmd",
                        top + "lib/numlint.jar",
                        top + "README.md",
                        top + "docs/rules/NL001-float-to-unsigned-conversion.md");
        assertThat(modes).containsKey(top + "LICENSE");
        assertThat(modes.get(top + "bin/numlint")).isEqualTo(0755);
        // every relative link of the README is in the zip (before: docs/security, validation/ and the Action were not)
        String readme;
        List<java.time.Instant> times = new ArrayList<>();
        try (var zip = new java.util.zip.ZipFile(ZIP.toFile())) {
            readme = new String(
                    zip.getInputStream(zip.getEntry(top + "README.md")).readAllBytes(), StandardCharsets.UTF_8);
            zip.stream().forEach(e -> times.add(e.getLastModifiedTime().toInstant()));
        }
        java.util.regex.Matcher links =
                java.util.regex.Pattern.compile("\\]\\(([^)#:]+)[)#]").matcher(readme);
        List<String> linked = new ArrayList<>();
        while (links.find()) {
            // a path, not a code example such as `[text](n)`
            if (links.group(1).contains(".") || links.group(1).contains("/")) linked.add(links.group(1));
        }
        assertThat(linked).isNotEmpty();
        for (String l : linked) {
            String entry = top + l;
            assertThat(modes.containsKey(entry) || modes.keySet().stream().anyMatch(n -> n.startsWith(entry + "/")))
                    .as("README link %s is in the zip", l)
                    .isTrue();
        }
        // reproducible: every entry has the fixed time of project.build.outputTimestamp, not the build's
        assertThat(times).isNotEmpty().allMatch(t -> t.equals(times.get(0)));
        assertThat(times.get(0)).isBefore(java.time.Instant.parse("2026-01-02T00:00:00Z"));
        assertThat(modes.get(top + "lib/numlint.jar")).isEqualTo(0644);
        assertThat(modes.keySet()).allMatch(n -> n.startsWith(top));
        assertThat(Files.size(ZIP)).as("zip size").isLessThan(200L * 1024 * 1024);
    }

    @Test
    void unpackedZipRunsWithJavaOnly() throws Exception {
        assertThat(tools.resolve("mvn")).doesNotExist();
        Path home = unpack(Files.createDirectories(tmp.resolve("opt")));
        Path launcher = home.resolve("bin/numlint");
        assertThat(Files.isExecutable(launcher)).isTrue();

        Run noMaven = run(sample, Map.of(), "sh", "-c", "command -v mvn || echo no-maven");
        assertThat(noMaven.out().strip()).isEqualTo("no-maven");

        Run version = run(sample, Map.of(), launcher.toString(), "--version");
        assertThat(version.code()).as(version.err()).isZero();
        assertThat(version.out().strip()).isEqualTo("numlint " + VERSION);

        Run scan = run(
                sample,
                Map.of(),
                launcher.toString(),
                "scan",
                "--ptx",
                "off",
                "--format",
                "sarif",
                "--output",
                "out.sarif",
                ".");
        assertThat(scan.code())
                .as("an unsuppressed NL001 (error) fails the scan; stderr: %s", scan.err())
                .isEqualTo(1);
        JsonNode results = new ObjectMapper()
                .readTree(sample.resolve("out.sarif").toFile())
                .path("runs")
                .get(0)
                .path("results");
        List<String> found = new ArrayList<>();
        results.forEach(r -> found.add(r.path("ruleId").asText() + "@"
                + r.path("locations")
                        .get(0)
                        .path("physicalLocation")
                        .path("region")
                        .path("startLine")
                        .asInt()
                + (r.has("suppressions") ? "(suppressed)" : "")));
        assertThat(found).contains("NL001@4", "NL001@12(suppressed)");

        // through a symbolic link on PATH, as an installation would do it
        Files.createSymbolicLink(tools.resolve("numlint"), launcher);
        Run viaLink = run(sample, Map.of(), "sh", "-c", "numlint rules");
        assertThat(viaLink.code()).as(viaLink.err()).isZero();
        assertThat(viaLink.out()).contains("NL001").contains("float-to-unsigned-conversion");

        Files.delete(tools.resolve("java"));
        Run noJava = run(sample, Map.of(), launcher.toString(), "--version");
        assertThat(noJava.code()).isEqualTo(2);
        assertThat(noJava.err()).contains("Java 17 or later is needed");
    }

    @Test
    void launcherNeedsOnlyJavaOnPath() throws Exception {
        // before: "dirname: not found", then "//lib/numlint.jar is missing" (issue 30)
        Path home = unpack(Files.createDirectories(tmp.resolve("opt")));
        Path launcher = home.resolve("bin/numlint");
        for (String t : TOOLS) Files.deleteIfExists(tools.resolve(t));
        try (var left = Files.list(tools)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("java");
        }
        Run version = run(sample, Map.of(), launcher.toString(), "--version");
        assertThat(version.code()).as(version.err()).isZero();
        assertThat(version.out().strip()).isEqualTo("numlint " + VERSION);
        // relative to the working directory, as `bin/numlint` from the unpacked directory
        Run relative = run(home, Map.of(), "bin/numlint", "--version");
        assertThat(relative.code()).as(relative.err()).isZero();

        // a link needs readlink to follow, or NUMLINT_HOME; either way a clear message, never a missing jar
        Path link = Files.createSymbolicLink(tmp.resolve("numlint-link"), launcher);
        Run viaLink = run(sample, Map.of(), link.toString(), "--version");
        assertThat(viaLink.code()).isEqualTo(2);
        assertThat(viaLink.err()).contains("set NUMLINT_HOME").doesNotContain("is missing");
        Run withHome = run(sample, Map.of("NUMLINT_HOME", home.toString()), link.toString(), "--version");
        assertThat(withHome.code()).as(withHome.err()).isZero();

        // the heap limit: NUMLINT_MAX_HEAP, checked before Java starts
        Run badHeap = run(sample, Map.of("NUMLINT_MAX_HEAP", "lots"), launcher.toString(), "--version");
        assertThat(badHeap.code()).isEqualTo(2);
        assertThat(badHeap.err()).contains("NUMLINT_MAX_HEAP='lots' is not a heap size");
        Run smallHeap = run(sample, Map.of("NUMLINT_MAX_HEAP", "96m"), launcher.toString(), "rules");
        assertThat(smallHeap.code()).as(smallHeap.err()).isZero();
    }

    @Test
    void actionScriptScansASampleRepository() throws Exception {
        Path script = ACTION_SCRIPT.toAbsolutePath().normalize();
        assertThat(script).isRegularFile();
        Path outputs = tmp.resolve("github-output.txt");
        Map<String, String> env = new HashMap<>(Map.of(
                "NUMLINT_ZIP",
                ZIP.toAbsolutePath().toString(),
                "NUMLINT_ARGS",
                "--ptx off .",
                "GITHUB_OUTPUT",
                outputs.toString(),
                "RUNNER_TEMP",
                Files.createDirectories(tmp.resolve("runner")).toString(),
                "NUMLINT_HTML",
                "numlint-report.html"));
        Run r = run(sample, env, "bash", script.toString());
        assertThat(r.code())
                .as("the failure is deferred until the SARIF is uploaded; stderr: %s", r.err())
                .isZero();
        assertThat(Files.readAllLines(outputs)).containsExactly("sarif-file=numlint.sarif", "exit-code=1");
        JsonNode run = new ObjectMapper()
                .readTree(sample.resolve("numlint.sarif").toFile())
                .path("runs")
                .get(0);
        assertThat(run.path("results"))
                .as("suppressed results are left out for code scanning")
                .hasSize(1);
        assertThat(run.path("results").get(0).path("ruleId").asText()).isEqualTo("NL001");
        assertThat(run.path("properties").path("suppressedResultsOmitted").asInt())
                .isEqualTo(1);
        assertThat(run.path("automationDetails").path("id").asText()).isEqualTo("numlint/");
        assertThat(Files.readString(sample.resolve("numlint-report.html")))
                .as("the audit report keeps the suppression and its justification")
                .contains("the caller clamps in[] to [0, 255] (see clamp_kernel)");

        // the same step with its own failure, and with a baseline: nothing new, then one new hazard
        env.put("NUMLINT_DEFER_FAILURE", "false");
        assertThat(run(sample, env, "bash", script.toString()).code()).isEqualTo(1);
        Files.copy(sample.resolve("numlint.sarif"), tmp.resolve("baseline.sarif"));
        env.put("NUMLINT_BASELINE", tmp.resolve("baseline.sarif").toString());
        env.put("NUMLINT_SARIF", "pr.sarif");
        Files.delete(outputs);
        Run same = run(sample, env, "bash", script.toString());
        assertThat(same.code()).as(same.err()).isZero();
        assertThat(Files.readAllLines(outputs)).containsExactly("sarif-file=pr.sarif", "exit-code=0");
        Files.writeString(
                sample.resolve("src/more.cu"),
                """
                __global__ void more(const float* in, unsigned short* out) {
                    out[threadIdx.x] = (unsigned short) in[threadIdx.x];
                }
                """);
        Run added = run(sample, env, "bash", script.toString());
        assertThat(added.code()).isEqualTo(1);
        JsonNode pr = new ObjectMapper()
                .readTree(sample.resolve("pr.sarif").toFile())
                .path("runs")
                .get(0);
        List<String> states = new ArrayList<>();
        pr.path("results").forEach(x -> states.add(x.path("baselineState").asText()));
        assertThat(states).containsExactlyInAnyOrder("unchanged", "new");

        // a usage error is never deferred
        env.put("NUMLINT_BASELINE", tmp.resolve("no-such.sarif").toString());
        Run bad = run(sample, env, "bash", script.toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("no-such.sarif");
    }
}
