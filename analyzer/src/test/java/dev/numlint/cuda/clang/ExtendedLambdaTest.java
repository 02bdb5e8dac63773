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
 * A unit built with {@code --extended-lambda} that includes Thrust: CCCL tests nvcc's built-in traits of extended
 * lambdas in host code, which Clang lacks; numlint's stub declares them false (session 46: every CUDA unit of a
 * templated lattice Boltzmann code had Clang errors in {@code cuda/std/__functional/invoke.h}).
 */
class ExtendedLambdaTest {
    /** {@code source} in {@code dir/name}, parsed by Clang as CUDA with the compile command's {@code flags}. */
    private static ClangUnit parse(Path dir, String name, String source, String... flags) throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h")), "a CUDA toolkit");
        assumeTrue(Files.isDirectory(Path.of("/usr/local/cuda/include/cccl/cuda/std")), "CCCL's libcu++");
        assertThat(Libclang.get()).isNotNull();
        Path f = dir.resolve(name);
        byte[] text = source.getBytes(StandardCharsets.UTF_8);
        Files.write(f, text);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        BuildContext bc = BuildContext.defaults();
        for (String fl : flags) bc.addNvccFlag(fl);
        List<String> args = fe.arguments(f, ClangFrontEnd.Language.CUDA, bc);
        for (String fl : flags) if (fl.startsWith("-D")) assertThat(args).contains(fl);
        ClangUnit u = ClangParser.parse(f, args, text);
        assertThat(u.failure()).isNull();
        return u;
    }

    @Test
    void libcuxxWithExtendedLambdasParsesWithoutErrors(@TempDir Path dir) throws Exception {
        // libcu++'s <cuda/std/functional> reaches cuda/std/__functional/invoke.h, as Thrust does, at a tenth the cost
        ClangUnit u = parse(
                dir,
                "sum.cu",
                "#include <cuda/std/functional>\n"
                        + "template <class F> __host__ __device__ float apply(F f, float x) {\n"
                        + "  return cuda::std::invoke(f, x);\n}\n"
                        + "float twice(float x) { return apply([] __host__ __device__ (float v) { return 2 * v; }, x); }\n",
                "--extended-lambda",
                "-std=c++17");
        assertThat(u.errors()).as(String.valueOf(u.firstError())).isZero();
    }

    /**
     * A release build ({@code -DNDEBUG}) that includes CCCL: its {@code assert.h} declares {@code __assert_fail}
     * {@code __host__ __device__} for nvcc, against the {@code __device__} one of Clang's CUDA wrapper (session 46: a
     * vortex-method code's Thrust sort, "cannot overload __device__ function '__assert_fail'").
     */
    @Test
    void aReleaseBuildThatIncludesCcclParsesWithoutErrors(@TempDir Path dir) throws Exception {
        ClangUnit u = parse(
                dir,
                "lerp.cu",
                "#include <cuda/std/functional>\n"
                        + "__host__ __device__ float lerp(float a, float b, float t) {\n"
                        + "  return cuda::std::plus<float>()(a, t * (b - a));\n}\n",
                "-DNDEBUG",
                "-std=c++17");
        assertThat(u.errors()).as(String.valueOf(u.firstError())).isZero();
    }
}
