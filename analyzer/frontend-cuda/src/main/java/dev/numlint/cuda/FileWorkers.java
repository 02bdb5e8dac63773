package dev.numlint.cuda;

import dev.numlint.spi.ScanContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the per-file worker of {@link CudaSourceAnalyzer} on the caller's thread and on helpers from the scan's
 * executor (one fewer than the files or the cores): a helper that has not started when the caller finishes is
 * claimed and skipped, one that has is waited for.
 */
final class FileWorkers {
    private FileWorkers() {}

    /** Runs {@code worker} here and on up to {@code nfiles - 1} helpers; returns when the started ones end. */
    static void run(ScanContext ctx, int nfiles, Runnable worker) {
        int helpers = Math.min(nfiles - 1, dev.numlint.model.Cores.available() - 1);
        List<AtomicBoolean> claimed = new ArrayList<>();
        List<CountDownLatch> done = new ArrayList<>();
        for (int i = 0; i < helpers; i++) {
            AtomicBoolean claim = new AtomicBoolean();
            CountDownLatch latch = new CountDownLatch(1);
            try {
                ctx.executor().execute(() -> {
                    if (!claim.compareAndSet(false, true)) return; // the caller finished without this helper
                    try {
                        worker.run();
                    } finally {
                        latch.countDown();
                    }
                });
            } catch (RuntimeException rejected) {
                break;
            }
            claimed.add(claim);
            done.add(latch);
        }
        try {
            worker.run();
        } finally {
            for (int i = 0; i < claimed.size(); i++) {
                if (claimed.get(i).compareAndSet(false, true)) continue; // never started: nothing left for it
                try {
                    done.get(i).await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
