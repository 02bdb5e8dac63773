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

/** A .cu file that CMake's compile_commands.json export leaves out (FindCUDA) takes its target's .cpp entry. */
class BorrowedEntryTest {
    @Test
    void aCuWithoutAnEntryTakesTheCppEntryOfItsDirectoryAndTheNvccFlags(@TempDir Path dir) throws IOException {
        for (String d : List.of("src", "build/gen", "tools")) Files.createDirectories(dir.resolve(d));
        for (String f : List.of("src/a.cu", "src/b.cpp", "tools/t.cu")) Files.writeString(dir.resolve(f), "\n");
        Files.writeString(dir.resolve("build/gen/config.h"), "#define HAVE_X 1\n");
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                """
                cmake_minimum_required(VERSION 3.5)
                project(f CXX)
                find_package(CUDA REQUIRED)
                list(APPEND CUDA_NVCC_FLAGS "--use_fast_math")
                cuda_add_library(gpu src/a.cu src/b.cpp)
                """);
        String build = dir.resolve("build").toString();
        Files.writeString(
                dir.resolve("build/compile_commands.json"),
                ("[{\"directory\": \"%s\", \"file\": \"%s/src/b.cpp\", \"arguments\": [\"/usr/bin/c++\", "
                                + "\"-DUSE_SSE\", \"-I%s/gen\", \"-std=c++14\", \"-O3\", \"-ffast-math\", "
                                + "\"-c\", \"%s/src/b.cpp\"]}]\n")
                        .formatted(build, dir, build, dir));
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
        BuildContext a = ctx.buildContext(dir.resolve("src/a.cu"));
        assertThat(a.defines()).contains("USE_SSE");
        assertThat(a.includePaths()).contains(dir.resolve("build/gen"));
        assertThat(a.effectiveFastMath()).isTrue(); // CUDA_NVCC_FLAGS of the CMake evaluation
        assertThat(a.hostFastMath()).isNotEqualTo(Boolean.TRUE); // only preprocessor flags are borrowed
        assertThat(a.configuration())
                .startsWith("borrowed compile_commands.json entry (build/compile_commands.json:1) of src/b.cpp");
        assertThat(ctx.notifications()).anySatisfy(n -> {
            assertThat(n.id()).isEqualTo("borrowed-build-entry");
            assertThat(n.file()).isEqualTo("src/a.cu");
            assertThat(n.message()).contains("of src/b.cpp").contains("CMake's export");
        });
        // no entry in its directory: the nearest directory above it that has one (the root has none)
        assertThat(ctx.buildContext(dir.resolve("tools/t.cu")).defines()).doesNotContain("USE_SSE");
    }

    /** A database recorded from a Makefile build: the notice names that database and does not blame CMake. */
    @Test
    void aDatabaseNotWrittenByCMakeIsNamedAsSuch(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.createDirectories(dir.resolve("ccdb"));
        for (String f : List.of("src/k_iker.cu", "src/host.cpp")) Files.writeString(dir.resolve(f), "\n");
        Files.writeString(dir.resolve("src/Makefile"), "all: host.o\nhost.o: host.cpp\n\tg++ -DHOST -c host.cpp\n");
        Files.writeString(
                dir.resolve("ccdb/compile_commands.json"),
                ("[{\"directory\": \"%s/src\", \"file\": \"%s/src/host.cpp\", \"arguments\": [\"g++\", "
                                + "\"-DHOST\", \"-c\", \"host.cpp\"]}]\n")
                        .formatted(dir, dir));
        TestScanContext ctx = new TestScanContext(dir)
                .run(new BuildFlagAnalyzer(new BuildOptions(dir.resolve("ccdb"), null, java.util.Map.of(), null)));
        assertThat(ctx.notifications())
                .filteredOn(n -> n.id().equals("borrowed-build-entry"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .contains("ccdb/compile_commands.json")
                        .contains("not written by CMake")
                        .doesNotContain("CMake's export"));
    }

    /**
     * A first-class CUDA CMake build exports its .cu entries: a .cu it lacks is compiled by no target of this
     * configuration, and the notice must not blame FindCUDA's export (HyPar-like: a .cu in no target).
     */
    @Test
    void aCuMissingFromAnExportThatListsCudaSourcesIsInNoTarget(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.createDirectories(dir.resolve("build"));
        for (String f : List.of("src/k.cu", "src/orphan.cu", "src/host.c")) Files.writeString(dir.resolve(f), "\n");
        Files.writeString(
                dir.resolve("CMakeLists.txt"),
                "cmake_minimum_required(VERSION 3.18)\nproject(f C CUDA)\nadd_library(g src/k.cu src/host.c)\n");
        Files.writeString(dir.resolve("build/CMakeCache.txt"), "CMAKE_PROJECT_NAME:STATIC=f\n");
        String build = dir.resolve("build").toString();
        Files.writeString(
                dir.resolve("build/compile_commands.json"),
                ("[{\"directory\": \"%s\", \"file\": \"%s/src/host.c\", \"arguments\": [\"/usr/bin/cc\", "
                                + "\"-DHOST\", \"-c\", \"%s/src/host.c\"]},\n"
                                + " {\"directory\": \"%s\", \"file\": \"%s/src/k.cu\", \"arguments\": "
                                + "[\"/usr/local/cuda/bin/nvcc\", \"-DHOST\", \"-c\", \"%s/src/k.cu\"]}]\n")
                        .formatted(build, dir, dir, build, dir, dir));
        TestScanContext ctx = new TestScanContext(dir)
                .run(new BuildFlagAnalyzer(new BuildOptions(dir.resolve("build"), null, java.util.Map.of(), null)));
        assertThat(ctx.notifications())
                .filteredOn(n -> n.id().equals("borrowed-build-entry"))
                .singleElement()
                .satisfies(n -> assertThat(n.file() + ": " + n.message())
                        .startsWith("src/orphan.cu: ")
                        .contains("no target of this configuration compiles it")
                        .contains("its findings are notes")
                        .doesNotContain("FindCUDA"));
        // not compiled by this configuration: its findings become notes (NotCompiledReview); the listed .cu is
        assertThat(ctx.buildContext(dir.resolve("src/orphan.cu")).notCompiledReason())
                .contains("no target of this configuration compiles it");
        assertThat(ctx.buildContext(dir.resolve("src/k.cu")).notCompiledReason())
                .isNull();
        assertThat(ctx.buildContext(dir.resolve("src/k.cu")).compiled()).isTrue();
    }

    /**
     * A host unit the database does not list, in a tree whose database lists the host units of this configuration
     * (SUPRA's OpenIGTLink output, not configured): not compiled, its findings notes, one notice names it. A unit
     * that a listed unit includes, and .cu files when the database lists none (FindCUDA's export), are not concerned.
     */
    @Test
    void aHostUnitTheDatabaseDoesNotListIsNotCompiled(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("src"));
        Files.createDirectories(dir.resolve("build"));
        Files.writeString(dir.resolve("src/main.cpp"), "#include \"part.cpp\"\n#include \"util.h\"\n");
        for (String f : List.of("src/part.cpp", "src/util.h", "src/unused.cpp", "src/k.cu"))
            Files.writeString(dir.resolve(f), "\n");
        Files.writeString(dir.resolve("build/CMakeCache.txt"), "CMAKE_PROJECT_NAME:STATIC=f\n");
        String build = dir.resolve("build").toString();
        Files.writeString(
                dir.resolve("build/compile_commands.json"),
                ("[{\"directory\": \"%s\", \"file\": \"%s/src/main.cpp\", \"arguments\": [\"/usr/bin/c++\", "
                                + "\"-DHOST\", \"-c\", \"%s/src/main.cpp\"]}]\n")
                        .formatted(build, dir, dir));
        TestScanContext ctx = new TestScanContext(dir)
                .run(new BuildFlagAnalyzer(new BuildOptions(dir.resolve("build"), null, java.util.Map.of(), null)));
        assertThat(ctx.buildContext(dir.resolve("src/unused.cpp")).notCompiledReason())
                .contains("lists the C/C++ units this configuration compiles and not this one");
        assertThat(ctx.buildContext(dir.resolve("src/main.cpp")).notCompiledReason())
                .isNull();
        assertThat(ctx.buildContext(dir.resolve("src/part.cpp")).notCompiledReason())
                .isNull();
        assertThat(ctx.buildContext(dir.resolve("src/util.h")).notCompiledReason())
                .isNull();
        assertThat(ctx.buildContext(dir.resolve("src/k.cu")).notCompiledReason())
                .isNull();
        assertThat(ctx.notifications())
                .filteredOn(n -> n.id().equals("not-compiled-units"))
                .singleElement()
                .satisfies(n -> assertThat(n.message())
                        .startsWith("1 scanned C/C++/CUDA unit")
                        .endsWith("src/unused.cpp"));
    }

    /**
     * CMake's export of a configuration that compiles .cu units and no C/C++ unit (a neural network's USE_GPU=ON):
     * its C/C++ units are not compiled. The same database without a CMakeCache.txt beside it (recorded by hand or by
     * a tool that may have left the host compiler out) says nothing about them.
     */
    @Test
    void aCudaOnlyCMakeExportCompilesNoHostUnit(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("src/cpu"));
        Files.createDirectories(dir.resolve("src/gpu"));
        Files.createDirectories(dir.resolve("build"));
        Files.writeString(dir.resolve("src/cpu/layer.cpp"), "\n");
        Files.writeString(dir.resolve("src/gpu/layer.cu"), "\n");
        String build = dir.resolve("build").toString();
        Files.writeString(
                dir.resolve("build/compile_commands.json"),
                ("[{\"directory\": \"%s\", \"file\": \"%s/src/gpu/layer.cu\", \"arguments\": [\"nvcc\", "
                                + "\"-c\", \"%s/src/gpu/layer.cu\"]}]\n")
                        .formatted(build, dir, dir));
        BuildOptions p = new BuildOptions(dir.resolve("build"), null, java.util.Map.of(), null);
        TestScanContext recorded = new TestScanContext(dir).run(new BuildFlagAnalyzer(p));
        assertThat(recorded.buildContext(dir.resolve("src/cpu/layer.cpp")).notCompiledReason())
                .isNull();
        Files.writeString(dir.resolve("build/CMakeCache.txt"), "CMAKE_PROJECT_NAME:STATIC=nn\n");
        TestScanContext exported = new TestScanContext(dir).run(new BuildFlagAnalyzer(p));
        assertThat(exported.buildContext(dir.resolve("src/cpu/layer.cpp")).notCompiledReason())
                .contains("CMake's export of this configuration, lists no C/C++ unit");
        assertThat(exported.buildContext(dir.resolve("src/gpu/layer.cu")).notCompiledReason())
                .isNull();
    }
}
