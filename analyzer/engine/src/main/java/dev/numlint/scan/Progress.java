package dev.numlint.scan;

import java.util.concurrent.atomic.AtomicInteger;

/** {@code \r[done/total]} on a terminal for scans that take more than a second. */
final class Progress {
    private final java.io.PrintStream out;
    private final long start = System.nanoTime();
    private final long delay;
    private final AtomicInteger total = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private long lastPrint;
    private boolean printed;

    Progress(java.io.PrintStream out) {
        this(out, 1_000_000_000L, 200_000_000L);
    }

    private final long interval;

    /** Prints nothing during the first {@code delayNanos}, then at most every {@code intervalNanos}. */
    Progress(java.io.PrintStream out, long delayNanos, long intervalNanos) {
        this(out, delayNanos, intervalNanos, false, false);
    }

    /** Whole lines (not {@code \r} updates), for a log that is not a terminal. */
    private final boolean lines;
    /** Whether the first line adds the hint that {@code --ptx off} skips the PTX compilation. */
    private boolean ptxHint;

    private Progress(java.io.PrintStream out, long delayNanos, long intervalNanos, boolean lines, boolean ptxHint) {
        this.out = out;
        this.delay = delayNanos;
        this.interval = intervalNanos;
        this.lines = lines;
        this.ptxHint = ptxHint;
    }

    /**
     * Progress for a log that is not a terminal (CI): a line after 10 s, then every 30 s; the first one says that
     * {@code --ptx off} skips compiling .cu files to PTX when that is on.
     */
    static Progress lines(java.io.PrintStream out, boolean ptxOn) {
        return lines(out, ptxOn, 10_000_000_000L, 30_000_000_000L);
    }

    static Progress lines(java.io.PrintStream out, boolean ptxOn, long delayNanos, long intervalNanos) {
        return new Progress(out, delayNanos, intervalNanos, true, ptxOn);
    }

    /** Whether the progress line says that .cu files are compiled to PTX: the PTX layer is on and a .cu scanned. */
    static boolean ptxHint(dev.numlint.spi.PtxMode mode, java.util.List<java.nio.file.Path> files) {
        return mode == dev.numlint.spi.PtxMode.AUTO
                && files.stream().anyMatch(f -> f.getFileName().toString().endsWith(".cu"));
    }

    String shown() {
        return done.get() + "/" + total.get();
    }

    void add(int n) {
        total.addAndGet(n);
    }

    void advance(int n) {
        int d = done.addAndGet(n);
        if (out == null) {
            return;
        }
        long now = System.nanoTime();
        synchronized (this) {
            if (now - start >= delay && (!printed || now - lastPrint >= interval)) print(d, now, false);
        }
    }

    private void print(int d, long now, boolean beat) {
        lastPrint = now;
        printed = true;
        if (lines) {
            // a running count of (file, front end) tasks, not the report's figure: it is printed once by finish()
            out.println("numlint: working: " + d + " of " + total.get() + " file analyses done"
                    + (beat ? ", " + (now - start) / 1_000_000_000L + " s so far" : "")
                    + (ptxHint ? " (the PTX layer compiles .cu files with nvcc; --ptx off skips it)" : ""));
            ptxHint = false;
        } else {
            out.print("\r[" + d + "/" + total.get() + "]");
        }
        out.flush();
    }

    private java.util.concurrent.ScheduledExecutorService beat;
    private boolean stopped;

    /**
     * For a log (lines mode): a line every interval even when no file analysis ends, so that a file whose Clang parse or
     * nvcc compile takes minutes does not leave the log silent (session 30's evaluation: one line in 9 minutes).
     * {@link #done()} stops it.
     */
    synchronized void startHeartbeat() {
        if (out == null || !lines || beat != null) return;
        beat = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "numlint-progress");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(interval, 1_000_000L);
        beat.scheduleAtFixedRate(
                () -> {
                    long now = System.nanoTime();
                    synchronized (this) {
                        if (!stopped && now - start >= delay && now - lastPrint >= interval)
                            print(done.get(), now, true);
                    }
                },
                period,
                period,
                java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /**
     * After progress lines: the final count once, the report's own figures (the running count above counts a
     * file once per front end that reads it and is not one).
     */
    synchronized void finish(int analyzed, int notAnalyzed) {
        if (out != null && printed && lines) {
            out.println("numlint: done: " + analyzed + " file" + (analyzed == 1 ? "" : "s") + " analyzed"
                    + (notAnalyzed > 0 ? ", " + notAnalyzed + " not analyzed" : ""));
            out.flush();
        }
    }

    synchronized void done() {
        stopped = true;
        if (beat != null) beat.shutdownNow();
        if (out != null && printed && !lines) {
            out.print("\r" + " ".repeat(24) + "\r");
            out.flush();
        }
    }
}
