package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.model.BuildContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leading system headers of a unit ({@link ClangSystemPrefix}) and their precompiled header ({@link
 * ClangPch#prefix}): what the walk keeps and where it stops, and a unit parsed with the prefix has exactly the
 * cursors of its plain parse.
 */
class ClangSystemPrefixTest {
    @TempDir
    Path dir;

    @TempDir
    Path outside;

    @BeforeEach
    void fresh() {
        ClangPch.reset();
    }

    @AfterEach
    void restore() {
        System.clearProperty("numlint.clang.prefixPch");
        ClangPch.reset();
    }

    private Path write(String name, String text) throws Exception {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    private ClangSystemPrefix.Prefix prefix(Path f, List<String> args) throws Exception {
        return ClangSystemPrefix.of(f, Files.readAllBytes(f), Map.of(), args, dir.toRealPath());
    }

    @Test
    void followsProjectHeadersThroughGuardsDefinitionsAndPragmasUpToTheFirstCode() throws Exception {
        write(
                "inc/proj.h",
                """
                /* licence */
                #ifndef PROJ_H
                #define PROJ_H
                #ifdef _MSC_VER
                #  pragma warning(disable: 4100)
                #  define PROJ_API __declspec(dllexport)
                #endif
                #define PROJ_SCALE 2  // a constant
                #include <vector>
                #include "detail.h"
                #include <cmath>
                namespace proj { inline int f() { return 1; } }
                #include <map>
                #endif
                """);
        write("inc/detail.h", "#pragma once\n#include <limits>\n#define DETAIL 1\n");
        Path a = write("a.cpp", "// unit\n#include \"inc/proj.h\"\n#include <string>\nint main() {}\n");
        ClangSystemPrefix.Prefix p = prefix(a, List.of());
        assertThat(p.includes()).containsExactly("vector", "limits", "cmath");
        assertThat(p.macros()).containsExactlyInAnyOrder("PROJ_H", "PROJ_API", "PROJ_SCALE", "DETAIL");
        assertThat(p.source()).isEqualTo("#include <vector>\n#include <limits>\n#include <cmath>\n".repeat(2));
    }

    @Test
    void stopsAtWhatCouldChangeTheSystemHeadersOrIsNotKnown() throws Exception {
        String[] stops = {
            "#ifdef USE_X\n#include <map>\n#endif\n#include <set>\n", // a conditional include
            "#pragma pack(push, 1)\n#include <map>\n", // a pragma that changes layouts
            "#include_next <map>\n#include <set>\n",
            "#define HDR <map>\n#include HDR\n#include <set>\n", // a computed include
            "#line 10\n#include <map>\n",
            "#error no\n#include <map>\n",
            "#include <../etc/x.h>\n#include <map>\n",
        };
        for (String s : stops) {
            Path f = write("s.cpp", "#include <vector>\n" + s + "int x;\n");
            assertThat(prefix(f, List.of()).includes()).as(s).containsExactly("vector");
        }
        // a header beside the includer but outside the tree (found through a link) is not a system header
        Files.writeString(outside.resolve("side.h"), "#include <map>\n");
        Path f = write("t.cpp", "#include <vector>\n#include \"side.h\"\n#include <set>\n");
        assertThat(prefix(f, List.of("-iquote", outside.toString())).includes()).containsExactly("vector");
        // a header of the tree that is a link to a file outside it is not read
        Files.writeString(outside.resolve("secret.h"), "#include <map>\n");
        Files.createSymbolicLink(dir.resolve("link.h"), outside.resolve("secret.h"));
        f = write("l.cpp", "#include <vector>\n#include \"link.h\"\n#include <set>\n");
        assertThat(prefix(f, List.of()).includes()).containsExactly("vector");
        // a project header entered twice without a guard may declare again
        write("twice.h", "#include <map>\n");
        f = write("u.cpp", "#include \"twice.h\"\n#include \"twice.h\"\n#include <set>\n");
        assertThat(prefix(f, List.of()).includes()).containsExactly("map");
    }

    @Test
    void anAngledIncludeOfTheTreeIsAProjectHeaderAndASystemDirectoryIsNot() throws Exception {
        write("include/lib/api.h", "#pragma once\n#include <cstdio>\nvoid api();\n");
        Files.createDirectories(outside.resolve("sys"));
        Files.writeString(outside.resolve("sys/ext.h"), "int ext;\n");
        Path f = write("src/main.c", "#include <lib/api.h>\n");
        assertThat(prefix(f, List.of("-I" + dir.resolve("include"))).includes()).containsExactly("cstdio");
        f = write("src/main2.c", "#include <ext.h>\n#include <lib/api.h>\n");
        assertThat(prefix(
                                f,
                                List.of(
                                        "-isystem",
                                        outside.resolve("sys").toString(),
                                        "-I",
                                        dir.resolve("include").toString()))
                        .includes())
                .containsExactly("ext.h", "cstdio");
    }

    private List<String> args(Path f) {
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        ClangFrontEnd.Language l = f.toString().endsWith(".c") ? ClangFrontEnd.Language.C : ClangFrontEnd.Language.CXX;
        return fe.arguments(f, l, BuildContext.defaults());
    }

    private ClangUnit parse(Path f, List<String> args) throws Exception {
        ClangUnit u = ClangParser.parse(f, args, Files.readAllBytes(f), null, null, null, Map.of(), dir.toRealPath());
        assertThat(u.failure()).isNull();
        return u;
    }

    static final String HEADER =
            """
            #ifndef PROJ_H
            #define PROJ_H
            #define PROJ_SCALE 2
            #include <vector>
            #include <cmath>
            #include <limits>
            #include <assert.h>
            typedef float real_t;
            #endif
            """;

    static final String UNIT =
            """
            #include "proj.h"
            unsigned pick(const std::vector<real_t> &v, int i) {
                real_t big = std::numeric_limits<real_t>::max() / PROJ_SCALE;
                assert(i >= 0);
                return (unsigned)ceil(v[i] - 0.5f) + (v[i] > big);
            }
            """;

    @Test
    void unitsThatStartWithTheSameSystemHeadersShareOnePrecompiledPrefixAndKeepThePlainParse() throws Exception {
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        write("proj.h", HEADER);
        Path a = write("a.cpp", UNIT);
        Path b = write("b.cpp", UNIT.replace("pick", "choose"));

        System.setProperty("numlint.clang.prefixPch", "false");
        ClangUnit plainA = parse(a, args(a));
        ClangUnit plainB = parse(b, args(b));
        assertThat(ClangPch.BUILT.get()).isZero();

        System.setProperty("numlint.clang.prefixPch", "true");
        ClangUnit first = parse(a, args(a));
        assertThat(ClangPch.BUILT.get())
                .as("the first unit of a prefix parses plainly")
                .isZero();
        ClangUnit pchB = parse(b, args(b));
        ClangUnit pchA = parse(a, args(a));
        assertThat(ClangPch.BUILT.get()).isEqualTo(1);
        assertThat(ClangPch.PREFIX_USED.get()).isEqualTo(2);

        assertThat(plainA.errors()).isZero();
        assertThat(pchA.errors()).isZero();
        assertThat(ClangPchTest.dump(plainA)).hasSizeGreaterThan(30);
        assertThat(ClangPchTest.dump(first)).isEqualTo(ClangPchTest.dump(plainA));
        assertThat(ClangPchTest.dump(pchA)).isEqualTo(ClangPchTest.dump(plainA));
        assertThat(ClangPchTest.dump(pchB)).isEqualTo(ClangPchTest.dump(plainB));
        assertThat(pchA.conversions())
                .filteredOn(ClangUnit.Conversion::explicit)
                .extracting(c -> c.node().line + ":" + c.from() + "->" + c.to())
                .contains("5:double->unsigned int");
    }

    @Test
    void cudaUnitsKeepTheRuntimeHeadersTheyShare() throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h")), "a CUDA toolkit");
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        write("proj.h", HEADER);
        String unit = "#include <cfloat>\n"
                + UNIT.replace("unsigned pick", "__device__ unsigned pick")
                        .replace("std::numeric_limits<real_t>::max()", "FLT_MAX")
                        .replace("const std::vector<real_t> &v", "const real_t *v");
        Path a = write("a.cu", unit);
        Path b = write("b.cu", unit.replace("pick", "choose"));
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        System.setProperty("numlint.clang.prefixPch", "true");
        for (Path f : List.of(a, b, a)) {
            ClangUnit u = parse(f, fe.arguments(f, ClangFrontEnd.Language.CUDA, BuildContext.defaults()));
            assertThat(u.errors()).as("%s", u.firstError()).isZero();
        }
        // a prefix would parse the CUDA wrapper again for each prefix: CUDA units share the runtime headers' one
        assertThat(ClangPch.PREFIX_USED.get()).isZero();
        assertThat(ClangPch.USED.get()).isEqualTo(3);
    }

    @Test
    void aMacroTheProjectDefinesThatASystemHeaderReadsKeepsThePlainParse() throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/usr/include/features.h")), "glibc's headers");
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        // _GNU_SOURCE before <string.h> declares strchrnul; read without it first, the unit would not see it
        String unit =
                "#define _GNU_SOURCE\n#include <string.h>\nconst char *f(const char *s) { return strchrnul(s, 'x'); }\n";
        Path a = write("a.c", unit);
        Path b = write("b.c", unit);
        System.setProperty("numlint.clang.prefixPch", "true");
        for (Path f : List.of(a, b, a)) {
            ClangUnit u = parse(f, args(f));
            assertThat(u.errors()).as("%s", u.firstError()).isZero();
        }
        assertThat(ClangPch.PREFIX_USED.get()).isZero();
    }

    @Test
    void aSystemHeaderThatCannotBeReadTwiceKeepsThePlainParse() throws Exception {
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        Files.writeString(outside.resolve("once.h"), "struct unguarded { int a; };\n");
        String unit = "#include <once.h>\nint g(struct unguarded u) { return u.a; }\n";
        Path a = write("a.c", unit);
        Path b = write("b.c", unit);
        System.setProperty("numlint.clang.prefixPch", "true");
        for (Path f : List.of(a, b, a)) {
            List<String> args = new ArrayList<>(args(f));
            args.addAll(List.of("-isystem", outside.toString()));
            ClangUnit u = parse(f, args);
            assertThat(u.errors()).as("%s", u.firstError()).isZero();
        }
        assertThat(ClangPch.PREFIX_USED.get()).isZero();
    }
}
