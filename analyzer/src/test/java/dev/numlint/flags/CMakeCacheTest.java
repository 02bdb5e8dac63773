package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.spi.BuildOptions;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A configured build's CMakeCache.txt decides the CMake evaluation's option() and CACHE values (issue 26). */
class CMakeCacheTest {
    private static void project(Path dir) throws IOException {
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                project(q C)
                option(GPU "run on the GPU" 0)
                set(CC 30 CACHE STRING "compute capability")
                if (${GPU})
                  add_definitions(-DON_GPU)
                  set(CMAKE_CUDA_FLAGS "-arch=compute_${CC}")
                else()
                  add_definitions(-DON_CPU)
                endif()
                add_library(q k.cu)
                """);
        Files.writeString(dir.resolve("k.cu"), "__global__ void k() {}\n");
        Files.createDirectories(dir.resolve("build"));
    }

    private static void cache(Path dir, String home, String extra) throws IOException {
        Files.writeString(
                dir.resolve("build/CMakeCache.txt"),
                "# This is the CMakeCache file.\n//Whether to run on the GPU\nGPU:BOOL=1\n"
                        + "CC:STRING=90\nnot an entry\nCMAKE_HOME_DIRECTORY:INTERNAL=" + home + "\n" + extra);
    }

    private static BuildContext kernel(Path dir, Path p) {
        return new TestScanContext(dir)
                .run(new BuildFlagAnalyzer(new BuildOptions(p, null, Map.of(), null)))
                .buildContext(dir.resolve("k.cu"));
    }

    @Test
    void configuredCacheOverridesOptionAndCacheDefaults(@TempDir Path dir) throws IOException {
        project(dir);
        BuildContext defaults = kernel(dir, null);
        assertThat(defaults.defines()).contains("ON_CPU").doesNotContain("ON_GPU");
        cache(dir, dir.toAbsolutePath().normalize().toString(), "GPU:INTERNAL=0\nCC:STATIC=30\n");
        for (Path p : new Path[] {dir.resolve("build"), null}) { // given with -p, and found as build/
            BuildContext k = kernel(dir, p);
            assertThat(k.defines()).as("-p " + p).contains("ON_GPU").doesNotContain("ON_CPU");
            assertThat(k.nvccFlags()).as("-p " + p).contains("-arch=compute_90");
            assertThat(k.configuration()).contains("cache build/CMakeCache.txt");
        }
    }

    @Test
    void cacheOfAnotherSourceDirectoryIsNotApplied(@TempDir Path dir) throws IOException {
        project(dir);
        cache(dir, "/elsewhere/project", "");
        assertThat(kernel(dir, dir.resolve("build")).defines())
                .contains("ON_CPU")
                .doesNotContain("ON_GPU");
    }

    @Test
    void cacheOfAMovedTreeAppliesOnlyWhenItsOriginIsGoneAndHasTheSameName(@TempDir Path dir) throws IOException {
        project(dir);
        // configured at /gone/<same name> and moved here (a CI artifact): applied
        cache(dir, "/nonexistent-numlint-origin/" + dir.getFileName(), "");
        assertThat(kernel(dir, dir.resolve("build")).defines()).contains("ON_GPU");
        // an existing directory of the same name elsewhere is another project: not applied
        Path other = dir.resolve("build/" + dir.getFileName());
        Files.createDirectories(other);
        cache(dir, other.toString(), "");
        assertThat(kernel(dir, dir.resolve("build")).defines())
                .contains("ON_CPU")
                .doesNotContain("ON_GPU");
    }

    @Test
    void cmakeDefineStillWinsOverTheCache(@TempDir Path dir) throws IOException {
        project(dir);
        cache(dir, dir.toAbsolutePath().normalize().toString(), "");
        BuildContext k = new TestScanContext(dir)
                .run(new BuildFlagAnalyzer(new BuildOptions(dir.resolve("build"), null, Map.of("GPU", "0"), null)))
                .buildContext(dir.resolve("k.cu"));
        assertThat(k.defines()).contains("ON_CPU").doesNotContain("ON_GPU");
    }

    /**
     * A flag under an option the project turns ON by default and this configuration's cache turns OFF (NWQ-Sim's
     * NWQSIM_ENABLE_VQE): the condition is false in this configuration, not by default; the project's own default
     * still says "by default".
     */
    @Test
    void conditionDecidedByTheCacheIsFalseInThisConfigurationNotByDefault(@TempDir Path dir) throws IOException {
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                project(q CXX)
                option(WITH_FAST "fast math" ON)
                option(WITH_LOOSE "loose math" OFF)
                add_library(q q.cpp)
                if(WITH_FAST)
                  target_compile_options(q PRIVATE -ffast-math)
                endif()
                if(WITH_LOOSE)
                  target_compile_options(q PRIVATE -fno-math-errno -ffast-math)
                endif()
                """);
        Files.writeString(dir.resolve("q.cpp"), "double q(double x) { return x / 3.0; }\n");
        Files.createDirectories(dir.resolve("build"));
        Files.writeString(
                dir.resolve("build/CMakeCache.txt"),
                "WITH_FAST:BOOL=OFF\nCMAKE_HOME_DIRECTORY:INTERNAL="
                        + dir.toAbsolutePath().normalize() + "\n");
        TestScanContext ctx = new TestScanContext(dir)
                .run(new BuildFlagAnalyzer(new BuildOptions(dir.resolve("build"), null, Map.of(), null)));
        List<dev.numlint.model.Finding> fast = ctx.findings().stream()
                .filter(f -> f.location().startLine() == 6)
                .toList();
        assertThat(fast).isNotEmpty().allSatisfy(f -> {
            assertThat(f.message()).contains("(false as configured").doesNotContain("by default");
            assertThat(f.properties().get("condition").toString())
                    .endsWith("which is false in this configuration (WITH_FAST=OFF, from build/CMakeCache.txt)");
        });
        List<dev.numlint.model.Finding> loose = ctx.findings().stream()
                .filter(f -> f.location().startLine() == 9)
                .toList();
        assertThat(loose).isNotEmpty().allSatisfy(f -> {
            assertThat(f.message()).contains("(false by default");
            assertThat(f.properties().get("condition").toString())
                    .endsWith("which is false in the default configuration (WITH_LOOSE=OFF)");
        });
    }

    /**
     * A configure-time check's result the cache holds as an internal entry ({@code CC_HAS_FAST_MATH:INTERNAL=1}) decides
     * the condition it names, as configured (session 75 round B: an encoder's "-ffast-math ... only under
     * if(CC_HAS_FAST_MATH) (value unknown)").
     */
    @Test
    void aChecksCachedResultDecidesItsCondition(@TempDir Path dir) throws IOException {
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                cmake_minimum_required(VERSION 3.18)
                project(p CXX)
                include(CheckCXXCompilerFlag)
                check_cxx_compiler_flag(-ffast-math CC_HAS_FAST_MATH)
                if(CC_HAS_FAST_MATH)
                  add_definitions(-ffast-math)
                endif()
                add_library(q a.cpp)
                """);
        Files.writeString(dir.resolve("a.cpp"), "float f(float x) { return x / 3.0f; }\n");
        Files.createDirectories(dir.resolve("build"));
        java.util.function.Supplier<List<String>> messages = () -> new TestScanContext(dir)
                        .run(new BuildFlagAnalyzer(new BuildOptions(dir.resolve("build"), null, Map.of(), null)))
                        .findings()
                        .stream()
                        .filter(f -> f.ruleId().equals("NL002"))
                        .map(f -> f.message())
                        .toList();
        assertThat(messages.get()).singleElement().asString().contains("(value unknown)");
        cache(dir, dir.toAbsolutePath().normalize().toString(), "CC_HAS_FAST_MATH:INTERNAL=1\n");
        assertThat(messages.get()).singleElement().asString().doesNotContain("value unknown");
    }
}
