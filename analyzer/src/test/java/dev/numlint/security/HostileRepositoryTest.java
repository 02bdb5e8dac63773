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

    /**
     * Session 45: with the compilation database in a build directory beside the repository ({@code -p ../build}),
     * the scan's trust boundary has two roots and Clang's tree was the directory that holds both, with every sibling
     * in it. A compile command's {@code -I} to a sibling directory, or a {@code ../} include into it, made Clang read
     * a file there, and its first error quoted the file's text into the report. Clang now reads only inside the roots.
     */
    @Test
    void aSiblingOfAnOutOfTreeBuildDirectoryIsNotRead() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(dir.resolve("key.h"), "the_secret_value_42 qqq;\n");
        Path build = Files.createDirectories(tmp.resolve("build"));
        Files.writeString(repo.resolve("k.cu"), "#include <key.h>\n" + KERNEL);
        Files.writeString(repo.resolve("k2.cu"), "#include \"../outside/key.h\"\n" + KERNEL);
        Files.writeString(
                build.resolve("compile_commands.json"),
                "[{\"directory\": \"" + build + "\", \"file\": \"" + repo.resolve("k.cu") + "\", "
                        + "\"arguments\": [\"nvcc\", \"-I" + dir + "\", \"-c\", \"" + repo.resolve("k.cu") + "\"]},"
                        + "{\"directory\": \"" + build + "\", \"file\": \"" + repo.resolve("k2.cu") + "\", "
                        + "\"arguments\": [\"nvcc\", \"-c\", \"" + repo.resolve("k2.cu") + "\"]}]");
        Run s = run(
                "scan",
                "-p",
                build.toString(),
                "--ptx",
                "off",
                "--cache-dir",
                cache.toString(),
                "--format",
                "json",
                repo.toString());
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        assertThat(s.out()).doesNotContain("the_secret_value_42");
        assertThat(s.err()).doesNotContain("the_secret_value_42");
        assertThat(marker).doesNotExist();
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
                .contains("'nvcc --version' did not answer within 5 s");
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

    // ---------------------------------------------------------------- the trust boundary (issue 31, items 1 and 7)

    private static final String PTX_HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n";

    /** A checked-in .ptx whose one approximate division is placed, by its debug information, at {@code file:line}. */
    private void ptxPointingAt(String file, int line) throws IOException {
        Files.writeString(
                repo.resolve("k.ptx"),
                PTX_HEAD + ".visible .entry _Z1kPf(.param .u64 p) {\n .reg .f32 %f<4>; .reg .b64 %rd<2>;\n"
                        + " .loc 1 " + line + " 2\n ld.param.u64 %rd1, [p];\n .loc 1 " + line + " 2\n"
                        + " div.approx.f32 %f1, %f2, %f3;\n ret;\n}\n .file 1 \"" + file + "\"\n");
    }

    /** numlint run as its own process in {@code cwd}, with {@code env} added to its environment. */
    private Run runIn(Path cwd, java.util.Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.numlint.cli.Main"));
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        int code = p.waitFor();
        return new Run(code, out, Files.readString(err));
    }

    @Test
    void aPtxFileEntryNamingGitConfigIsNeverQuoted() throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        Files.writeString(
                repo.resolve(".git/config"),
                "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n"
                        + "\turl = https://github.com/o/r\n[http \"https://github.com/\"]\n"
                        + "\textraheader = AUTHORIZATION: basic THE-CHECKOUT-TOKEN\n");
        ptxPointingAt(".git/config", 7);
        for (String format : List.of("json", "sarif", "text", "html")) {
            Run s = run("scan", "--ptx", "off", "--format", format, repo.toString());
            assertThat(s.code()).as(format + ": " + s.err()).isIn(0, 1);
            assertThat(s.out()).as(format).contains("k.ptx").doesNotContain("THE-CHECKOUT-TOKEN");
        }
        Run j = run("scan", "--ptx", "off", "--format", "json", repo.toString());
        assertThat(j.json().path("findings").toString()).doesNotContain(".git/config");
    }

    @Test
    void gitConfigIsNeverReadAsASourceThroughALinkOrAnInclude() throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        Files.writeString(
                repo.resolve(".git/config"),
                "[http]\n\textraheader = AUTHORIZATION: basic THE-CHECKOUT-TOKEN\n"
                        + "float f(float x) { return x / 3.0f; }\n");
        Files.createSymbolicLink(repo.resolve("leak.cu"), repo.resolve(".git/config"));
        Files.writeString(repo.resolve("k.cu"), "#include \".git/config\"\n" + KERNEL);
        Run s = scan();
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        assertThat(s.out()).doesNotContain("THE-CHECKOUT-TOKEN");
        assertThat(notifications(s.json(), "not-a-source"))
                .singleElement()
                .asString()
                .startsWith("leak.cu:0: not analyzed: it lies in a version-control directory (.git)");
        assertThat(notifications(s.json(), "include-not-read"))
                .anyMatch(m -> m.startsWith("k.cu:1: ") && m.contains("version-control directory"));
        assertThat(notifications(s.json(), "include-blocked")).anyMatch(m -> m.contains("version-control directory"));
        assertThat(fake.compiles()).isEmpty();
    }

    @Test
    void aPtxFileEntryNamingProcSelfEnvironIsNeverQuotedWhenTheScanStartsAtTheRoot() throws Exception {
        ptxPointingAt("/proc/self/environ", 1);
        Run s = runIn(
                Path.of("/"),
                java.util.Map.of("NUMLINT_PROC_SECRET", "THE-ENVIRONMENT-SECRET"),
                "scan",
                "--ptx",
                "off",
                "--format",
                "sarif",
                repo.toString());
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        assertThat(s.out()).contains("k.ptx").doesNotContain("THE-ENVIRONMENT-SECRET");
    }

    /** src/k.cu includes {@code include}; the scan is of src/ only, started in the repository (the report root). */
    private void includeOutsideTheScannedPath(String include) throws Exception {
        Files.createDirectories(repo.resolve("src"));
        Files.writeString(
                repo.resolve("secret.cuh"),
                "#pragma once\n__device__ float leak(float THE_HEADER_SECRET) { return __fdividef(THE_HEADER_SECRET, "
                        + "3.0f); }\n");
        Files.writeString(repo.resolve("src/k.cu"), "#include \"" + include + "\"\n" + KERNEL);
        Run s = runIn(
                repo,
                java.util.Map.of(),
                "scan",
                "--nvcc",
                fake.nvcc().toString(),
                "--cache-dir",
                cache.toString(),
                "--format",
                "json",
                "src");
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        assertThat(s.out()).doesNotContain("THE_HEADER_SECRET");
        assertThat(notifications(s.json(), "include-not-read"))
                .as(s.out())
                .anyMatch(m -> m.startsWith("src/k.cu:1: ") && m.contains("outside the scanned tree"));
        assertThat(notifications(s.json(), "include-blocked")).anyMatch(m -> m.contains(include));
        assertThat(fake.compiles()).isEmpty();
        Run v = runIn(
                repo,
                java.util.Map.of(),
                "validate",
                "--gpu",
                "off",
                "--all-kernels",
                "--inputs",
                "1",
                "--nvcc",
                fake.nvcc().toString(),
                "--cache-dir",
                cache.toString(),
                "--format",
                "json",
                "src");
        assertThat(v.code()).as(v.err()).isIn(0, 1);
        assertThat(v.out()).doesNotContain("THE_HEADER_SECRET");
        assertThat(kernelNotes(v.json())).as(v.out()).anyMatch(m -> m.contains(include));
        assertThat(fake.compiles()).isEmpty();
    }

    @Test
    void anIncludeOutsideTheScannedPathIsNeitherReadNorCompiledEvenInsideTheWorkingDirectory() throws Exception {
        includeOutsideTheScannedPath("../secret.cuh");
    }

    @Test
    void aSymlinkOutOfTheScannedPathIsNeitherReadNorCompiledEvenInsideTheWorkingDirectory() throws Exception {
        Files.createDirectories(repo.resolve("src"));
        Files.createSymbolicLink(repo.resolve("src/link.cuh"), repo.resolve("secret.cuh"));
        includeOutsideTheScannedPath("link.cuh");
    }

    @Test
    void aCMakeIncludeOutsideTheTreeIsNotRead() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("x.cmake"), "set(CMAKE_CUDA_FLAGS \"-O2 -DFROM_OUTSIDE=1\")\n");
        Files.writeString(
                repo.resolve("CMakeLists.txt"),
                "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CUDA)\ninclude(" + outside.resolve("x.cmake")
                        + ")\nadd_executable(k k.cu)\n");
        Run s = scan();
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        assertThat(s.out()).doesNotContain("FROM_OUTSIDE");
        assertThat(notifications(s.json(), "include-not-read"))
                .singleElement()
                .asString()
                .startsWith("CMakeLists.txt:3: include(")
                .contains("outside the scanned tree");
        for (RecordingNvcc.Call c : fake.compiles()) assertThat(c.args()).noneMatch(a -> a.contains("FROM_OUTSIDE"));
    }

    @Test
    void aConfigurationThatLinksOutOfTheTreeIsNotRead() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("cfg.yml"), "exclude:\n  - \"k.cu\"\n");
        Files.createSymbolicLink(repo.resolve(".numlint.yml"), outside.resolve("cfg.yml"));
        Run s = scan();
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        assertThat(notifications(s.json(), "config-not-read"))
                .singleElement()
                .asString()
                .contains("symbolic link that leads outside the scanned tree");
        assertThat(fake.compiles()).hasSize(1);
        Run c = run(
                "scan", "--ptx", "off", "--config", repo.resolve(".numlint.yml").toString(), repo.toString());
        assertThat(c.code()).isEqualTo(2);
        assertThat(c.err()).contains("--config").contains("leads outside the scanned tree");
    }

    @Test
    void aBaselineOrSpecThatLinksOutOfTheTreeIsRefused() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "THE-OUTSIDE-SECRET\n");
        Files.createSymbolicLink(repo.resolve("base.sarif"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(repo.resolve("spec.yml"), outside.resolve("secret.txt"));
        Run b = run(
                "scan", "--ptx", "off", "--baseline", repo.resolve("base.sarif").toString(), repo.toString());
        assertThat(b.code()).isEqualTo(2);
        assertThat(b.err())
                .contains("--baseline")
                .contains("leads outside the scanned tree")
                .doesNotContain("THE-OUTSIDE-SECRET");
        Run v = run(
                "validate",
                "--gpu",
                "off",
                "--ptx",
                "off",
                "--spec",
                repo.resolve("spec.yml").toString(),
                repo.toString());
        assertThat(v.code()).isEqualTo(2);
        assertThat(v.err())
                .contains("--spec")
                .contains("leads outside the scanned tree")
                .doesNotContain("THE-OUTSIDE-SECRET");
    }

    // ---------------------------------------------------------------- outputs and caches (issue 31, item 2)

    @Test
    void anOutputLinkInTheTreeIsNeverWrittenThrough() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Path victim = Files.writeString(outside.resolve("victim"), "precious\n");
        Files.createSymbolicLink(repo.resolve("numlint.sarif"), victim);
        Files.createSymbolicLink(repo.resolve("dangling.sarif"), outside.resolve("created"));
        Files.createSymbolicLink(repo.resolve("out"), outside);
        for (String out : List.of("numlint.sarif", "dangling.sarif", "out/r.sarif")) {
            for (String cmd : List.of("scan", "validate")) {
                Run s = cmd.equals("scan")
                        ? run(
                                "scan",
                                "--ptx",
                                "off",
                                "--format",
                                "sarif",
                                "--output",
                                repo.resolve(out).toString(),
                                repo.toString())
                        : run(
                                "validate",
                                "--gpu",
                                "off",
                                "--ptx",
                                "off",
                                "--format",
                                "json",
                                "--output",
                                repo.resolve(out).toString(),
                                repo.toString());
                assertThat(s.code()).as(cmd + " " + out).isEqualTo(2);
                assertThat(s.err()).as(out).contains("--output").contains("symbolic link");
            }
        }
        assertThat(victim).hasContent("precious");
        assertThat(outside.resolve("created")).doesNotExist();
        assertThat(outside.resolve("r.sarif")).doesNotExist();
    }

    @Test
    void aCacheDirectoryLinkInTheTreeIsNeverWrittenThrough() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.createSymbolicLink(repo.resolve("cache"), outside);
        Files.createSymbolicLink(repo.resolve("dangling"), outside.resolve("made"));
        for (String dir : List.of("cache", "dangling", "cache/sub")) {
            Run s = run(
                    "scan",
                    "--nvcc",
                    fake.nvcc().toString(),
                    "--cache-dir",
                    repo.resolve(dir).toString(),
                    "--format",
                    "json",
                    repo.toString());
            assertThat(s.code()).as(dir).isEqualTo(2);
            assertThat(s.err()).as(dir).contains("--cache-dir").contains("symbolic link");
        }
        // a cache inside the tree whose ptx/ directory is a planted link
        Path inTree = Files.createDirectories(repo.resolve("numlint-cache"));
        Files.createSymbolicLink(inTree.resolve("ptx"), outside);
        Run s = run(
                "scan",
                "--nvcc",
                fake.nvcc().toString(),
                "--cache-dir",
                inTree.toString(),
                "--format",
                "json",
                repo.toString());
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        try (var l = Files.list(outside)) {
            assertThat(l.toList()).isEmpty();
        }
        assertThat(outside.resolve("made")).doesNotExist();
    }

    @Test
    void anInterruptedScanLeavesNoTemporaryDirectoryAndNoPartialPtxInTheCache() throws Exception {
        // several slow compiles: when the first is killed, the workers go on to the next files while numlint exits
        fake.slowCompile(10);
        for (int i = 0; i < 8; i++) {
            Files.writeString(repo.resolve("k" + i + ".cu"), KERNEL.replace("k(", "k" + i + "("));
        }
        List<String> cmd = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.numlint.cli.Main",
                "scan",
                "--nvcc",
                fake.nvcc().toString(),
                "--cache-dir",
                cache.toString(),
                "--format",
                "json",
                repo.toString()));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("interrupted.txt").toFile())
                .start();
        long t0 = System.nanoTime();
        while (fake.compiles().isEmpty() && System.nanoTime() - t0 < 60_000_000_000L) Thread.sleep(100);
        assertThat(fake.compiles()).isNotEmpty(); // one or more compiles (the workers run in parallel) are running
        Thread.sleep(300);
        // Ctrl-C, or SIGTERM where this JVM was started with SIGINT ignored (a job a non-interactive shell put in the
        // background with '&'): the scan's JVM inherits that, installs no SIGINT handler and runs its nine compiles to
        // the end, which is what failed this test in such runs; the shutdown path under test is the same for both
        new ProcessBuilder("kill", sigintIgnored() ? "-TERM" : "-INT", Long.toString(p.pid()))
                .start()
                .waitFor();
        boolean exited = p.waitFor(90, java.util.concurrent.TimeUnit.SECONDS);
        String said = Files.readString(tmp.resolve("interrupted.txt"));
        assertThat(exited).as("the scan exits after SIGINT; it said:%n%s", said).isTrue();
        try (var all = Files.walk(cache)) {
            // what the Clang front end keeps between scans is allowed: the stub headers (with the library declarations'
            // folder inside them) and the lock file of the
            // precompiled header's slot (an advisory lock, held through the file's channel, not by its existence);
            // and the analysis cache's entries of the files analyzed before the interrupt (the Clang workers start
            // with the scan, so the source layer may finish a file first), each whole: a temporary or a partial file
            // is not
            List<Path> left = all.filter(f -> !Files.isDirectory(f))
                    .filter(f -> !(cache.relativize(f).getName(0).toString().startsWith("clang-stubs-")
                            || f.getParent().getFileName().toString().startsWith("clang-pch-")
                                    && f.getFileName().toString().endsWith(".lock")))
                    .toList();
            List<Path> entries = left.stream()
                    .filter(f -> f.getParent().equals(cache.resolve("source")))
                    .filter(f -> f.getFileName().toString().matches("[0-9a-f]{64}\\.json"))
                    .toList();
            for (Path e : entries) {
                assertThat(new ObjectMapper().readTree(e.toFile()).has("findings"))
                        .as("a whole analysis cache entry: " + e)
                        .isTrue();
            }
            assertThat(left.stream().filter(f -> !entries.contains(f)).toList())
                    .as("files left in the cache; the scan said:%n%s", said)
                    .isEmpty();
        }
        if (Files.isDirectory(cache.resolve("tmp"))) {
            try (var l = Files.list(cache.resolve("tmp"))) {
                assertThat(l.toList()).as("temporary directories left").isEmpty();
            }
        }
    }

    /** Whether this process ignores SIGINT (bit 2 of SigIgn in /proc/self/status): its children inherit that. */
    private static boolean sigintIgnored() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("SigIgn:"))
                    return (Long.parseUnsignedLong(l.substring(7).strip(), 16) & 2L) != 0;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: Ctrl-C as usual
        }
        return false;
    }

    @Test
    void theNvccProbesNeverUseTheSharedTemporaryDirectory() throws IOException {
        // an nvcc outside a toolkit layout: numlint asks it where its toolkit is (nvcc --dryrun)
        Files.delete(fake.toolkit().resolve("include/cuda_runtime.h"));
        Run s = scan();
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        assertThat(fake.calls()).anyMatch(c -> c.args().contains("--dryrun"));
        assertThat(fake.calls())
                .allMatch(c -> c.cwd().startsWith(cache.resolve("tmp").toString()), "under the cache");
    }

    // ---------------------------------------------------------------- small items (issue 31, item 7)

    @Test
    void aDefineWithASpaceIsRefusedWithANoticeNeverRewritten() throws IOException {
        Files.writeString(repo.resolve("Makefile"), "NVCCFLAGS = -O2 -D'Q=1 2'\nall:\n\tnvcc $(NVCCFLAGS) -c k.cu\n");
        Run s = scan();
        assertThat(s.code()).as(s.err()).isIn(0, 1);
        assertThat(fake.compiles()).hasSize(1);
        for (RecordingNvcc.Call c : fake.compiles()) {
            assertThat(c.args()).noneMatch(a -> a.startsWith("-DQ")).contains("-O2");
        }
        assertThat(notifications(s.json(), "nvcc-flag-dropped")).as(s.out()).anyMatch(m -> m.contains("Q=1 2"));
    }

    @Test
    void aPathLongerThanTheSystemAllowsIsNamedInANoticeAndValidationGoesOn() throws Exception {
        // 20 nested directories of 250 characters: more than 4,096 bytes, made by relative steps (as a checkout can)
        String part = "d".repeat(250);
        // perl steps down relative to each directory (a shell's cd and Java need the whole path)
        Process mk = new ProcessBuilder(
                        "perl",
                        "-e",
                        "chdir $ARGV[0] or die; for (1..20) { mkdir $ARGV[1] or die \"mkdir: $!\"; chdir $ARGV[1] or "
                                + "die \"chdir: $!\"; } open(F, '>deep.cu') or die; print F $ARGV[2]; close F",
                        repo.toString(),
                        part,
                        KERNEL.replace("k(", "deep("))
                .redirectErrorStream(true)
                .start();
        String mkOut = new String(mk.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        try {
            assumeTrue(mk.waitFor() == 0, "perl missing, or the file system refuses long paths: " + mkOut);
            Run s = run("scan", "--ptx", "off", "--format", "json", repo.toString());
            assertThat(s.code()).as(s.err()).isIn(0, 1);
            List<String> named = new ArrayList<>();
            s.json()
                    .path("notifications")
                    .forEach(n -> named.add(
                            n.path("file").asText() + ": " + n.path("message").asText()));
            assertThat(named).as(s.out()).anyMatch(m -> m.contains("dddd") && m.contains("too long"));
            Run v = run(
                    "validate",
                    "--gpu",
                    "off",
                    "--ptx",
                    "off",
                    "--all-kernels",
                    "--inputs",
                    "1",
                    "--format",
                    "json",
                    repo.toString());
            assertThat(v.code()).as(v.err()).isIn(0, 1);
        } finally {
            // JUnit cannot delete what it cannot name; rm walks it relative to each directory
            new ProcessBuilder("rm", "-rf", repo.resolve(part).toString())
                    .start()
                    .waitFor();
        }
    }

    @Test
    void aBidiOverrideInABuildContextLineIsEscapedOnTheTerminal() throws IOException {
        Files.writeString(
                repo.resolve("Makefile"),
                "NVCCFLAGS = -O2 -DNAME=a\u202eb --use_fast_math\nall:\n\tnvcc $(NVCCFLAGS) -c k.cu\n");
        for (String cmd : List.of("scan", "validate")) {
            Run s = cmd.equals("scan")
                    ? run("scan", "--ptx", "off", "--format", "text", repo.toString())
                    : run(
                            "validate",
                            "--gpu",
                            "off",
                            "--ptx",
                            "off",
                            "--all-kernels",
                            "--inputs",
                            "1",
                            "--format",
                            "text",
                            repo.toString());
            assertThat(s.code()).as(s.err()).isIn(0, 1);
            assertThat(s.out() + s.err()).as(cmd).doesNotContain("\u202e");
        }
    }

    @Test
    void twoRunsOverTheSameTreeGiveByteIdenticalSarif() throws IOException {
        // the first run compiles slowly (past the PTX layer's "slow" hint, lowered to 2 s here), the second finds the
        // PTX cached
        fake.slowCompile(3);
        System.setProperty("numlint.ptx.slowSeconds", "2");
        try {
            twoRuns();
        } finally {
            System.clearProperty("numlint.ptx.slowSeconds");
        }
    }

    private void twoRuns() throws IOException {
        Files.writeString(
                repo.resolve("Makefile"), "NVCCFLAGS = -O2 --use_fast_math\nall:\n\tnvcc $(NVCCFLAGS) -c k.cu\n");
        List<String> sarif = new ArrayList<>();
        java.io.PrintStream was = System.err;
        java.io.ByteArrayOutputStream progress = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < 2; i++) {
            // the progress lines (standard error) of the first run carry the hint; no report does
            if (i == 0) System.setErr(new java.io.PrintStream(progress, true, java.nio.charset.StandardCharsets.UTF_8));
            Run s;
            try {
                s = run(
                        "scan",
                        "--nvcc",
                        fake.nvcc().toString(),
                        "--cache-dir",
                        cache.toString(),
                        "--format",
                        "sarif",
                        repo.toString());
            } finally {
                System.setErr(was);
            }
            assertThat(s.code()).as(s.err()).isIn(0, 1);
            sarif.add(s.out());
        }
        assertThat(progress.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("compiling .cu files to PTX took");
        assertThat(fake.compiles()).hasSize(1);
        assertThat(sarif.get(1)).isEqualTo(sarif.get(0));
    }
}
