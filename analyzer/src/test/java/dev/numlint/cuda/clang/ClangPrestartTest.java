package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Layer;
import dev.numlint.model.Notification;
import dev.numlint.scan.Analyzers;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.PtxMode;
import dev.numlint.spi.ScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan that will parse C, C++ or CUDA files starts its Clang workers when it has found its files, before its first
 * phase (the build files), instead of at its first parse: the workers' start (a JVM, libclang loaded) overlaps the
 * phases before the source analysis (docs/frontend/speed-session23.md). Only then: not with the hand-written front end,
 * not when the analysis cache may serve the files; a worker that cannot start is reported as before.
 */
class ClangPrestartTest {
    @TempDir
    Path tmp;

    static final String CAST = "unsigned pixel(float v) { return (unsigned)(v * 255.0f); }\n";

    @BeforeEach
    @AfterEach
    void noWorkerLeft() {
        ClangWorkers.SHARED.closeIdle();
    }

    static long started() {
        return Long.parseLong(ClangWorkers.startStats().split("/")[0]);
    }

    /** An analyzer of the first phase (the build files' phase) that waits until a Clang worker has been started. */
    static final class FirstPhaseProbe implements Analyzer {
        final long before = started();
        volatile boolean sawAWorker;

        @Override
        public String id() {
            return "first-phase-probe";
        }

        @Override
        public Layer layer() {
            return Layer.BUILD_FLAGS;
        }

        @Override
        public int phase() {
            return PHASE_CONTEXT;
        }

        @Override
        public Set<String> implementedRules() {
            return Set.of();
        }

        @Override
        public boolean accepts(Path file) {
            return true;
        }

        @Override
        public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline && !sawAWorker) {
                sawAWorker = started() > before;
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private ScanResult scan(Path repo, Path cache, Analyzer extra, String frontend) {
        List<Analyzer> analyzers = new ArrayList<>(Analyzers.load());
        if (extra != null) analyzers.add(extra);
        ScanOptions.Builder b = ScanOptions.builder(repo)
                .analyzers(analyzers)
                .ptx(PtxMode.OFF, null)
                .cacheDir(cache)
                .threads(1);
        if (frontend != null) b.setting("frontend", frontend);
        return Scanner.scan(b.build());
    }

    private static List<String> findings(ScanResult r) {
        return r.findings().stream()
                .map(f -> f.ruleId() + " " + f.location().file() + ":"
                        + f.location().startLine())
                .toList();
    }

    @Test
    void aScanThatWillParseStartsItsWorkerWhileItsFirstPhaseRuns() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.writeString(repo.resolve("pixel.c"), CAST);
        FirstPhaseProbe probe = new FirstPhaseProbe();
        ScanResult r = scan(repo, tmp.resolve("cache"), probe, null);
        assertThat(probe.sawAWorker)
                .as("a Clang worker was started before the build files' phase ended")
                .isTrue();
        // the scan parsed its one file in the worker started ahead of it: no second start
        assertThat(started() - probe.before).isEqualTo(1);
        assertThat(ClangWorkers.SHARED.startingCount()).isZero();
        assertThat(findings(r)).contains("NL001 pixel.c:1");
    }

    @Test
    void noWorkerStartsWhenTheAnalysisCacheMayServeTheFilesOrClangIsNotUsed() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.writeString(repo.resolve("pixel.c"), CAST);
        Path cache = tmp.resolve("cache");
        List<String> first = findings(scan(repo, cache, null, null));
        ClangWorkers.SHARED.closeIdle();
        long before = started();
        // a re-scan, nothing changed: every file from the cache, no worker
        assertThat(findings(scan(repo, cache, null, null))).isEqualTo(first);
        assertThat(started()).isEqualTo(before);
        assertThat(ClangWorkers.SHARED.startingCount()).isZero();
        // the hand-written front end alone: no worker
        scan(repo, tmp.resolve("cache-legacy"), null, "legacy");
        assertThat(started()).isEqualTo(before);
        assertThat(ClangWorkers.SHARED.startingCount()).isZero();
    }

    @Test
    void aWorkerThatCannotStartIsReportedByTheFileThatNeededIt() throws Exception {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.writeString(repo.resolve("pixel.c"), CAST);
        String old = System.getProperty("numlint.clang.workerOptions");
        // a JVM option the worker's JVM refuses: it ends before it says hello
        System.setProperty("numlint.clang.workerOptions", "-XX:+NoSuchOptionOfTheJvm");
        ScanResult r;
        try {
            r = scan(repo, tmp.resolve("cache"), null, null);
        } finally {
            if (old == null) System.clearProperty("numlint.clang.workerOptions");
            else System.setProperty("numlint.clang.workerOptions", old);
        }
        List<String> notParsed = r.notifications().stream()
                .filter(n -> n.id().equals("clang-not-parsed"))
                .map(Notification::message)
                .toList();
        assertThat(notParsed).hasSize(1);
        assertThat(notParsed.get(0)).contains("the Clang worker could not be started");
        assertThat(ClangWorkers.SHARED.startingCount()).isZero();
        // the next scan's workers start
        Path again = Files.createDirectories(tmp.resolve("again"));
        Files.writeString(again.resolve("pixel.c"), CAST);
        assertThat(findings(scan(again, tmp.resolve("cache-again"), null, null)))
                .contains("NL001 pixel.c:1");
    }
}
