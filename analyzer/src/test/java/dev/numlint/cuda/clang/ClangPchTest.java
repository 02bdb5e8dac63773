package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.model.BuildContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The precompiled CUDA runtime headers ({@link ClangPch}): one per argument set, built once, and a file parsed with it
 * has exactly the cursors (kinds, types, constant values, references) of the plain parse.
 */
class ClangPchTest {
    @TempDir
    Path dir;

    /** Templates and constexpr values from the toolkit's and the standard library's headers, used in the file. */
    static final String SOURCE =
            """
            #include <cuda_runtime.h>
            #include <cfloat>
            #include <limits>
            typedef float real_t;
            template <typename T> __device__ T clampTo(T v, T hi) { return v > hi ? hi : v; }
            __global__ void k(real_t *sum, const real_t *x, unsigned *idx, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                atomicAdd(sum, x[i]);
                idx[i] = (unsigned int)ceilf(x[i] - 0.5f);
                float big = std::numeric_limits<float>::max() / 2;
                sum[i] = clampTo(__fdividef(x[i], big), FLT_MAX) + fminf(x[i], 1.0f);
            }
            """;

    @BeforeEach
    void fresh() {
        ClangPch.reset();
    }

    @AfterEach
    void restore() {
        System.clearProperty("numlint.clang.pch");
        ClangPch.reset();
    }

    private List<String> args(Path f) {
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        return fe.arguments(f, ClangFrontEnd.Language.CUDA, BuildContext.defaults());
    }

    /** Every cursor of a unit with what the checks read of it (kind, types, value, references, extent). */
    static List<String> dump(ClangUnit u) {
        List<String> out = new ArrayList<>();
        for (ClangNode t : u.top()) {
            t.forEach(n -> out.add(n + " type=" + n.type + " pointee=" + n.pointee + " value=" + n.value + " ref="
                    + n.ref + " refUsr=" + n.refUsr + " usr=" + n.usr + " at " + n.offset + "-" + n.endOffset + " to "
                    + n.endLine + ":" + n.endColumn));
        }
        return out;
    }

    private Path write(String name, String text) throws Exception {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    private ClangUnit parse(Path f, List<String> args) throws Exception {
        ClangUnit u = ClangParser.parse(f, args, Files.readAllBytes(f));
        assertThat(u.failure()).isNull();
        return u;
    }

    @Test
    void cudaFilesShareOneHeaderAndKeepThePlainParsesCursors() throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h")), "a CUDA toolkit");
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        Path a = write("a.cu", SOURCE);
        Path b = write("b.cu", SOURCE.replace("clampTo", "clampBelow"));

        System.setProperty("numlint.clang.pch", "false");
        ClangUnit plainA = parse(a, args(a));
        ClangUnit plainB = parse(b, args(b));
        assertThat(ClangPch.BUILT.get()).isZero();

        System.setProperty("numlint.clang.pch", "true");
        ClangUnit pchA = parse(a, args(a));
        ClangUnit pchB = parse(b, args(b));
        assertThat(ClangPch.BUILT.get())
                .as("one header for the two files' argument set")
                .isEqualTo(1);
        assertThat(ClangPch.USED.get()).isEqualTo(2);

        assertThat(pchA.errors()).isZero();
        assertThat(dump(plainA)).hasSizeGreaterThan(50);
        assertThat(dump(pchA)).isEqualTo(dump(plainA));
        assertThat(dump(pchB)).isEqualTo(dump(plainB));
        // the facts the checks read, through the header's templates and constants
        assertThat(pchA.atomics())
                .extracting(x -> x.node().line + ":" + x.type())
                .containsExactly("9:float");
        assertThat(pchA.conversions())
                .filteredOn(ClangUnit.Conversion::explicit)
                .extracting(c -> c.node().line + ":" + c.from() + "->" + c.to())
                .containsExactly("10:float->unsigned int");
        assertThat(pchA.intrinsics())
                .extracting(c -> c.node().line + ":" + c.name())
                .contains("12:__fdividef");
    }

    @Test
    void aHeaderKeptInTheCacheDirectoryIsReusedByTheNextProcessUntilAnInputChanges() throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h")), "a CUDA toolkit");
        Path cache = dir.resolve("cache");
        Path a = write("a.cu", SOURCE);
        System.setProperty("numlint.clang.pch", "false");
        ClangUnit plain = parse(a, args(a));
        System.setProperty("numlint.clang.pch", "true");

        ClangUnit first = ClangParser.parse(a, args(a), Files.readAllBytes(a), cache);
        assertThat(ClangPch.BUILT.get()).isEqualTo(1);
        assertThat(ClangPch.REUSED.get()).isZero();
        Path store = ClangPch.store(cache);
        List<Path> kept;
        try (var s = Files.list(store)) {
            kept = s.filter(p -> p.toString().endsWith(".pch")).toList();
        }
        assertThat(kept).hasSize(1);

        // another process (the next scan, another worker): nothing built, the kept header used
        ClangPch.reset();
        ClangUnit second = ClangParser.parse(a, args(a), Files.readAllBytes(a), cache);
        assertThat(ClangPch.BUILT.get()).isZero();
        assertThat(ClangPch.REUSED.get()).isEqualTo(1);
        assertThat(ClangPch.USED.get()).isEqualTo(1);
        assertThat(first.failure()).isNull();
        assertThat(second.failure()).isNull();
        assertThat(dump(first)).isEqualTo(dump(plain));
        assertThat(dump(second)).isEqualTo(dump(plain));

        // a file the header read changed (here the stub header in the cache directory): built again
        Path stub = cache.resolve("clang-stubs-" + Libclang.MAJOR).resolve("texture_fetch_functions.h");
        assertThat(Files.readString(Path.of(kept.get(0).toString().replace(".pch", ".inputs"))))
                .contains(stub.toString());
        Files.setLastModifiedTime(stub, java.nio.file.attribute.FileTime.fromMillis(1_000_000_000_000L));
        ClangPch.reset();
        ClangUnit third = ClangParser.parse(a, args(a), Files.readAllBytes(a), cache);
        assertThat(ClangPch.BUILT.get()).isEqualTo(1);
        assertThat(ClangPch.REUSED.get()).isZero();
        assertThat(dump(third)).isEqualTo(dump(plain));

        // a damaged list of inputs: built again, never trusted
        Path inputs = Path.of(kept.get(0).toString().replace(".pch", ".inputs"));
        Files.writeString(inputs, "garbage\n");
        ClangPch.reset();
        ClangUnit fourth = ClangParser.parse(a, args(a), Files.readAllBytes(a), cache);
        assertThat(ClangPch.BUILT.get()).isEqualTo(1);
        assertThat(dump(fourth)).isEqualTo(dump(plain));
    }

    @Test
    void anotherArgumentSetGetsItsOwnHeader() throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h")), "a CUDA toolkit");
        Path a = write("a.cu", SOURCE);
        List<String> withMacro = new ArrayList<>(args(a));
        withMacro.add(withMacro.size() - 1, "-DNUMLINT_TEST_MACRO=1");
        parse(a, args(a));
        parse(a, withMacro);
        parse(a, args(a));
        assertThat(ClangPch.BUILT.get()).isEqualTo(2);
        assertThat(ClangPch.USED.get()).isEqualTo(3);
    }

    @Test
    void anIncludeDirectoryThatShadowsAToolkitHeaderGetsThePlainParse() throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h")), "a CUDA toolkit");
        Path a = write("src/a.cu", SOURCE);
        // the tree's own cuda_runtime.h, found first through -I: the header's copy of the toolkit's would be wrong
        write("inc/cuda_runtime.h", "#error the tree's cuda_runtime.h\n");
        List<String> args = new ArrayList<>(args(a));
        args.add(0, "-I" + dir.resolve("inc"));
        ClangUnit u = parse(a, args);
        assertThat(ClangPch.BUILT.get()).isEqualTo(1);
        assertThat(ClangPch.USED.get()).isZero();
        // the plain parse read the tree's header, as Clang would
        assertThat(u.errors()).isPositive();
    }

    @Test
    void aHeaderThatDoesNotBuildFallsBackToThePlainParseWithoutANotice() throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h")), "a CUDA toolkit");
        Path a = write("a.cu", "__global__ void k(float *x) { x[0] = (unsigned)x[1]; }\n");
        List<String> broken = new ArrayList<>(args(a));
        // a macro that breaks the wrapper headers (and not this file)
        broken.add(broken.size() - 1, "-Dtemplate=(");
        System.setProperty("numlint.clang.pch", "false");
        ClangUnit plain = parse(a, broken);
        System.setProperty("numlint.clang.pch", "true");
        ClangUnit u = parse(a, broken);
        assertThat(ClangPch.BUILT.get()).isZero();
        assertThat(ClangPch.USED.get()).isZero();
        assertThat(u.errors()).isEqualTo(plain.errors());
        assertThat(dump(u)).isEqualTo(dump(plain));
    }

    @Test
    void aCxx20CudaFileIsParsedPlainlyAsTheHeaderGivesItErrorsItHasNot() throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h")), "a CUDA toolkit");
        // with the header, libclang 20 reports 21 errors in <string> ("no matching function for call to 'operator
        // delete'"), and <memory> crashes it
        Path a = write("a.cu", "#include <string>\n" + SOURCE);
        List<String> cxx20 = new ArrayList<>(args(a));
        cxx20.add(cxx20.size() - 1, "-std=c++20");
        System.setProperty("numlint.clang.pch", "false");
        ClangUnit plain = parse(a, cxx20);
        System.setProperty("numlint.clang.pch", "true");
        ClangUnit u = parse(a, cxx20);
        assertThat(plain.errors()).isZero();
        assertThat(u.errors()).as("first error: %s", u.firstError()).isZero();
        assertThat(ClangPch.USED.get()).isZero();
        assertThat(dump(u)).isEqualTo(dump(plain));
    }

    @Test
    void theCxx20ModesAreRecognized() {
        for (String std : List.of("c++20", "gnu++20", "c++2a", "gnu++2b", "c++23", "c++26", "c++2c")) {
            assertThat(ClangPch.cxx20(List.of("-x", "cuda", "-std=" + std)))
                    .as(std)
                    .isTrue();
        }
        for (String std : List.of("c++98", "c++03", "c++0x", "c++11", "gnu++14", "c++1z", "c++17", "c11")) {
            assertThat(ClangPch.cxx20(List.of("-x", "cuda", "-std=" + std)))
                    .as(std)
                    .isFalse();
        }
        assertThat(ClangPch.cxx20(List.of("-x", "cuda"))).isFalse();
        assertThat(ClangPch.cxx20(List.of("-std=c++20", "-std=c++17")))
                .as("the last one counts")
                .isFalse();
    }

    @Test
    void hostFilesAreParsedPlainly() throws Exception {
        Path a = write("a.cpp", "int f(float x) { return (unsigned)x; }\n");
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, null, dir.resolve("cache"));
        parse(a, fe.arguments(a, ClangFrontEnd.Language.CXX, BuildContext.defaults()));
        assertThat(ClangPch.BUILT.get()).isZero();
        assertThat(ClangPch.USED.get()).isZero();
    }
}
