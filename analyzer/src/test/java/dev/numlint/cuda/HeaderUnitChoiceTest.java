package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.scan.Analyzers;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A header two units include is read in the one the build compiles, with that unit's include directories, even where
 * the other defines more of the macros the header tests (session 50: Sophus's examples, which a CMake option leaves
 * out of the configuration, define the macro of an assertion handler; its headers were read in an example, without
 * the test units' -isystem of Eigen, and Clang stopped at {@code <Eigen/Core>} in each: 29 functions went unread).
 */
class HeaderUnitChoiceTest {
    @Test
    void aHeaderIsReadInTheUnitTheBuildCompiles(@TempDir Path dir) throws Exception {
        Path include = Files.createDirectories(dir.resolve("src/include/lib"));
        Path third = Files.createDirectories(dir.resolve("src/third"));
        Path examples = Files.createDirectories(dir.resolve("examples"));
        Path build = Files.createDirectories(dir.resolve("build"));
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                cmake_minimum_required(VERSION 3.18)
                project(pix LANGUAGES CXX)
                option(PIX_BUILD_EXAMPLES "examples" OFF)
                add_library(core STATIC src/core.cpp)
                target_include_directories(core PUBLIC src/include src/third)
                if(PIX_BUILD_EXAMPLES)
                  add_subdirectory(examples)
                endif()
                """);
        Files.writeString(
                examples.resolve("CMakeLists.txt"),
                "include_directories(../src/include)\nadd_executable(show show.cpp)\n");
        Files.writeString(third.resolve("real.h"), "#pragma once\ntypedef float real;\n");
        Files.writeString(
                include.resolve("pixels.hpp"),
                """
                #pragma once
                #include <real.h>
                #ifdef PIX_CUSTOM_HANDLER
                void pixHandler(const char *what);
                #define PIX_CHECK(c) ((c) ? (void)0 : pixHandler(#c))
                #else
                #define PIX_CHECK(c) ((void)0)
                #endif
                inline unsigned char toByte(real v)
                {
                    PIX_CHECK(v == v);
                    return (unsigned char)(v * 255);
                }
                """);
        Files.writeString(
                dir.resolve("src/core.cpp"),
                "#include \"lib/pixels.hpp\"\n"
                        + "void quantize(const real *in, unsigned char *out, int n)\n"
                        + "{ for (int i = 0; i < n; i++) out[i] = toByte(in[i]); }\n");
        Files.writeString(
                examples.resolve("show.cpp"),
                "#define PIX_CUSTOM_HANDLER\n#include \"lib/pixels.hpp\"\n#include <cstdio>\n"
                        + "void pixHandler(const char *what) { std::printf(\"%s\\n\", what); }\n"
                        + "int main() { std::printf(\"%d\\n\", toByte(0.5f)); return 0; }\n");
        Path core = dir.resolve("src/core.cpp");
        Files.writeString(
                build.resolve("compile_commands.json"),
                "[{\"directory\": \"" + build + "\", \"file\": \"" + core + "\", \"command\": \"/usr/bin/c++ -I"
                        + dir.resolve("src/include") + " -I" + third + " -O2 -o CMakeFiles/core.dir/src/core.cpp.o -c "
                        + core + "\"}]");
        ScanResult r = Scanner.scan(ScanOptions.builder(dir)
                .analyzers(Analyzers.load())
                .cacheDir(dir.resolve("cache"))
                .ptx(dev.numlint.spi.PtxMode.OFF, null)
                .build());
        assertThat(r.notifications()).noneMatch(n -> n.id().equals("clang-header-missing"));
        assertThat(ScanHits.of(r)).contains("src/include/lib/pixels.hpp:12 NL001 ERROR");
    }
}
