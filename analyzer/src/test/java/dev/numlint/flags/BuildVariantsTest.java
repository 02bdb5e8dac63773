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
 * Session 14 evaluation (cminpack, CMINPACK_PRECISION=all): each source compiled three times, with
 * -D__cminpack_float__, with nothing and with -D__cminpack_long_double__. Merged, the three gave one context with both
 * variants' macros, which no real build uses. The first entry is the file's context; the others are its variants
 * (session 35), which the source front end analyzes too where the file uses a define they change.
 */
class BuildVariantsTest {
    @Test
    void aFileCompiledWithDifferentDefinesIsAnalyzedAsItsFirstEntry(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.c"), "int a;\n");
        String d = dir.toString();
        Files.writeString(
                dir.resolve("compile_commands.json"),
                ("[{\"directory\": \"%1$s\", \"file\": \"%1$s/a.c\", \"arguments\": [\"cc\", \"-DUSE_FLOAT\", \"-c\","
                                + " \"a.c\"]},"
                                + " {\"directory\": \"%1$s\", \"file\": \"%1$s/a.c\", \"arguments\": [\"cc\", \"-c\", \"a.c\"]},"
                                + " {\"directory\": \"%1$s\", \"file\": \"%1$s/a.c\", \"arguments\": [\"cc\","
                                + " \"-DUSE_LONG_DOUBLE\", \"-c\", \"a.c\"]}]\n")
                        .formatted(d));
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
        BuildContext a = ctx.buildContext(dir.resolve("a.c"));
        assertThat(a.defines()).containsExactly("USE_FLOAT");
        // session 35: the other variants travel with the context, for the source front end to analyze those whose
        // differing defines the file uses; its build-variants notice says which (BuildVariantsSelectionTest)
        assertThat(a.variants()).hasSize(2);
        assertThat(a.variants().get(0).defines()).isEmpty();
        assertThat(a.variants().get(1).defines()).containsExactly("USE_LONG_DOUBLE");
        assertThat(a.variants()).allSatisfy(v -> {
            assertThat(v.compiled()).isTrue();
            assertThat(v.variants()).isEmpty();
            assertThat(v.configuration()).startsWith("compile_commands.json entry (compile_commands.json:");
        });
        assertThat(ctx.notifications()).noneMatch(n -> n.id().equals("build-variants"));
        // copy and merge keep them, without repeating one
        assertThat(a.copy().merge(a).variants()).hasSize(2);
    }

    /**
     * Session 19's evaluation (a room-acoustics FDTD engine): one C99 source compiled for the CPU with gcc
     * ({@code -DUSING_CUDA=false}) and for the GPU with {@code nvcc -x cu} ({@code -DUSING_CUDA=true}), the CPU entries
     * first. Its CUDA engine was never read: the first entry stood for the file.
     */
    @Test
    void aCudaCompilationOfACSourceStandsForItsHostVariants(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("engine.c"), "int a;\n");
        String d = dir.toString();
        Files.writeString(
                dir.resolve("compile_commands.json"),
                ("[{\"directory\": \"%1$s\", \"file\": \"%1$s/engine.c\", \"arguments\": [\"gcc\", \"-std=c99\","
                                + " \"-DUSING_CUDA=false\", \"-c\", \"engine.c\"]},"
                                + " {\"directory\": \"%1$s\", \"file\": \"%1$s/engine.c\", \"arguments\": [\"nvcc\", \"-x\","
                                + " \"cu\", \"-DUSING_CUDA=true\", \"-c\", \"engine.c\"]}]\n")
                        .formatted(d));
        TestScanContext ctx = new TestScanContext(dir).run(new BuildFlagAnalyzer(BuildOptions.DEFAULT));
        BuildContext a = ctx.buildContext(dir.resolve("engine.c"));
        assertThat(a.compiledAsCuda()).isTrue();
        assertThat(a.defines()).containsExactly("USING_CUDA=true");
        assertThat(ctx.notifications()).anySatisfy(n -> {
            assertThat(n.id()).isEqualTo("build-variants");
            assertThat(n.message()).contains("2 times").contains("CUDA entry").contains("-DUSING_CUDA=true");
        });
        assertThat(a.variants()).isEmpty(); // the CUDA entry stands for the host-only ones
    }
}
