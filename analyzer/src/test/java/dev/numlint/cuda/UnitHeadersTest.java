package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Notification;
import dev.numlint.scan.Analyzers;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import dev.numlint.spi.Analyzer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each compiled unit is parsed by Clang once, and a listed header is read from the parse of the first compiled unit
 * (in path order) that includes it, in that unit's language and with its flags ({@link UnitHeaders}, issue 26: cglm
 * was 277 Clang units where clang-tidy parses 53, its C headers parsed as CUDA).
 */
class UnitHeadersTest {
    private static String db(Path dir, String... files) {
        return CompileDatabases.of(dir, "-std=c99 -DSCALE=2 -O2", files);
    }

    private record Scan(ScanResult result, CudaStats stats) {}

    private static Scan scan(Path dir, Path cache) {
        List<Analyzer> all = Analyzers.load();
        CudaSourceAnalyzer cuda = all.stream()
                .filter(CudaSourceAnalyzer.class::isInstance)
                .map(CudaSourceAnalyzer.class::cast)
                .findFirst()
                .orElseThrow();
        ScanResult r = Scanner.scan(
                ScanOptions.builder(dir).analyzers(all).cacheDir(cache).build());
        return new Scan(r, cuda.stats());
    }

    private static List<Notification> notices(ScanResult r, String file) {
        return r.notifications().stream().filter(n -> file.equals(n.file())).toList();
    }

    private static final String HEADER = "#ifndef BINS_H\n"
            + "#define BINS_H\n"
            + "static inline unsigned int bin_of(float x, float width)\n"
            + "{\n"
            + "    return (unsigned int)(x / width);\n"
            + "}\n"
            + "#endif\n";

    @Test
    void aHeaderIncludedByTwoSourcesIsReadFromTheFirstSourcesParseOnce(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("bins.h"), HEADER);
        Files.writeString(
                src.resolve("a.c"), "#include \"bins.h\"\nunsigned int a(float x) { return bin_of(x, 0.5f); }\n");
        Files.writeString(
                src.resolve("b.c"), "#include \"bins.h\"\nunsigned int b(float x) { return bin_of(x, 2.0f); }\n");
        Files.writeString(src.resolve("compile_commands.json"), db(src, "a.c", "b.c"));
        Scan s = scan(src, dir.resolve("cache"));
        // two compiled units, two parses: the header's cursors come from a.c's (before: a third parse, the header
        // alone, as CUDA)
        assertThat(s.stats().clangUnits.get()).isEqualTo(2);
        assertThat(s.stats().clangFromUnits.get()).isEqualTo(1);
        assertThat(s.stats().clangHeadersAlone.get()).isZero();
        // the header's cast reported once, at the header's line
        assertThat(ScanHits.of(s.result())).containsExactly("bins.h:5 NL001 ERROR");
        // a header no compiled unit includes: parsed alone, and counted so
        Files.writeString(src.resolve("lonely.h"), HEADER.replace("BINS_H", "LONELY_H"));
        Scan t = scan(src, dir.resolve("cache2"));
        assertThat(t.stats().clangUnits.get()).isEqualTo(3);
        assertThat(t.stats().clangHeadersAlone.get()).isEqualTo(1);
        assertThat(ScanHits.of(t.result())).containsExactly("bins.h:5 NL001 ERROR", "lonely.h:5 NL001 ERROR");
    }

    @Test
    void aSingleFileLibraryIsReadInTheUnitThatCompilesItsImplementation(@TempDir Path dir) throws Exception {
        // stb style: the implementation is compiled only where a unit defines LIB_IMPLEMENTATION before the include;
        // a.c comes first by path and only declares, z.c compiles it (before: read in a.c, the code was inactive)
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                src.resolve("lib.h"),
                "/* in one C file:\n   #define LIB_IMPLEMENTATION\n   #include \"lib.h\" */\n"
                        + "#ifndef LIB_H\n#define LIB_H\nunsigned int quantize(float x);\n#endif\n"
                        + "#ifdef LIB_IMPLEMENTATION\n"
                        + "unsigned int quantize(float x) { return (unsigned int)(x * 3.0f - 1.0f); }\n#endif\n");
        Files.writeString(src.resolve("a.c"), "#include \"lib.h\"\nunsigned int a(float x) { return quantize(x); }\n");
        Files.writeString(src.resolve("z.c"), "#define LIB_IMPLEMENTATION\n#include \"lib.h\"\n");
        Files.writeString(src.resolve("compile_commands.json"), db(src, "a.c", "z.c"));
        Scan s = scan(src, dir.resolve("cache"));
        assertThat(ScanHits.of(s.result())).containsExactly("lib.h:9 NL001 ERROR");
    }

    @Test
    void aHeaderNoUnitIncludesNamesTheBranchesItsConditionsLeaveInactive(@TempDir Path dir) throws Exception {
        // stb_image_resize.h beside a build that never includes it: read alone, its implementation is inactive and
        // its conversions unseen; a notice names the branches, the largest first (before: nothing said so)
        Path src = Files.createDirectories(dir.resolve("src"));
        StringBuilder h = new StringBuilder("#ifndef RESIZE_H\n#define RESIZE_H\nint resize(float s);\n#endif\n");
        h.append("#ifdef _WIN32\n#include <windows.h>\n#endif\n");
        h.append("#ifdef RESIZE_IMPLEMENTATION\nstatic unsigned int clamp_px(float x)\n{\n");
        for (int i = 0; i < 6; i++) h.append("    x = x * 0.5f + ").append(i).append(".0f;\n");
        h.append("    return (unsigned int)x;\n}\n#endif\n");
        Files.writeString(src.resolve("resize.h"), h.toString());
        Files.writeString(src.resolve("main.c"), "int main(void) { return 0; }\n");
        Files.writeString(src.resolve("compile_commands.json"), db(src, "main.c"));
        Path cache = dir.resolve("cache");
        for (int run = 0; run < 2; run++) { // the second from the cache
            Scan s = scan(src, cache);
            List<Notification> n = notices(s.result(), "resize.h").stream()
                    .filter(x -> x.id().equals("clang-inactive-alone"))
                    .toList();
            assertThat(n).hasSize(1);
            assertThat(n.get(0).line()).isEqualTo(8);
            assertThat(n.get(0).message())
                    .contains("11 lines in 2 preprocessor branches")
                    .contains("lines 8-19 ('#ifdef RESIZE_IMPLEMENTATION'), lines 5-7 ('#ifdef _WIN32')");
            assertThat(ScanHits.of(s.result())).isEmpty();
        }
        // with the implementation active (a unit defines the macro and includes it) there is nothing to say
        Files.writeString(src.resolve("impl.c"), "#define RESIZE_IMPLEMENTATION\n#include \"resize.h\"\n");
        Files.writeString(src.resolve("compile_commands.json"), db(src, "main.c", "impl.c"));
        Scan s = scan(src, cache);
        assertThat(notices(s.result(), "resize.h")).noneMatch(x -> x.id().equals("clang-inactive-alone"));
    }

    @Test
    void typesOnlyAFileTheBuildDoesNotCompileLacksAreNoWarning(@TempDir Path dir) throws Exception {
        // session 49: gtest's types in tests a configuration without tests does not build gave a warning that
        // findings may be missed; those files' findings are notes, and their types are not the build's
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("main.c"), "int main(void) { return 0; }\n");
        Files.writeString(
                src.resolve("test_widget.c"),
                "unsigned int check(const Widget *w, float f) { return (unsigned int)(f * 2.0f) + w->n; }\n");
        Files.writeString(src.resolve("compile_commands.json"), db(src, "main.c"));
        Path cache = dir.resolve("cache");
        for (int run = 0; run < 2; run++) // the second from the cache
        assertThat(scan(src, cache).result().notifications()).noneMatch(n -> n.id().equals("types-undefined"));
        // compiled, the same file's unknown type is the build's: the warning names it
        Files.writeString(src.resolve("compile_commands.json"), db(src, "main.c", "test_widget.c"));
        assertThat(scan(src, cache).result().notifications())
                .anyMatch(n -> n.id().equals("types-undefined") && n.message().contains("Widget"));
    }

    @Test
    void sourcesAUnityBuildIncludesAreReadFromTheOneParseOfItsUnit(@TempDir Path dir) throws Exception {
        // a unity build: main.c, the only compiled unit, includes the other sources (AGAL's main.cu includes 34 .cu
        // files and VTK's headers); each included source was a parse of main.c of its own, 34 parses of ten seconds
        Path src = Files.createDirectories(dir.resolve("src"));
        StringBuilder main = new StringBuilder("#define SCALE2 2.0f\n");
        List<String> expected = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Files.writeString(
                    src.resolve("part" + i + ".c"),
                    "unsigned int part" + i + "(float x) { return (unsigned int)(x * SCALE2); }\n");
            main.append("#include \"part").append(i).append(".c\"\n");
            expected.add("part" + i + ".c:1 NL001 ERROR");
        }
        // main calls every part: a part nothing calls would be a note (UnreachableCode), and so would one every call
        // of which passes a value the cast keeps in range (CallerRanges)
        main.append("int main(void) { return (int)(part0(-1.0f) + part1(-1.0f) + part2(-1.0f) + part3(-1.0f)); }\n");
        Files.writeString(src.resolve("main.c"), main.toString());
        Files.writeString(src.resolve("compile_commands.json"), db(src, "main.c"));
        Scan s = scan(src, dir.resolve("cache"));
        assertThat(s.stats().clangUnits.get()).isEqualTo(1);
        assertThat(s.stats().clangFromUnits.get()).isEqualTo(4);
        // each source's cast at its own line, once, with the unit's macro
        assertThat(ScanHits.of(s.result())).containsExactlyElementsOf(expected);
    }

    @Test
    void theHeadersCacheEntryFollowsItsUnitAndTheHeadersTheUnitReadsBeforeIt(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        // the header uses a type that only the unit's earlier include declares
        Files.writeString(src.resolve("types.h"), "typedef float real;\n");
        Files.writeString(
                src.resolve("bins.h"),
                "static inline unsigned int bin_of(real x, real w)\n{\n    return (unsigned int)(x / w);\n}\n");
        Files.writeString(
                src.resolve("a.c"),
                "#include \"types.h\"\n#include \"bins.h\"\nunsigned int a(real x) { return bin_of(x, 2); }\n");
        Files.writeString(src.resolve("compile_commands.json"), db(src, "a.c"));
        Path cache = dir.resolve("cache");
        assertThat(ScanHits.of(scan(src, cache).result())).containsExactly("bins.h:3 NL001 ERROR");
        // nothing changed: every analysis from the cache, no parse
        Scan again = scan(src, cache);
        assertThat(again.stats().clangUnits.get()).isZero();
        assertThat(ScanHits.of(again.result())).containsExactly("bins.h:3 NL001 ERROR");
        // 'real' becomes an integer type in the unit's earlier header: the header's entry is not reused
        Files.writeString(src.resolve("types.h"), "typedef int real;\n");
        Scan changed = scan(src, cache);
        // both headers (types.h changed, bins.h's unit read it) from the one parse of a.c
        assertThat(changed.stats().clangUnits.get()).isEqualTo(1);
        assertThat(changed.stats().clangFromUnits.get()).isEqualTo(2);
        assertThat(ScanHits.of(changed.result())).doesNotContain("bins.h:3 NL001 ERROR");
    }

    @Test
    void twelveHeadersOfOneUnitAreReadInOneWalkOfItsParse(@TempDir Path dir) throws Exception {
        // more headers than JavaCPP's ten callback objects of a class at once: the walkers share one callback (a
        // walker each crashed libclang's visit of cglm's units); each header's cast at its own line, once
        Path src = Files.createDirectories(dir.resolve("src"));
        StringBuilder unit = new StringBuilder();
        List<String> expected = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Files.writeString(
                    src.resolve("h" + i + ".h"),
                    HEADER.replace("BINS_H", "H" + i).replace("bin_of", "bin" + i));
            unit.append("#include \"h").append(i).append(".h\"\n");
            expected.add("h" + i + ".h:5 NL001 ERROR");
        }
        unit.append("unsigned int a(float x) { return bin0(x, 0.5f) + bin11(x, 2.0f); }\n");
        Files.writeString(src.resolve("a.c"), unit.toString());
        Files.writeString(src.resolve("compile_commands.json"), db(src, "a.c"));
        Scan s = scan(src, dir.resolve("cache"));
        assertThat(s.stats().clangUnits.get()).isEqualTo(1);
        assertThat(s.stats().clangFromUnits.get()).isEqualTo(12);
        assertThat(s.stats().clangHeadersAlone.get()).isZero();
        assertThat(ScanHits.of(s.result())).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(s.result().notifications()).noneMatch(n -> n.id().startsWith("clang-"));
    }

    /**
     * A header that is valid C but neither C++ nor CUDA ({@code new} is a name, {@code void *} converts to
     * {@code float *} implicitly), with a float-to-unsigned cast at line 6 of {@code *new = value}.
     */
    private static String cOnlyHeader(String function, String value) {
        return "#include <stdlib.h>\n"
                + "static inline unsigned int " + function + "(float extent, float h)\n"
                + "{\n"
                + "    float *new = malloc(sizeof(float));\n"
                + "    *new = " + value + ";\n"
                + "    unsigned int n = (unsigned int)(*new / h);\n"
                + "    free(new);\n"
                + "    return n;\n"
                + "}\n";
    }

    /** Sources {@code names} of one trivial function each ({@code int a(void) { return 1; }}). */
    private static void trivialUnits(Path src, String... names) throws java.io.IOException {
        for (int i = 0; i < names.length; i++) {
            String n = names[i];
            Files.writeString(
                    src.resolve(n), "int " + n.substring(0, n.indexOf('.')) + "(void) { return " + (i + 1) + "; }\n");
        }
    }

    @Test
    void aCProjectsHeaderIsReadAsCWithItsIncludersFlags(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        // valid C, not C++ or CUDA: 'new' is a name, void * converts to float * implicitly; SCALE comes from the
        // compile command of the unit that includes the header
        Files.writeString(src.resolve("grid.h"), cOnlyHeader("grid_cells", "extent * SCALE"));
        Files.writeString(
                src.resolve("grid.c"),
                "#include \"grid.h\"\nunsigned int cells(float e) { return grid_cells(e, 0.25f); }\n");
        Files.writeString(src.resolve("compile_commands.json"), db(src, "grid.c"));
        Scan s = scan(src, dir.resolve("cache"));
        // before: parsed alone as CUDA, Clang stopped at 'new' and at SCALE (no compile command) with a clang-error
        // notice on the header, and the cast was not reported
        assertThat(notices(s.result(), "grid.h")).noneMatch(n -> n.id().equals("clang-error"));
        assertThat(ScanHits.of(s.result())).contains("grid.h:6 NL001 ERROR");
        assertThat(s.stats().clangUnits.get()).isEqualTo(1);
    }

    @Test
    void aHeaderNoUnitIncludesIsReadAloneInTheBuildsLanguageAndStandard(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        // valid C99, not C++ or CUDA ('new' is a name, void * converts to float * implicitly); no unit includes it
        Files.writeString(src.resolve("spare.h"), cOnlyHeader("spare_cells", "extent"));
        trivialUnits(src, "a.c", "b.c");
        Files.writeString(src.resolve("compile_commands.json"), db(src, "a.c", "b.c"));
        Scan s = scan(src, dir.resolve("cache"));
        // before: read alone as CUDA with -std=c++17 (guessed), Clang stopped at 'new' (a clang-error notice) and the
        // cast was not reported
        assertThat(notices(s.result(), "spare.h")).noneMatch(n -> n.id().equals("clang-error"));
        assertThat(ScanHits.of(s.result())).contains("spare.h:6 NL001 ERROR");
    }

    @Test
    void aCxx20HeaderNoUnitIncludesIsReadWithTheBuildsStandard(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        // a concept and a requires-clause: C++20; the hand-written parser cannot read the constrained template
        Files.writeString(
                src.resolve("bins.hpp"),
                "#include <concepts>\n"
                        + "template <class T> concept Real = std::floating_point<T>;\n"
                        + "template <Real T> requires (sizeof(T) >= 4)\n"
                        + "unsigned int bins(T extent, T h) { return (unsigned int)(extent / h); }\n"
                        + "inline unsigned int bins_f(float e) { return bins(e, 0.5f); }\n");
        trivialUnits(src, "a.cpp", "b.cpp");
        Files.writeString(
                src.resolve("compile_commands.json"), CompileDatabases.of(src, "-std=c++20 -O2", "a.cpp", "b.cpp"));
        Scan s = scan(src, dir.resolve("cache"));
        // before: read with -std=c++17, "unknown type name 'concept'", and the template's cast was lost
        assertThat(notices(s.result(), "bins.hpp")).noneMatch(n -> n.id().equals("clang-error"));
        assertThat(ScanHits.of(s.result())).contains("bins.hpp:4 NL001 ERROR");
    }

    /**
     * A template implementation file (.inl) included by a C++20 header that no unit includes is read through that
     * header with the build's standard too (session 42: a C++20 chemistry solver's .inl files, read through their
     * .hpp as C++17, had 101 Clang errors each).
     */
    @Test
    void anInlReadThroughAHeaderReadAloneHasTheBuildsStandard(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                src.resolve("bins.hpp"),
                "#include <map>\n#include <string>\n"
                        + "template <class T> requires (sizeof(T) >= 4)\n"
                        + "unsigned int bins(const std::map<std::string, T> &m, T h);\n"
                        + "#include \"bins.inl\"\n");
        Files.writeString(
                src.resolve("bins.inl"),
                "template <class T> requires (sizeof(T) >= 4)\n"
                        + "unsigned int bins(const std::map<std::string, T> &m, T h) {\n"
                        + "  return m.contains(\"extent\") ? (unsigned int)(m.at(\"extent\") / h) : 0u;\n"
                        + "}\n"
                        + "inline unsigned int bins_f(const std::map<std::string, float> &m) { return bins(m, 0.5f); }\n");
        trivialUnits(src, "a.cpp", "b.cpp");
        Files.writeString(
                src.resolve("compile_commands.json"), CompileDatabases.of(src, "-std=c++20 -O2", "a.cpp", "b.cpp"));
        Scan s = scan(src, dir.resolve("cache"));
        // before: bins.inl was read through bins.hpp with -std=c++17 (a requires-clause and std::map::contains are
        // errors there)
        assertThat(notices(s.result(), "bins.inl")).noneMatch(n -> n.id().equals("clang-error"));
        assertThat(notices(s.result(), "bins.hpp")).noneMatch(n -> n.id().equals("clang-error"));
    }

    @Test
    void aHeaderReadAloneWithTheMostCommonStandardSaysItsFlagsAreBorrowed(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("odd.h"), "static inline int odd(void) { return undeclared_name; }\n");
        trivialUnits(src, "a.c", "b.c", "c.c");
        String two = CompileDatabases.of(src, "-std=c99", "a.c", "b.c");
        String one = CompileDatabases.of(src, "-std=gnu11", "c.c");
        Files.writeString(
                src.resolve("compile_commands.json"), two.substring(0, two.length() - 1) + ",\n" + one.substring(1));
        Scan s = scan(src, dir.resolve("cache"));
        assertThat(notices(s.result(), "odd.h"))
                .filteredOn(n -> n.id().equals("clang-error"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("no compiled unit includes this header: it is read alone as C with -std=c99,"
                                + " borrowed from the most common (2 of 3) compile command of the build"));
    }

    /**
     * Units the database does not compile have no compile command of their own, whatever flags the build files give
     * them (session 82: a CMake build of one unit beside 98 units of a Visual Studio project was "the most common (96
     * of 99) compile command").
     */
    @Test
    void unitsTheDatabaseDoesNotCompileAreNoCompileCommandsOfTheBuild(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("odd.h"), "static inline int odd(void) { return undeclared_name; }\n");
        trivialUnits(src, "a.c", "b.c", "c.c");
        Files.writeString(
                src.resolve("CMakeLists.txt"),
                "cmake_minimum_required(VERSION 3.10)\nproject(odd C)\nset(CMAKE_C_FLAGS \"-O2\")\n"
                        + "add_executable(odd a.c b.c c.c)\n");
        Files.writeString(src.resolve("compile_commands.json"), CompileDatabases.of(src, "-std=c99", "a.c"));
        Scan s = scan(src, dir.resolve("cache"));
        assertThat(notices(s.result(), "odd.h"))
                .filteredOn(n -> n.id().equals("clang-error"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("no compiled unit includes this header: it is read alone as C with -std=c99,"
                                + " borrowed from every compile command of the build"));
    }

    @Test
    void aHeaderWhoseIncluderClangRefusedNamesIt(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        // the header's one includer reaches a computed #include (an image library's pattern), which Clang must refuse
        Files.writeString(
                src.resolve("shade.hpp"), "inline int shade(int v) { return v * SHADE_SCALE + not_declared_here; }\n");
        // (a name that climbs: a plain one is followed as the include it names, session 70)
        Files.writeString(
                src.resolve("codec.h"), "#define CODEC_HEADER \"../src/codec_png.h\"\n#include CODEC_HEADER\n");
        Files.writeString(src.resolve("codec_png.h"), "inline int png(void) { return 1; }\n");
        Files.writeString(
                src.resolve("viewer.cpp"), "#include \"codec.h\"\n#include \"shade.hpp\"\nint v(void) { return 1; }\n");
        trivialUnits(src, "b.cpp");
        Files.writeString(
                src.resolve("compile_commands.json"),
                CompileDatabases.of(src, "-std=c++17 -DSHADE_SCALE=3", "viewer.cpp", "b.cpp"));
        Scan s = scan(src, dir.resolve("cache"));
        assertThat(notices(s.result(), "shade.hpp"))
                .filteredOn(n -> n.id().equals("clang-error"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("not_declared_here")
                        .contains("its includer viewer.cpp was not parsed by Clang (")
                        .contains("computed #include")
                        .doesNotContain("no compiled unit includes this header"));
    }

    /**
     * Session 84 round AA: libass's headers write FreeType's {@code #include FT_FREETYPE_H}, a macro of a system header
     * that no file of the tree defines; their units were parsed by Clang, but the headers themselves, read through
     * those units, were refused ("clang-not-parsed") and left to the fallback front end. A header read through its
     * includer is held to the same policy as the includer's own includes: refused only where the tree or the command
     * can name the file.
     */
    @Test
    void aHeaderWithAComputedIncludeNothingInTheTreeDefinesIsParsedByClang(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        // as FreeType's ft2build.h gives FT_FREETYPE_H a header name: here a file of the tree, a plain name
        Files.writeString(src.resolve("fontnames.h"), "#define FONT_LIBRARY_HEADER \"fontlib.h\"\n");
        Files.writeString(src.resolve("fontlib.h"), "typedef int font_units;\n");
        Files.writeString(
                src.resolve("glyphs.h"),
                "#include \"fontnames.h\"\n#include FONT_LIBRARY_HEADER\n"
                        + "static inline unsigned to_px(float v) { return (unsigned)(v * 64.0f - 1.0f); }\n");
        Files.writeString(
                src.resolve("evil.h"),
                "#define EVIL_HEADER \"/etc/hostname\"\n#ifdef USE_EVIL\n#include EVIL_HEADER\n#endif\n"
                        + "static inline unsigned to_evil(float v) { return (unsigned)(v - 1.0f); }\n");
        Files.writeString(src.resolve("render.c"), "#include \"glyphs.h\"\nunsigned f(float x) { return to_px(x); }\n");
        Files.writeString(src.resolve("other.c"), "#include \"evil.h\"\nunsigned g(float x) { return to_evil(x); }\n");
        Files.writeString(src.resolve("compile_commands.json"), db(src, "render.c", "other.c"));
        Scan s = scan(src, dir.resolve("cache"));
        assertThat(notices(s.result(), "glyphs.h")).extracting(Notification::id).doesNotContain("clang-not-parsed");
        assertThat(notices(s.result(), "evil.h"))
                .filteredOn(n -> n.id().equals("clang-not-parsed"))
                .singleElement()
                .satisfies(n -> assertThat(n.message()).contains("EVIL_HEADER"));
    }

    @Test
    void aHeaderForAnotherTargetIsNamedNotCompiledNotParseErrors(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        // an ARM-only translation header: its includer includes it only on AArch64, and it refuses other targets
        Files.writeString(
                src.resolve("neon_shim.h"),
                "#if !defined(__aarch64__)\n"
                        + "#error \"this shim needs an AArch64 target\"\n"
                        + "#endif\n"
                        + "#include <stdint.h>\n"
                        + "static inline int32_t shim_lanes(float32x4_t v)\n"
                        + "{\n"
                        + "    return (int32_t) vgetq_lane_f32(v, 0);\n"
                        + "}\n");
        Files.writeString(
                src.resolve("simd.h"),
                "#if defined(__aarch64__)\n#include \"neon_shim.h\"\n#else\n#include <emmintrin.h>\n#endif\n");
        Files.writeString(src.resolve("kernel.c"), "#include \"simd.h\"\nint lanes(void) { return 4; }\n");
        Files.writeString(src.resolve("compile_commands.json"), db(src, "kernel.c"));
        Scan s = scan(src, dir.resolve("cache"));
        // before: a clang-error notice "Clang reported 2 errors, the first at line 2" as if the code were broken
        assertThat(notices(s.result(), "neon_shim.h"))
                .extracting(Notification::id)
                .containsExactly("not-compiled");
        assertThat(notices(s.result(), "neon_shim.h").get(0).message())
                .contains("its own #error at line 2: \"this shim needs an AArch64 target\"");
    }
}
