package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.model.BuildContext;
import dev.numlint.toolchain.IncludePolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nvcc -include cstdio}: the host compiler finds {@code <cstdio>} on its search path; numlint resolved the name
 * against the command's directory, found nothing and left it out, so Clang read {@code FILE} and {@code printf} as
 * undeclared (session 46: an ultrasound beamformer's three units). A name not beside the command is the system header
 * of that name.
 */
class ForcedSystemIncludeTest {
    @Test
    void aForcedSystemHeaderReachesClang(@TempDir Path dir) throws Exception {
        Path sys = IncludePolicy.systemHeader("cstdio", List.of());
        assumeTrue(sys != null, "a C++ standard library in /usr/include/c++");
        assertThat(Libclang.get()).isNotNull();
        Path f = dir.resolve("io.cpp");
        byte[] text = "void dump(const char *p) { FILE *f = std::fopen(p, \"w\"); std::fclose(f); }\n"
                .getBytes(StandardCharsets.UTF_8);
        Files.write(f, text);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        BuildContext bc = BuildContext.defaults().addNvccFlag("-include=" + dir.resolve("cstdio"));
        List<String> args = fe.arguments(f, ClangFrontEnd.Language.CXX, bc);
        assertThat(String.join(" ", args)).contains("-include " + sys);
        ClangUnit u = ClangParser.parse(f, args, text);
        assertThat(u.errors()).as(String.valueOf(u.firstError())).isZero();
    }

    /**
     * {@code -include thrust/sort.h} not beside the command: found on the command's include path, as the compiler
     * finds it (session 63 round F: a fluid simulator's forced Thrust headers were dropped); a name that climbs or a
     * link out of the include directory is not taken.
     */
    @Test
    void aForcedHeaderOnTheIncludePathReachesClang(@TempDir Path dir) throws Exception {
        assertThat(Libclang.get()).isNotNull();
        Path inc = Files.createDirectories(dir.resolve("include/lib"));
        Files.writeString(inc.resolve("scale.h"), "static inline float scale(float x) { return 2.0f * x; }\n");
        Path f = dir.resolve("src/u.c");
        Files.createDirectories(f.getParent());
        byte[] text = "float twice(float x) { return scale(x); }\n".getBytes(StandardCharsets.UTF_8);
        Files.write(f, text);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        BuildContext bc =
                BuildContext.defaults().addIncludePath(dir.resolve("include")).addNvccFlag("-include=lib/scale.h");
        List<String> args = fe.arguments(f, ClangFrontEnd.Language.C, bc);
        assertThat(String.join(" ", args))
                .contains("-include " + inc.resolve("scale.h").toRealPath());
        ClangUnit u = ClangParser.parse(f, args, text);
        assertThat(u.errors()).as(String.valueOf(u.firstError())).isZero();
        List<String> I = List.of("-I" + dir.resolve("include"));
        assertThat(ClangForcedIncludes.found("../include/lib/scale.h", I, null)).isNull();
        Path outside = Files.createTempFile("outside", ".h");
        try {
            Files.createSymbolicLink(inc.resolve("out.h"), outside);
            assertThat(ClangForcedIncludes.found("lib/out.h", I, null)).isNull();
        } finally {
            Files.deleteIfExists(outside);
        }
    }
}
