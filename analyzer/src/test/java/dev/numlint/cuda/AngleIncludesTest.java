package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.scan.Analyzers;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CMake project's units name their headers with angle brackets and no directory ({@code #include <grid.cuh>}
 * through {@code -I<project>/src}, after the toolkit's {@code -I}): the unit reads them with its compile command, so
 * their findings keep their levels (session 47: the hand-written front end followed only angle includes of a path,
 * {@code <lib/grid.cuh>}, took these headers for code the configuration does not compile and made their findings
 * notes); and a host file that nvcc compiles finds {@code cuda_runtime.h} as nvcc lets it.
 */
class AngleIncludesTest {
    private static ScanResult scan(Path dir, Path cache) {
        return Scanner.scan(ScanOptions.builder(dir)
                .analyzers(Analyzers.load())
                .cacheDir(cache)
                .ptx(dev.numlint.spi.PtxMode.OFF, null)
                .build());
    }

    private static List<String> notices(ScanResult r) {
        return r.notifications().stream()
                .map(n -> n.id() + " " + n.file())
                .sorted()
                .toList();
    }

    private static String entry(Path dir, Path file, String flags) {
        return "{\"directory\": \"" + dir + "\", \"file\": \"" + file + "\", \"command\": \"/usr/local/bin/nvcc "
                + flags + " -c " + file + " -o x.o\"}";
    }

    /**
     * A tree header that wraps the library's header of its own name ({@code include/wrap/cairo.h}: {@code #include
     * <cairo.h>}) is not offered for that name: its directory made it include itself until Clang stopped, "#include
     * nested too deeply" (session 77 round B: a video-effects project's cairo plugins); the library's header is missing
     * and the notice says so.
     */
    @Test
    void aHeaderThatIncludesItsOwnNameIsNotFoundForIt(@TempDir Path dir) throws Exception {
        Path wrap = Files.createDirectories(dir.resolve("include/wrap"));
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                wrap.resolve("cairo.h"),
                "#include <cairo.h>\nstatic inline double wrap_scale(double v) { return v * 2.0; }\n");
        Files.writeString(
                src.resolve("plugin.c"),
                "#include <cairo.h>\n#include \"../include/wrap/cairo.h\"\n"
                        + "unsigned char shade(double v) { return (unsigned char)(wrap_scale(v) * 255.0); }\n");
        ScanResult r = scan(dir, dir.resolve("cache"));
        assertThat(r.notifications()).noneMatch(n -> n.message().contains("nested too deeply"));
        assertThat(notices(r)).contains("clang-header-missing src/plugin.c");
    }

    @Test
    void projectHeadersNamedWithAngleBracketsKeepTheirLevels(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Path test = Files.createDirectories(dir.resolve("test"));
        Path build = Files.createDirectories(dir.resolve("build/test"));
        Files.writeString(
                src.resolve("grid.cuh"),
                """
                #pragma once
                #include <cstdio>
                __global__ void bins(unsigned *bin, const float *x, float width, int n)
                {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) bin[i] = (unsigned)floorf(x[i] / width);
                }
                """);
        Files.writeString(
                test.resolve("test_grid.cu"),
                // main calls ticks: a function nothing calls would be a note (UnreachableCode), and so would one every
                // call of which passes a value the cast keeps in range (CallerRanges)
                "#include <stdio.h>\n#include <grid.cuh>\nunsigned ticks(float);\n"
                        + "int main() { bins<<<1, 32>>>(0, 0, 0.5f, 32); return (int)ticks(-1.0f); }\n");
        Files.writeString(
                test.resolve("timer.cc"),
                """
                #include <cuda_runtime.h>
                unsigned ticks(float seconds) { cudaDeviceSynchronize(); return (unsigned)(seconds * 1000.0f); }
                """);
        String flags = "-I/usr/local/cuda/targets/x86_64-linux/include -I" + src + " -I" + test + " -arch=sm_80";
        Files.writeString(
                dir.resolve("build/compile_commands.json"),
                "[" + entry(build, test.resolve("test_grid.cu"), "-x cu " + flags) + ",\n"
                        + entry(build, test.resolve("timer.cc"), "-arch=sm_80") + "]");
        ScanResult r = scan(dir, dir.resolve("cache"));
        assertThat(notices(r)).noneMatch(n -> n.startsWith("not-included-headers"));
        assertThat(ScanHits.of(r)).contains("src/grid.cuh:6 NL001 ERROR");
        if (Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime.h"))) {
            // the toolkit's headers for the host file nvcc compiles (no -I of its own)
            assertThat(notices(r)).noneMatch(n -> n.startsWith("clang-header-missing"));
            assertThat(ScanHits.of(r)).contains("test/timer.cc:2 NL001 ERROR");
        }
    }

    /**
     * Session 71 round A (an ultrasound simulator): a host {@code .cpp} the build does not compile, read with flags that
     * do not name the toolkit, stops at {@code <cuda.h>}. The notice said that no directory numlint may read holds it
     * (and that the system holds it under /usr/include/linux, the kernel's header of that name); it names the toolkit.
     */
    /**
     * Session 75 round F (a telephony DSP library): the tree's stand-in for old compilers, {@code src/spandsp/stdbool.h}
     * ({@code typedef int _Bool;}), was found by name for {@code #include <stdbool.h>} in place of the compiler's own:
     * 76 units stopped at a Clang error. A standard header in angle brackets is the compiler's or the system's.
     */
    @Test
    void aStandardHeaderIsNeverTheTreesFileOfThatName(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/spandsp"));
        Files.writeString(
                src.resolve("stdbool.h"), "#ifndef SB\n#define SB\ntypedef int _Bool;\ntypedef int bool;\n#endif\n");
        Files.writeString(
                dir.resolve("src/a.c"),
                "#include <stdbool.h>\nunsigned f(float x) { bool b = x > 1; return b ? (unsigned)(x - 3.0f) : 0; }\n");
        Files.writeString(
                dir.resolve("compile_commands.json"),
                "[{\"directory\": \"" + dir.resolve("src")
                        + "\", \"file\": \"a.c\", \"command\": \"/usr/bin/gcc -I. -std=gnu99" + " -c a.c\"}]");
        ScanResult r = scan(dir, dir.resolve("cache"));
        assertThat(notices(r)).doesNotContain("clang-error src/a.c", "include-by-name src/a.c");
        assertThat(ScanHits.of(r)).contains("src/a.c:2 NL001 ERROR");
    }

    @Test
    void aToolkitHeaderTheFlagsDoNotNameIsSaidToBeTheToolkits(@TempDir Path dir) throws Exception {
        Path include = Files.createDirectories(dir.resolve("cuda/include"));
        Files.writeString(include.resolve("cuda.h"), "#pragma once\n");
        assertThat(ClangSupplements.headerAdvice("cuda.h", dir.resolve("cuda")))
                .startsWith("the CUDA toolkit holds it in " + include + ", which this file's compile command does not"
                        + " name;")
                .endsWith("--nvcc-flags \"-I" + include + "\"")
                .doesNotContain("no directory");
        // a file no compile command compiles has guessed flags, not a command (session 74 round A)
        assertThat(ClangSupplements.headerAdvice("cuda.h", dir.resolve("cuda"), false))
                .startsWith("the CUDA toolkit holds it in " + include + ", which the flags numlint guessed for this"
                        + " file (no compile command of the build compiles it) do not name;");
        // a name a hostile file writes to climb out of the toolkit says nothing of the file it reaches
        Files.writeString(dir.resolve("outside.h"), "#pragma once\n");
        assertThat(ClangSupplements.headerAdvice("../../outside.h", dir.resolve("cuda")))
                .doesNotContain("toolkit holds");
        assertThat(ClangSupplements.headerAdvice("not_a_library_header_anywhere.h", dir.resolve("cuda")))
                .startsWith("no directory numlint may read holds it")
                .endsWith("install the library's headers under /usr/include or scan its include directory too");
        // without a compile command, the flags numlint guessed may name no directory of an installed library
        assertThat(ClangSupplements.headerAdvice("QtQuick/QQuickItem", dir.resolve("cuda"), false))
                .startsWith("no directory numlint may read holds it (the scanned tree, the CUDA toolkit, the system's"
                        + " header directories) with the flags numlint guessed for this file (no compile command of"
                        + " the build compiles it)")
                .endsWith("give a compile command that compiles it (-p) or --nvcc-flags \"-I<dir>\", or install the"
                        + " library's headers under /usr/include");
    }
}
