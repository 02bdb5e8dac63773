package dev.numlint.scan;

import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The pool as one analyzer sees it: tasks run on the shared pool and are counted for progress; shutting it
 * down is ignored, so no analyzer can stop the pool for the others.
 */
final class CountingExecutor extends java.util.concurrent.AbstractExecutorService {
    private final ExecutorService pool;
    private final Runnable onDone;

    CountingExecutor(ExecutorService pool, Runnable onDone) {
        this.pool = pool;
        this.onDone = onDone;
    }

    @Override
    public void execute(Runnable task) {
        pool.execute(() -> {
            try {
                task.run();
            } finally {
                onDone.run();
            }
        });
    }

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return pool.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return pool.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, java.util.concurrent.TimeUnit unit) {
        return false;
    }
}
