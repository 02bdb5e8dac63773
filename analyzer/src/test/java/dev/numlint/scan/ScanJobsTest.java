package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Cores;
import dev.numlint.model.Layer;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code -j N} (issue 30): at most N threads analyze at once, for CI runners that share a machine. */
class ScanJobsTest {
    @TempDir
    Path dir;

    @AfterEach
    void noLimit() {
        Cores.limit(0);
    }

    /** An analyzer of one phase that records how many analyzers of it run at the same time. */
    static final class Concurrent implements Analyzer {
        final String id;
        final AtomicInteger running;
        final AtomicInteger peak;
        final CountDownLatch bothStarted;

        Concurrent(String id, AtomicInteger running, AtomicInteger peak, CountDownLatch bothStarted) {
            this.id = id;
            this.running = running;
            this.peak = peak;
            this.bothStarted = bothStarted;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public Layer layer() {
            return Layer.CUDA_SOURCE;
        }

        @Override
        public Set<String> implementedRules() {
            return Set.of();
        }

        @Override
        public boolean accepts(Path file) {
            return file.toString().endsWith(".cu");
        }

        @Override
        public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
            bothStarted.countDown();
            try {
                // with no limit the other analyzer joins within the wait; with -j 1 it cannot start before this ends
                bothStarted.await(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            running.decrementAndGet();
        }
    }

    private int peak(int jobs) throws IOException {
        Files.writeString(dir.resolve("k.cu"), "x\n");
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        CountDownLatch both = new CountDownLatch(2);
        List<Analyzer> analyzers = new ArrayList<>();
        analyzers.add(new Concurrent("a", running, peak, both));
        analyzers.add(new Concurrent("b", running, peak, both));
        Scanner.scan(ScanOptions.builder(dir)
                .analyzers(analyzers)
                .cacheDir(dir.resolve(".cache"))
                .jobs(jobs)
                .build());
        return peak.get();
    }

    @Test
    void oneJobRunsOneAnalyzerAtATime() throws IOException {
        assertThat(peak(1)).isEqualTo(1);
        assertThat(peak(0))
                .as("without -j the analyzers of a phase run side by side")
                .isEqualTo(2);
    }

    @Test
    void coresFollowTheLimit() {
        Cores.limit(1);
        assertThat(Cores.available()).isEqualTo(1);
        Cores.limit(0);
        assertThat(Cores.available()).isEqualTo(Math.max(1, Runtime.getRuntime().availableProcessors()));
    }
}
