package dev.numlint.scan;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One analyzer's share of the scan's progress display: its files, those it found beyond them ({@code
 * ScanContext.moreFiles}: headers its files include from outside the scanned paths), and how many of them are done,
 * told per file ({@code ScanContext.fileDone}) or per finished task of its executor until it tells per file.
 */
final class AnalyzerProgress {
    private final Progress progress;
    private final int files;
    private final AtomicInteger extra = new AtomicInteger();
    private final AtomicInteger advanced = new AtomicInteger();
    /** Whether the analyzer tells its files' ends itself. */
    private volatile boolean perFile;

    AnalyzerProgress(Progress progress, int files) {
        this.progress = progress;
        this.files = files;
    }

    /** A finished task counts as a finished file (at most all) until the analyzer tells its files itself. */
    void taskDone() {
        if (!perFile && advanced.incrementAndGet() <= files) progress.advance(1);
    }

    void fileDone() {
        perFile = true;
        if (advanced.incrementAndGet() <= files + extra.get()) progress.advance(1);
    }

    void more(int n) {
        if (n <= 0) return;
        extra.addAndGet(n);
        progress.add(n);
    }

    void finish() {
        int all = files + extra.get();
        progress.advance(Math.max(0, all - Math.min(all, advanced.getAndSet(all))));
    }

    void undo() {
        progress.advance(-Math.min(files + extra.get(), advanced.getAndSet(0)));
    }
}
