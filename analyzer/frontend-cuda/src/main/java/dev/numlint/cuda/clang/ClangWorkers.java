package dev.numlint.cuda.clang;

import dev.numlint.toolchain.GuardedProcess;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * libclang in guarded child processes. The scan's process never loads libclang: each parse goes to a worker JVM
 * ({@link ClangWorkerMain}, the same class path) started through {@link GuardedProcess} (scrubbed environment,
 * private directories, CPU, file-size and wall-clock limits) under an address-space limit
 * ({@code -Dnumlint.clang.workerMemoryMb}, default {@value #DEFAULT_MEMORY_MB}; the JVM's own reservations are
 * trimmed so that the limit is libclang's), with a CPU-time budget per file ({@code -Dnumlint.clang.fileBudgetMs}) and a wall-time cap of several budgets.
 * Workers are reused file after file and across scans of one process (an idle one ends after
 * {@value #IDLE_MS} ms), at most {@code -Dnumlint.clang.workers} at once (default: the cores, at most 4). A crash,
 * out-of-memory or timeout of a worker costs the file it was parsing: that file's unit is a failure with the reason,
 * and the next file gets a fresh worker. A scan that knows it will parse can start workers ahead of its first parse
 * ({@link #prestart}), so that their start overlaps its earlier phases.
 */
public final class ClangWorkers {
    static final int DEFAULT_MEMORY_MB = 3072;
    static final long IDLE_MS = 30_000;
    /** Starting a worker (a JVM, libclang loaded; the first start extracts the natives into JavaCPP's cache). */
    static final long START_BUDGET_MS = 180_000;
    /** A worker is retired (ended, a fresh one started) after this many files or CPU seconds. */
    static final int RETIRE_FILES = 1000;

    static final long RETIRE_CPU_SECONDS = 1800;
    static final long CPU_LIMIT_SECONDS = 3600;

    /** The worker JVM's crash report, in its private working directory ({@code -XX:ErrorFile}). */
    static final String CRASH_REPORT = "numlint-worker-crash.log";

    static final ClangWorkers SHARED = new ClangWorkers();

    /** Workers started in this process and the time their starts took (a JVM, libclang loaded), for benchmarks. */
    private static final java.util.concurrent.atomic.AtomicLong STARTS = new java.util.concurrent.atomic.AtomicLong();

    private static final java.util.concurrent.atomic.AtomicLong START_NANOS =
            new java.util.concurrent.atomic.AtomicLong();

    /** "started/ms": the workers started in this process and the wall time of their starts. */
    public static String startStats() {
        return STARTS.get() + "/" + START_NANOS.get() / 1_000_000;
    }

    private static final ScheduledExecutorService REAPER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "numlint-clang-reaper");
        t.setDaemon(true);
        return t;
    });

    private final ArrayDeque<Worker> idle = new ArrayDeque<>();
    /** Workers started ahead of the first parse ({@link #prestart}), in the order a parse takes them. */
    private final ArrayDeque<java.util.concurrent.CompletableFuture<Worker>> starting = new ArrayDeque<>();

    private final Semaphore slots = new Semaphore(maxWorkers(), true);
    private volatile String unavailable;
    private final java.util.concurrent.atomic.AtomicInteger startFailures =
            new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean reaping;

    /** A pool of its own (tests); the scan's is {@link #SHARED}. */
    ClangWorkers() {}

    static int maxWorkers() {
        int cores = Runtime.getRuntime().availableProcessors();
        return Math.max(1, Integer.getInteger("numlint.clang.workers", Math.min(4, cores)));
    }

    static long memoryBytes() {
        return Math.max(512, Long.getLong("numlint.clang.workerMemoryMb", DEFAULT_MEMORY_MB)) << 20;
    }

    /** Why no worker can run libclang (it did not load in one), or null. Once set, it stays for the process. */
    String unavailable() {
        return unavailable;
    }

    /**
     * Parses one file in a worker: the unit, or a failed unit whose {@link ClangUnit#failure()} says why (the
     * worker crashed, ran out of memory, went over the budget, or libclang does not load:
     * {@link ClangUnit#unavailable()}).
     */
    ClangUnit parse(Path file, Path root, Path cacheDir, List<String> args, byte[] text) {
        return parse(new ClangWire.Request(file, root, cacheDir, args, text));
    }

    /** As {@link #parse(Path, Path, Path, List, byte[])}, for a request that may name a target file. */
    ClangUnit parse(ClangWire.Request request) {
        Path file = request.unitFile();
        if (unavailable != null) return ClangUnit.unavailable(file, unavailable);
        try {
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ClangUnit.failed(file, "interrupted");
        }
        Worker w = null;
        try {
            w = take();
            if (w == null) {
                java.util.concurrent.CompletableFuture<Worker> early = takeStarting();
                try {
                    w = early != null ? started(early) : timedStart();
                } catch (Unavailable u) {
                    unavailable = u.getMessage();
                    return ClangUnit.unavailable(file, unavailable);
                } catch (IOException e) {
                    String why = "the Clang worker could not be started (" + e.getMessage() + ")";
                    // a worker that cannot start three times in a row will not start for the next file either
                    if (startFailures.incrementAndGet() >= 3) {
                        unavailable = why;
                        return ClangUnit.unavailable(file, why);
                    }
                    return ClangUnit.failed(file, why);
                }
                startFailures.set(0);
            }
            ClangUnit u = w.parse(
                    request,
                    ClangBudget.budgetMs(
                            request.headers().size(),
                            ClangBudget.bytes(request.text(), request.targetText(), request.headers())));
            if (w.usable()) {
                give(w);
            } else {
                w.close();
            }
            w = null;
            return u;
        } finally {
            if (w != null) w.close();
            slots.release();
        }
    }

    private synchronized Worker take() {
        return idle.pollFirst();
    }

    private synchronized java.util.concurrent.CompletableFuture<Worker> takeStarting() {
        return starting.pollFirst();
    }

    /** {@link Worker#start}, counted and timed. */
    private static Worker timedStart() throws IOException, Unavailable {
        long t0 = System.nanoTime();
        Worker w = Worker.start();
        STARTS.incrementAndGet();
        START_NANOS.addAndGet(System.nanoTime() - t0);
        dev.numlint.model.Timings.since("clang worker started", t0);
        return w;
    }

    /**
     * The worker of a start begun by {@link #prestart}, once it has started (as long as a start of the caller's own
     * would take); its failure is thrown here, to the parse that took it, as that parse's own start would throw it.
     */
    private static Worker started(java.util.concurrent.CompletableFuture<Worker> early)
            throws IOException, Unavailable {
        try {
            return early.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof Unavailable u) throw u;
            if (e.getCause() instanceof IOException io) throw io;
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw e;
        }
    }

    /**
     * Starts workers in the background, up to {@code n} in all with those idle, busy or starting (at most
     * {@code -Dnumlint.clang.workers}): for a scan that will parse files, so that the workers' start (a JVM, libclang
     * loaded) overlaps the scan's earlier phases instead of following them. The next parses take these workers (waiting
     * for a start still under way rather than starting another); a start that failed is reported by the parse that
     * takes it, as its own start would have failed. Nothing starts once libclang is known not to load in a worker.
     */
    void prestart(int n) {
        if (unavailable != null) return;
        synchronized (this) {
            int busy = maxWorkers() - slots.availablePermits();
            int want = Math.min(n, maxWorkers()) - busy - idle.size() - starting.size();
            for (int i = 0; i < want; i++) {
                java.util.concurrent.CompletableFuture<Worker> f = new java.util.concurrent.CompletableFuture<>();
                starting.addLast(f);
                Thread t = new Thread(
                        () -> {
                            try {
                                f.complete(timedStart());
                            } catch (Throwable e) {
                                f.completeExceptionally(e);
                            }
                        },
                        "numlint-clang-prestart");
                t.setDaemon(true);
                t.start();
            }
            if (want > 0) scheduleReaper();
        }
    }

    /** Workers started or starting ahead of a parse that no parse has taken yet (tests). */
    synchronized int startingCount() {
        return starting.size();
    }

    private synchronized void give(Worker w) {
        w.lastUsed = System.nanoTime();
        idle.addFirst(w);
        scheduleReaper();
    }

    private synchronized void scheduleReaper() {
        if (!reaping) {
            reaping = true;
            REAPER.scheduleWithFixedDelay(this::reap, IDLE_MS / 3, IDLE_MS / 3, TimeUnit.MILLISECONDS);
        }
    }

    /** Removes the started workers of {@link #starting} that no parse took within {@code idleNanos} (all: 0). */
    private synchronized void untaken(long idleNanos, List<Worker> out) {
        long now = System.nanoTime();
        starting.removeIf(f -> {
            if (!f.isDone()) return false;
            if (f.isCompletedExceptionally()) return true;
            Worker w = f.join();
            if (now - w.lastUsed < idleNanos) return false;
            out.add(w);
            return true;
        });
    }

    /** Ends the workers idle for longer than {@link #IDLE_MS}. */
    private void reap() {
        List<Worker> old = new ArrayList<>();
        synchronized (this) {
            long now = System.nanoTime();
            idle.removeIf(w -> {
                boolean stale = now - w.lastUsed > IDLE_MS * 1_000_000L;
                if (stale) old.add(w);
                return stale;
            });
        }
        untaken(IDLE_MS * 1_000_000L, old);
        for (Worker w : old) w.close();
    }

    /** How many workers wait for a file (tests). */
    synchronized int idleCount() {
        return idle.size();
    }

    /** Ends every idle worker now (tests; a running parse keeps its worker until it ends). */
    void closeIdle() {
        List<Worker> all;
        synchronized (this) {
            all = new ArrayList<>(idle);
            idle.clear();
        }
        untaken(0, all);
        for (Worker w : all) w.close();
    }

    /** libclang does not load in a worker: no file of this process will be parsed by Clang. */
    static final class Unavailable extends Exception {
        Unavailable(String why) {
            super(why);
        }
    }

    /** One running worker. */
    static final class Worker implements AutoCloseable {
        private final GuardedProcess.Interactive p;
        private final DataOutputStream out;
        private final DataInputStream in;
        private int files;
        private boolean dead;
        long lastUsed = System.nanoTime();

        private Worker(GuardedProcess.Interactive p) {
            this.p = p;
            this.out = new DataOutputStream(new BufferedOutputStream(p.stdin(), 1 << 16));
            this.in = new DataInputStream(new ClangWire.Buffered(p.stdout(), 1 << 16));
        }

        static Worker start() throws IOException, Unavailable {
            GuardedProcess.Interactive p = GuardedProcess.start(spec());
            Worker w = new Worker(p);
            ScheduledFuture<?> k = p.killAfter(START_BUDGET_MS);
            String why;
            try {
                why = ClangWire.readHello(w.in);
            } catch (IOException e) {
                String reason = w.reason(START_BUDGET_MS);
                w.close();
                throw new IOException(reason, e);
            } finally {
                k.cancel(false);
            }
            if (why != null) {
                w.close();
                throw new Unavailable(why);
            }
            return w;
        }

        /** The worker JVM: trimmed reservations (heap, code cache, class space, stacks), so the limit is libclang's. */
        static GuardedProcess.Spec spec() {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            String cache = System.getProperty(
                    "org.bytedeco.javacpp.cachedir",
                    Path.of(System.getProperty("user.home"), ".javacpp", "cache")
                            .toString());
            List<String> a = new ArrayList<>(List.of(
                    // the Java heap holds the copy of a unit's cursors (-Dnumlint.clang.workerHeapMb, default 768)
                    "-Xmx" + Math.max(16, Integer.getInteger("numlint.clang.workerHeapMb", 768)) + "m",
                    "-Xss1m",
                    "-XX:ReservedCodeCacheSize=48m",
                    "-XX:CompressedClassSpaceSize=64m",
                    "-XX:MaxMetaspaceSize=192m",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:-UsePerfData",
                    "-XX:-CreateCoredumpOnCrash",
                    // a crash of libclang (a signal in native code) is reported by the JVM here, in the private
                    // directory, and the worker exits with 1: reason() reads the signal and the frame from it
                    "-XX:ErrorFile=" + CRASH_REPORT,
                    "-Djava.awt.headless=true",
                    // JavaCPP's own accounting would refuse allocations past twice the heap: the limit is the rlimit
                    "-Dorg.bytedeco.javacpp.maxBytes=0",
                    "-Dorg.bytedeco.javacpp.maxPhysicalBytes=0",
                    // no phantom reference per native struct for the collector to trace: each parse frees its own in
                    // a PointerScope (ClangParser.parseNow); a third of the copy of a unit's cursors went there
                    "-Dorg.bytedeco.javacpp.nopointergc=true",
                    "-Dorg.bytedeco.javacpp.cachedir=" + Path.of(cache).toAbsolutePath(),
                    "-Dnumlint.clang.indexes=1",
                    // the precompiled CUDA headers (ClangPch): on unless the scan's process switched them off
                    "-Dnumlint.clang.pch=" + ClangPch.enabled(),
                    "-Dnumlint.clang.prefixPch=" + ClangPch.prefixEnabled(),
                    "-Dnumlint.clang.oneWalk=" + ClangParser.ONE_WALK,
                    // numlint's declarations of the CUDA libraries (LibraryStubs): on unless the scan switched them off
                    "-Dnumlint.clang.libraryStubs=" + LibraryStubs.enabled()));
            // -Dnumlint.clang.workerArchive=FILE: a class-data sharing archive of the worker's classes, made by the
            // ./numlint launcher for this jar (a worker starts about 0.1 s sooner); one that does not match is ignored
            String archive = System.getProperty("numlint.clang.workerArchive", "");
            if (!archive.isBlank() && Files.isRegularFile(Path.of(archive))) {
                a.add("-XX:SharedArchiveFile=" + Path.of(archive).toAbsolutePath());
            }
            // -Dnumlint.clang.workerOptions="...": JVM options of the workers, e.g. a flight recording to profile them
            for (String o :
                    System.getProperty("numlint.clang.workerOptions", "").trim().split("\\s+")) {
                if (!o.isEmpty()) a.add(o);
            }
            a.addAll(List.of("-cp", classPath(), ClangWorkerMain.class.getName()));
            return GuardedProcess.builder(java)
                    .args(a)
                    .addressSpace(memoryBytes())
                    .cpuSeconds(CPU_LIMIT_SECONDS)
                    .timeout(Duration.ofHours(24))
                    // glibc's per-thread malloc arenas reserve 64 MB of address space each
                    .env("MALLOC_ARENA_MAX", "2")
                    .env("LIBCLANG_DISABLE_CRASH_RECOVERY", "1");
        }

        /** This process's class path with every entry absolute (the worker runs in its own private directory). */
        static String classPath() {
            StringBuilder b = new StringBuilder();
            for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
                if (e.isEmpty()) continue;
                if (b.length() > 0) b.append(File.pathSeparator);
                b.append(Path.of(e).toAbsolutePath().normalize());
            }
            return b.toString();
        }

        ClangUnit parse(ClangWire.Request r, long budgetMs) {
            files++;
            lastUsed = System.nanoTime();
            ScheduledFuture<?> k = p.killAfterCpu(budgetMs, ClangBudget.wallCapMs(budgetMs));
            try {
                ClangWire.writeRequest(out, r);
                ClangUnit u = ClangWire.readAnswer(in, r.unitFile(), r.unitText(), r.headers());
                // a worker whose heap ran out answers so and ends: no further file for it
                if (ClangWorkerMain.OUT_OF_MEMORY.equals(u.failure())) dead = true;
                return u;
            } catch (IOException | RuntimeException e) {
                dead = true;
                return ClangUnit.failed(r.unitFile(), reason(budgetMs));
            } finally {
                k.cancel(false);
            }
        }

        /** Why the worker ended, from how it ended (never from what a scanned file made it print). */
        String reason(long budgetMs) {
            if (p.killedByDeadline()) {
                return p.killedByWallCap()
                        ? ClangBudget.wallCapReason(budgetMs)
                        : ClangBudget.overBudgetReason(budgetMs);
            }
            Integer code = p.exitCode(2_000);
            String report = p.fileHead(CRASH_REPORT, 4096);
            String err = (p.errorTail(8192) + report).toLowerCase(Locale.ROOT);
            if (err.contains("out of memory")
                    || err.contains("bad_alloc")
                    || err.contains("outofmemoryerror")
                    || err.contains("insufficient memory")
                    || err.contains("cannot allocate memory")) {
                return "out of memory (the Clang worker is limited to " + (memoryBytes() >> 20)
                        + " MB of address space, -Dnumlint.clang.workerMemoryMb)";
            }
            String crash = crashReason(report);
            if (crash != null) return crash;
            if (code == null) return "the Clang worker stopped answering";
            if (code == 128 + 24) return "over the Clang worker's CPU-time limit";
            if (code > 128) return "the Clang worker crashed (signal " + (code - 128) + ")";
            return "the Clang worker ended (exit code " + code + ")";
        }

        /**
         * The reason in a JVM crash report ({@code -XX:ErrorFile}): the signal and the native frame it hit, e.g.
         * "libclang crashed (SIGSEGV in clang::Sema::ActOnCXXDelete)"; null when the text is no crash report. The
         * frame's name is the symbol of libclang's (or the JVM's) own code, never text of the scanned file.
         */
        static String crashReason(String report) {
            if (report == null || !report.contains("A fatal error has been detected")) return null;
            java.util.regex.Matcher sig = java.util.regex.Pattern.compile("(?m)^#\\s+(SIG[A-Z]+|EXCEPTION_[A-Z_]+)")
                    .matcher(report);
            String signal = sig.find() ? sig.group(1) : "a fatal error";
            java.util.regex.Matcher fr = java.util.regex.Pattern.compile(
                            "(?m)^# Problematic frame:\\s*\\n#\\s+(\\S+)\\s+\\[([^\\]+]+)[^\\]]*\\]\\s*([^\\n]*)")
                    .matcher(report);
            if (!fr.find()) return "the Clang worker crashed (" + signal + ")";
            String lib = fr.group(2).trim();
            String symbol = fr.group(3).replaceAll("[(+].*", "").trim();
            if (symbol.length() > 120) symbol = symbol.substring(0, 120);
            String where = symbol.isEmpty() ? lib : symbol;
            String who = lib.contains("clang") || lib.contains("LLVM") ? "libclang" : "the Clang worker (" + lib + ")";
            return who + " crashed (" + signal + " in " + where + ")";
        }

        /** Whether the worker can take the next file (alive, not due for retirement). */
        boolean usable() {
            if (dead || !p.alive() || files >= RETIRE_FILES) return false;
            long cpu = ProcessHandle.of(p.pid())
                    .flatMap(h -> h.info().totalCpuDuration())
                    .map(Duration::toSeconds)
                    .orElse(0L);
            return cpu < RETIRE_CPU_SECONDS;
        }

        @Override
        public void close() {
            if (!dead && p.alive()) {
                try {
                    ClangWire.writeQuit(out);
                } catch (IOException e) {
                    // ending anyway
                }
            }
            dead = true;
            p.close();
        }
    }
}
