package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.testing.InlineExpectations;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Included files (issue 14 item 4), the preprocessor driven by the build context (item 2) and the bounds of the
 * front end (issue 11 item 4).
 */
class CudaIncludesTest {
    private static final String CAST_HCU = "__device__ inline unsigned short toPixel(float v) {\n"
            + "  return (unsigned short)(v * 255.0f);\n"
            + "}\n";

    private static TestScanContext scan(Path dir, BuildContext bc) {
        return new TestScanContext(dir).projectContext(bc).run(new CudaSourceAnalyzer());
    }

    @Test
    void aHeaderOfAnyExtensionIncludedByAScannedSourceIsAnalyzedOnce(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pixel.hcu"), CAST_HCU);
        Files.writeString(
                dir.resolve("detail.inl"),
                "#ifdef WITH_DETAIL\n__device__ unsigned char d(float v) " + "{ return (unsigned char)v; }\n#endif\n");
        Files.writeString(
                dir.resolve("a.cu"),
                "#define WITH_DETAIL\n#include \"pixel.hcu\"\n#include \"detail.inl\"\n"
                        + "__global__ void a(float *x, unsigned short *o) { o[0] = toPixel(x[0]); }\n");
        Files.writeString(
                dir.resolve("b.cu"),
                "#include \"pixel.hcu\"\n"
                        + "__global__ void b(float *x, unsigned short *o) { o[1] = toPixel(x[1]); }\n");
        Files.writeString(dir.resolve("unused.hxx"), CAST_HCU);
        TestScanContext ctx = scan(dir, BuildContext.defaults());
        // pixel.hcu is analyzed once although two sources include it; detail.inl, found by its extension too, once,
        // with the macros its includer defined before the #include (alone it would define nothing); unused.hxx is
        // included by nothing: found by its extension and analyzed on its own, which a notice says (issue 26)
        // in any order: the files are analyzed in parallel, and the scan (not this context) sorts what it reports
        assertThat(ctx.hits())
                .containsExactlyInAnyOrder(
                        new InlineExpectations.Hit("detail.inl", 2, "NL001"),
                        new InlineExpectations.Hit("pixel.hcu", 2, "NL001"),
                        new InlineExpectations.Hit("unused.hxx", 2, "NL001"));
        assertThat(ctx.notifications()).singleElement().satisfies(n -> {
            assertThat(n.id()).isEqualTo("header-alone");
            assertThat(n.message()).contains("1 header or template file(s)").endsWith(": unused.hxx");
        });
    }

    @Test
    void aTemplateFileItsHeaderIncludesUnderGnuCxxIsReadThroughTheHeaderNotAlone(@TempDir Path dir) throws Exception {
        // a C++ library's pattern (session 80 round H, an integration package): the header includes the members'
        // definitions at its end when a macro that __GNUG__ (GCC and Clang in C++) defines is set
        Files.writeString(dir.resolve("templist.h"), "#ifdef __GNUG__\n#define TEMPLATEINCLUDE\n#endif\n");
        Files.writeString(
                dir.resolve("grid.h"),
                "#ifndef GRID_H\n#define GRID_H\ntemplate <class T> struct Grid { unsigned cell(T x); };\n"
                        + "#include \"templist.h\"\n#ifdef TEMPLATEINCLUDE\n#include \"grid.tpp\"\n#endif\n#endif\n");
        Files.writeString(
                dir.resolve("grid.tpp"),
                "#include \"grid.h\"\ntemplate <class T> unsigned Grid<T>::cell(T x) { return (unsigned)(x * 8); }\n");
        Files.writeString(
                dir.resolve("main.cpp"),
                "#include \"grid.h\"\nunsigned at(double x) { Grid<double> g; return g.cell(x); }\n");
        TestScanContext ctx = scan(dir, BuildContext.defaults());
        assertThat(ctx.notifications())
                .as("grid.tpp is read through grid.h, not on its own (where it redefines Grid's member)")
                .noneMatch(n -> n.id().equals("header-alone") || n.id().equals("clang-error"));
        assertThat(ctx.hits()).containsExactly(new InlineExpectations.Hit("grid.tpp", 2, "NL001"));
    }

    @Test
    void anIncludeNoDirectoryHoldsReadsTheOneFileOfTheTreeByThatNameAndSaysSo(@TempDir Path dir) throws Exception {
        // a CMake project whose sources include "x.hcu" from a sibling include/ directory the scan cannot evaluate
        Files.createDirectories(dir.resolve("src"));
        Files.createDirectories(dir.resolve("include/pix"));
        Files.createDirectories(dir.resolve("include/a"));
        Files.createDirectories(dir.resolve("include/b"));
        Files.writeString(dir.resolve("include/pix/pixel.hcu"), CAST_HCU);
        Files.writeString(dir.resolve("include/a/twice.hcu"), CAST_HCU);
        Files.writeString(dir.resolve("include/b/twice.hcu"), CAST_HCU);
        Files.writeString(
                dir.resolve("src/k.cu"),
                "#include \"pixel.hcu\"\n#include \"twice.hcu\"\n#include \"../include/none.hcu\"\n"
                        + "__global__ void k(float *x, unsigned short *o) { o[0] = toPixel(x[0]); }\n");
        TestScanContext ctx = scan(dir, BuildContext.defaults());
        // pixel.hcu is the only file of that name: read, and a note names it; twice.hcu is ambiguous: not read
        assertThat(ctx.hits()).containsExactly(new InlineExpectations.Hit("include/pix/pixel.hcu", 2, "NL001"));
        List<String> notes = ctx.notifications().stream()
                .map(n -> n.file() + ":" + n.line() + " " + n.id() + " " + n.message())
                .collect(Collectors.toList());
        assertThat(notes)
                .containsExactly("src/k.cu:1 include-by-name #include \"pixel.hcu\" read from include/pix/pixel.hcu,"
                        + " the only file of that name: no include directory of the build holds it");
    }

    /**
     * A header read through a unit without the include directory that another unit's compile command has: the
     * by-name note must not say that no include directory of the build holds the file (SUNDIALS' headers included
     * by sources the build does not compile).
     */
    @Test
    void aByNameNoteSaysWhenTheBuildsIncludeDirectoriesDoHoldTheFile(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("src"));
        Files.createDirectories(dir.resolve("inc"));
        Files.writeString(dir.resolve("inc/u.hcu"), CAST_HCU);
        Files.writeString(dir.resolve("src/h.hcu"), "#include \"u.hcu\"\n");
        String kernel = "__global__ void k(float *x, unsigned short *o) { o[0] = toPixel(x[0]); }\n";
        Files.writeString(dir.resolve("src/a.cu"), kernel.replace("toPixel(x[0])", "0"));
        Files.writeString(dir.resolve("src/b.cu"), "#include \"h.hcu\"\n" + kernel);
        TestScanContext ctx = new TestScanContext(dir);
        BuildContext withInc = BuildContext.defaults();
        withInc.addIncludePath(dir.resolve("inc"));
        withInc.configuration("compile_commands.json entry (build/compile_commands.json:1)");
        ctx.addBuildContext(dir.resolve("src/a.cu"), withInc);
        ctx.addBuildContext(dir.resolve("src/b.cu"), BuildContext.defaults());
        ctx.run(new CudaSourceAnalyzer());
        assertThat(ctx.notifications())
                .filteredOn(n -> n.id().equals("include-by-name"))
                .singleElement()
                .satisfies(n -> assertThat(n.file() + ":" + n.line() + " " + n.message())
                        .startsWith("src/h.hcu:1 #include \"u.hcu\" read from inc/u.hcu, the only file of that name")
                        .doesNotContain("no include directory of the build holds it")
                        .contains("this file was read without an include directory that holds it, but the build"
                                + " has one (inc, given to src/a.cu)"));
    }

    /**
     * Session 25's defect 2 (opus, STIR): the header whose include was read by name is itself compiled through a unit
     * whose command gives the directory (opus's {@code -Iinclude}, STIR's {@code -I} in CMake's includes_CUDA.rsp):
     * the build does include the file as read, and no note contradicts the compile command. A header that has the
     * directory only through its includer is not named as the file the directory was given to: a compiled unit is.
     */
    @Test
    void aByNameNoteIsNotGivenWhenTheIncludersBuildHasTheDirectoryAndNamesACompiledUnit(@TempDir Path dir)
            throws Exception {
        Files.createDirectories(dir.resolve("src"));
        Files.createDirectories(dir.resolve("inc"));
        Files.writeString(dir.resolve("inc/u.hcu"), CAST_HCU);
        Files.writeString(dir.resolve("src/h.hcu"), "#include \"u.hcu\"\n");
        Files.writeString(dir.resolve("src/0.h"), "#define ZERO 0\n");
        String kernel = "__global__ void k(float *x, unsigned short *o) { o[0] = toPixel(x[0]); }\n";
        Files.writeString(dir.resolve("src/a.cu"), "#include \"h.hcu\"\n" + kernel);
        Files.writeString(dir.resolve("src/b.cu"), "#include \"h.hcu\"\n" + kernel);
        BuildContext withInc = BuildContext.defaults();
        withInc.addIncludePath(dir.resolve("inc"));
        withInc.configuration("compile_commands.json entry (build/compile_commands.json:1)");
        BuildContext throughA = BuildContext.defaults();
        throughA.addIncludePath(dir.resolve("inc"));
        throughA.configuration(
                "compiled through src/a.cu: compile_commands.json entry (build/compile_commands.json:1)");
        // the header compiled through a.cu: its includes are a.cu's; b.cu is no unit of the build
        TestScanContext ctx = new TestScanContext(dir);
        ctx.addBuildContext(dir.resolve("src/a.cu"), withInc);
        ctx.addBuildContext(dir.resolve("src/b.cu"), BuildContext.defaults());
        ctx.addBuildContext(dir.resolve("src/h.hcu"), throughA);
        ctx.run(new CudaSourceAnalyzer());
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("include-by-name"));
        // the header has no build context of its own, but a.cu, a unit of the build, reads it with the directory:
        // the build includes u.hcu as read, whichever of a.cu and b.cu (guessed flags) the header is read through
        TestScanContext through = new TestScanContext(dir);
        through.addBuildContext(dir.resolve("src/a.cu"), withInc);
        through.addBuildContext(dir.resolve("src/b.cu"), BuildContext.defaults());
        through.run(new CudaSourceAnalyzer());
        assertThat(through.notifications()).noneMatch(n -> n.id().equals("include-by-name"));
        // a header that only a file of guessed flags reads (c.cu, no unit of the build): the note stays, and names
        // the unit, not a header (src/0.h, first by path, has the directory only through the unit that includes it)
        Files.writeString(dir.resolve("src/g.hcu"), "#include \"u.hcu\"\n");
        Files.writeString(dir.resolve("src/c.cu"), "#include \"g.hcu\"\n" + kernel);
        TestScanContext alone = new TestScanContext(dir);
        alone.addBuildContext(dir.resolve("src/0.h"), throughA);
        alone.addBuildContext(dir.resolve("src/a.cu"), withInc);
        alone.addBuildContext(dir.resolve("src/b.cu"), BuildContext.defaults());
        alone.addBuildContext(dir.resolve("src/c.cu"), BuildContext.defaults());
        alone.run(new CudaSourceAnalyzer());
        assertThat(alone.notifications())
                .filteredOn(n -> n.id().equals("include-by-name"))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.file()).isEqualTo("src/g.hcu");
                    assertThat(n.message()).contains("but the build has one (inc, given to src/a.cu)");
                });
    }

    /** The build's include directory is the scanned tree's root (PKDGRAV3's -I mdl2/..): it is named ".". */
    @Test
    void aByNameNoteNamesTheTreesRootAsDot(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("src"));
        Files.createDirectories(dir.resolve("lib"));
        Files.writeString(dir.resolve("lib/u.hcu"), CAST_HCU);
        String kernel = "__global__ void k(float *x, unsigned short *o) { o[0] = toPixel(x[0]); }\n";
        Files.writeString(dir.resolve("src/a.cu"), kernel.replace("toPixel(x[0])", "0"));
        Files.writeString(dir.resolve("src/b.cu"), "#include \"lib/u.hcu\"\n" + kernel);
        TestScanContext ctx = new TestScanContext(dir);
        BuildContext withRoot = BuildContext.defaults();
        withRoot.addIncludePath(dir.resolve("src/.."));
        withRoot.configuration("compile_commands.json entry (build/compile_commands.json:1)");
        ctx.addBuildContext(dir.resolve("src/a.cu"), withRoot);
        ctx.addBuildContext(dir.resolve("src/b.cu"), BuildContext.defaults());
        ctx.run(new CudaSourceAnalyzer());
        assertThat(ctx.notifications())
                .filteredOn(n -> n.id().equals("include-by-name"))
                .singleElement()
                .satisfies(n -> assertThat(n.message()).contains("but the build has one (., given to src/a.cu)"));
    }

    @Test
    void aHeaderMeansWhatItsIncluderMakesOfItWhicheverSourceCameFirst(@TempDir Path dir) throws Exception {
        // user.def pulls in config.def; a.cu has included config.def before, so under a.cu the guard skips it. b.cu
        // includes only user.def and must still see Pixel, whichever file the scan reads first (the .def files are
        // not sources of their own: they are read only through the includes)
        Files.writeString(
                dir.resolve("config.def"),
                "#ifndef CONFIG_H\n#define CONFIG_H\n#define Pixel unsigned short\n#endif\n");
        Files.writeString(dir.resolve("user.def"), "#include \"config.def\"\n#define SCALE 255.0f\n");
        String kernel = "__global__ void k(float *x, unsigned short *o) { o[0] = (Pixel)(x[0] * SCALE); }\n";
        Files.writeString(dir.resolve("a.cu"), "#include \"config.def\"\n#include \"user.def\"\n" + kernel);
        Files.writeString(dir.resolve("b.cu"), "#include \"user.def\"\n" + kernel);
        List<InlineExpectations.Hit> both = scan(dir, BuildContext.defaults()).hits();
        assertThat(both)
                .containsExactlyInAnyOrder(
                        new InlineExpectations.Hit("a.cu", 3, "NL001"), new InlineExpectations.Hit("b.cu", 2, "NL001"));
        // the same with the roles of the names swapped
        Files.move(dir.resolve("a.cu"), dir.resolve("c.cu"));
        assertThat(scan(dir, BuildContext.defaults()).hits())
                .containsExactlyInAnyOrder(
                        new InlineExpectations.Hit("b.cu", 2, "NL001"), new InlineExpectations.Hit("c.cu", 3, "NL001"));
    }

    @Test
    void includeExtensionsAreConfigurable(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pixel.hcu"), CAST_HCU);
        Files.writeString(dir.resolve("a.cu"), "#include \"pixel.hcu\"\n");
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer().includeExtensions(List.of("inl")));
        assertThat(ctx.hits()).isEmpty();
        // left out by the configuration, and said so: one notice naming the file, its includer and the reason
        assertThat(ctx.notifications())
                .filteredOn(n -> n.id().equals("include-not-analyzed"))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.file()).isEqualTo("pixel.hcu");
                    assertThat(n.message()).contains("a.cu").contains(".hcu").contains("include-extensions");
                });
        // without a configured list an included file is analyzed whatever its extension (a .tcu, a .cl)
        Files.writeString(dir.resolve("pixel.tcu"), CAST_HCU);
        Files.writeString(dir.resolve("b.cu"), "#include \"pixel.tcu\"\n");
        assertThat(new TestScanContext(dir).run(new CudaSourceAnalyzer()).hits())
                .containsExactlyInAnyOrder(
                        new InlineExpectations.Hit("pixel.hcu", 2, "NL001"),
                        new InlineExpectations.Hit("pixel.tcu", 2, "NL001"));
        Files.delete(dir.resolve("b.cu"));
        ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer().includeExtensions(List.of(".HCU")));
        assertThat(ctx.hits()).containsExactly(new InlineExpectations.Hit("pixel.hcu", 2, "NL001"));
    }

    /**
     * A vendored library with files named like standard headers (Microsoft GSL's {@code span}, {@code algorithm}):
     * {@code #include <span>} is the system's, as the compiler finds it, not the tree's one file of that name. Before,
     * both front ends read the tree's file by name and Clang's {@code -I} to its directory shadowed the standard
     * library (openal-soft: 84 files with "no member named 'dynamic_extent' in namespace 'std'").
     */
    @Test
    void aStandardHeaderIsNotResolvedByNameToAFileOfTheTree(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                dev.numlint.toolchain.IncludePolicy.systemHolds("algorithm"), "a C++ standard library");
        Path gsl = Files.createDirectories(dir.resolve("vendor/gsl"));
        Files.writeString(gsl.resolve("algorithm"), "#error the vendored file was read\n");
        Files.writeString(
                dir.resolve("a.cpp"),
                "#include <algorithm>\nunsigned top(const float *v, int n) {"
                        + " return (unsigned)*std::max_element(v, v + n); }\n");
        TestScanContext ctx = scan(dir, BuildContext.defaults());
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("include-by-name"));
        assertThat(ctx.notifications()).as(String.valueOf(ctx.notifications())).noneMatch(n -> n.message()
                .contains("vendored file was read"));
        assertThat(ctx.findings()).anyMatch(f -> f.ruleId().equals("NL001"));
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void includesOutsideTheTreeOrOfSpecialFilesAreNotReadAndAreReported(@TempDir Path dir, @TempDir Path outside)
            throws Exception {
        Path root = Files.createDirectories(dir.resolve("proj"));
        Files.writeString(outside.resolve("secret.h"), "#define SECRET_TYPE unsigned short\n" + CAST_HCU);
        Files.writeString(dir.resolve("sibling.hcu"), CAST_HCU);
        Files.createSymbolicLink(root.resolve("link.hcu"), outside.resolve("secret.h"));
        Files.writeString(
                root.resolve("k.cu"),
                String.join(
                        "\n",
                        "#include \"" + outside.resolve("secret.h") + "\"",
                        "#include \"../sibling.hcu\"",
                        "#include \"link.hcu\"",
                        "#include \"/dev/zero\"",
                        "#include \"fifo.h\"",
                        "__global__ void k(float *x, SECRET_TYPE *o) { o[0] = (SECRET_TYPE)(x[0]); }",
                        ""));
        boolean fifo = new ProcessBuilder("mkfifo", root.resolve("fifo.h").toString())
                        .start()
                        .waitFor()
                == 0;
        TestScanContext ctx = scan(root, BuildContext.defaults());
        // nothing from outside the root was read: the macro of secret.h stays unknown, so no finding either
        assertThat(ctx.findings()).isEmpty();
        List<String> notes = ctx.notifications().stream()
                .map(n -> n.file() + ":" + n.line() + " " + n.id() + " " + n.message())
                .collect(Collectors.toList());
        assertThat(notes)
                .anyMatch(n -> n.startsWith("k.cu:1 include-not-read") && n.contains("outside the scanned tree"));
        assertThat(notes)
                .anyMatch(n -> n.startsWith("k.cu:2 include-not-read") && n.contains("outside the scanned tree"));
        assertThat(notes)
                .anyMatch(n -> n.startsWith("k.cu:3 include-not-read") && n.contains("outside the scanned tree"));
        assertThat(notes).anyMatch(n -> n.startsWith("k.cu:4 include-not-read") && n.contains("not a regular file"));
        if (fifo) {
            assertThat(notes)
                    .as(String.join("\n", notes))
                    .anyMatch(n -> n.startsWith("k.cu:5 include-not-read") && n.contains("not a regular file"));
        }
        assertThat(ctx.notifications()).allMatch(n -> n.level() == dev.numlint.model.Level.WARNING);
    }

    @Test
    void ifdefTakenWhenTheBuildDefinesTheMacro(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("k.cu"),
                String.join(
                        "\n",
                        "__global__ void k(float *a, float *b) {",
                        "#ifdef FAST_PATH",
                        "  a[0] = __fdividef(a[0], b[0]);",
                        "#elif defined(MEDIUM) && (LEVEL > 2 || !defined(SLOW)) && LEVEL * 2 == 6",
                        "  a[1] = __fdividef(a[1], b[1]);",
                        "#else",
                        "  a[2] = __fdividef(a[2], b[2]);",
                        "#endif",
                        "#if UNKNOWN_MACRO",
                        "  a[3] = __fdividef(a[3], b[3]);",
                        "#endif",
                        "}",
                        ""));
        BuildContext fast = BuildContext.defaults()
                .addNvccFlag("-DFAST_PATH")
                .addOrigin("-DFAST_PATH", Location.line("Makefile", 2));
        assertThat(scan(dir, fast).hits())
                .extracting(InlineExpectations.Hit::line)
                .containsExactly(3);
        BuildContext medium = BuildContext.defaults().addNvccFlag("-DMEDIUM").addNvccFlag("-DLEVEL=3");
        assertThat(scan(dir, medium).hits())
                .extracting(InlineExpectations.Hit::line)
                .containsExactly(5);
        // a later -U removes the definition, as on the compiler's command line
        BuildContext undone = BuildContext.defaults().addNvccFlag("-DFAST_PATH").addNvccFlag("-UFAST_PATH");
        assertThat(scan(dir, undone).hits())
                .extracting(InlineExpectations.Hit::line)
                .containsExactly(7);
        // unknown macros are 0 in #if, as in the real preprocessor
        assertThat(scan(dir, BuildContext.defaults()).hits())
                .extracting(InlineExpectations.Hit::line)
                .containsExactly(7);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void doublingMacrosAreBoundedAndReported(@TempDir Path dir) throws Exception {
        StringBuilder sb = new StringBuilder("#define A0 x x x x x x x x x x\n");
        for (int i = 1; i <= 40; i++)
            sb.append("#define A")
                    .append(i)
                    .append(" A")
                    .append(i - 1)
                    .append(" A")
                    .append(i - 1)
                    .append('\n');
        sb.append("int v[] = { A40 };\n");
        sb.append("#define F(a) F2(a, a)\n#define F2(a, b) a b\n");
        sb.append("int w = ")
                .append("F(".repeat(300))
                .append("1")
                .append(")".repeat(300))
                .append(";\n");
        sb.append("__global__ void k(float *a, unsigned short *o) { o[0] = (unsigned short)(a[0]); }\n");
        Files.writeString(dir.resolve("k.cu"), sb.toString());
        long t0 = System.nanoTime();
        TestScanContext ctx = scan(dir, BuildContext.defaults());
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(20);
        List<Notification> n = ctx.notifications();
        assertThat(n)
                .anyMatch(
                        x -> x.id().equals("not-fully-evaluated") && x.message().contains("not fully evaluated"));
    }

    private static final String CONFIGS = String.join(
            "\n",
            "#define LEVEL 2",
            "__global__ void k(float *a, float *b) {",
            "#ifdef FAST_PATH",
            "  a[0] = __fdividef(a[0], b[0]);",
            "#else",
            "  a[1] = a[1] / b[1];",
            "#if LEVEL > 3",
            "  a[2] = __fdividef(a[2], b[2]);",
            "#endif",
            "#endif",
            "}",
            "");

    @Test
    void allConfigurationsAlsoAnalyzesInactiveBranchesAndNamesTheCondition(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("k.cu"), CONFIGS);
        TestScanContext plain = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        assertThat(plain.hits()).isEmpty();
        TestScanContext all =
                new TestScanContext(dir).setting("all-configurations", "true").run(new CudaSourceAnalyzer());
        assertThat(all.hits())
                .containsExactly(
                        new InlineExpectations.Hit("k.cu", 4, "NL002"), new InlineExpectations.Hit("k.cu", 8, "NL002"));
        var f4 = all.findings().get(0);
        assertThat(f4.properties()).containsEntry("configuration", "defined(FAST_PATH)");
        assertThat(f4.message()).endsWith(" [if defined(FAST_PATH)]");
        assertThat(all.findings().get(1).properties()).containsEntry("configuration", "LEVEL > 3");
        // with the build defining FAST_PATH, the #else branch is the inactive one
        TestScanContext fast = new TestScanContext(dir)
                .projectContext(BuildContext.defaults().addNvccFlag("-DFAST_PATH"))
                .setting("all-configurations", "true")
                .run(new CudaSourceAnalyzer());
        assertThat(fast.findings())
                .extracting(f -> f.location().startLine() + " " + f.properties().get("configuration"))
                // line 4 is Clang's (it compiled it), line 8 the hand-written front end's: emitted in that order
                .containsExactlyInAnyOrder("4 null", "8 !(defined(FAST_PATH)) && LEVEL > 3");
    }

    @Test
    void allConfigurationsOptionAndIncludeExtensionsKeyReachTheFrontEnd(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("k.cu"), "#include \"pixel.hcu\"\n" + CONFIGS);
        Files.writeString(dir.resolve("pixel.hcu"), CAST_HCU);
        Files.writeString(dir.resolve(".numlint.yml"), "include-extensions: [inl]\n");
        dev.numlint.scan.ScanResult r = dev.numlint.scan.Scanner.scan(dev.numlint.scan.ScanOptions.builder(dir)
                .analyzers(List.of(new CudaSourceAnalyzer()))
                .config(dev.numlint.config.NumlintConfig.load(dir.resolve(".numlint.yml")))
                .setting("all-configurations", "true")
                .cacheDir(dir.resolve(".cache"))
                .build());
        assertThat(r.findings())
                .extracting(f -> f.location().file() + ":" + f.location().startLine())
                .containsExactly("k.cu:5", "k.cu:9");
    }

    @Test
    void excludedIncludedFilesAreNotAnalyzed(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("third_party"));
        Files.writeString(dir.resolve("third_party/pixel.hcu"), CAST_HCU);
        Files.writeString(dir.resolve("k.cu"), "#include \"third_party/pixel.hcu\"\n");
        TestScanContext ctx =
                new TestScanContext(dir).setting("exclude", "third_party/**").run(new CudaSourceAnalyzer());
        assertThat(ctx.hits()).isEmpty();
        ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        assertThat(ctx.hits()).containsExactly(new InlineExpectations.Hit("third_party/pixel.hcu", 2, "NL001"));
    }
}
