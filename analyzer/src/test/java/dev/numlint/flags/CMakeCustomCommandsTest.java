package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.spi.BuildOptions;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An nvcc command a CMake project runs itself (an OptiX program or a PTX module compiled by {@code add_custom_command})
 * is the compile command of the .cu it names: its flags give the unit its context and are reported where they are
 * written; the directory's compile options, which CMake gives only its own compilations, are not its (session 76 round
 * A: a path tracer's main kernel).
 */
class CMakeCustomCommandsTest {
    private static TestScanContext scan(Path dir) {
        return new TestScanContext(dir).run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
    }

    @Test
    void aCustomNvccCommandIsItsSourcesCompileCommand(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("device"));
        Files.createDirectories(dir.resolve("include"));
        Files.writeString(dir.resolve("device/program.cu"), "\n");
        Files.writeString(dir.resolve("device/other.cu"), "\n");
        Files.writeString(dir.resolve("main.cpp"), "int main() { return 0; }\n");
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                project(p LANGUAGES CXX CUDA)
                add_compile_options(-fmad=false)
                set(ENTRY ${CMAKE_CURRENT_SOURCE_DIR}/device/program.cu)
                add_custom_command(
                    OUTPUT ${CMAKE_BINARY_DIR}/program.optixir
                    COMMAND ${CMAKE_CUDA_COMPILER} -optix-ir -O3
                        -I${CMAKE_CURRENT_SOURCE_DIR}/include
                        -I "${CMAKE_CURRENT_SOURCE_DIR}/device"
                        -I "${NOT_SET}"
                        --std=c++17
                        -DUSE_FAST
                        -use_fast_math
                        -o ${CMAKE_BINARY_DIR}/program.optixir
                        "${ENTRY}"
                    DEPENDS ${ENTRY}
                    COMMENT "Compiling OptiX-IR")
                add_custom_command(OUTPUT listing.txt COMMAND ls -use_fast_math device/other.cu)
                add_executable(host main.cpp)
                """);
        TestScanContext ctx = scan(dir);
        BuildContext p = ctx.buildContext(dir.resolve("device/program.cu"));
        assertThat(p.configuration()).startsWith("CMake target custom command CMakeLists.txt:6");
        assertThat(p.includePaths()).contains(dir.resolve("include"), dir.resolve("device"));
        // an -I whose value is empty takes no other flag for its value
        assertThat(ctx.notifications()).noneSatisfy(n -> assertThat(n.message()).contains("--std"));
        assertThat(p.defines()).contains("USE_FAST");
        assertThat(p.effectiveFastMath()).isTrue();
        // the directory's compile option is CMake's own compilations'
        assertThat(p.fmad()).isNull();
        // the flag is reported where the command writes it
        assertThat(ctx.findings()).anySatisfy(f -> {
            assertThat(f.location().file()).isEqualTo("CMakeLists.txt");
            assertThat(f.location().startLine()).isEqualTo(12);
            assertThat(f.message()).contains("-use_fast_math");
        });
        // a command that is no nvcc compiles nothing
        BuildContext o = ctx.buildContext(dir.resolve("device/other.cu"));
        assertThat(o == null || o.configuration() == null || !o.configuration().contains("custom command"))
                .isTrue();
    }
}
