package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.spi.BuildOptions;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flags of an {@code $(if)} over a {@code $(shell ...)} numlint never runs reach the audit whatever variable
 * carries them into a recipe line, not only a flag variable such as CFLAGS: each is a note at the line that writes
 * it, under the condition numlint cannot decide (session 29; a DSP library's {@code PARAMS_NEON = $(if ...)}
 * expanded straight into its recipes). The fixture build-flags/make-undecided holds the other carriers.
 */
class MakeUndecidedFlagsTest {
    private static List<Finding> scan(Path dir, String makefile) throws IOException {
        Files.writeString(dir.resolve("x.c"), "float ratio(float a, float b) { return a / b; }\n");
        Files.writeString(dir.resolve("Makefile"), makefile);
        return new TestScanContext(dir)
                .run(new BuildFlagAnalyzer(BuildOptions.DEFAULT))
                .findings();
    }

    @Test
    void anIfExpandedStraightIntoTheRecipeIsAudited(@TempDir Path dir) throws IOException {
        List<Finding> fs = scan(
                dir,
                """
                PARAMS_SIMD = $(if $(findstring sse,$(shell cat /proc/cpuinfo)),-msse,-ffast-math)
                x.o: x.c
                \tgcc -c $(PARAMS_SIMD) x.c -o x.o
                """);
        assertThat(fs).extracting(Finding::ruleId).contains("NL002", "NL006", "NL007");
        assertThat(fs).allSatisfy(f -> {
            assertThat(f.location().startLine()).isEqualTo(1);
            assertThat(f.message()).startsWith("-ffast-math").contains("$(shell ...)");
            assertThat(f.level().name()).isEqualTo("NOTE");
        });
    }

    @Test
    void anIfWrittenInTheRecipeLineIsAuditedThere(@TempDir Path dir) throws IOException {
        List<Finding> fs = scan(
                dir,
                """
                x.o: x.c
                \tgcc -c $(if $(shell uname -m | grep arm),-funsafe-math-optimizations) x.c -o x.o
                """);
        assertThat(fs).extracting(Finding::ruleId).contains("NL002");
        assertThat(fs).allSatisfy(f -> assertThat(f.location().startLine()).isEqualTo(2));
    }

    @Test
    void anIfReachingNoRecipeIsStillNamedButNotAFileList(@TempDir Path dir) throws IOException {
        // the branches of a non-flag value are audited only for their options: a file list gives nothing
        List<Finding> fs = scan(
                dir,
                """
                SRCS = $(if $(shell ls extra.c),x.c extra.c,x.c)
                x.o: $(SRCS)
                \tgcc -c -O2 x.c -o x.o
                """);
        assertThat(fs).isEmpty();
    }
}
