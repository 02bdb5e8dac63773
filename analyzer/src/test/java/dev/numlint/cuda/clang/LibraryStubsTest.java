package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.model.BuildContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * numlint's declarations of the CUDA libraries ({@link LibraryStubs}): Clang types a call into a library whose headers
 * the toolkit lacks, and a header of the tree (or the toolkit) with the same name is read instead of them.
 */
class LibraryStubsTest {
    @TempDir
    Path dir;

    private ClangUnit parse(String name, String source, ClangFrontEnd.Language lang, BuildContext bc) throws Exception {
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        assumeTrue(Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h")), "a CUDA toolkit");
        Path f = dir.resolve(name);
        byte[] text = source.getBytes(StandardCharsets.UTF_8);
        Files.write(f, text);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        ClangUnit u = ClangParser.parse(f, fe.arguments(f, lang, bc), text);
        assertThat(u.failure()).isNull();
        return u;
    }

    @Test
    void callsIntoCuRandAndCuBlasAreTypedWithoutTheLibraryHeaders() throws Exception {
        ClangUnit u = parse(
                "libs.cu",
                """
                #include <curand_kernel.h>
                #include <cublas_v2.h>
                #include <cufft.h>
                #include <cudnn.h>
                __global__ void draw(curandState *states, curandStatePhilox4_32_10_t *p, float *out)
                {
                    curandState s = states[threadIdx.x];
                    float4 q = curand_uniform4(p);
                    out[threadIdx.x] = curand_uniform(&s) + curand_normal(&s) + curand_log_normal(&s, 0.f, 1.f) + q.x;
                    out[threadIdx.x] += (float)curand_uniform_double(&s) + (float)curand_poisson(&s, 2.0);
                }
                void gemm(cublasHandle_t h, const float *A, const float *B, float *C, cufftHandle plan, cufftComplex *d,
                          cudnnConvolutionDescriptor_t conv)
                {
                    float one = 1.f, zero = 0.f;
                    cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
                    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, A, 4, B, 4, &zero, C, 4);
                    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, A, CUDA_R_32F, 4, B, CUDA_R_32F, 4, &zero, C,
                                 CUDA_R_32F, 4, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
                    cufftResult r = cufftExecC2C(plan, d, d, CUFFT_FORWARD);
                    (void)(r == CUFFT_INCOMPLETE_PARAMETER_LIST || r == CUFFT_NO_WORKSPACE || r == CUFFT_NOT_SUPPORTED);
                    cudnnSetConvolutionMathType(conv, CUDNN_TENSOR_OP_MATH);
                }
                """,
                ClangFrontEnd.Language.CUDA,
                BuildContext.defaults());
        assertThat(u.errors()).as("first error: %s", u.firstError()).isZero();
        assertThat(u.functions()).extracting(ClangUnit.Function::name).containsExactly("draw", "gemm");
    }

    /** A host unit that reaches the device API through a project header (a .cpp of a CUDA project). */
    @Test
    void aHostUnitIncludingTheDeviceApiParses() throws Exception {
        ClangUnit u = parse(
                "host.cpp",
                "#include <curand_kernel.h>\n#include <cublas_v2.h>\nfloat half(float x) { return x * 0.5f; }\n",
                ClangFrontEnd.Language.CXX,
                BuildContext.defaults());
        assertThat(u.errors()).as("first error: %s", u.firstError()).isZero();
    }

    @Test
    void aHeaderOfTheTreeWithTheLibrarysNameIsReadInsteadOfTheStub() throws Exception {
        Path inc = Files.createDirectories(dir.resolve("third_party/blas"));
        Files.writeString(inc.resolve("cublas_v2.h"), "#pragma once\nfloat treeOwnBlas(float x);\n");
        BuildContext bc = BuildContext.defaults().addIncludePath(inc);
        ClangUnit own = parse(
                "own.cpp",
                "#include <cublas_v2.h>\nfloat f(float x) { return treeOwnBlas(x); }\n",
                ClangFrontEnd.Language.CXX,
                bc);
        assertThat(own.errors()).as("first error: %s", own.firstError()).isZero();
        // numlint's declarations were not read: cuBLAS's own names are unknown in this unit
        ClangUnit notStub = parse(
                "own2.cpp",
                "#include <cublas_v2.h>\nvoid g(cublasHandle_t h) { cublasSetMathMode(h, CUBLAS_DEFAULT_MATH); }\n",
                ClangFrontEnd.Language.CXX,
                bc);
        assertThat(notStub.errors()).isPositive();
        // and the scan's notice is not given for a header the include paths hold
        byte[] text = "#include <cublas_v2.h>\n#include <curand_kernel.h>\n".getBytes(StandardCharsets.UTF_8);
        assertThat(LibraryStubs.stubbed(text, List.of(inc)))
                .extracting(LibraryStubs.Library::name)
                .containsExactly("cuRAND");
    }

    /**
     * The libraries whose declarations a parse read, for the scan's notice: not one whose include the preprocessor
     * skips (session 80 round G, a CNN code built with {@code -DUSE_CUBLAS=0} was said to use numlint's cuBLAS).
     */
    @Test
    void anIncludeThePreprocessorSkipsReadsNoDeclarations() throws Exception {
        ClangUnit u = parse(
                "skip.cu",
                """
                #ifndef USE_CUBLAS
                #define USE_CUBLAS 1
                #endif
                #if USE_CUBLAS
                #include <cublas_v2.h>
                #endif
                #include <curand_kernel.h>
                __global__ void k(curandState *s, float *o) { o[threadIdx.x] = curand_uniform(&s[threadIdx.x]); }
                """,
                ClangFrontEnd.Language.CUDA,
                BuildContext.defaults().addDefine("USE_CUBLAS=0"));
        assertThat(u.errors()).as("first error: %s", u.firstError()).isZero();
        assertThat(u.stubsRead()).containsExactly(index("cuRAND"));
        ClangUnit both = parse(
                "both.cu",
                "#include <cublas_v2.h>\n#include <curand_kernel.h>\n",
                ClangFrontEnd.Language.CUDA,
                BuildContext.defaults());
        assertThat(both.stubsRead()).containsExactly(index("cuRAND"), index("cuBLAS"));
        ClangUnit none = parse(
                "none.cu",
                "__global__ void k(float *o) { o[0] = 1.f; }\n",
                ClangFrontEnd.Language.CUDA,
                BuildContext.defaults());
        assertThat(none.stubsRead()).as("a file that names no library header").isNull();
    }

    private static int index(String library) {
        for (int i = 0; i < LibraryStubs.LIBRARIES.size(); i++)
            if (LibraryStubs.LIBRARIES.get(i).name().equals(library)) return i;
        throw new AssertionError(library);
    }

    @Test
    void theHeadersAreExtractedIntoAFolderNamedByTheirContent() throws Exception {
        Path stubs = Libclang.stubHeaders(dir.resolve("cache"));
        assertThat(stubs).isNotNull();
        Path libs = LibraryStubs.folder(stubs);
        assertThat(libs.getFileName().toString()).matches("libraries-[0-9a-f]{12}");
        assertThat(libs.resolve("curand_kernel.h")).isRegularFile();
        assertThat(Libclang.stubArguments(stubs, List.of("-x", "cuda")))
                .containsSubsequence("-idirafter", stubs.toString(), "-idirafter", libs.toString());
        for (LibraryStubs.Library l : LibraryStubs.LIBRARIES)
            assertThat(LibraryStubs.entryPoints(l)).isPositive();
    }
}
