package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker whose Java heap runs out answers so for that file and ends: the next file goes to a fresh worker, not to
 * the one that is exiting (session 60: a 28-line header scanned after a unit of 2.7 MB of tables was "not analyzed
 * by Clang: the Clang worker ended (exit code 3)").
 */
class ClangWorkerMemoryTest {
    @TempDir
    Path dir;

    @Test
    void theFileAfterAnOutOfMemoryGoesToAFreshWorker() throws Exception {
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        // a table inside a function is copied cursor by cursor (ClangLiterals): 200,000 literals overrun 24 MB
        StringBuilder big = new StringBuilder("float f(int i) { static const float t[] = {");
        for (int i = 0; i < 200_000; i++) big.append(i % 97).append(".5f, ");
        big.append("}; return t[i]; }\n");
        Path huge = Files.writeString(dir.resolve("huge.c"), big);
        Path small = Files.writeString(dir.resolve("small.c"), "unsigned g(float x) { return (unsigned)x; }\n");
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        String before = System.getProperty("numlint.clang.workerHeapMb");
        System.setProperty("numlint.clang.workerHeapMb", "24");
        ClangWorkers workers = new ClangWorkers();
        try {
            ClangUnit first = workers.parse(huge, dir, dir.resolve("cache"), args(fe, huge), Files.readAllBytes(huge));
            // an out-of-memory error inside a libclang callback surfaces as another exception; the worker answers
            // "ran out of memory" when the heap is full after the last collection (ClangWorkerMain.heapExhausted)
            assertThat(first.failure()).isEqualTo(ClangWorkerMain.OUT_OF_MEMORY);
            // retired on that answer, whether or not its process has ended yet
            assertThat(workers.idleCount()).isZero();
            byte[] text = Files.readAllBytes(small);
            ClangUnit second = workers.parse(small, dir, dir.resolve("cache"), args(fe, small), text);
            assertThat(second.failure()).isNull();
            assertThat(new String(text, StandardCharsets.UTF_8)).contains("unsigned");
        } finally {
            workers.closeIdle();
            if (before == null) System.clearProperty("numlint.clang.workerHeapMb");
            else System.setProperty("numlint.clang.workerHeapMb", before);
        }
    }

    /**
     * The structs libclang returns for a cursor are freed once its copy is made, not at the end of the parse: a unit
     * of 20,000 functions in one namespace (about 300,000 cursors) fits a heap that holds the copy (session 73 round
     * D: a 46,000-line transcoder ran the worker's 768 MB out, and its 653 functions fell to the fallback front end).
     */
    @Test
    void aLargeUnitNeedsNoMoreHeapThanTheCopyOfItsCursors() throws Exception {
        assertThat(Libclang.get())
                .as("libclang loads: %s", Libclang.unavailable())
                .isNotNull();
        StringBuilder big = new StringBuilder("namespace codec {\n");
        for (int i = 0; i < 20_000; i++)
            big.append("float f")
                    .append(i)
                    .append("(float x, int k) { return x * ")
                    .append(i % 97)
                    .append(".5f + (float)(k >> 2); }\n");
        big.append("}\n");
        Path large = Files.writeString(dir.resolve("large.cpp"), big);
        ClangFrontEnd fe = ClangFrontEnd.forTest(dir, Path.of("/usr/local/cuda"), dir.resolve("cache"));
        String before = System.getProperty("numlint.clang.workerHeapMb");
        System.setProperty("numlint.clang.workerHeapMb", "96");
        ClangWorkers workers = new ClangWorkers();
        try {
            List<String> a = fe.arguments(large, ClangFrontEnd.Language.CXX, BuildContext.defaults());
            ClangUnit u = workers.parse(large, dir, dir.resolve("cache"), a, Files.readAllBytes(large));
            assertThat(u.failure()).isNull();
            assertThat(u.functions()).hasSize(20_000);
        } finally {
            workers.closeIdle();
            if (before == null) System.clearProperty("numlint.clang.workerHeapMb");
            else System.setProperty("numlint.clang.workerHeapMb", before);
        }
    }

    private static List<String> args(ClangFrontEnd fe, Path f) {
        return fe.arguments(f, ClangFrontEnd.Language.C, BuildContext.defaults());
    }
}
