package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.spi.BuildOptions;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25, FindCUDA: a target's CUDA sources are compiled with CUDA_NVCC_FLAGS and cuda_include_directories as they
 * stand at its cuda_add_* call, in the calling directory's scope; a target built only under an option that is OFF by
 * default is evaluated in that configuration.
 */
class FindCudaScopeTest {
    private static TestScanContext scan(Path dir) {
        return new TestScanContext(dir).run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
    }

    @Test
    void eachCallTakesTheNvccFlagsAndCudaIncludesOfItsPlaceAndScope(@TempDir Path dir) throws IOException {
        for (String d : List.of("inc1", "inc2", "sub")) Files.createDirectories(dir.resolve(d));
        for (String f : List.of("a.cu", "b.cu", "sub/c.cu")) Files.writeString(dir.resolve(f), "\n");
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                project(f CXX)
                find_package(CUDA)
                set(CUDA_NVCC_FLAGS -DFIRST)
                cuda_include_directories(${CMAKE_CURRENT_SOURCE_DIR}/inc1)
                cuda_add_library(one a.cu)
                list(APPEND CUDA_NVCC_FLAGS --use_fast_math)
                set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS} -DSECOND)
                cuda_include_directories(${CMAKE_CURRENT_SOURCE_DIR}/inc2)
                add_subdirectory(sub)
                cuda_add_executable(two b.cu OPTIONS -DOWN_TWO)
                list(APPEND CUDA_NVCC_FLAGS -DAFTER_ALL)
                """);
        Files.writeString(
                dir.resolve("sub/CMakeLists.txt"),
                """
                list(APPEND CUDA_NVCC_FLAGS -DSUB_ONLY)
                cuda_add_library(three c.cu)
                """);
        TestScanContext ctx = scan(dir);
        BuildContext one = ctx.buildContext(dir.resolve("a.cu"));
        assertThat(one.defines()).containsExactly("FIRST");
        assertThat(one.effectiveFastMath()).isFalse();
        assertThat(one.includePaths()).containsExactly(dir.resolve("inc1"));
        BuildContext two = ctx.buildContext(dir.resolve("b.cu"));
        assertThat(two.defines()).containsExactlyInAnyOrder("FIRST", "SECOND", "OWN_TWO");
        assertThat(two.effectiveFastMath()).isTrue();
        assertThat(two.includePaths()).containsExactlyInAnyOrder(dir.resolve("inc1"), dir.resolve("inc2"));
        BuildContext three = ctx.buildContext(dir.resolve("sub/c.cu"));
        assertThat(three.defines()).containsExactlyInAnyOrder("FIRST", "SECOND", "SUB_ONLY");
        assertThat(three.effectiveFastMath()).isTrue();
        assertThat(three.configuration()).startsWith("CMake target three");
    }

    @Test
    void aCuWithoutADatabaseEntryBorrowsTheEntryOfItsOwnTarget(@TempDir Path dir) throws IOException {
        for (String d : List.of("src/cuda", "src/host", "build")) Files.createDirectories(dir.resolve(d));
        for (String f : List.of("src/cuda/k.cu", "src/cuda/z.cpp", "src/host/h.cpp")) {
            Files.writeString(dir.resolve(f), "\n");
        }
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                project(f CXX)
                find_package(CUDA)
                list(APPEND CUDA_NVCC_FLAGS --use_fast_math)
                add_library(other src/cuda/z.cpp)
                cuda_add_library(gpu src/cuda/k.cu src/host/h.cpp OPTIONS -DCALL_OPT)
                """);
        String b = dir.resolve("build").toString();
        String entry = "{\"directory\": \"%s\", \"file\": \"%s\", \"arguments\": [\"c++\", \"%s\", \"-c\", \"%s\"]}";
        Files.writeString(
                dir.resolve("build/compile_commands.json"),
                "[" + entry.formatted(b, dir.resolve("src/cuda/z.cpp"), "-DWRONG", dir.resolve("src/cuda/z.cpp"))
                        + ",\n"
                        + entry.formatted(b, dir.resolve("src/host/h.cpp"), "-DRIGHT", dir.resolve("src/host/h.cpp"))
                        + "]\n");
        TestScanContext ctx = scan(dir);
        BuildContext k = ctx.buildContext(dir.resolve("src/cuda/k.cu"));
        assertThat(k.defines()).contains("RIGHT", "CALL_OPT").doesNotContain("WRONG");
        assertThat(k.effectiveFastMath()).isTrue();
        assertThat(k.configuration()).contains("of src/host/h.cpp (same CMake target gpu)");
        assertThat(ctx.notifications())
                .filteredOn(n -> n.id().equals("borrowed-build-entry"))
                .singleElement()
                .satisfies(n -> assertThat(n.message()).contains("same CMake target gpu"));
    }

    @Test
    void aTargetBuiltOnlyUnderAnOffOptionIsEvaluatedWithItOn(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("src/cuda/inc"));
        Files.createDirectories(dir.resolve("include"));
        Files.writeString(dir.resolve("src/k.c"), "\n");
        Files.writeString(dir.resolve("src/cuda/k.cu"), "\n");
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                project(p C)
                option(WITH_GPU "GPU backend" OFF)
                add_subdirectory(src)
                """);
        Files.writeString(
                dir.resolve("src/CMakeLists.txt"),
                """
                if(WITH_GPU)
                  find_package(CUDA)
                  list(APPEND CUDA_NVCC_FLAGS --use_fast_math)
                  cuda_include_directories(${CMAKE_CURRENT_SOURCE_DIR}/cuda/inc)
                  cuda_wrap_srcs(core OBJ gpu_objs cuda/k.cu OPTIONS -DGPU_OPT)
                endif()
                add_library(core k.c ${gpu_objs})
                target_include_directories(core PUBLIC ${CMAKE_SOURCE_DIR}/include)
                target_compile_definitions(core PRIVATE CORE_DEF)
                """);
        TestScanContext ctx = scan(dir);
        BuildContext k = ctx.buildContext(dir.resolve("src/cuda/k.cu"));
        assertThat(k).isNotNull();
        assertThat(k.includePaths()).contains(dir.resolve("include"), dir.resolve("src/cuda/inc"));
        assertThat(k.defines()).contains("GPU_OPT", "CORE_DEF");
        assertThat(k.effectiveFastMath()).isTrue();
        assertThat(k.configuration())
                .startsWith("CMake target core (CMakeLists.txt")
                .contains("not in the default configuration: evaluated with WITH_GPU=ON");
        assertThat(ctx.buildContext(dir.resolve("src/k.c")).defines()).doesNotContain("GPU_OPT");
        assertThat(ctx.notifications())
                .filteredOn(n -> n.id().equals("not-default-source"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("if(WITH_GPU)")
                        .contains("analyzed in that configuration (as with --cmake-define WITH_GPU=ON)"));
        // the fast math written under the branch is audited once per rule, under its condition
        List<dev.numlint.model.Finding> fast = ctx.findings().stream()
                .filter(f -> f.location().file().equals("src/CMakeLists.txt"))
                .toList();
        assertThat(fast).isNotEmpty().allSatisfy(f -> assertThat(f.message()).contains("only under if(WITH_GPU)"));
        assertThat(fast.stream().map(dev.numlint.model.Finding::ruleId)).doesNotHaveDuplicates();
    }
}
