package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GCC reads {@code omp.h} from its internal include directory; Clang, without libomp, has none, and stopped at
 * {@code #include <omp.h>} where the build's g++ did not. The stub directory forwards to the newest GCC's.
 */
class GccHeaderTest {
    @TempDir
    Path gcc;

    @Test
    void theNewestVersionThatHasTheHeaderIsChosen() throws Exception {
        for (String v : new String[] {"9", "12", "13", "14"})
            Files.createDirectories(gcc.resolve("x86_64-linux-gnu/" + v + "/include"));
        Files.createDirectories(gcc.resolve("x86_64-linux-gnu/notaversion/include"));
        Files.writeString(gcc.resolve("x86_64-linux-gnu/9/include/omp.h"), "/* 9 */");
        Files.writeString(gcc.resolve("x86_64-linux-gnu/13/include/omp.h"), "/* 13 */");
        Files.writeString(gcc.resolve("x86_64-linux-gnu/notaversion/include/omp.h"), "/* ? */");
        Path h = Libclang.gccHeader(gcc, "omp.h");
        assertThat(h).isEqualTo(gcc.resolve("x86_64-linux-gnu/13/include/omp.h"));
        assertThat(Libclang.forwarding(h)).contains("#include \"" + h + "\"");
        assertThat(Libclang.gccHeader(gcc, "openacc.h")).isNull();
        assertThat(Libclang.gccHeader(gcc.resolve("absent"), "omp.h")).isNull();
    }

    @Test
    void theStubDirectoryForwardsToTheMachinesOmpHeaderWhenThereIsOne(@TempDir Path cache) throws Exception {
        Path stubs = Libclang.stubHeaders(cache);
        Path real = Libclang.gccHeader(Path.of("/usr/lib/gcc"), "omp.h");
        if (real == null) assertThat(stubs.resolve("omp.h")).doesNotExist();
        else assertThat(Files.readString(stubs.resolve("omp.h"))).contains(real.toString());
    }

    @Test
    void aFileThatIncludesOmpHeaderParsesWithoutErrors(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                Libclang.gccHeader(Path.of("/usr/lib/gcc"), "omp.h") != null, "GCC's omp.h on this machine");
        ClangUnit u = ClangUnitTest.parse(
                dir,
                "timed.cpp",
                "#include <omp.h>\ndouble elapsed(double t0) { return omp_get_wtime() - t0; }\n",
                ClangFrontEnd.Language.CXX);
        assertThat(u.errors()).isZero();
    }
}
