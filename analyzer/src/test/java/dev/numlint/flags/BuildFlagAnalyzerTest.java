package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Confidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.testing.InlineExpectations;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuildFlagAnalyzerTest {
    private static final Path FIXTURES = Path.of("src/test/resources/fixtures/build-flags");

    /** The impact of a kept flag that rounds host code differently and folds no NaN test: a note (FlagHazard). */
    static final String HOST_ROUNDING = RuleCatalog.get().phrase("flag-host-rounding");

    @Test
    void fixturesMatchTheirInlineExpectations() {
        BuildFlagAnalyzer a = new BuildFlagAnalyzer();
        TestScanContext ctx = new TestScanContext(FIXTURES).run(a);
        // the expectations of the build files (the fixtures' sources are for the CUDA-source layer)
        // a nested fixture (its own fixture.properties: db-make, db-cmake) is its own scan, with its own database
        String diff = InlineExpectations.read(FIXTURES)
                .only(h -> a.accepts(Path.of(h.file())) && !nested(h.file()))
                .compare(ctx.hits().stream().filter(h -> !nested(h.file())).toList());
        assertThat(diff).as("fixture expectations\n" + diff).isEmpty();
    }

    /** Whether a file of the build-flags fixtures belongs to a nested fixture (a directory with fixture.properties). */
    private static boolean nested(String file) {
        for (Path d = FIXTURES.resolve(file).getParent(); d != null && !d.equals(FIXTURES); d = d.getParent()) {
            if (Files.exists(d.resolve("fixture.properties"))) return true;
        }
        return false;
    }

    /** Session 27: with a compilation database, each flag once, at the build file; the database decides. */
    @Test
    void aFlagTheDatabaseCarriesIsReportedOnceAtTheBuildFileWithTheCommandsAsEvidence() {
        TestScanContext ctx = new TestScanContext(FIXTURES.resolve("db-make")).run(new BuildFlagAnalyzer());
        assertThat(ctx.findings()).noneMatch(f -> f.location().file().endsWith("compile_commands.json"));
        Finding div = only(ctx, "NL002", 10);
        assertThat(div.message()).contains("--use_fast_math").contains("in 2 of 2 compile commands");
        assertThat(div.evidence()).anySatisfy(e -> {
            assertThat(e.kind()).isEqualTo("compile-commands");
            assertThat(e.location().file()).isEqualTo("build/compile_commands.json");
        });
        // the database's entries are where the build context records the flag: the flag's review finds them
        assertThat(div.identity().flag().alsoAt()).hasSize(2);
        Finding host = only(ctx, "NL002", 14);
        assertThat(host.message()).contains("-ffast-math").contains("in 1 of 1 compile commands");
        // session 70: a reciprocal in host code is judged at its sites; the flag is a note (its NL006, which folds
        // host.c's isnan, stays a warning: hostFastMathNamesATestForNaNItMayFold)
        assertThat(host.level()).isEqualTo(Level.NOTE);
        assertThat(host.impact().consequence()).isEqualTo(HOST_ROUNDING);
        assertThat(only(ctx, "NL006", 14).level()).isEqualTo(Level.WARNING);
    }

    @Test
    void aFlagInNoCompileCommandIsANoteWhateverItsCondition() {
        TestScanContext ctx = new TestScanContext(FIXTURES.resolve("db-make")).run(new BuildFlagAnalyzer());
        Finding sqrt = only(ctx, "NL006", 19);
        assertThat(sqrt.message()).contains("in no compile command");
        assertThat(sqrt.impact().kind()).isEqualTo(dev.numlint.model.Impact.Kind.BOUNDED);
        TestScanContext cm = new TestScanContext(FIXTURES.resolve("db-cmake")).run(new BuildFlagAnalyzer());
        Finding arch = only(cm, "NL003", 4);
        assertThat(arch.message()).contains("in no compile command");
        assertThat(arch.impact().kind()).isEqualTo(dev.numlint.model.Impact.Kind.BOUNDED);
    }

    @Test
    void aFlagEveryCompileCommandCarriesIsInTheBuildWhateverItsConditionWasReadAs() {
        TestScanContext ctx = new TestScanContext(FIXTURES.resolve("db-cmake")).run(new BuildFlagAnalyzer());
        Finding fast = only(ctx, "NL002", 6);
        assertThat(fast.location().file()).isEqualTo("src/cuda/model.cmake");
        assertThat(fast.message()).doesNotContain("only under").contains("in 1 of 1 compile commands");
        assertThat(fast.impact()).isNull();
        assertThat(fast.identity().flag().condition()).isNull();
        assertThat(ctx.findings()).noneMatch(f -> f.location().file().endsWith("compile_commands.json"));
    }

    /**
     * Session 31 (evaluation session 30, defect 3): a machine fragment included under a condition on
     * {@code $(shell hostname)}, whose -std=gnu11 the compile commands contradict (they have the top file's
     * -std=gnu99), is a note naming the top file's line; the top file's line is the finding.
     */
    @Test
    void aFragmentUnderAnUnevaluableConditionWhoseFlagsTheCommandsContradictIsANoteNamingTheMatchingLine() {
        TestScanContext ctx = new TestScanContext(FIXTURES.resolve("db-make-host")).run(new BuildFlagAnalyzer());
        Finding top = only(ctx, "NL003", 6);
        assertThat(top.location().file()).isEqualTo("makefile");
        // the build's own flag: a note only because it rounds host code (no NaN test folds), not for its condition
        assertThat(top.impact().consequence()).isEqualTo(HOST_ROUNDING);
        assertThat(top.message()).contains("in 2 of 2 compile commands").doesNotContain("only under");
        Finding fragment = only(ctx, "NL003", 3);
        assertThat(fragment.location().file()).isEqualTo("machines/delta.make");
        assertThat(fragment.level()).isEqualTo(Level.NOTE);
        assertThat(fragment.message()).contains("conditional; the build matches makefile:6");
        assertThat(fragment.impact().kind()).isEqualTo(dev.numlint.model.Impact.Kind.BOUNDED);
        assertThat(fragment.impact().consequence())
                .contains("ifneq (,$(findstring delta,$(HOST)))")
                .contains("which numlint does not evaluate")
                .contains("-std=gnu11 (the compile commands have -std=gnu99)");
        assertThat(fragment.related())
                .anySatisfy(r -> assertThat(r.location().file()).isEqualTo("makefile"));
    }

    /**
     * Session 31: a value a later line appends ({@code CFLAGS += -O3}) does not make the commands contradict an
     * assignment's {@code -O2}: every value a command carries counts, so the conditional assignment stays a finding.
     */
    @Test
    void aValueAppendedLaterDoesNotContradictAConditionalAssignment(@TempDir Path dir) throws IOException {
        Files.writeString(
                dir.resolve("Makefile"),
                """
                CFLAGS = -O2 -march=native
                ifeq ($(shell uname -s),Linux)
                CFLAGS = -O2 -std=gnu99 -march=native
                endif
                CFLAGS += -O3
                app: a.c
                \t$(CC) $(CFLAGS) -c a.c -o a.o
                """);
        Files.writeString(dir.resolve("a.c"), "int a(int x) { return x; }\n");
        Path build = Files.createDirectories(dir.resolve("build"));
        Files.writeString(
                build.resolve("compile_commands.json"),
                """
                [{"directory": "/w", "file": "/w/a.c",
                  "arguments": ["cc", "-O2", "-std=gnu99", "-march=native", "-O3", "-c", "a.c", "-o", "a.o"]}]
                """);
        // (-std=gnu99: in ISO C, -std=c99, GCC contracts nothing and both would be notes, HostContraction)
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        // both kept: their only impact is that they round host code (a note where no NaN test folds)
        assertThat(only(ctx, "NL003", 1).impact().consequence()).isEqualTo(HOST_ROUNDING);
        Finding conditional = only(ctx, "NL003", 3);
        assertThat(conditional.impact().consequence()).isEqualTo(HOST_ROUNDING);
        assertThat(conditional.message()).contains("only under ifeq");
    }

    /** Session 31: the fragment is the only place that can set the flag: kept, and its message says it is conditional. */
    @Test
    void aFragmentUnderAnUnevaluableConditionThatIsTheOnlySourceIsKeptAndSaysSo() {
        TestScanContext ctx = new TestScanContext(FIXTURES.resolve("db-make-fragment")).run(new BuildFlagAnalyzer());
        Finding fragment = only(ctx, "NL003", 3);
        assertThat(fragment.location().file()).isEqualTo("machines/delta.make");
        assertThat(fragment.message()).contains("in 2 of 2 compile commands").contains("only under ifneq");
        // kept: its only impact is that it rounds host code, not its condition
        assertThat(fragment.impact().consequence()).isEqualTo(HOST_ROUNDING);
        // the compile commands prove it in this build: the flag's review treats it as unconditional
        assertThat(fragment.identity().flag().condition()).isNull();
    }

    @Test
    void hostFastMathNamesATestForNaNItMayFold() {
        TestScanContext ctx = new TestScanContext(FIXTURES.resolve("db-make")).run(new BuildFlagAnalyzer());
        Finding finite = only(ctx, "NL006", 14);
        assertThat(finite.message()).contains("NaN/inf test at host.c:7");
        assertThat(finite.related())
                .anySatisfy(r -> assertThat(r.location().startLine()).isEqualTo(7));
        // the device fast-math finding has no such test to name
        assertThat(only(ctx, "NL006", 10).message()).doesNotContain("NaN/inf");
    }

    /**
     * Session 79 round B (a texture compressor): the only "test" named was a portability header's {@code #define
     * isnan(x) _isnan(x)} for another compiler; a directive that defines a test's name is none, the file's real test
     * is named.
     */
    @Test
    void aDefinitionOfTheTestsNameIsNoTest(@TempDir Path dir) throws Exception {
        Path src = FIXTURES.resolve("db-make");
        Files.createDirectories(dir.resolve("build"));
        for (String f : List.of("Makefile", "scale.cu", "shift.cu", "build/compile_commands.json")) {
            Files.writeString(dir.resolve(f), Files.readString(src.resolve(f)));
        }
        Files.writeString(
                dir.resolve("host.c"),
                """
                #include <math.h>
                #if defined(_WIN32) && !defined(__GNUC__)
                #define isnan(x) _isnan(x)
                #  define isinf(x) (!_finite(x))
                #endif

                double half(double x)
                {
                    if (isnan(x)) return 0.0;
                    return x * 0.5;
                }
                """);
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        assertThat(only(ctx, "NL006", 14).message()).contains("NaN/inf test at host.c:9:9");
        // with the definitions alone, no test is named
        Files.writeString(
                dir.resolve("host.c"),
                "#if defined(_MSC_VER)\n#define isnan(x) _isnan(x)\n#endif\ndouble half(double x) { return x / 2; }\n");
        ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        assertThat(only(ctx, "NL006", 14).message()).doesNotContain("NaN/inf");
    }

    /**
     * Session 82 round R (an APRS modem): the only test sat in a macro under {@code #if ENABLE_GPSD}, a branch its
     * configuration did not compile, and the message named it as any test. A test no condition holds is named first;
     * one under a condition says so. An include guard is no condition.
     */
    /** Session 82 round Q's gpufilter: both flags on one line, one NL002 finding: the division is div.approx. */
    @Test
    void fastMathOnTheLineOfPrecDivFalseIsTheFindingsWording(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                cmake_minimum_required(VERSION 3.18)
                project(g LANGUAGES CUDA)
                set(CMAKE_CUDA_FLAGS "-prec-div=false -prec-sqrt=false -use_fast_math")
                set(CMAKE_CUDA_FLAGS_DEBUG "-prec-div=false")
                """);
        Files.writeString(dir.resolve("k.cu"), "__global__ void k(float *a) { a[0] = a[1] / a[2]; }\n");
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        assertThat(only(ctx, "NL002", 3).message()).contains("div.approx");
        assertThat(only(ctx, "NL002", 4).message()).contains("div.full");
    }

    @Test
    void aTestUnderAPreprocessorConditionSaysSo(@TempDir Path dir) throws Exception {
        Path src = FIXTURES.resolve("db-make");
        Files.createDirectories(dir.resolve("build"));
        for (String f : List.of("Makefile", "scale.cu", "shift.cu", "build/compile_commands.json")) {
            Files.writeString(dir.resolve(f), Files.readString(src.resolve(f)));
        }
        Files.writeString(
                dir.resolve("host.c"),
                """
                #ifndef HOST_C
                #define HOST_C
                #include <math.h>
                #if ENABLE_GPSD
                #define GOOD(x) (isfinite(x) && !isnan(x))
                double track(double t) { return GOOD(t) ? t : -999999; }
                #endif
                #endif
                """);
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        assertThat(only(ctx, "NL006", 14).message()).endsWith("NaN/inf test at host.c:5:18 (under '#if ENABLE_GPSD')");
        Files.writeString(
                dir.resolve("host.c"),
                """
                #include <math.h>
                #ifdef ENABLE_GPSD
                #define GOOD(x) (isfinite(x) && !isnan(x))
                #else
                #define GOOD(x) (1)
                #endif
                double half(double x) { return isnan(x) ? 0.0 : x / 2; }
                """);
        ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        assertThat(only(ctx, "NL006", 14).message()).endsWith("NaN/inf test at host.c:7:32");
    }

    /**
     * Session 71 round D (a plugin collection's configure.ac): the flag's description and a long file name made the
     * message end "may fold the NaN/inf test at ...", the place cut off; the description gives way instead.
     */
    @Test
    void theTestAFlagMayFoldKeepsItsPlaceInALongMessage(@TempDir Path dir) throws Exception {
        String host = "analogue_oscillator_with_a_rather_long_file_name_1416.c";
        Path src = FIXTURES.resolve("db-make");
        Files.createDirectories(dir.resolve("build"));
        for (String f : List.of("Makefile", "scale.cu", "shift.cu", "build/compile_commands.json")) {
            Files.writeString(dir.resolve(f), Files.readString(src.resolve(f)).replace("host.c", host));
        }
        Files.copy(src.resolve("host.c"), dir.resolve(host));
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        Finding finite = only(ctx, "NL006", 14);
        assertThat(finite.message())
                .endsWith("NaN/inf test at " + host + ":7:9")
                .hasSizeLessThanOrEqualTo(dev.numlint.rules.Quote.MESSAGE);
    }

    @Test
    void implementsExactlyTheCatalogsBuildFlagRules() {
        Set<String> catalog = RuleCatalog.get().all().stream()
                .filter(r -> r.appliesTo(Layer.BUILD_FLAGS))
                .map(r -> r.id())
                .collect(Collectors.toSet());
        assertThat(new BuildFlagAnalyzer().implementedRules()).isEqualTo(catalog);
    }

    @Test
    void findingsPointAtTheFlagWithSpecificMessages() {
        TestScanContext ctx = new TestScanContext(FIXTURES.resolve("cmake-fastmath")).run(new BuildFlagAnalyzer());
        Finding div = only(ctx, "NL002", 12);
        assertThat(div.location().startColumn()).isEqualTo(43); // column of --use_fast_math
        assertThat(div.message())
                .contains("--use_fast_math")
                .contains("div.approx.f32")
                .contains("2 ulp")
                .contains("CMAKE_CUDA_FLAGS");
        assertThat(div.evidence()).anySatisfy(e -> {
            assertThat(e.kind()).isEqualTo("flag");
            assertThat(e.text()).isEqualTo("--use_fast_math");
        });
        assertThat(div.layer()).isEqualTo(Layer.BUILD_FLAGS);
        assertThat(div.fingerprintKey()).doesNotContain("12");
        Finding fmad = only(ctx, "NL003", 22);
        assertThat(fmad.level()).isEqualTo(Level.NOTE);
        Finding ofast = only(ctx, "NL006", 34);
        assertThat(ofast.confidence()).isEqualTo(Confidence.MEDIUM);
        assertThat(ofast.message()).contains("-Ofast").contains("if(WITH_FAST_HOST)");
        Finding precDiv = only(ctx, "NL002", 19);
        assertThat(precDiv.message()).contains("RELEASE configuration").contains("div.full.f32");
        assertThat(precDiv.location().startColumn()).isEqualTo(1);
    }

    /** Issue 25: header templates (config.hpp.cmake, #cmakedefine) were read as CMake scripts: parse errors. */
    @Test
    void configureFileTemplatesAreNotReadAsScripts(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("include"));
        Files.createDirectories(dir.resolve("cmake"));
        String header =
                """
                #pragma once
                #cmakedefine USE_DOUBLE
                #define VERSION "@PROJECT_VERSION@"
                #if defined(USE_DOUBLE)
                typedef double real_t;
                #else
                typedef float real_t;
                #endif
                """;
        Files.writeString(dir.resolve("include/config.hpp.cmake"), header);
        Files.writeString(dir.resolve("cmake/core_defines.cmake"), header.replace("#cmakedefine USE_DOUBLE\n", ""));
        Files.writeString(dir.resolve("cmake/Flags.cmake"), "set(CMAKE_CUDA_FLAGS \"--use_fast_math\")\n");
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                project(p LANGUAGES CXX CUDA)
                configure_file(include/config.hpp.cmake ${CMAKE_BINARY_DIR}/config.hpp)
                """);
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        assertThat(ctx.notifications())
                .filteredOn(n -> List.of("include/config.hpp.cmake", "cmake/core_defines.cmake")
                        .contains(n.file()))
                .extracting(Notification::id)
                .containsExactly("not-evaluated");
        assertThat(ctx.notifications())
                .filteredOn(n -> n.message().contains("configure_file template"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .startsWith("2 configure_file templates (cmake/core_defines.cmake, include/config.hpp.cmake)"));
        // a real module nobody includes is still read (as not in the default configuration)
        assertThat(ctx.findings())
                .anySatisfy(f -> assertThat(f.location().file()).isEqualTo("cmake/Flags.cmake"));
    }

    /** Session 53: a Doxygen configuration template (KEY = @VAR@ lines) gave 197 parse-error notices. */
    @Test
    void aConfigurationFileTemplateIsNotReadAsAScript(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("doc"));
        Files.writeString(
                dir.resolve("doc/Doxyfile.cmake"),
                "DOXYFILE_ENCODING = UTF-8\nPROJECT_NAME = libfluid\nPROJECT_NUMBER = @VERSION@\n"
                        + "STRIP_FROM_PATH = @CMAKE_SOURCE_DIR@/\nINPUT = @CMAKE_SOURCE_DIR@/doc/a.txt \\\n");
        Files.writeString(dir.resolve("CMakeLists.txt"), "project(p LANGUAGES C)\n");
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        assertThat(ctx.notifications())
                .filteredOn(n -> "doc/Doxyfile.cmake".equals(n.file()))
                .extracting(Notification::id)
                .containsExactly("not-evaluated");
    }

    @Test
    void recordsBuildContextForSourcesAndTargets(@TempDir Path dir) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                project(p LANGUAGES CXX CUDA)
                set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --use_fast_math -Xcompiler=-march=native,-ffp-contract=off")
                set(CMAKE_CXX_FLAGS "-march=haswell")
                set(CMAKE_CUDA_ARCHITECTURES 75 86)
                add_subdirectory(src)
                """);
        Files.writeString(
                src.resolve("CMakeLists.txt"),
                """
                add_executable(app k.cu ref.cpp)
                target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-ftz=false>)
                """);
        Files.writeString(src.resolve("k.cu"), "__global__ void k() {}\n");
        Files.writeString(src.resolve("ref.cpp"), "int main() {}\n");
        Files.writeString(src.resolve("other.cu"), "__global__ void o() {}\n");
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        BuildContext k = ctx.buildContext(src.resolve("k.cu"));
        assertThat(k.effectiveFastMath()).isTrue();
        assertThat(k.effectivePrecDiv()).isFalse();
        assertThat(k.effectiveFtz()).isFalse(); // the target's -ftz=false wins over fast math's implication
        assertThat(k.hostArch()).isEqualTo("native");
        assertThat(k.hostContracts()).isFalse();
        assertThat(k.cudaArch()).isEqualTo("compute_86");
        assertThat(k.nvccFlags()).contains("--use_fast_math", "-ftz=false");
        assertThat(k.originOf(f -> f.equals("--use_fast_math"))
                        .orElseThrow()
                        .location()
                        .shortText())
                .isEqualTo("CMakeLists.txt:2:43");
        BuildContext other = ctx.buildContext(src.resolve("other.cu"));
        assertThat(other.effectiveFtz()).isTrue();
        BuildContext ref = ctx.buildContext(src.resolve("ref.cpp"));
        assertThat(ref.hostContracts()).isTrue();
        assertThat(ref.effectiveFastMath()).isFalse();
        // NL007 for fast math is cancelled only for the target; the directory-wide setting still flushes
        assertThat(ctx.findings()).extracting(Finding::ruleId).contains("NL002", "NL006", "NL007", "NL003");
    }

    /**
     * nvcc takes an include directory written in double quotes inside its argument ({@code -I"/abs/include"}, as a
     * CMake custom command passes it through, session 80 round G): it strips them, and so does the scan; g++ does not
     * (it looks for a directory named with the quotes), and neither does the scan for it.
     */
    @Test
    void nvccsQuotedIncludeDirectoryIsTheDirectoryGccsIsNot(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("include"));
        Files.writeString(dir.resolve("include/type.h"), "typedef float fp_t;\n");
        Files.writeString(dir.resolve("k.cu"), "#include \"type.h\"\n");
        Files.writeString(dir.resolve("h.cpp"), "#include \"type.h\"\n");
        String inc = dir.resolve("include").toString().replace("\\", "/");
        Files.writeString(
                dir.resolve("compile_commands.json"),
                """
                [
                  {"directory": "%1$s", "file": "k.cu", "arguments": ["nvcc", "-I\\"%2$s\\"", "-c", "k.cu"]},
                  {"directory": "%1$s", "file": "h.cpp", "arguments": ["g++", "-I\\"%2$s\\"", "-c", "h.cpp"]}
                ]
                """
                        .formatted(dir.toString().replace("\\", "/"), inc));
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        Path include = dir.resolve("include").toAbsolutePath().normalize();
        assertThat(ctx.buildContext(dir.resolve("k.cu")).includePaths()).contains(include);
        assertThat(ctx.buildContext(dir.resolve("h.cpp")).includePaths()).doesNotContain(include);
    }

    /**
     * nvcc preprocesses a .cu with the host compiler for its device pass too, so -I and -D inside -Xcompiler /
     * --compiler-options reach device code ('nvcc -dryrun'): they are the unit's include paths and defines (Clang's and
     * the PTX layer's nvcc), whether the directory is joined to -I or the next word; -march there stays the host
     * part's.
     */
    @Test
    void preprocessorFlagsInsideCompilerOptionsApplyToTheWholeUnit(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("common"));
        Files.createDirectories(dir.resolve("app"));
        Files.writeString(dir.resolve("common/type.h"), "typedef float fp_t;\n");
        Files.writeString(dir.resolve("app/k.cu"), "#include \"type.h\"\n");
        Files.writeString(
                dir.resolve("compile_commands.json"),
                """
                [
                  {"directory": "%1$s/app", "file": "k.cu",
                   "arguments": ["nvcc", "--compiler-options=-O3 -I ../common -DSHARED=1,-march=native", "-c", "k.cu"]}
                ]
                """
                        .formatted(dir.toString().replace("\\", "/")));
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        BuildContext k = ctx.buildContext(dir.resolve("app/k.cu"));
        Path common = dir.resolve("common").toAbsolutePath().normalize();
        assertThat(k.defines()).contains("SHARED=1");
        assertThat(k.includePaths()).contains(common);
        assertThat(k.hostArch()).isEqualTo("native");
    }

    @Test
    void compileCommandsGivePerFileContextAndOneFindingPerSetting(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.cu"), "");
        Files.writeString(dir.resolve("b.cu"), "");
        Files.writeString(dir.resolve("c.cpp"), "");
        Files.writeString(
                dir.resolve("compile_commands.json"),
                """
                [
                  {"directory": "%1$s", "file": "a.cu",
                   "arguments": ["/usr/local/cuda/bin/nvcc", "-O3", "-prec-div=false", "-arch", "sm_90", "-c", "a.cu"]},
                  {"directory": "%1$s", "file": "b.cu",
                   "command": "nvcc -O3 -prec-div=false -Xcompiler \\"-m32\\" -c b.cu"},
                  {"directory": "/elsewhere/build", "file": "/elsewhere/src/c.cpp",
                   "command": "ccache /usr/bin/g++-12 -O2 -ffast-math -c c.cpp"}
                ]
                """
                        .formatted(dir.toString().replace("\\", "/")));
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        List<Finding> nl002 =
                ctx.findings().stream().filter(f -> f.ruleId().equals("NL002")).toList();
        // -prec-div=false in two entries: one finding (with the other entry as related location); -ffast-math: one
        assertThat(nl002).hasSize(2);
        Finding pd = nl002.stream()
                .filter(f -> f.message().startsWith("-prec-div=false"))
                .findFirst()
                .orElseThrow();
        assertThat(pd.location().startLine()).isEqualTo(3);
        assertThat(pd.location().startColumn()).isEqualTo(54); // after the opening quote
        assertThat(pd.related()).hasSize(1);
        assertThat(pd.message()).endsWith("(+1 more)");
        assertThat(ctx.findings()).anySatisfy(f -> {
            assertThat(f.ruleId()).isEqualTo("NL005");
            assertThat(f.location().startLine()).isEqualTo(5);
            assertThat(f.message()).contains("host code of .cu files");
        });
        assertThat(ctx.buildContext(dir.resolve("a.cu")).effectivePrecDiv()).isFalse();
        assertThat(ctx.buildContext(dir.resolve("a.cu")).cudaArch()).isEqualTo("sm_90");
        assertThat(ctx.buildContext(dir.resolve("b.cu")).m32()).isTrue();
        // an entry from another machine is matched by its file name
        assertThat(ctx.buildContext(dir.resolve("c.cpp")).hostFastMath()).isTrue();
        assertThat(ctx.notifications()).isEmpty();
    }

    @Test
    void malformedInputIsReportedAndTheRestIsUsed(@TempDir Path dir) throws IOException {
        Path a = Files.createDirectories(dir.resolve("a"));
        Files.writeString(
                a.resolve("compile_commands.json"),
                """
                [
                  {"directory": "/x", "file": "k.cu", "command": "nvcc -ftz=true -c k.cu"},
                  {"directory": "/x", "file": "l.cu", "command": "nvcc -c l.cu"
                """);
        Path b = Files.createDirectories(dir.resolve("b"));
        Files.writeString(
                b.resolve("CMakeLists.txt"),
                """
                set(A "unterminated
                set(CMAKE_CUDA_FLAGS "-prec-sqrt=false")
                """);
        Path c = Files.createDirectories(dir.resolve("c"));
        Files.write(c.resolve("Makefile"), new byte[] {0x4e, 0x00, 0x01, 0x02});
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        assertThat(ctx.notifications())
                .extracting(Notification::file)
                .contains("a/compile_commands.json", "b/CMakeLists.txt", "c/Makefile");
        Notification json = ctx.notifications().stream()
                .filter(n -> n.file().endsWith(".json"))
                .findFirst()
                .orElseThrow();
        assertThat(json.line()).isEqualTo(4);
        assertThat(json.message()).contains("malformed JSON").contains("1 entries");
        Notification cm = ctx.notifications().stream()
                .filter(n -> n.file().endsWith(".txt"))
                .findFirst()
                .orElseThrow();
        assertThat(cm.line()).isEqualTo(1);
        assertThat(cm.message()).contains("unterminated quote");
        assertThat(ctx.findings())
                .extracting(f -> f.ruleId() + "@" + f.location().shortText())
                .containsExactlyInAnyOrder("NL007@a/compile_commands.json:2:56", "NL006@b/CMakeLists.txt:2:23");
    }

    @Test
    void commandLineFlagsAreRecordedWithoutFindings(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("k.cu"), "");
        TestScanContext ctx = new TestScanContext(dir)
                .commandLineFlags(List.of("--use_fast_math", "-Xcompiler", "-march=native", "-arch=compute_80"));
        ctx.run(new BuildFlagAnalyzer());
        assertThat(ctx.findings()).isEmpty();
        BuildContext bc = ctx.buildContext(dir.resolve("k.cu"));
        assertThat(bc.effectiveFastMath()).isTrue();
        assertThat(bc.hostArch()).isEqualTo("native");
        assertThat(bc.cudaArch()).isEqualTo("compute_80");
        assertThat(bc.originOf(f -> f.equals("--use_fast_math"))
                        .orElseThrow()
                        .location()
                        .file())
                .isEqualTo(BuildFlagAnalyzer.COMMAND_LINE);
    }

    @Test
    void makefileContextReachesTheCompiledSourceOnce(@TempDir Path dir) throws IOException {
        Files.writeString(
                dir.resolve("Makefile"),
                """
                NVCC ?= nvcc
                NVCCFLAGS := -O3 -arch=sm_80 -ftz=true
                ifeq ($(fast),1)
                NVCCFLAGS += -use_fast_math
                endif
                k: k.cu
                \t$(NVCC) $(NVCCFLAGS) -o k k.cu
                """);
        Files.writeString(dir.resolve("k.cu"), "");
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        BuildContext k = ctx.buildContext(dir.resolve("k.cu"));
        assertThat(k.effectiveFtz()).isTrue();
        assertThat(k.cudaArch()).isEqualTo("sm_80");
        // the conditional fast math is reported, but not assumed for the build
        assertThat(k.effectiveFastMath()).isFalse();
        assertThat(k.origins())
                .doesNotHaveDuplicates()
                .extracting(o -> o.location().shortText())
                .contains("Makefile:2:30");
        assertThat(ctx.findings())
                .filteredOn(f -> f.location().startLine() == 4)
                .extracting(Finding::ruleId)
                .containsExactlyInAnyOrder("NL002", "NL006", "NL007");
        assertThat(ctx.findings())
                .filteredOn(f -> f.location().startLine() == 4)
                .allSatisfy(f -> assertThat(f.confidence()).isEqualTo(Confidence.MEDIUM));
    }

    /** Truncated and mutated build files never make the readers throw (the analyzer would report internal-error). */
    @Test
    void damagedInputNeverThrows(@TempDir Path dir) throws IOException {
        java.util.Random rnd = new java.util.Random(42);
        List<Path> samples;
        try (var s = Files.walk(FIXTURES)) {
            samples = s.filter(Files::isRegularFile).sorted().toList();
        }
        String json = "[{\"directory\": \"/b\", \"file\": \"k.cu\", \"arguments\": [\"nvcc\", \"-Xcompiler\", "
                + "\"-march=native,-m32\", \"-ftz\", \"true\", \"-c\", \"k.cu\"]}]";
        int runs = 0;
        for (Path sample : samples) {
            String text = Files.readString(sample);
            String name = sample.getFileName().toString();
            for (int k = 0; k < 12; k++) {
                String damaged =
                        switch (k % 3) {
                            case 0 -> text.substring(0, rnd.nextInt(text.length() + 1));
                            case 1 -> mutate(text, rnd);
                            default -> text.substring(rnd.nextInt(text.length() + 1));
                        };
                Path d = Files.createDirectories(dir.resolve("r" + runs++));
                Files.writeString(d.resolve(name), damaged);
                Files.writeString(
                        d.resolve("compile_commands.json"),
                        k % 2 == 0 ? json.substring(0, rnd.nextInt(json.length() + 1)) : mutate(json, rnd));
            }
        }
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("internal-error"));
        assertThat(runs).isGreaterThan(50);
    }

    private static String mutate(String s, java.util.Random rnd) {
        StringBuilder b = new StringBuilder(s);
        String specials = "\"\\$<>{}()[]=#;,:\t\n ";
        for (int i = 0; i < 8 && b.length() > 0; i++) {
            int at = rnd.nextInt(b.length());
            switch (rnd.nextInt(3)) {
                case 0 -> b.setCharAt(at, specials.charAt(rnd.nextInt(specials.length())));
                case 1 -> b.deleteCharAt(at);
                default -> b.insert(at, specials.charAt(rnd.nextInt(specials.length())));
            }
        }
        return b.toString();
    }

    /** examples/README.md promises these build-flag findings for the demo. */
    @Test
    void examplesBuildFilesGiveTheDocumentedFindings() {
        Path examples = Path.of("../examples");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(examples), "examples/ not present");
        TestScanContext ctx = new TestScanContext(examples).run(new BuildFlagAnalyzer());
        assertThat(ctx.findings())
                .extracting(f -> f.ruleId() + "@" + f.location().file() + ":"
                        + f.location().startLine())
                .containsExactlyInAnyOrder(
                        "NL002@dbt/CMakeLists.txt:10",
                        "NL006@dbt/CMakeLists.txt:10",
                        "NL007@dbt/CMakeLists.txt:10",
                        "NL003@dbt/CMakeLists.txt:13",
                        "NL007@pi/Makefile:4",
                        "NL005@pi/Makefile:6");
        assertThat(ctx.buildContext(examples.resolve("dbt/backproject.cu")).effectiveFastMath())
                .isTrue();
        assertThat(ctx.buildContext(examples.resolve("dbt/reference.cpp")).hostContracts())
                .isTrue();
        assertThat(ctx.buildContext(examples.resolve("pi/pi.cu")).effectiveFtz())
                .isTrue();
        assertThat(ctx.notifications()).isEmpty();
    }

    @Test
    void disabledRulesAreNotReported() {
        TestScanContext ctx = new TestScanContext(FIXTURES.resolve("make-nvcc"))
                .disable("NL007")
                .run(new BuildFlagAnalyzer());
        assertThat(ctx.findings()).isNotEmpty().noneMatch(f -> f.ruleId().equals("NL007"));
    }

    @Test
    void acceptsBuildFilesOnly() {
        BuildFlagAnalyzer a = new BuildFlagAnalyzer();
        for (String ok : List.of(
                "CMakeLists.txt",
                "x/flags.cmake",
                "Makefile",
                "makefile",
                "GNUmakefile",
                "common.mk",
                "build/compile_commands.json",
                // read for the line that writes a flag a generated file carries (WrittenFlags), not evaluated
                "meson.build",
                "meson_options.txt",
                "configure.ac",
                "Makefile.am")) {
            assertThat(a.accepts(Path.of(ok))).as(ok).isTrue();
        }
        for (String no : List.of("main.cu", "Makefile.in", "CMakeCache.txt", "commands.json", "make.config")) {
            assertThat(a.accepts(Path.of(no))).as(no).isFalse();
        }
    }

    /**
     * Session 70 round B: an audio encoder's Makefile gave some files -ffast-math twice (CFLAGS and an optimization
     * variable that repeats it), each on its own line of bear's arguments; the message said "in 38 of 34 compile
     * commands". A command counts once however often it writes the flag.
     */
    @Test
    void aCommandThatWritesTheFlagTwiceCountsOnce(@TempDir Path dir) throws IOException {
        Files.writeString(
                dir.resolve("Makefile"),
                """
                CFLAGS = -O2 -ffast-math
                OPTIM_SIZE = -Os -ffast-math
                app: a.c b.c
                \t$(CC) $(CFLAGS) -c a.c -o a.o
                \t$(CC) $(CFLAGS) $(OPTIM_SIZE) -c b.c -o b.o
                """);
        Files.writeString(dir.resolve("a.c"), "float a(float x) { return x / 3.0f; }\n");
        Files.writeString(dir.resolve("b.c"), "float b(float x) { return x / 5.0f; }\n");
        Path build = Files.createDirectories(dir.resolve("build"));
        Files.writeString(
                build.resolve("compile_commands.json"),
                """
                [{"directory": "/w", "file": "/w/a.c",
                  "arguments": ["cc", "-O2",
                    "-ffast-math", "-c", "a.c", "-o", "a.o"]},
                 {"directory": "/w", "file": "/w/b.c",
                  "arguments": ["cc", "-O2",
                    "-ffast-math",
                    "-Os",
                    "-ffast-math", "-c", "b.c", "-o", "b.o"]}]
                """);
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer());
        assertThat(ctx.findings())
                .filteredOn(f -> f.message().contains("compile commands"))
                .isNotEmpty()
                .allSatisfy(f -> assertThat(f.message()).contains("in 2 of 2 compile commands"));
    }

    private static Finding only(TestScanContext ctx, String rule, int line) {
        List<Finding> fs = ctx.findings().stream()
                .filter(f -> f.ruleId().equals(rule) && f.location().startLine() == line)
                .toList();
        assertThat(fs).as(rule + " at line " + line + " in " + ctx.findings()).hasSize(1);
        return fs.get(0);
    }
}
