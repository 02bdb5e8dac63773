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
 * A source that no command of the Makefile names (an x87 variant of a configured autotools library) gets the
 * Makefile's flags as its compile command would pass them: automake's {@code COMPILE} names {@code $(DEFS)},
 * {@code $(DEFAULT_INCLUDES)} and {@code $(INCLUDES)} besides the flag variables, and without {@code DEFS =
 * -DHAVE_CONFIG_H} the file reads config.h's types as unknown (CRlibm's {@code int32_t}).
 */
class MakeCompileRecipeTest {
    @Test
    void sourcesNoCommandNamesGetTheVariablesOfTheCompileRecipe(@TempDir Path dir) throws IOException {
        Files.writeString(
                dir.resolve("Makefile"),
                """
                CC = gcc
                DEFS = -DHAVE_CONFIG_H
                DEFAULT_INCLUDES = -I.
                INCLUDES = -Isupport
                NOT_PASSED = -DNEVER_SEEN
                AM_CFLAGS = -std=c99
                CFLAGS = -O2
                COMPILE = $(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) $(AM_CPPFLAGS) \\
                \t$(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS)

                all: libm.a

                libm.a: built.o
                \tar cru $@ built.o

                .c.o:
                \t$(COMPILE) -c -o $@ $<
                """);
        Files.writeString(dir.resolve("built.c"), "double twice(double x) { return 2 * x; }\n");
        Files.writeString(dir.resolve("variant.c"), "double thrice(double x) { return 3 * x; }\n");
        Files.createDirectories(dir.resolve("support"));
        BuildContext v = new TestScanContext(dir)
                .run(new BuildFlagAnalyzer(BuildOptions.DEFAULT))
                .buildContext(dir.resolve("variant.c"));
        assertThat(v).isNotNull();
        assertThat(v.defines()).contains("HAVE_CONFIG_H").doesNotContain("NEVER_SEEN");
        assertThat(v.includePaths())
                .contains(dir.resolve("support").toAbsolutePath().normalize());
    }
}
