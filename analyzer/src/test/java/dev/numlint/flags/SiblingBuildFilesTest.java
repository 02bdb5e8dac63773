package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.spi.BuildOptions;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flag of the compilation database written in build files of several sibling projects (session 48: a tensor
 * library's five benchmark Makefiles, each "in 10 of 10 compile commands" though one of them produced the commands): a
 * build file whose directory holds none of the compiled files and none of the directories the commands ran in gave
 * them no flag; its finding is a note, and the build file that did keeps its level.
 */
class SiblingBuildFilesTest {
    @Test
    void onlyTheBuildFileWhereTheCommandsRanCarriesTheirFlag(@TempDir Path dir) throws Exception {
        for (String p : List.of("bench_a", "bench_b")) {
            Path d = Files.createDirectories(dir.resolve(p));
            Files.writeString(d.resolve("main.cpp"), "int main() { return 0; }\n");
            Files.writeString(
                    d.resolve("Makefile"),
                    "CXXFLAGS = -O3 -march=native\nmain: main.cpp\n\tg++ $(CXXFLAGS) main.cpp -o main\n");
        }
        Path a = dir.resolve("bench_a");
        // an alternative CMake build of the same benchmark, beside the Makefile that ran
        Files.writeString(
                a.resolve("CMakeLists.txt"),
                "project(bench CXX)\nadd_compile_options(-march=native)\nadd_executable(main main.cpp)\n");
        Path build = Files.createDirectories(dir.resolve("build"));
        Files.writeString(
                build.resolve("compile_commands.json"),
                """
                [{"directory": "%s", "file": "main.cpp",
                  "arguments": ["g++", "-O3", "-march=native", "-c", "main.cpp", "-o", "main.o"]}]
                """
                        .formatted(a.toString().replace("\\", "/")));
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
        List<Finding> march = ctx.findings().stream()
                .filter(f -> f.message().contains("-march=native"))
                .toList();
        assertThat(march)
                .anySatisfy(f -> {
                    assertThat(f.location().file()).isEqualTo("bench_a/Makefile");
                    // kept: a note only because it rounds host code (FlagHazard), not as another build's
                    assertThat(f.impact().consequence()).isEqualTo(BuildFlagAnalyzerTest.HOST_ROUNDING);
                })
                .anySatisfy(f -> {
                    assertThat(f.location().file()).isEqualTo("bench_b/Makefile");
                    assertThat(f.level()).isEqualTo(Level.NOTE);
                    // the commands' count is the other build file's: not said of this one (session 69 round D)
                    assertThat(f.message()).doesNotContain("compile commands");
                })
                .noneSatisfy(f -> {
                    assertThat(f.location().file()).isEqualTo("bench_a/CMakeLists.txt");
                    assertThat(f.impact().consequence()).isEqualTo(BuildFlagAnalyzerTest.HOST_ROUNDING);
                });
    }

    /**
     * A makefile fragment in a helper directory, included by the makefile where the commands ran (session 72 round C:
     * pd-lib-builder's {@code Makefile.pdlibbuilder}): its flags are the build's, reported once and never "not in the
     * analyzed build"; a fragment no makefile there includes stays another build's.
     */
    @Test
    void aFragmentTheRunningMakefileIncludesIsInTheBuild(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("main.c"), "int main(void) { return 0; }\n");
        Path helper = Files.createDirectories(dir.resolve("lib-builder"));
        Files.writeString(
                helper.resolve("Makefile.libbuilder"),
                "optimization.flags = -O3 -ffast-math\nCFLAGS = $(optimization.flags)\n"
                        + "main.o: main.c\n\tcc $(CFLAGS) -c main.c -o main.o\n");
        Path other = Files.createDirectories(dir.resolve("other-builder"));
        Files.writeString(
                other.resolve("Makefile.other"),
                "CFLAGS = -O2 -ffast-math\nmain.o: main.c\n\tcc $(CFLAGS) -c main.c -o main.o\n");
        Files.writeString(dir.resolve("Makefile"), "lib.name = demo\ninclude $(BUILDER_DIR)/Makefile.libbuilder\n");
        Path build = Files.createDirectories(dir.resolve("build"));
        Files.writeString(
                build.resolve("compile_commands.json"),
                """
                [{"directory": "%s", "file": "main.c",
                  "arguments": ["cc", "-O3", "-ffast-math", "-c", "main.c", "-o", "main.o"]}]
                """
                        .formatted(dir.toString().replace("\\", "/")));
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
        List<Finding> fast = ctx.findings().stream()
                .filter(f -> f.ruleId().equals("NL002") && f.message().contains("-ffast-math"))
                .toList();
        assertThat(fast)
                .filteredOn(f -> f.location().file().equals("lib-builder/Makefile.libbuilder"))
                .hasSize(1)
                .allSatisfy(f -> assertThat(f.message()).doesNotContain("not in the analyzed build"));
        assertThat(fast)
                .filteredOn(f -> f.location().file().equals("other-builder/Makefile.other"))
                .allSatisfy(f -> assertThat(f.message()).contains("not in the analyzed build"));
    }
}
