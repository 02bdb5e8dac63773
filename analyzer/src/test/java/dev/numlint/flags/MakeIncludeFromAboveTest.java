package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.spi.BuildOptions;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * make resolves a relative include against the directory it runs in: a Makefile made to be run from the top of its tree
 * ({@code make -f misc/32x/Makefile}) includes {@code misc/makefiles/common_build.mk} relative to the top, not to its
 * own directory (session 85 round AG: a game's platform Makefiles, 90 notices that the shared file "does not exist").
 * The file is found in an ancestor of the Makefile's directory inside the tree and read, so its flags reach the audit.
 */
class MakeIncludeFromAboveTest {
    @Test
    void anIncludeNamedFromTheTopOfTheTreeIsReadFromThere(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("misc/makefiles"));
        Files.createDirectories(dir.resolve("misc/32x"));
        Files.writeString(dir.resolve("misc/makefiles/common_build.mk"), "CFLAGS += -ffast-math\n");
        Files.writeString(dir.resolve("x.c"), "float ratio(float a, float b) { return a / b; }\n");
        Files.writeString(
                dir.resolve("misc/32x/Makefile"),
                """
                include misc/makefiles/common_build.mk
                x.o: x.c
                \tgcc -c $(CFLAGS) x.c -o x.o
                """);
        var result = new TestScanContext(dir).run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
        assertThat(result.notifications())
                .noneSatisfy(n -> assertThat(n.message()).contains("does not exist"));
        assertThat(result.findings()).anySatisfy(f -> assertThat(f.message()).startsWith("-ffast-math"));
    }

    @Test
    void anIncludeFoundNowhereIsStillNamed(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("misc/32x"));
        Files.writeString(dir.resolve("misc/32x/Makefile"), "include misc/makefiles/generated.mk\nall:\n");
        var result = new TestScanContext(dir).run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
        assertThat(result.notifications())
                .anySatisfy(n -> assertThat(n.message()).contains("'misc/makefiles/generated.mk' does not exist"));
    }
}
