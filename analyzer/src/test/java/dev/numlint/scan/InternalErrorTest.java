package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Notification;
import dev.numlint.ptx.PtxAnalyzer;
import dev.numlint.spi.PtxMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Failures of numlint itself make the scan unsuccessful (exit code 3) after the rest was analyzed (issue 11). */
class InternalErrorTest {
    @TempDir
    Path dir;

    @Test
    void anUnusableCacheDirectoryIsAnInternalErrorNamingTheFiles() throws IOException {
        Files.writeString(dir.resolve("k.cu"), "__global__ void k(float* y) { y[0] = 1.0f; }\n");
        Files.writeString(dir.resolve("a.cu"), "x = HAZARD(NL003);\n");
        Path blocker = Files.writeString(dir.resolve("cache"), "a file, not a directory");
        ScanResult r = Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(new PtxAnalyzer(), new MarkerAnalyzer()))
                // nvcc is never started: the cache directory is needed first and cannot be created
                .ptx(PtxMode.AUTO, dir.resolve("no-such-nvcc"))
                .cacheDir(blocker.resolve("numlint"))
                .build());
        assertThat(r.executionSuccessful()).isFalse();
        assertThat(r.notifications())
                .filteredOn(n -> Scanner.INTERNAL_ERROR.equals(n.id()))
                .extracting(Notification::file)
                .contains("k.cu");
        assertThat(r.notifications())
                .filteredOn(n -> Scanner.INTERNAL_ERROR.equals(n.id()))
                .allSatisfy(n -> assertThat(n.message()).contains("cache directory"));
        // the rest of the scan was completed
        assertThat(r.findings()).extracting(f -> f.location().file()).contains("a.cu");
    }

    @Test
    void anAnalyzersOwnInternalErrorNotificationCountsToo() throws IOException {
        Files.writeString(dir.resolve("a.cu"), "x = HAZARD(NL003);\n");
        dev.numlint.spi.Analyzer selfReporting = new MarkerAnalyzer() {
            @Override
            public String id() {
                return "self-reporting";
            }

            @Override
            public void analyze(dev.numlint.spi.ScanContext ctx, List<Path> files, dev.numlint.spi.FindingSink sink) {
                sink.notify(new Notification(
                        "a.cu",
                        0,
                        dev.numlint.model.Level.WARNING,
                        "internal-error",
                        "worker failed: java.lang.OutOfMemoryError"));
            }
        };
        ScanResult r = Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(selfReporting, new MarkerAnalyzer()))
                .build());
        assertThat(r.executionSuccessful()).isFalse();
        assertThat(r.findings()).hasSize(1);
    }
}
