package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file Clang read with errors has one notice: Clang's first error (its line), with the hand-written parser's parse
 * errors folded in, each function named (issue 26: "one notice per file naming the first error, and each function
 * left out is named"). Before, each parse error was a warning of its own beside Clang's note (GVDB).
 */
class ClangErrorNoticeTest {
    private static List<Notification> notices(Path dir, String file) throws Exception {
        TestScanContext ctx = new TestScanContext(dir).run(new CudaSourceAnalyzer());
        return ctx.notifications().stream().filter(n -> file.equals(n.file())).collect(Collectors.toList());
    }

    /**
     * The notices with both front ends on every function ({@code -Dnumlint.clang.both=true}): by default the
     * hand-written parser is not given a function Clang saw whole (ClangDecides), so its parse errors there are not
     * met; these tests hold how its notices and Clang's are told apart when it is.
     */
    private static List<Notification> bothNotices(Path dir, String file) throws Exception {
        System.setProperty("numlint.clang.both", "true");
        try {
            return notices(dir, file);
        } finally {
            System.clearProperty("numlint.clang.both");
        }
    }

    /**
     * A table of function pointers with a braced initializer is a declaration: the hand-written parser took it for a
     * function "'double'" (session 82, a quantum-chemistry library's FAST_POW table). Clang read the file without
     * error and holds no function there, so the notice is a note that says nothing is left out.
     */
    @Test
    void aDeclarationTheHandWrittenParserTookForAFunctionIsANote(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("powers.hpp"),
                """
                #pragma once
                inline double pow_0(double) { return 1.0; }
                inline double pow_1(double x) { return x; }
                static double (*FAST_POW[2])(double){
                    pow_0, pow_1};
                inline unsigned level(double x) { return (unsigned)FAST_POW[1](x); }
                """);
        List<Notification> n = notices(dir, "powers.hpp");
        assertThat(n).as(n.toString()).allSatisfy(x -> {
            assertThat(x.level()).isEqualTo(Level.NOTE);
            if (x.id().equals("parse-error"))
                assertThat(x.message())
                        .doesNotContain("not analyzed")
                        .endsWith("holds no function definition there (a declaration): nothing is left out");
        });
    }

    @Test
    void functionsOnlyClangReadAreNamedInClangsNotice(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("recovered.cu"),
                """
                #include <cstdio>
                __global__ void scale(unsigned *o, const float *x, float s)
                {
                    o[threadIdx.x] = (unsigned)(x[threadIdx.x] * s * missing_gain);
                }
                __global__ void trace(unsigned *o, const float *x)
                {
                    if (x[0] < 0.0f) printf(__FILE__ ": negative\\n");
                    o[1] = (unsigned)x[1];
                }
                __global__ void broken(unsigned *o, const float *x)
                {
                    o[2] = ) ] 3 @@ ;
                }
                """);
        List<Notification> n = bothNotices(dir, "recovered.cu");
        assertThat(n).as(n.toString()).hasSize(1);
        Notification clang = n.get(0);
        assertThat(clang.id()).isEqualTo("clang-error");
        assertThat(clang.line()).isEqualTo(4);
        assertThat(clang.level()).isEqualTo(Level.NOTE);
        assertThat(clang.message())
                .contains("the first at line 4: use of undeclared identifier 'missing_gain'")
                .contains("the hand-written parser could not read 2 functions ('trace' (line 6: construct not"
                        + " understood near 'printf' at line 8), 'broken' (line 11: construct not understood near ')'"
                        + " at line 13)), analyzed from Clang's facts alone");
    }

    @Test
    void aFunctionOnlyClangReadWithItsFirstErrorMakesTheNoticeAWarning(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("garbled.cu"),
                """
                __global__ void broken(float *out)
                {
                    out[0] = ) ] 3 @@ ;
                }
                __global__ void fine(unsigned *o, const float *x) { o[0] = (unsigned)x[0]; }
                """);
        List<Notification> n = notices(dir, "garbled.cu");
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).id()).isEqualTo("clang-error");
        assertThat(n.get(0).line()).isEqualTo(3);
        assertThat(n.get(0).level()).isEqualTo(Level.WARNING);
        assertThat(n.get(0).message())
                .contains("1 function ('broken' (line 1: construct not understood near ')' at line 3; Clang's"
                        + " first error is in it, its analysis may be partial))");
    }

    @Test
    void inAFileTheBuildDoesNotCompileTheNoticeIsANote(@TempDir Path dir) throws Exception {
        // the same garbled function as above, in a file the configured build does not compile (a stale main file):
        // its findings are notes, and so is its notice
        Path f = dir.resolve("stale.cu");
        Files.writeString(
                f,
                """
                __global__ void broken(float *out)
                {
                    out[0] = ) ] 3 @@ ;
                }
                __global__ void fine(unsigned *o, const float *x) { o[0] = (unsigned)x[0]; }
                """);
        TestScanContext ctx = new TestScanContext(dir);
        ctx.addBuildContext(
                f, dev.numlint.model.BuildContext.defaults().notCompiled("the compilation database lists the others"));
        ctx.run(new CudaSourceAnalyzer());
        List<Notification> n = ctx.notifications().stream()
                .filter(x -> "stale.cu".equals(x.file()))
                .collect(Collectors.toList());
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).id()).isEqualTo("clang-error");
        assertThat(n.get(0).level()).isEqualTo(Level.NOTE);
        assertThat(n.get(0).message()).contains("Clang's first error is in it");
    }

    @Test
    void aFunctionNeitherFrontEndReadIsNamedAsNotAnalyzed(@TempDir Path dir) throws Exception {
        // Clang reads the host side (--cuda-host-only): device-only code under __CUDA_ARCH__ is not in its unit
        Files.writeString(
                dir.resolve("gone.cu"),
                """
                #include <cstdio>
                __global__ void scale(unsigned *o, const float *x, float s)
                {
                    o[threadIdx.x] = (unsigned)(x[threadIdx.x] * s * missing_gain);
                }
                #if defined(__CUDA_ARCH__)
                __device__ void gone(unsigned *o, const float *x)
                {
                    if (x[0] < 0.0f) printf(__FILE__ ": gone\\n");
                    o[3] = (unsigned)x[3];
                }
                #endif
                """);
        List<Notification> n = notices(dir, "gone.cu");
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).id()).isEqualTo("clang-error");
        assertThat(n.get(0).level()).isEqualTo(Level.WARNING);
        assertThat(n.get(0).message())
                .contains("not analyzed (read by neither front end): 1 function ('gone' (line 7: construct not"
                        + " understood near 'printf' at line 9))");
    }

    @Test
    void withoutClangErrorsAParseErrorOfAFunctionClangReadIsANote(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("clean.cu"),
                """
                #include <cstdio>
                __global__ void trace(unsigned *o, const float *x)
                {
                    if (x[0] < 0.0f) printf(__FILE__ ": negative\\n");
                    o[1] = (unsigned)x[1];
                }
                """);
        // by default the function is Clang's (it saw it whole): the hand-written parser never meets it
        assertThat(notices(dir, "clean.cu")).noneMatch(x -> x.id().equals("parse-error"));
        List<Notification> n = bothNotices(dir, "clean.cu");
        assertThat(n).as(n.toString()).hasSize(1);
        assertThat(n.get(0).id()).isEqualTo("parse-error");
        assertThat(n.get(0).level()).isEqualTo(Level.NOTE);
        assertThat(n.get(0).message()).endsWith("Clang read it: analyzed from Clang's facts alone");
    }
    /**
     * Session 45 (an evaluation's ACMMP): Clang stops at a library header no readable directory holds ({@code
     * <opencv2/core.hpp>} when the build's include directory is not given); the file says so once, naming the header,
     * where before it said nothing and a cast of the library's float element went unreported.
     */
    @Test
    void aMissingLibraryHeaderIsNamedOnce(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("masks.cpp"),
                """
                #include <nonexistent_numlint_lib/core.hpp>
                void planes(unsigned *out, const lib::Mat &masks, int w)
                {
                    for (int i = 0; i < w; ++i) out[i] = (unsigned int)masks(0, i);
                }
                """);
        List<Notification> n = notices(dir, "masks.cpp");
        assertThat(n)
                .filteredOn(x -> x.id().equals("clang-header-missing"))
                .singleElement()
                .satisfies(x -> {
                    assertThat(x.line()).isEqualTo(1);
                    assertThat(x.level()).isEqualTo(Level.NOTE);
                    assertThat(x.message()).startsWith("Clang stopped at #include <nonexistent_numlint_lib/core.hpp>:");
                });
    }

    @Test
    void onlyAHeaderWrittenWithAngleBracketsIsALibrarys() {
        byte[] angle = "#include <a/b.hpp>\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] quoted = "#include \"a/b.hpp\"\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(ClangSupplements.systemHeaderMissing("line 1: 'a/b.hpp' file not found", angle))
                .isEqualTo("a/b.hpp");
        // the tree's own missing header: the hand-written front end's include notes name it
        assertThat(ClangSupplements.systemHeaderMissing("line 1: 'a/b.hpp' file not found", quoted))
                .isNull();
        assertThat(ClangSupplements.systemHeaderMissing("line 3: use of undeclared identifier 'x'", angle))
                .isNull();
    }
}
