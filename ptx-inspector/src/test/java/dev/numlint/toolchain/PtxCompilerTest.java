package dev.numlint.toolchain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.testing.RecordingNvcc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PtxCompilerTest {
    @TempDir
    Path tmp;

    private Path root() throws IOException {
        return Files.createDirectories(tmp.resolve("repo")).toRealPath();
    }

    private PtxCompiler compiler(RecordingNvcc fake, Path root) {
        return new PtxCompiler(
                Nvcc.at(fake.nvcc()), new PtxCache(tmp.resolve("cache")), List.of(root), Duration.ofSeconds(60));
    }

    @Test
    void theExactArgumentListEnvironmentAndDirectory() throws IOException {
        assertThat(System.getenv("NUMLINT_TEST_SECRET"))
                .as("set by the build for tests")
                .isNotNull();
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path root = root();
        Files.createDirectories(root.resolve("inc"));
        Path cu = Files.writeString(root.resolve("k.cu"), "#include \"inc/h.cuh\"\n__global__ void k(float* a) {}\n");
        Files.writeString(root.resolve("inc/h.cuh"), "#pragma once\n");
        PtxCompiler c = compiler(fake, root);
        PtxCompiler.Result r = c.compile(
                cu,
                "sm_80",
                List.of("-O3", "-Iinc", "-DX=`./evil.sh`", "-Xcompiler=-march=native,-wrapper,./evil.sh", "-DN=4"),
                "k.cu");
        assertThat(r.ok()).isTrue();
        assertThat(r.ptx()).isEqualTo(RecordingNvcc.PTX);
        assertThat(r.ptxFile()).startsWith(tmp.resolve("cache/ptx"));
        List<RecordingNvcc.Call> compiles = fake.compiles();
        assertThat(compiles).hasSize(1);
        RecordingNvcc.Call call = compiles.get(0);
        assertThat(call.args())
                .containsExactly(
                        "-ptx",
                        "-lineinfo",
                        "-arch=compute_80",
                        "-O3",
                        "-DN=4",
                        "-I" + root.resolve("inc"),
                        cu.toString(),
                        "-o",
                        "out.ptx");
        assertThat(call.cwd()).startsWith(tmp.resolve("cache/tmp").toString() + "/numlint-run-");
        assertThat(call.env()).doesNotContainKey("NUMLINT_TEST_SECRET");
        assertThat(call.env().values()).doesNotContain(System.getenv("NUMLINT_TEST_SECRET"));
        assertThat(call.env().get("PATH"))
                .isEqualTo(fake.toolkit().resolve("bin").toRealPath() + ":/usr/bin:/bin");
        assertThat(call.env().get("HOME")).isEqualTo(call.cwd() + "/.home");
        assertThat(r.notifications())
                .extracting(Notification::message)
                .containsExactly(
                        "nvcc flag '-DX=`./evil.sh`' was not passed to nvcc: its value contains a backtick (command "
                                + "substitution)",
                        "nvcc flag '-Xcompiler=-march=native,-wrapper,./evil.sh' was not passed to nvcc: its value contains"
                                + " ',' (nvcc splits the value at commas into separate host compiler options)");
        // no temporary file is left behind
        try (var s = Files.list(tmp.resolve("cache/tmp"))) {
            assertThat(s.toList()).isEmpty();
        }
    }

    /** Issue 25 (warp-ctc): src/k.cu links to src/k.cpp; nvcc is told that the real file is CUDA. */
    @Test
    void aCuNameLinkingToACppFileIsCompiledAsCuda() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path root = root();
        Path cpp = Files.writeString(root.resolve("k.cpp"), "__global__ void k(float* a) {}\n");
        Path cu = Files.createSymbolicLink(root.resolve("k.cu"), Path.of("k.cpp"));
        PtxCompiler.Result r = compiler(fake, root).compile(cu, "sm_80", List.of(), "k.cu");
        assertThat(r.ok()).isTrue();
        assertThat(fake.compiles().get(0).args())
                .containsExactly("-ptx", "-lineinfo", "-arch=compute_80", "-x", "cu", cpp.toString(), "-o", "out.ptx");
    }

    /**
     * Issue 25 (popsift's s_filtergrid.cu under CUDA 13): every error line is about a toolkit header; the notice said
     * only "nvcc -ptx failed (exit 1)". It now says where the errors are, without quoting lines from outside the tree.
     */
    /** Issue 26: a compile killed at the limit says what is left out and how to raise the limit. */
    @Test
    void aCompileOverTheLimitSaysWhatIsLeftOutAndHowToRaiseIt() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake")).slowCompile(30);
        Path root = root();
        Path cu = Files.writeString(root.resolve("k.cu"), "__global__ void k(float* a) {}\n");
        PtxCompiler.Result r = new PtxCompiler(
                        Nvcc.at(fake.nvcc()), new PtxCache(tmp.resolve("cache")), List.of(root), Duration.ofSeconds(2))
                .compile(cu, "sm_80", List.of(), "k.cu");
        assertThat(r.ok()).isFalse();
        assertThat(r.notifications())
                .filteredOn(n -> n.id().equals("nvcc-failed"))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.file()).isEqualTo("k.cu");
                    assertThat(n.message())
                            .startsWith("nvcc -ptx did not finish within 2 s")
                            .contains("left out: the PTX layer's findings of this file")
                            .contains("JAVA_TOOL_OPTIONS=-Dnumlint.nvcc.compileTimeoutMs=6000");
                });
    }

    @Test
    void errorsOnlyInHeadersOutsideTheTreeAreCountedNotQuoted() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"))
                .failWhenSourceContains("BREAKS", "/opt/tk/include/nvtx3/nvToolsExt.h:1099:45: error: macro misuse");
        Path root = root();
        Path cu = Files.writeString(root.resolve("k.cu"), "// BREAKS\n__global__ void k(float* a) {}\n");
        PtxCompiler.Result r = compiler(fake, root).compile(cu, "sm_80", List.of(), "k.cu");
        assertThat(r.ok()).isFalse();
        assertThat(r.notifications())
                .filteredOn(n -> n.id().equals("nvcc-failed"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .startsWith("nvcc -ptx failed (exit 1): its 1 error line is about headers outside the"
                                + " scanned tree")
                        .doesNotContain("/opt/tk"));
    }

    /**
     * A failed compile is cached: a re-scan of the same sources and flags does not run nvcc again, and gives the same
     * notice. What is kept is nvcc's exit code and output, not numlint's notice, so a later numlint words it anew.
     */
    @Test
    void aFailedCompileIsCachedAsNvccsOutput() throws IOException {
        RecordingNvcc fake =
                RecordingNvcc.create(tmp.resolve("fake")).failWhenSourceContains("BREAKS", "k.cu:2:1: error: broken");
        Path root = root();
        Path cu = Files.writeString(root.resolve("k.cu"), "// BREAKS\n__global__ void k(float* a) {}\n");
        PtxCompiler.Result first = compiler(fake, root).compile(cu, "sm_80", List.of(), "k.cu");
        int runs = fake.compiles().size();
        PtxCompiler.Result again = compiler(fake, root).compile(cu, "sm_80", List.of(), "k.cu");
        assertThat(again.ok()).isFalse();
        assertThat(fake.compiles()).hasSize(runs);
        assertThat(again.notifications()).isEqualTo(first.notifications());
        try (var kept = Files.list(tmp.resolve("cache").resolve("ptx"))) {
            List<Path> failures =
                    kept.filter(f -> f.toString().endsWith(".nvcc-failed")).toList();
            assertThat(failures).hasSize(1);
            assertThat(Files.readString(failures.get(0)))
                    .startsWith("1\n")
                    .contains("k.cu:2:1: error: broken")
                    .doesNotContain("nvcc -ptx failed");
        }
        // other flags: compiled again
        compiler(fake, root).compile(cu, "sm_80", List.of("-DOTHER"), "k.cu");
        assertThat(fake.compiles().size()).isGreaterThan(runs);
    }

    @Test
    void aProjectMacroThatBreaksALibraryHeaderIsNamedAsTheCause() throws IOException {
        // a project's two-argument min macro, defined before a C++ standard header that calls std::min with three
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"))
                .failWhenSourceContains(
                        "BREAKS",
                        "/usr/include/c++/13/bits/stl_algobase.h:230:56: error: macro \"min\" passed 3 arguments,"
                                + " but takes just 2");
        Path root = root();
        Files.createDirectories(root.resolve("include"));
        Files.writeString(
                root.resolve("include/basic.h"),
                "#ifndef BASIC_H\n#define BASIC_H\n#define min(a,b) ((a)<(b)?(a):(b))\n#endif\n");
        Path cu = Files.writeString(
                root.resolve("k.cu"), "// BREAKS\n#include \"include/basic.h\"\n__global__ void k(float* a) {}\n");
        PtxCompiler.Result r = compiler(fake, root).compile(cu, "sm_80", List.of(), "k.cu");
        assertThat(r.notifications())
                .filteredOn(n -> n.id().equals("nvcc-failed"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("the project's macro min (include/basic.h:3) is expanded")
                        .doesNotContain("no longer accepts")
                        .doesNotContain("/usr/include"));
    }

    @Test
    void theCacheKeysOnHeadersReachedThroughIncludeDirectoriesAndAngleIncludes() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path root = root();
        Files.createDirectories(root.resolve("include/lib"));
        Path cu = Files.writeString(root.resolve("k.cu"), "#include <lib/a.cuh>\n__global__ void k() {}\n");
        Path header = Files.writeString(root.resolve("include/lib/a.cuh"), "#include \"b.cuh\"\n");
        Path nested = Files.writeString(root.resolve("include/lib/b.cuh"), "#define X 1\n");
        PtxCompiler c = compiler(fake, root);
        List<String> flags = List.of("-Iinclude");
        assertThat(c.compile(cu, null, flags, "k.cu").cached()).isFalse();
        assertThat(c.compile(cu, null, flags, "k.cu").cached()).isTrue();
        Files.writeString(header, "#include \"b.cuh\"\n#define Y 2\n");
        assertThat(compiler(fake, root).compile(cu, null, flags, "k.cu").cached())
                .isFalse();
        Files.writeString(nested, "#define X 2\n");
        assertThat(compiler(fake, root).compile(cu, null, flags, "k.cu").cached())
                .isFalse();
        assertThat(compiler(fake, root).compile(cu, null, flags, "k.cu").cached())
                .isTrue();
        assertThat(fake.compiles()).hasSize(3);
    }

    /**
     * Session 17's evaluation: a project including {@code <mpi.h>} from {@code /usr/lib/.../openmpi/include} lost its
     * PTX layer, and the notice advising {@code --nvcc-flags "-I<dir>"} did not help: the flag was dropped. A
     * directory the user names is trusted; the same directory from the tree's own flags is still refused.
     */
    @Test
    void includeDirectoriesTheUserNamesAreTrustedTheTreesAreNot() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path root = root();
        Path pkg = Files.createDirectories(tmp.resolve("pkg/include")).toRealPath();
        Files.writeString(pkg.resolve("mpi.h"), "#define MPI 1\n");
        Path cu = Files.writeString(root.resolve("k.cu"), "#include <mpi.h>\n__global__ void k() {}\n");
        List<String> flags = List.of("-I" + pkg);
        PtxCompiler tree = compiler(fake, root);
        tree.compile(cu, null, flags, "k.cu");
        assertThat(fake.compiles()).singleElement().satisfies(c -> assertThat(c.args())
                .doesNotContain("-I" + pkg));
        PtxCompiler user = new PtxCompiler(
                Nvcc.at(fake.nvcc()),
                new PtxCache(tmp.resolve("cache2")),
                List.of(root),
                dev.numlint.ptx.PtxAnalyzer.userIncludeDirs(List.of("-O2", "-I", pkg.toString(), "-Irel")),
                Duration.ofSeconds(60));
        assertThat(user.compile(cu, null, flags, "k.cu").ok()).isTrue();
        assertThat(fake.compiles()).hasSize(2).anySatisfy(c -> assertThat(c.args())
                .contains("-I" + pkg));
    }

    @Test
    void includesLeadingOutsideAreNotCompiled() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path root = root();
        Path secret = Files.writeString(
                Files.createDirectories(tmp.resolve("outside")).resolve("secret.h"), "x\n");
        Files.createSymbolicLink(root.resolve("link.h"), secret);
        Path a = Files.writeString(root.resolve("a.cu"), "__global__ void k() {}\n#include \"" + secret + "\"\n");
        Path b = Files.writeString(root.resolve("b.cu"), "#include \"h.cuh\"\n__global__ void k() {}\n");
        Files.writeString(root.resolve("h.cuh"), "\n#include \"../outside/secret.h\"\n");
        Path c = Files.writeString(root.resolve("c.cu"), "#include \"link.h\"\n__global__ void k() {}\n");
        Path z = Files.writeString(root.resolve("z.cu"), "#include \"/dev/zero\"\n__global__ void k() {}\n");
        PtxCompiler pc = compiler(fake, root);
        assertThat(pc.compile(a, null, List.of(), "a.cu").notifications())
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.id()).isEqualTo("include-blocked");
                    assertThat(n.level()).isEqualTo(Level.WARNING);
                    assertThat(n.line()).isEqualTo(2);
                    assertThat(n.message())
                            .isEqualTo("not compiled to PTX: a.cu:2: #include \"" + secret + "\": absolute "
                                    + "path outside the scanned tree and the toolkit/system include directories");
                });
        assertThat(pc.compile(b, null, List.of(), "b.cu").notifications())
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .isEqualTo("not compiled to PTX: h.cuh:2: #include \"../outside/secret.h\": "
                                + "resolves outside the scanned tree and the toolkit/system include directories"));
        assertThat(pc.compile(c, null, List.of(), "c.cu").notifications())
                .singleElement()
                .satisfies(
                        n -> assertThat(n.message()).contains("c.cu:1: #include \"link.h\": a symlink leads outside"));
        assertThat(pc.compile(z, null, List.of(), "z.cu").notifications())
                .singleElement()
                .satisfies(n -> assertThat(n.message()).contains("/dev/zero").contains("special file"));
        assertThat(fake.compiles()).isEmpty();
    }

    @Test
    void filesWithoutDeviceCodeAreNotCompiled() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path root = root();
        Path host = Files.writeString(root.resolve("host.cu"), "int main() { return 0; }\n");
        Path viaHeader = Files.writeString(root.resolve("v.cu"), "#include \"k.cuh\"\n");
        Files.writeString(root.resolve("k.cuh"), "__device__ float f(float x) { return x; }\n");
        PtxCompiler pc = compiler(fake, root);
        PtxCompiler.Result r = pc.compile(host, null, List.of(), "host.cu");
        assertThat(r.noDeviceCode()).isTrue();
        assertThat(r.ok()).isFalse();
        assertThat(pc.compile(viaHeader, null, List.of(), "v.cu").ok()).isTrue();
        assertThat(fake.compiles()).hasSize(1);
    }

    @Test
    void anArchitectureTheInstalledNvccDropsFallsBackToTheOldestItSupports() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake"));
        Path root = root();
        Path cu = Files.writeString(root.resolve("k.cu"), "__global__ void k() {}\n");
        PtxCompiler pc = compiler(fake, root);
        PtxCompiler.Result r = pc.compile(cu, "sm_60", List.of(), "k.cu");
        assertThat(r.ok()).isTrue();
        assertThat(r.notifications()).singleElement().satisfies(n -> {
            assertThat(n.id()).isEqualTo("nvcc-arch-fallback");
            assertThat(n.message())
                    .isEqualTo("architecture sm_60 is not supported by the installed nvcc "
                            + "(compute_75 to compute_90); PTX was built for compute_75 instead");
        });
        assertThat(fake.compiles().get(0).args()).contains("-arch=compute_75");
        assertThat(pc.compile(cu, "compute_90a", List.of(), "k.cu").notifications())
                .isEmpty();
        // --list-gpu-arch asked once
        assertThat(fake.calls().stream().filter(c -> c.args().equals(List.of("--list-gpu-arch"))))
                .hasSize(1);
    }

    @Test
    void aHangingVersionQueryTimesOut() throws IOException {
        RecordingNvcc fake = RecordingNvcc.create(tmp.resolve("fake")).hangOnVersion();
        Path root = root();
        Path cu = Files.writeString(root.resolve("k.cu"), "__global__ void k() {}\n");
        Nvcc nvcc = Nvcc.at(fake.nvcc());
        long t0 = System.nanoTime();
        PtxCompiler pc =
                new PtxCompiler(nvcc, new PtxCache(tmp.resolve("cache")), List.of(root), Duration.ofSeconds(60));
        // the build runs tests with numlint.nvcc.queryTimeoutMs=5000 (the default is 30 s)
        GuardedProcess.Result r =
                GuardedProcess.run(nvcc.spec(List.of("--version")).timeout(Duration.ofSeconds(1)));
        assertThat(r.timedOut()).isTrue();
        assertThat(System.nanoTime() - t0).isLessThan(Duration.ofSeconds(60).toNanos());
        assertThat(Nvcc.QUERY_TIMEOUT).isEqualTo(Duration.ofSeconds(5));
        assertThat(pc.unusable()).isEqualTo("'nvcc --version' did not answer within 5 s");
        assertThat(pc.compile(cu, null, List.of(), "k.cu").notifications())
                .singleElement()
                .satisfies(n -> assertThat(n.message()).contains("'nvcc --version' did not answer"));
        assertThat(System.nanoTime() - t0).isLessThan(Duration.ofSeconds(90).toNanos());
        assertThat(fake.compiles()).isEmpty();
    }

    @Test
    void realNvccEmptiesHostFunctionsHoldingEveryError() throws IOException {
        Optional<Path> nvcc = Nvcc.find(null, System.getenv("PATH"));
        Assumptions.assumeTrue(nvcc.isPresent(), "nvcc not found: skipping the compile test");
        Path root = root();
        Files.createDirectories(root.resolve("src"));
        Files.writeString(root.resolve("src/scale.h"), "#define SCALE 3.0f\n");
        // CUDA 13 removed cudaDeviceProp::clockRate: a host function that prints it fails the whole file
        Path cu = Files.writeString(
                root.resolve("src/k.cu"),
                "#include \"scale.h\"\n#include <cuda_runtime.h>\n#include <cstdio>\n"
                        + "__global__ void scale(float* a) { a[threadIdx.x] *= SCALE; }\n"
                        + "static void printDevice(int dev) {\n"
                        + "    cudaDeviceProp p; cudaGetDeviceProperties(&p, dev);\n"
                        + "    printf(\"%d\\n\", p.clockRate);\n"
                        + "}\n"
                        + "void launch(float* a) { scale<<<1, 32>>>(a); printDevice(0); }\n");
        PtxCompiler c = new PtxCompiler(
                Nvcc.at(nvcc.get()), new PtxCache(tmp.resolve("cache")), List.of(root), Duration.ofSeconds(120));
        PtxCompiler.Result r = c.compile(cu, "sm_80", List.of(), "src/k.cu");
        assertThat(r.ok()).isTrue();
        assertThat(r.ptx()).contains(".entry _Z5scalePf").contains("0f40400000");
        assertThat(PtxCompiler.definesFunction(r.ptx(), "printDevice")).isFalse();
        // the PTX names the scanned file, not the copy, so its lines map to the source
        assertThat(r.ptx()).contains(".file").contains(cu.toString()).doesNotContain("host-emptied");
        assertThat(r.notifications()).singleElement().satisfies(n -> {
            assertThat(n.line()).isEqualTo(7);
            assertThat(n.message())
                    .startsWith("nvcc -ptx failed on host code only (src/k.cu(7): error")
                    .contains("clockRate")
                    .contains("'printDevice' (line 5)")
                    .doesNotContain(root.toString());
        });
        PtxCompiler.Result again = c.compile(cu, "sm_80", List.of(), "src/k.cu");
        assertThat(again.cached()).isTrue();
        assertThat(again.notifications()).singleElement().satisfies(n -> assertThat(n.message())
                .isEqualTo(r.notifications().get(0).message()));
        // an error in device code: no copy, the failure as before
        Path dev = Files.writeString(
                root.resolve("src/d.cu"),
                "#define DEVICE __device__\nDEVICE float twice(float x) { return x * nothing_here; }\n"
                        + "__global__ void k(float* a) { a[0] = twice(a[1]); }\n");
        PtxCompiler.Result d = c.compile(dev, "sm_80", List.of(), "src/d.cu");
        assertThat(d.ok()).isFalse();
        assertThat(d.notifications()).singleElement().satisfies(n -> assertThat(n.message())
                .startsWith("nvcc -ptx failed (exit "));
    }

    @Test
    void realNvccCompilesOnceAndCaches() throws IOException {
        Optional<Path> nvcc = Nvcc.find(null, System.getenv("PATH"));
        Assumptions.assumeTrue(nvcc.isPresent(), "nvcc not found: skipping the compile test");
        Path root = root();
        Path cu = root.resolve("k.cu");
        Files.writeString(
                cu,
                "#include \"h.cuh\"\n#include <cuda_runtime.h>\n"
                        + "__global__ void k(float* a) { a[0] = twice(a[1]); }\n");
        Files.writeString(root.resolve("h.cuh"), "__device__ float twice(float x) { return x + x; }\n");
        PtxCompiler c = new PtxCompiler(
                Nvcc.at(nvcc.get()), new PtxCache(tmp.resolve("cache")), List.of(root), Duration.ofSeconds(120));
        PtxCompiler.Result r1 = c.compile(cu, "sm_80", List.of("-O3"), "k.cu");
        assertThat(r1.notifications()).isEmpty();
        assertThat(r1.ok()).isTrue();
        assertThat(r1.cached()).isFalse();
        assertThat(r1.ptx()).contains(".target sm_80").contains(".loc");
        assertThat(c.compile(cu, "sm_80", List.of("-O3"), "k.cu").cached()).isTrue();
        Files.writeString(root.resolve("h.cuh"), "__device__ float twice(float x) { return 2.0f * x; }\n");
        assertThat(c.compile(cu, "sm_80", List.of("-O3"), "k.cu").cached()).isFalse();
        // sm_60 is gone from nvcc 13: falls back instead of failing
        PtxCompiler.Result old = c.compile(cu, "sm_60", List.of(), "k.cu");
        assertThat(old.ok()).isTrue();
        // a compile error names the line in the file, relative
        Path bad = Files.writeString(root.resolve("bad.cu"), "__global__ void k(float* a) { a[0] = nothing_here; }\n");
        PtxCompiler.Result b = c.compile(bad, null, List.of(), "bad.cu");
        assertThat(b.ok()).isFalse();
        assertThat(b.notifications()).singleElement().satisfies(n -> {
            assertThat(n.line()).isEqualTo(1);
            assertThat(n.message())
                    .startsWith("nvcc -ptx failed (exit ")
                    .contains("bad.cu(1): error")
                    .contains("nothing_here")
                    .doesNotContain(root.toString());
        });
        // a missing header is named, with the hint
        Path miss = Files.writeString(root.resolve("miss.cu"), "#include \"nothere.cuh\"\n__global__ void k() {}\n");
        assertThat(c.compile(miss, null, List.of(), "miss.cu").notifications())
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("header #include \"nothere.cuh\" (miss.cu:1) was not found")
                        .contains("-p DIR"));
        // a system header numlint's include graph does not resolve comes first: the hint still names the header
        // nvcc could not open (behind a macro the graph does not evaluate)
        Path sys = Files.writeString(
                root.resolve("sys.cu"),
                "#include <algorithm>\n#ifndef FOR_PYTHON\n#include \"matlab_only.h\"\n#endif\n"
                        + "__global__ void k() {}\n");
        assertThat(c.compile(sys, null, List.of(), "sys.cu").notifications())
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("header #include \"matlab_only.h\" (sys.cu:3) was not found")
                        .doesNotContain("<algorithm>"));
        assertThat(c.compile(sys, null, List.of("-DFOR_PYTHON"), "sys.cu").ok()).isTrue();
    }

    @Test
    void theMissingHeaderIsTheOneNvccNames() {
        assertThat(PtxCompiler.missingHeader("x.hpp:21:10: fatal error: mex.h: No such file or directory\n"))
                .isEqualTo("mex.h");
        assertThat(PtxCompiler.missingHeader("k.cu(3): error: identifier \"x\" is undefined"))
                .isNull();
    }

    @Test
    void aHeaderMissedThroughAnIncludeDirectoryOutsideTheTreeIsAdvisedToScanIt() {
        var outside = new NvccFlagPolicy.Dropped("-I/opt/extra/include", null, NvccFlagPolicy.OUTSIDE_DIRECTORY);
        var other = new NvccFlagPolicy.Dropped("-Xptxas", null, "not a code-generation flag numlint passes");
        org.assertj.core.api.Assertions.assertThat(PtxCompiler.includeAdvice(java.util.List.of(other, outside), "x.h"))
                .startsWith(": the build's include directory ('-I/opt/extra/include') lies outside the scanned tree")
                .endsWith("add that directory to the scanned paths");
        org.assertj.core.api.Assertions.assertThat(PtxCompiler.includeAdvice(java.util.List.of(other), "x.h"))
                .isEqualTo(PtxCompiler.INCLUDE_ADVICE);
    }

    /**
     * A CUDA library's header nvcc did not find is one the toolkit lacks: install the library; a dropped directory is
     * named as the other place it may be (session 81 round I: curand_kernel.h was put down to a shim directory).
     */
    @Test
    void aCudaLibrarysHeaderIsAdvisedToInstallTheLibrary() {
        var outside = new NvccFlagPolicy.Dropped("-isystem=/opt/shim", null, NvccFlagPolicy.OUTSIDE_DIRECTORY);
        org.assertj.core.api.Assertions.assertThat(PtxCompiler.includeAdvice(java.util.List.of(), "curand_kernel.h"))
                .startsWith(": a header of cuRAND, a CUDA library the toolkit nvcc uses does not hold")
                .doesNotContain("include directory ('");
        org.assertj.core.api.Assertions.assertThat(PtxCompiler.includeAdvice(java.util.List.of(outside), "cufft.h"))
                .startsWith(": a header of cuFFT")
                .endsWith("the build's include directory ('-isystem=/opt/shim') lies outside the scanned tree and was"
                        + " not passed to nvcc either");
    }

    @Test
    void aMacroTheCommandOrTheTreeMayDefineIsNotUndefinable() throws IOException {
        Path root = root();
        Files.writeString(root.resolve("conf.h"), "#  define TREE_PLUGIN \"x.h\"\n// #define DOC_PLUGIN \"y.h\"\n");
        TreeMacros.forget();
        PtxCompiler c = compiler(RecordingNvcc.create(tmp.resolve("fake")), root);
        assertThat(c.undefinable("DOC_PLUGIN", List.of("-O3"))).isTrue();
        assertThat(c.undefinable("TREE_PLUGIN", List.of())).isFalse();
        assertThat(c.undefinable("DOC_PLUGIN", List.of("-DDOC_PLUGIN=\"/etc/passwd\"")))
                .isFalse();
        assertThat(c.undefinable("DOC_PLUGIN", List.of("-D", "DOC_PLUGIN"))).isFalse();
        assertThat(c.undefinable("DOC_PLUGIN", List.of("-include", "pre.h"))).isFalse();
        assertThat(c.undefinable("__FILE__", List.of())).isFalse();
        TreeMacros.forget();
    }
}
