package dev.numlint.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.cli.Main;
import dev.numlint.scan.Analyzers;
import dev.numlint.testing.RecordingNvcc;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Hostile repositories, scanned and validated with a recording stand-in for nvcc ({@link RecordingNvcc}): the tests
 * show the exact argument lists nvcc gets, that nothing but the toolkit's nvcc is started (the stand-in records
 * every start; the repository's evil.sh would leave a marker), that the child's environment lacks the parent's
 * secrets, and that includes leading outside the tree stop the compilation with a notice naming them.
 */
class HostileRepositoryTest {
    private static final String KERNEL = "__global__ void k(float* a) { a[0] = a[0] * a[0] + a[0]; }\n";

    @TempDir
    Path tmp;

    Path repo;
    Path marker;
    Path cache;
    RecordingNvcc fake;

    record Run(int code, String out, String err) {
        JsonNode json() throws IOException {
            return new ObjectMapper().readTree(out);
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
        marker = tmp.resolve("evil-ran");
        cache = tmp.resolve("cache");
        fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path evil = repo.resolve("evil.sh");
        Files.writeString(evil, "#!/bin/sh\ntouch '" + marker + "'\n");
        Files.setPosixFilePermissions(evil, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(repo.resolve("k.cu"), KERNEL);
    }

    private Run run(String... args) {
        CommandLine cmd = Main.commandLine(Analyzers::load);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return new Run(cmd.execute(args), out.toString(), err.toString());
    }

    private Run scan() {
        return run(
                "scan",
                "--nvcc",
                fake.nvcc().toString(),
                "--cache-dir",
                cache.toString(),
                "--format",
                "json",
                repo.toString());
    }

    private Run validate(String ptx) {
        return run(
                "validate",
                "--gpu",
                "off",
                "--ptx",
                ptx,
                "--all-kernels",
                "--inputs",
                "1",
                "--nvcc",
                fake.nvcc().toString(),
                "--cache-dir",
                cache.toString(),
                "--format",
                "json",
                repo.toString());
    }

    private static List<String> notifications(JsonNode report, String id) {
        List<String> out = new ArrayList<>();
        report.path("notifications").forEach(n -> {
            if (n.path("id").asText().equals(id))
                out.add(n.path("file").asText() + ":" + n.path("line").asInt() + ": "
                        + n.path("message").asText());
        });
        return out;
    }

    private static List<String> kernelNotes(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.path("kernels").forEach(k -> {
            k.path("notes").forEach(n -> out.add(n.asText()));
            if (k.has("reason")) out.add(k.path("reason").asText());
        });
        return out;
    }

    /** Every call the stand-in saw: nvcc only, with the k.cu compile exactly as expected and no secret. */
    private void assertOnlySafeNvccCalls(List<String> expectedFlags) {
        assertThat(marker).doesNotExist();
        List<RecordingNvcc.Call> calls = fake.calls();
        assertThat(calls).isNotEmpty();
        for (RecordingNvcc.Call c : calls) {
            assertThat(String.join(" ", c.args()))
                    .doesNotContain("evil")
                    .doesNotContain("`")
                    .doesNotContain("$(");
            assertThat(c.env()).doesNotContainKey("NUMLINT_TEST_SECRET");
            assertThat(c.env().keySet())
                    .isSubsetOf("PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "PWD", "OLDPWD", "SHLVL", "_");
            assertThat(c.cwd()).startsWith(cache.resolve("tmp").toString());
        }
        for (RecordingNvcc.Call c : fake.compiles()) {
            List<String> want =
                    new ArrayList<>(List.of("-ptx", "-lineinfo", c.args().get(2)));
            assertThat(c.args().get(2)).startsWith("-arch=compute_");
            want.addAll(expectedFlags);
            want.addAll(List.of(repo.resolve("k.cu").toString(), "-o", "out.ptx"));
            if (c.args().size() > want.size()) {
                // validation's variants append their switches (-fmad=false ...) after the as-built flags
                assertThat(c.args().subList(want.size() - 3, c.args().size() - 3))
                        .allMatch(a -> a.matches("-(fmad|prec-div|prec-sqrt|ftz)=(true|false)"));
            } else {
                assertThat(c.args()).containsExactlyElementsOf(want);
            }
        }
    }

    private void hostileBuild(String buildFile, String text, String flagShown) throws IOException {
        Files.writeString(repo.resolve(buildFile), text);
        Run s = scan();
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        List<String> dropped = notifications(s.json(), "nvcc-flag-dropped");
        if (flagShown != null) assertThat(dropped).as("scan notices").anyMatch(m -> m.contains(flagShown));
        assertThat(fake.compiles()).hasSize(1);
        assertOnlySafeNvccCalls(List.of("-O2"));
        for (String ptx : List.of("off", "auto")) {
            Run v = validate(ptx);
            assertThat(v.code()).as(v.err()).isIn(0, 1);
            if (flagShown != null) {
                assertThat(kernelNotes(v.json())).as("validate --ptx " + ptx).anyMatch(m -> m.contains(flagShown));
            }
            assertOnlySafeNvccCalls(List.of("-O2"));
        }
    }

    @Test
    void backtickDefineInAMakefile() throws IOException {
        hostileBuild(
                "Makefile", "NVCCFLAGS = -O2 -DX=`./evil.sh`\nall:\n\tnvcc $(NVCCFLAGS) -c k.cu\n", "-DX=`./evil.sh`");
    }

    @Test
    void backtickIncludeInAMakefile() throws IOException {
        hostileBuild("Makefile", "NVCCFLAGS = -O2 -I`./evil.sh`\nall:\n\tnvcc $(NVCCFLAGS) -c k.cu\n", "-I`./evil.sh`");
    }

    @Test
    void commandSubstitutionInAMakefile() throws IOException {
        // make turns $$ into $: the shell would see -I$(./evil.sh); whether the build model keeps the flag or not,
        // nvcc never gets it
        hostileBuild(
                "Makefile",
                "NVCCFLAGS = -O2 -I$$(./evil.sh) -DY=$$(./evil.sh)\nall:\n" + "\tnvcc $(NVCCFLAGS) -c k.cu\n",
                null);
    }

    @Test
    void xcompilerCommaInjectionInAMakefile() throws IOException {
        // the build model splits the host options at the commas; what reaches the toolchain is dropped
        hostileBuild(
                "Makefile",
                "NVCCFLAGS = -O2 -Xcompiler -march=native,-wrapper,./evil.sh\nall:\n" + "\tnvcc $(NVCCFLAGS) -c k.cu\n",
                "-Xcompiler=-march=native");
    }

    @Test
    void backtickAndSubstitutionInCMake() throws IOException {
        hostileBuild(
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CUDA)\n"
                        + "set(CMAKE_CUDA_FLAGS \"-O2 -DX=`./evil.sh` -DY=$(./evil.sh)\")\nadd_executable(k k.cu)\n",
                "./evil.sh");
    }

    @Test
    void hostileFlagsInCompileCommands() throws IOException {
        String json = "[{\"directory\": \"" + repo + "\", \"file\": \"k.cu\", \"arguments\": [\"nvcc\", \"-O2\", "
                + "\"-DX=`./evil.sh`\", \"-I$(./evil.sh)\", \"-Xcompiler=-march=native,-wrapper,./evil.sh\", \"-c\","
                + " \"k.cu\"]}]";
        hostileBuild("compile_commands.json", json, "./evil.sh");
    }

    @Test
    void hostileCommandLineFlagsAreFilteredToo() throws IOException {
        Run s = run(
                "scan",
                "--nvcc",
                fake.nvcc().toString(),
                "--cache-dir",
                cache.toString(),
                "--format",
                "json",
                "--nvcc-flags",
                "-O2 -DX=`./evil.sh` -Xcompiler=-march=native,-wrapper,./evil.sh",
                repo.toString());
        assertThat(notifications(s.json(), "nvcc-flag-dropped")).anyMatch(m -> m.contains("(set in --nvcc-flags)"));
        assertOnlySafeNvccCalls(List.of("-O2"));
    }

    private void blockedInclude(String include, String reason) throws IOException {
        Files.writeString(repo.resolve("k.cu"), "#include \"inc/h.cuh\"\n" + KERNEL);
        Files.createDirectories(repo.resolve("inc"));
        Files.writeString(repo.resolve("inc/h.cuh"), "#pragma once\n" + include + "\n");
        Run s = scan();
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        assertThat(notifications(s.json(), "include-blocked"))
                .singleElement()
                .asString()
                .startsWith("k.cu:0: not compiled to PTX: inc/h.cuh:2: " + include + ": ")
                .contains(reason);
        Run v = validate("off");
        assertThat(kernelNotes(v.json())).anyMatch(m -> m.contains("inc/h.cuh:2: " + include) && m.contains(reason));
        assertThat(v.out()).doesNotContain("int secret").doesNotContain("the-secret-value");
        assertThat(s.out()).doesNotContain("the-secret-value");
        assertThat(fake.compiles()).isEmpty();
        assertThat(marker).doesNotExist();
    }

    private Path secret() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("outside"));
        return Files.writeString(dir.resolve("secret.h"), "int the-secret-value;\n");
    }

    @Test
    void absoluteInclude() throws IOException {
        blockedInclude("#include \"" + secret() + "\"", "absolute path outside");
    }

    @Test
    void dotDotEscapingInclude() throws IOException {
        secret();
        blockedInclude("#include \"../../outside/secret.h\"", "resolves outside the scanned tree");
    }

    @Test
    void symlinkedInclude() throws IOException {
        Files.createSymbolicLink(repo.resolve("link.h"), secret());
        blockedInclude("#include \"../link.h\"", "a symlink leads outside");
    }

    @Test
    void devZeroInclude() throws IOException {
        blockedInclude("#include \"/dev/zero\"", "special file");
    }

    @Test
    void fifoInclude() throws IOException, InterruptedException {
        Files.createDirectories(repo.resolve("inc"));
        Process mk = new ProcessBuilder("mkfifo", repo.resolve("inc/pipe.h").toString()).start();
        assumeTrue(mk.waitFor() == 0, "mkfifo not available");
        blockedInclude("#include \"pipe.h\"", "FIFO");
    }

    @Test
    void aHangingNvccVersionDoesNotHangTheScan() throws IOException {
        fake.hangOnVersion();
        long t0 = System.nanoTime();
        Run s = scan();
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        assertThat(notifications(s.json(), "ptx-unavailable"))
                .singleElement()
                .asString()
                .contains("'nvcc --version' did not answer within 10 s");
        Run v = validate("off");
        assertThat(v.code()).as(v.err()).isIn(0, 1);
        assertThat(v.json().path("environment").path("nvcc").asText()).contains("did not answer");
        assertThat(System.nanoTime() - t0).isLessThan(120_000_000_000L);
        assertThat(fake.compiles()).isEmpty();
    }

    @Test
    void aCacheDirectoryThatIsAFileIsAUsageError() throws IOException {
        Path file = Files.writeString(tmp.resolve("afile"), "x");
        Run s = run("scan", "--cache-dir", file.toString(), repo.toString());
        assertThat(s.code()).isEqualTo(2);
        assertThat(s.err()).contains("--cache-dir").contains("is a file, not a directory");
        Run v = run("validate", "--gpu", "off", "--cache-dir", file.toString(), repo.toString());
        assertThat(v.code()).isEqualTo(2);
    }

    /** With the real nvcc: the hostile flags run nothing (the marker stays absent), for scan and validate. */
    @Test
    void realNvccRunsNothingFromTheRepository() throws IOException {
        Optional<Path> nvcc = dev.numlint.toolchain.Nvcc.find(null, System.getenv("PATH"));
        assumeTrue(nvcc.isPresent(), "nvcc not installed");
        Files.writeString(
                repo.resolve("Makefile"),
                "NVCCFLAGS = -O2 -DX=`./evil.sh` -I$$(./evil.sh) "
                        + "-Xcompiler -march=native,-wrapper,./evil.sh\nall:\n\tnvcc $(NVCCFLAGS) -c k.cu\n");
        Run s = run("scan", "--cache-dir", cache.toString(), "--format", "json", repo.toString());
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        assertThat(notifications(s.json(), "nvcc-failed")).isEmpty();
        Run v = run(
                "validate",
                "--gpu",
                "off",
                "--ptx",
                "off",
                "--all-kernels",
                "--inputs",
                "1",
                "--cache-dir",
                cache.toString(),
                "--format",
                "json",
                repo.toString());
        assertThat(v.code()).as(v.err()).isIn(0, 1);
        assertThat(marker).doesNotExist();
    }
}
