package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.numlint.config.NumlintConfig;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.model.Suppression;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.KernelLink;
import dev.numlint.spi.ScanContext;
import dev.numlint.util.Glob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScannerTest {
    @TempDir
    Path dir;

    private Path write(String rel, String text) throws IOException {
        Path p = dir.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    private ScanResult scan(Analyzer... analyzers) {
        return Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(analyzers))
                .cacheDir(dir.resolve(".cache"))
                .build());
    }

    private static List<String> hits(ScanResult r) {
        return r.findings().stream()
                .map(f -> f.location().file() + ":" + f.location().startLine() + " " + f.ruleId()
                        + (f.suppressed() ? " suppressed" : ""))
                .collect(Collectors.toList());
    }

    /** Issue 26: header and template files are found by extension, one finding per written line. */
    @Test
    void headerAndTemplateFilesAreFoundByExtensionAndReportedOnce() throws IOException {
        String cast = "__device__ unsigned f(float v) {\n  return (unsigned)v;\n}\n";
        write("src/inc.inl", cast);
        write("src/orphan.hh", cast);
        write("src/k.cu", "#include \"inc.inl\"\n__global__ void k(float* x, unsigned* o) { o[0] = f(x[0]); }\n");
        ScanResult r = Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(new dev.numlint.cuda.CudaSourceAnalyzer()))
                .cacheDir(dir.resolve(".cache"))
                .build());
        assertThat(hits(r).stream().filter(h -> h.endsWith("NL001")))
                .containsExactly("src/inc.inl:2 NL001", "src/orphan.hh:2 NL001");
        assertThat(r.notifications())
                .filteredOn(n -> n.id().equals("header-alone"))
                .singleElement()
                .satisfies(n -> assertThat(n.message()).endsWith(": src/orphan.hh"));
    }

    /**
     * A build's copy of a written file ({@code configure_file(src/nanosvg.h build/nanosvg.c COPYONLY)}, compiled as
     * the implementation unit) holds the same hazards at the same lines: reported once, at the written file, with a
     * notice naming the copy (session 58 round B: every nanosvg finding twice).
     */
    @Test
    void aCopyOfAWrittenFileIsReportedOnceAtTheWrittenFile() throws IOException {
        String text = "int f(void);\nHAZARD(NL003)\nHAZARD(NL001)\n";
        write("src/lib.h", text);
        write("build/lib.c", text);
        write("src/other.c", "HAZARD(NL003)\n");
        ScanResult r = scan(new MarkerAnalyzer());
        assertThat(hits(r)).containsExactly("src/lib.h:2 NL003", "src/lib.h:3 NL001", "src/other.c:1 NL003");
        assertThat(r.notifications())
                .filteredOn(n -> n.id().equals("copied-source"))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.file()).isEqualTo("build/lib.c");
                    assertThat(n.message()).contains("same text as src/lib.h").contains("2 finding(s)");
                });
    }

    @Test
    void discoversScannableFilesSkipsVcsAndSortsByPath() throws IOException {
        write("b/k.cu", "HAZARD(NL003)");
        write("a/x.java", "HAZARD(NL001)");
        write("a/notes.txt", "HAZARD(NL001)");
        write(".git/objects/y.cu", "HAZARD(NL003)");
        write("target/gen.cu", "HAZARD(NL002)");
        write("CMakeLists.txt", "# HAZARD(NL003)");
        write("build/rules.mk", "# HAZARD(NL007)");
        ScanResult r = scan(new MarkerAnalyzer());
        assertThat(hits(r))
                .containsExactly(
                        "CMakeLists.txt:1 NL003",
                        "a/x.java:1 NL001",
                        "b/k.cu:1 NL003",
                        "build/rules.mk:1 NL007",
                        "target/gen.cu:1 NL002");
        assertThat(r.filesAnalyzed()).isEqualTo(5);
        assertThat(r.filesNotAnalyzed()).isZero();
        assertThat(r.executionSuccessful()).isTrue();
    }

    @Test
    void excludeGlobsFromOptionsAndConfig() throws IOException {
        write("src/k.cu", "HAZARD(NL003)");
        write("third_party/lib/k.cu", "HAZARD(NL003)");
        write("src/gen/auto.cu", "HAZARD(NL003)");
        write("src/x.generated.cu", "HAZARD(NL003)");
        ScanResult r = Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(new MarkerAnalyzer()))
                .config(NumlintConfig.parse("exclude: ['**/*.generated.cu', 'third_party']", "cfg"))
                .exclude("src/gen/**")
                .build());
        assertThat(hits(r)).containsExactly("src/k.cu:1 NL003");
    }

    /** An exclude pattern that matches nothing (an absolute path, read from the scan root) is said in a notice. */
    @Test
    void anExcludePatternThatMatchesNothingIsSaid() throws IOException {
        write("src/k.cu", "HAZARD(NL003)");
        write("deps/k.cu", "HAZARD(NL003)");
        String absolute = dir.resolve("deps").toAbsolutePath() + "/**";
        FileDiscovery.Result r =
                new FileDiscovery(dir, List.of(new Glob(absolute), new Glob("src/**")), null).discover(List.of(dir));
        assertThat(r.files())
                .containsExactly(dir.resolve("deps/k.cu").toAbsolutePath().normalize());
        assertThat(r.notifications()).singleElement().satisfies(n -> assertThat(n.id() + " " + n.message())
                .startsWith("exclude-unmatched exclude pattern '" + absolute + "' matched no file"));
    }

    @Test
    void symbolicLinksLeadingOutsideTheTreeAreNotFollowed() throws IOException {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("secret.h"), "int secret;\n");
        Files.writeString(repo.resolve("k.cu"), "int k;\n");
        Files.createSymbolicLink(repo.resolve("link.h"), outside.resolve("secret.h"));
        Files.createSymbolicLink(repo.resolve("dir"), outside);
        Files.createSymbolicLink(repo.resolve("inside.h"), repo.resolve("k.cu"));
        FileDiscovery.Result r = new FileDiscovery(repo, List.of(), null).discover(List.of(repo));
        assertThat(r.files()).containsExactly(repo.resolve("k.cu"));
        assertThat(r.notifications())
                .extracting(n -> n.file() + " " + n.id() + " " + n.level())
                .containsExactlyInAnyOrder("dir symlink-outside NOTE", "link.h symlink-outside ERROR");
    }

    /**
     * Issue 25: a project configured in its tree ({@code cmake -B build}) has CMake's compiler identification sources
     * and scratch projects under build/CMakeFiles; they are no part of the project (a .cu counted as a unit, parse
     * errors, *.cmake files evaluated as projects). The build tree's configured headers and database stay.
     */
    @Test
    void cmakeInternalDirectoriesOfAConfiguredBuildTreeAreSkipped() throws IOException {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        Path id = Files.createDirectories(repo.resolve("build/CMakeFiles/3.25.1/CompilerIdCUDA"));
        Path sub = Files.createDirectories(repo.resolve("build/src/CMakeFiles/lib.dir"));
        Path gen = Files.createDirectories(repo.resolve("build/src/generated"));
        Files.writeString(repo.resolve("build/CMakeCache.txt"), "CMAKE_BUILD_TYPE:STRING=\n");
        Files.writeString(repo.resolve("build/CMakeFiles/cmake.check_cache"), "# generated\n");
        Files.writeString(id.resolve("CMakeCUDACompilerId.cu"), "int id;\n");
        Files.writeString(repo.resolve("build/src/CMakeFiles/CMakeDirectoryInformation.cmake"), "set(X 1)\n");
        Files.writeString(sub.resolve("lib_generated_k.cu.o.cmake"), "set(X 1)\n");
        Files.writeString(gen.resolve("config.h"), "#define X 1\n");
        Files.writeString(repo.resolve("build/compile_commands.json"), "[]\n");
        Files.writeString(repo.resolve("k.cu"), "int k;\n");
        // a project's own directory that happens to be called CMakeFiles, outside a build tree, is scanned
        Files.createDirectories(repo.resolve("docs/CMakeFiles"));
        Files.writeString(repo.resolve("docs/CMakeFiles/own.cu"), "int own;\n");
        FileDiscovery.Result r = new FileDiscovery(repo, List.of(), null).discover(List.of(repo));
        assertThat(r.files())
                .containsExactlyInAnyOrder(
                        repo.resolve("k.cu"),
                        repo.resolve("docs/CMakeFiles/own.cu"),
                        gen.resolve("config.h"),
                        repo.resolve("build/compile_commands.json"));
    }

    /**
     * Issue 25 (warp-ctc): src/k.cu is a link to src/k.cpp and the build compiles k.cu with nvcc; the file is scanned
     * once, as the .cu, so that its device code reaches the CUDA front end and the PTX layer.
     */
    @Test
    void aCuLinkToACppFileIsScannedAsTheCu() throws IOException {
        Path repo = Files.createDirectories(dir.resolve("repo/src"));
        Files.writeString(repo.resolve("k.cpp"), "int k;\n");
        Files.createSymbolicLink(repo.resolve("k.cu"), Path.of("k.cpp"));
        Files.writeString(repo.resolve("h.cpp"), "int h;\n");
        Files.createSymbolicLink(repo.resolve("alias.cpp"), Path.of("h.cpp"));
        FileDiscovery.Result r = new FileDiscovery(repo, List.of(), null).discover(List.of(repo));
        assertThat(r.files()).containsExactly(repo.resolve("h.cpp"), repo.resolve("k.cu"));
    }

    @Test
    void symlinkLoopsAreReportedNotFollowedForever() throws IOException {
        write("a/k.cu", "HAZARD(NL003)");
        Files.createSymbolicLink(dir.resolve("a/loop"), dir.resolve("a"));
        Files.createSymbolicLink(dir.resolve("alias.cu"), dir.resolve("a/k.cu"));
        ScanResult r = scan(new MarkerAnalyzer());
        assertThat(hits(r)).containsExactly("a/k.cu:1 NL003");
        assertThat(r.notifications()).extracting(Notification::id).contains("symlink-loop");
    }

    @Test
    void appleDoubleCompanionsAreCountedInOneNoteNotAnalyzedAsBinaries() throws IOException {
        write("k.cu", "HAZARD(NL003)");
        Files.createDirectories(dir.resolve("sub"));
        Files.write(dir.resolve("._k.cu"), new byte[] {0x00, 0x05, 0x16, 0x07, 0, 2, 0, 0, 'M', 'a', 'c'});
        Files.write(dir.resolve("sub/._k.cu"), new byte[] {0x00, 0x05, 0x16, 0x07, 0, 2});
        Files.write(dir.resolve("._blob.cu"), new byte[] {'a', 0, 'b'}); // no AppleDouble header: a binary
        ScanResult r = scan(new MarkerAnalyzer());
        assertThat(hits(r)).containsExactly("k.cu:1 NL003");
        assertThat(r.notifications())
                .extracting(n -> n.file() + " " + n.id() + " " + n.level())
                .containsExactlyInAnyOrder("null apple-double NOTE", "._blob.cu binary-file ERROR");
        assertThat(r.notifications())
                .filteredOn(n -> n.id().equals("apple-double"))
                .extracting(Notification::message)
                .singleElement()
                .asString()
                .contains("2 macOS AppleDouble files", "'._k.cu'");
    }

    /**
     * The files nvcc keeps ({@code --keep}: preprocessed copies of a .cu file with every header, the fat binary's data)
     * are counted in one note, not analyzed (session 75 round A: committed intermediates doubled a code's findings);
     * a source merely named like one is analyzed.
     */
    @Test
    void nvccIntermediatesAreCountedInOneNoteNotAnalyzed() throws IOException {
        write("k.cu", "HAZARD(NL003)");
        write("Release/k.cudafe1.cpp", "#line 1 \"C:/src/k.cu\"\nHAZARD(NL003)");
        write("Release/k.cudafe1.stub.c", "#define X static\n#include \"crt/host_runtime.h\"\nHAZARD(NL003)");
        write("Release/k.fatbin.c", "#include \"fatBinaryCtl.h\"\n#define __CUDAFATBINSECTION x\nHAZARD(NL003)");
        write("mine.cudafe1.cpp", "HAZARD(NL003)");
        ScanResult r = scan(new MarkerAnalyzer());
        assertThat(hits(r)).containsExactlyInAnyOrder("k.cu:1 NL003", "mine.cudafe1.cpp:1 NL003");
        assertThat(r.notifications())
                .filteredOn(n -> n.id().equals("nvcc-intermediate"))
                .extracting(Notification::message)
                .singleElement()
                .asString()
                .contains("3 files nvcc writes with --keep", "'Release/k.cudafe1.cpp'");
    }

    @Test
    void aNamedPipeWithASourcesNameIsSaidNotOpened() throws Exception {
        write("k.cu", "HAZARD(NL003)");
        Path fifo = dir.resolve("pipe.cu");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo is not available");
        Files.createDirectories(dir.resolve("skip"));
        new ProcessBuilder("mkfifo", dir.resolve("skip/other.cu").toString())
                .start()
                .waitFor();
        ScanResult r = Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(new MarkerAnalyzer()))
                .exclude("skip/**")
                .build());
        assertThat(hits(r)).containsExactly("k.cu:1 NL003");
        assertThat(r.notifications())
                .extracting(n -> n.file() + " " + n.id() + " " + n.level() + " " + n.message())
                .containsExactly("pipe.cu not-a-source ERROR not analyzed: not a regular file (a named pipe, socket or"
                        + " device)");
    }

    @Test
    void badFilesAreNotificationsAndTheScanGoesOn() throws IOException {
        write("ok.cu", "HAZARD(NL003)");
        Path bin = dir.resolve("blob.cu");
        Files.write(bin, new byte[] {'a', 0, 'b'});
        write("big.cu", "HAZARD(NL003)\n" + "x".repeat(2000));
        ScanResult r = Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(new MarkerAnalyzer()))
                .maxFileSize(1000)
                .build());
        assertThat(hits(r)).containsExactly("ok.cu:1 NL003");
        assertThat(r.notifications())
                .extracting(n -> n.file() + " " + n.id() + " " + n.level())
                .containsExactly("big.cu file-too-large ERROR", "blob.cu binary-file ERROR");
        assertThat(r.filesNotAnalyzed()).isEqualTo(2);
        assertThat(r.filesAnalyzed()).isEqualTo(1);
    }

    @Test
    void unreadableFileIsReported() throws IOException {
        Path p = write("secret.cu", "HAZARD(NL003)");
        write("ok.cu", "HAZARD(NL003)");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("---------"));
        try {
            assumeFalse(Files.isReadable(p), "running as root: permissions do not stop reading");
            ScanResult r = scan(new MarkerAnalyzer());
            assertThat(hits(r)).containsExactly("ok.cu:1 NL003");
            assertThat(r.notifications()).extracting(Notification::id).containsExactly("unreadable-file");
        } finally {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        }
    }

    @Test
    void crashingAnalyzerCostsOnlyTheFileItFailedOn() throws IOException {
        write("a.cu", "HAZARD(NL003)");
        write("b.cu", "CRASH_ANALYZER");
        write("c.cu", "HAZARD(NL002)\nPARTIAL_NOTE");
        ScanResult r = scan(new MarkerAnalyzer());
        assertThat(hits(r)).containsExactly("a.cu:1 NL003", "c.cu:1 NL002");
        assertThat(r.notifications())
                .extracting(n -> n.file() + " " + n.id())
                .containsExactly("b.cu internal-error", "c.cu parse-error");
        assertThat(r.notifications().get(0).message())
                .isEqualTo("internal error in marker on b.cu: java.lang.IllegalStateException: boom at line 1");
        assertThat(r.executionSuccessful()).isFalse();
        assertThat(r.filesNotAnalyzed()).isEqualTo(1);
        assertThat(r.filesAnalyzed()).isEqualTo(2);
    }

    @Test
    void justifiedCommentsSuppressUnjustifiedOnesAreReported() throws IOException {
        write(
                "s.cu",
                String.join(
                        "\n",
                        "a = HAZARD(NL003); // numlint: ignore NL003 -- tolerance checked in test_dot",
                        "// numlint: ignore NL002, NL003 -- reviewed",
                        "b = HAZARD(NL003);",
                        "c = HAZARD(NL003); // numlint: ignore NL003",
                        "d = HAZARD(NL003); /* numlint: ignore NL003 -- */",
                        "e = HAZARD(NL001); // numlint: ignore NL003 -- wrong rule",
                        "// numlint: ignore NL007 -- alone on its line: applies to the next line",
                        "f = HAZARD(NL007);",
                        "",
                        "",
                        "g = HAZARD(NL003);"));
        ScanResult r = scan(new MarkerAnalyzer());
        assertThat(hits(r))
                .containsExactly(
                        "s.cu:1 NL003 suppressed",
                        "s.cu:3 NL003 suppressed",
                        "s.cu:4 NL003",
                        "s.cu:5 NL003",
                        "s.cu:6 NL001",
                        "s.cu:8 NL007 suppressed",
                        "s.cu:11 NL003");
        Finding first = r.findings().get(0);
        assertThat(first.suppression())
                .isEqualTo(new Suppression("inSource", "tolerance checked in test_dot", Location.line("s.cu", 1)));
        assertThat(r.findings().get(1).suppression().justification()).isEqualTo("reviewed");
        assertThat(r.notifications())
                .extracting(n -> n.id() + "@" + n.line())
                .containsExactly("unjustified-suppression@4", "unjustified-suppression@5");
        assertThat(r.notifications().get(0).level()).isEqualTo(Level.WARNING);
        // the location is the notification's own (printed once by every output), not part of the message
        assertThat(r.notifications().get(0).message())
                .doesNotContain("s.cu:4")
                .contains("'// numlint: ignore NL003 -- reason'");
    }

    @Test
    void absolutePathsUnderTheRootAreMadeRelative() throws IOException {
        Path cu = write("src/k.cu", "x");
        Analyzer a = analyzer(
                "abs",
                Layer.CUDA_SOURCE,
                Analyzer.PHASE_KERNEL,
                (ctx, files, sink) -> sink.report(Finding.builder("NL003")
                        .location(Location.of(cu.toString(), 1, 2))
                        .layer(Layer.CUDA_SOURCE)
                        .message("m")));
        assertThat(scan(a).findings()).extracting(f -> f.location().shortText()).containsExactly("src/k.cu:1:2");
    }

    @Test
    void findingsSuppressedByTheAnalyzerKeepTheirSuppression() throws IOException {
        write("A.java", "x");
        Analyzer a = analyzer(
                "j",
                Layer.JAVA_SOURCE,
                Analyzer.PHASE_HOST,
                (ctx, files, sink) -> sink.report(Finding.builder("NL011")
                        .location(Location.line("A.java", 1))
                        .layer(Layer.JAVA_SOURCE)
                        .message("m")
                        .suppression(new Suppression("inSource", "@SuppressWarnings(\"NL011\")", null))));
        ScanResult r = scan(a);
        assertThat(r.findings())
                .singleElement()
                .satisfies(f -> assertThat(f.suppression().justification()).isEqualTo("@SuppressWarnings(\"NL011\")"));
        assertThat(r.failsAt(Level.NOTE)).isFalse();
    }

    @Test
    void sourceAndPtxFindingsMergeAndDuplicatesCollapse() throws IOException {
        write("k.cu", "x = HAZARD(NL002);\ny = HAZARD(NL009); z = HAZARD(NL009);\nw = HAZARD(NL003);");
        write(
                "k.ptx",
                String.join(
                        "\n",
                        "div.full.f32 %f1, %f2, %f3; // HAZARD(NL002@k.cu:1)",
                        "mul.f32 %f4; // HAZARD(NL006@k.cu:1)"));
        ScanResult r = scan(new MarkerAnalyzer());
        // the PTX-only finding has no column, so it sorts first on its line
        assertThat(hits(r)).containsExactly("k.cu:1 NL006", "k.cu:1 NL002", "k.cu:2 NL009", "k.cu:3 NL003");
        Finding merged = r.findings().get(1);
        assertThat(merged.layer()).isEqualTo(Layer.CUDA_SOURCE);
        assertThat(merged.message()).isEqualTo("marker HAZARD(NL002) found (PTX confirms)");
        assertThat(merged.properties()).containsEntry("confirmedInPtx", true);
        assertThat(merged.evidence()).extracting(e -> e.kind()).containsExactly("source", "ptx");
        assertThat(merged.evidence().get(1).location()).isEqualTo(Location.line("k.ptx", 1));
        Finding ptxOnly = r.findings().get(0);
        assertThat(ptxOnly.layer()).isEqualTo(Layer.PTX);
        assertThat(ptxOnly.properties()).doesNotContainKey("confirmedInPtx");
        assertThat(r.findings().get(2).location().startColumn()).isEqualTo(5);
    }

    @Test
    void kernelLinksAddFilesAndLaunchSites() throws IOException {
        Path kernels = Files.createDirectories(dir.getParent().resolve(dir.getFileName() + "-kernels"));
        Path ptx = kernels.resolve("vec.ptx");
        Files.writeString(ptx, "a HAZARD(NL002,vecAdd)\nb HAZARD(NL003,other)\nc HAZARD(NL009)\n");
        write("src/Host.java", "launch");
        Analyzer host = analyzer("host", Layer.JAVA_SOURCE, Analyzer.PHASE_HOST, (ctx, files, sink) -> {
            assertThat(files).hasSize(1);
            ctx.linkKernel(new KernelLink(ptx, "vecAdd", Location.line("src/Host.java", 42)));
        });
        MarkerAnalyzer kernel = new MarkerAnalyzer() {
            @Override
            public boolean accepts(Path file) {
                return file.toString().endsWith(".ptx");
            }
        };
        ScanResult r = scan(host, kernel);
        String rel = ptx.toAbsolutePath().toString();
        assertThat(hits(r)).containsExactly(rel + ":1 NL002", rel + ":2 NL003", rel + ":3 NL009");
        assertThat(r.findings().get(0).related())
                .extracting(x -> x.message() + " " + x.location().shortText())
                .containsExactly("launched from Host.java:42 src/Host.java:42");
        assertThat(r.findings().get(1).related()).isEmpty();
        assertThat(r.findings().get(2).related()).hasSize(1);
        assertThat(r.filesAnalyzed()).isEqualTo(2);
    }

    @Test
    void aLinkToAMissingKernelFileIsReportedAtTheLaunchSite() throws IOException {
        write("src/Host.java", "launch");
        Analyzer host = analyzer(
                "host",
                Layer.JAVA_SOURCE,
                Analyzer.PHASE_HOST,
                (ctx, files, sink) -> ctx.linkKernel(
                        new KernelLink(dir.resolve("kernels/gone.ptx"), "k", Location.line("src/Host.java", 7))));
        ScanResult r = scan(host, new MarkerAnalyzer());
        assertThat(r.notifications())
                .extracting(n -> n.file() + ":" + n.line() + " " + n.id() + " " + n.message())
                .containsExactly(
                        "src/Host.java:7 missing-kernel-file kernel file kernels/gone.ptx launched here does not exist");
    }

    @Test
    void phaseZeroContextReachesLaterPhases() throws IOException {
        Path cu = write("k.cu", "x");
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        Analyzer flags = analyzer("flags", Layer.BUILD_FLAGS, Analyzer.PHASE_CONTEXT, (ctx, files, sink) -> {
            ctx.addBuildContext(null, BuildContext.defaults().fastMath(true));
            ctx.addBuildContext(cu, BuildContext.defaults().fmad(false));
            seen.add("own " + ctx.buildContext(cu).effectiveFastMath());
        });
        Analyzer kernel = analyzer("kern", Layer.CUDA_SOURCE, Analyzer.PHASE_KERNEL, (ctx, files, sink) -> {
            BuildContext c = ctx.buildContext(cu);
            seen.add("kernel " + c.effectiveFastMath() + " " + c.effectiveFmad() + " " + files.size());
        });
        scan(kernel, flags);
        assertThat(seen).containsExactly("own true", "kernel true false 1");
    }

    @Test
    void configurationDisablesRulesAndOverridesLevels() throws IOException {
        write("k.cu", "HAZARD(NL003) HAZARD(NL002) HAZARD(NL007)");
        NumlintConfig cfg = NumlintConfig.parse("rules:\n  NL003: {enabled: false}\n  NL002: {level: error}\n", "cfg");
        ScanResult r = Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(new MarkerAnalyzer()))
                .config(cfg)
                .build());
        assertThat(r.findings())
                .extracting(f -> f.ruleId() + " " + f.level())
                .containsExactly("NL002 ERROR", "NL007 NOTE");
        assertThat(r.failsAt(Level.ERROR)).isTrue();
    }

    @Test
    void fingerprintsSurviveUnrelatedEditsAndDistinguishRepeats() throws IOException {
        write("k.cu", "int a;\nx = HAZARD(NL003);\nx = HAZARD(NL003);\ny = HAZARD(NL003);\n");
        List<String> before = scan(new MarkerAnalyzer()).findings().stream()
                .map(Finding::fingerprint)
                .toList();
        write("k.cu", "// a new comment\n\nint a;\nx  =  HAZARD(NL003);\nx = HAZARD(NL003);\ny = HAZARD(NL003);\n");
        List<String> after = scan(new MarkerAnalyzer()).findings().stream()
                .map(Finding::fingerprint)
                .toList();
        assertThat(before).hasSize(3).doesNotHaveDuplicates().allMatch(s -> s.matches("[0-9a-f]{32}"));
        assertThat(after).isEqualTo(before);
        write("k.cu", "int a;\nx = HAZARD(NL003);\nx = HAZARD(NL003);\ny = HAZARD(NL003) + 1;\n");
        List<String> changed = scan(new MarkerAnalyzer()).findings().stream()
                .map(Finding::fingerprint)
                .toList();
        assertThat(changed.subList(0, 2)).isEqualTo(before.subList(0, 2));
        assertThat(changed.get(2)).isNotEqualTo(before.get(2));
    }

    @Test
    void resultsDoNotDependOnThreadsOrAnalyzerOrder() throws IOException {
        for (int i = 0; i < 40; i++) {
            write("d" + (i % 5) + "/f" + i + ".cu", "HAZARD(NL003)\nq HAZARD(NL00" + (1 + i % 9) + ")\n");
        }
        Analyzer second = new MarkerAnalyzer() {
            @Override
            public String id() {
                return "marker2";
            }

            @Override
            public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
                List<Path> rev = new ArrayList<>(files);
                Collections.reverse(rev);
                super.analyze(ctx, rev, sink);
            }
        };
        ScanResult one = Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(new MarkerAnalyzer(), second))
                .threads(1)
                .build());
        ScanResult two = Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(second, new MarkerAnalyzer()))
                .threads(4)
                .build());
        assertThat(two.findings()).isEqualTo(one.findings());
        assertThat(one.findings()).hasSize(80);
    }

    @Test
    void analyzersReceivePathsRelativeToTheRootInAccepts() throws IOException {
        write("sub/dir/k.cu", "x");
        List<Path> asked = Collections.synchronizedList(new ArrayList<>());
        Analyzer a = new MarkerAnalyzer() {
            @Override
            public boolean accepts(Path file) {
                asked.add(file);
                return true;
            }
        };
        scan(a);
        assertThat(asked).containsExactly(Path.of("sub/dir/k.cu"));
    }

    @Test
    void analyzerTasksRunOnTheSharedPoolWhichAnalyzersCannotShutDown() throws Exception {
        for (int i = 0; i < 6; i++) {
            write("k" + i + ".cu", "HAZARD(NL003)");
        }
        Analyzer parallel = new MarkerAnalyzer() {
            @Override
            public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
                List<java.util.concurrent.Future<?>> fs = new ArrayList<>();
                for (Path f : files) {
                    fs.add(ctx.executor().submit(() -> super.analyze(ctx, List.of(f), sink)));
                }
                ctx.executor().shutdown();
                for (java.util.concurrent.Future<?> f : fs) {
                    try {
                        f.get();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        };
        Analyzer second = new MarkerAnalyzer() {
            @Override
            public int phase() {
                return PHASE_KERNEL + 1;
            }

            @Override
            public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
                try {
                    ctx.executor().submit(() -> {}).get();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        ScanResult r = scan(parallel, second);
        assertThat(r.findings()).hasSize(6);
        assertThat(r.executionSuccessful()).isTrue();
    }

    @Test
    void progressCountsFilesAsAnalyzerTasksFinish() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        Progress p = new Progress(new java.io.PrintStream(bytes, true), 0, 0);
        p.add(3);
        p.advance(1);
        p.advance(2);
        p.done();
        assertThat(bytes.toString()).startsWith("\r[1/3]\r[3/3]\r").endsWith("\r");
        assertThat(p.shown()).isEqualTo("3/3");
    }

    @Test
    void progressOutsideATerminalIsALineNowAndThenWithThePtxHintOnce() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        Progress p = Progress.lines(new java.io.PrintStream(bytes, true), true, 0, 0);
        p.add(3);
        p.advance(1);
        p.advance(2);
        p.done();
        p.finish(2, 1);
        // issue 30: the running count varied from run to run and read like the result; the result is printed once
        assertThat(bytes.toString())
                .isEqualTo("numlint: working: 1 of 3 file analyses done (the PTX layer compiles .cu files with nvcc;"
                        + " --ptx off skips it)\nnumlint: working: 3 of 3 file analyses done\n"
                        + "numlint: done: 2 files analyzed, 1 not analyzed\n");
        java.io.ByteArrayOutputStream quiet = new java.io.ByteArrayOutputStream();
        Progress q = Progress.lines(new java.io.PrintStream(quiet, true), false, 60_000_000_000L, 0);
        q.add(1);
        q.advance(1);
        q.done();
        q.finish(1, 0);
        assertThat(quiet.toString()).isEmpty();
    }

    @Test
    void progressOutsideATerminalKeepsWritingWhileOneFileTakesLong() throws InterruptedException {
        // session 30: one line in 9 minutes while one file's Clang parse ran; a line comes every interval now
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        Progress p = Progress.lines(new java.io.PrintStream(bytes, true), false, 0, 20_000_000L);
        p.add(2);
        p.advance(1);
        p.startHeartbeat();
        for (int i = 0; i < 500 && !bytes.toString().contains("s so far"); i++) Thread.sleep(10);
        p.done();
        String text = bytes.toString();
        assertThat(text).startsWith("numlint: working: 1 of 2 file analyses done\n");
        assertThat(text).containsPattern("numlint: working: 1 of 2 file analyses done, \\d+ s so far\n");
        // stopped with the scan: nothing after done()
        Thread.sleep(60);
        assertThat(bytes.toString()).isEqualTo(text);
    }

    @Test
    void anAnalyzerThatWorksThroughItsFilesOnOneTaskMovesTheCountPerFile() throws IOException {
        // session 49: the CUDA front end parses its units on as many tasks as cores; the count moved only when a task
        // ended ("145 of 348 file analyses done" for three minutes). fileDone() moves it per file
        for (int i = 0; i < 3; i++) write("src/k" + i + ".cu", "k");
        Analyzer cuda = analyzer("cuda", Layer.CUDA_SOURCE, Analyzer.PHASE_KERNEL, (ctx, files, sink) -> {
            try {
                Thread.sleep(1_100); // past the display's first second
                for (Path f : files) {
                    ctx.fileDone();
                    Thread.sleep(250); // past its interval
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(cuda))
                .cacheDir(dir.resolve(".cache"))
                .progress(new java.io.PrintStream(bytes, true))
                .build());
        assertThat(bytes.toString()).contains("[1/3]", "[2/3]", "[3/3]");
    }

    @Test
    void theProgressLineMentionsPtxOnlyWhenTheScanHasCuFiles() {
        List<Path> java = List.of(Path.of("a/Main.java"), Path.of("pom.xml"));
        List<Path> cuda = List.of(Path.of("a/Main.java"), Path.of("k/kernel.cu"));
        assertThat(Progress.ptxHint(dev.numlint.spi.PtxMode.AUTO, java)).isFalse();
        assertThat(Progress.ptxHint(dev.numlint.spi.PtxMode.AUTO, cuda)).isTrue();
        assertThat(Progress.ptxHint(dev.numlint.spi.PtxMode.OFF, cuda)).isFalse();
    }

    interface Body {
        void run(ScanContext ctx, List<Path> files, FindingSink sink);
    }

    static Analyzer analyzer(String id, Layer layer, int phase, Body body) {
        return new Analyzer() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public Layer layer() {
                return layer;
            }

            @Override
            public int phase() {
                return phase;
            }

            @Override
            public Set<String> implementedRules() {
                return Set.of();
            }

            @Override
            public boolean accepts(Path file) {
                String n = file.toString();
                return switch (layer) {
                    case JAVA_SOURCE -> n.endsWith(".java");
                    case CUDA_SOURCE -> n.endsWith(".cu");
                    default -> true;
                };
            }

            @Override
            public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
                body.run(ctx, files, sink);
            }
        };
    }
}
