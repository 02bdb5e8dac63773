package dev.numlint.toolchain;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The one way numlint starts a child process (nvcc, {@code nvcc --version}, {@code nvcc --list-gpu-arch}, the
 * validation's GPU child JVM, the Clang front end's worker JVMs through {@link #start}).
 *
 * <ul>
 *   <li>The command is an argument list, never a shell line. It runs through a fixed wrapper
 *   {@code /bin/sh -c 'ulimit -t CPU; ulimit -v KB; ulimit -f KB; exec "$0" "$@"' PROGRAM ARGS...} (without
 *   {@code ulimit -v} for a spec that lifts it, {@link Spec#noAddressSpaceLimit()}): the program
 *   and its arguments are positional parameters, never interpolated into the script; the limits (CPU seconds,
 *   address space, size of files written) apply to every process of the tree, which inherits them. When
 *   {@code setsid} exists the tree gets its own session, so it cannot read the terminal.</li>
 *   <li>The environment is built from nothing: {@code PATH} (the toolkit's bin directories, /usr/bin, /bin),
 *   {@code HOME} and {@code TMPDIR} (a private temporary directory), {@code LANG=C}, {@code LC_ALL=C}. Nothing of
 *   numlint's own environment (CI tokens, secrets) reaches the child. A caller may add a variable explicitly
 *   ({@link Spec#env}, e.g. the directory of the CUDA driver library for the GPU child), never replace these.</li>
 *   <li>The working directory is a private temporary directory (created under the given parent, deleted after).</li>
 *   <li>Wall clock: past the timeout the whole tree is killed ({@link ProcessHandle#descendants()} and the
 *   process itself, forcibly). Output: stdout and stderr are merged and read up to a cap; beyond it the tree is
 *   killed and the result says so.</li>
 *   <li>Interruption: a shutdown hook kills running trees and deletes their temporary directories.</li>
 * </ul>
 */
public final class GuardedProcess {
    /** What to run and under which limits. Build with {@link #builder(Path)}. */
    public static final class Spec {
        private final Path program;
        private final List<String> args = new ArrayList<>();
        private final List<Path> binDirs = new ArrayList<>();
        private Path tempParent;
        private Path workingDirectory;
        private Duration timeout = Duration.ofMinutes(5);
        private long cpuSeconds = 600;
        private long addressSpaceBytes = 16L * 1024 * 1024 * 1024;
        private long fileSizeBytes = 1024L * 1024 * 1024;
        private int maxOutputBytes = 1024 * 1024;
        private final Map<String, String> extraEnv = new LinkedHashMap<>();

        private Spec(Path program) {
            this.program = Objects.requireNonNull(program, "program");
        }

        /** Arguments after the program. */
        public Spec args(List<String> a) {
            args.addAll(a);
            return this;
        }

        public Spec arg(String a) {
            args.add(a);
            return this;
        }
        /** Directories put on the child's PATH before /usr/bin:/bin (the toolkit's bin directories). */
        public Spec binDir(Path d) {
            if (d != null && !binDirs.contains(d)) binDirs.add(d);
            return this;
        }
        /** Where the private working directory is created (default: the system temporary directory). */
        public Spec tempParent(Path d) {
            tempParent = d;
            return this;
        }

        public Spec timeout(Duration d) {
            timeout = d;
            return this;
        }

        public Spec cpuSeconds(long s) {
            cpuSeconds = s;
            return this;
        }

        public Spec addressSpace(long bytes) {
            if (bytes <= 0) throw new IllegalArgumentException("address space limit must be positive: " + bytes);
            addressSpaceBytes = bytes;
            return this;
        }

        /**
         * No address-space ({@code ulimit -v}) limit for this child: for programs that reserve far more virtual
         * memory than they use (the CUDA driver maps ranges of the size of host plus device memory). CPU time,
         * file size, wall clock and output stay limited.
         */
        public Spec noAddressSpaceLimit() {
            addressSpaceBytes = 0;
            return this;
        }

        /**
         * One more environment variable, set explicitly by the caller (the environment is otherwise built from
         * nothing). Only for what the child cannot work without, e.g. where the driver library lies; PATH, HOME,
         * TMPDIR, LANG and LC_ALL are fixed and cannot be replaced.
         */
        public Spec env(String name, String value) {
            if (!name.matches("[A-Z_][A-Z0-9_]*"))
                throw new IllegalArgumentException("not an environment variable name: " + name);
            if (FIXED_ENV.contains(name))
                throw new IllegalArgumentException(name + " is set by GuardedProcess and cannot be replaced");
            extraEnv.put(name, Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Run in this directory instead of the private temporary one (HOME and TMPDIR stay private): only for
         * {@code numlint record}, which runs the program the user named on the command line where the user runs it,
         * so that its relative input paths work. Never for anything from a scanned tree.
         */
        public Spec workingDirectory(Path dir) {
            workingDirectory = Objects.requireNonNull(dir, "dir");
            return this;
        }

        public Spec fileSize(long bytes) {
            fileSizeBytes = bytes;
            return this;
        }

        public Spec maxOutput(int bytes) {
            maxOutputBytes = bytes;
            return this;
        }

        public Path program() {
            return program;
        }

        public List<String> args() {
            return List.copyOf(args);
        }
    }

    /**
     * The outcome: exit code (-1 when killed), the merged output (at most the cap), whether the wall-clock limit
     * or the output cap ended it.
     */
    public record Result(int exitCode, String output, boolean timedOut, boolean outputTruncated) {
        public boolean ok() {
            return exitCode == 0 && !timedOut && !outputTruncated;
        }
    }

    /** Files written into the private working directory before the process starts (e.g. a job description). */
    public interface Prepare {
        void into(Path workDir) throws IOException;
    }

    /** Work to do in the private working directory while the process may still be inspected. */
    public interface WithDir<T> {
        T run(Path workDir, Result result) throws IOException;
    }

    private static final Path SH = Path.of("/bin/sh");
    private static final Set<String> FIXED_ENV = Set.of("PATH", "HOME", "TMPDIR", "LANG", "LC_ALL");
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();
    private static final Set<Path> TEMP_DIRS = ConcurrentHashMap.newKeySet();

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(GuardedProcess::cleanUp, "numlint-child-cleanup"));
        } catch (IllegalStateException | SecurityException e) {
            // shutting down already
        }
    }

    private GuardedProcess() {}

    public static Spec builder(Path program) {
        return new Spec(program);
    }

    /** Runs the spec and returns its result; IOException when it cannot be started. */
    public static Result run(Spec spec) throws IOException {
        return run(spec, (dir, r) -> r);
    }

    /**
     * Runs the spec; {@code then} sees the private working directory (with whatever the process wrote there)
     * before it is deleted.
     */
    public static <T> T run(Spec spec, WithDir<T> then) throws IOException {
        return run(spec, dir -> {}, then);
    }

    /**
     * Runs the spec; {@code prepare} writes into the private working directory (the child's working directory)
     * before the process starts, {@code then} sees it with whatever the process wrote there before it is deleted.
     */
    public static <T> T run(Spec spec, Prepare prepare, WithDir<T> then) throws IOException {
        // the given directory (nvcc's runs: under the cache) must be a real directory, never a link
        Path parent = spec.tempParent != null
                ? dev.numlint.spi.SafeFiles.directory(spec.tempParent)
                : Path.of(System.getProperty("java.io.tmpdir"));
        if (shuttingDown) throw new IOException("numlint is being interrupted: no new process is started");
        Path work = Files.createTempDirectory(parent, "numlint-run-");
        TEMP_DIRS.add(work);
        try {
            if (shuttingDown) throw new IOException("numlint is being interrupted: no new process is started");
            Path home = Files.createDirectory(work.resolve(".home"));
            Path tmp = Files.createDirectory(work.resolve(".tmp"));
            prepare.into(work);
            ProcessBuilder pb = new ProcessBuilder(command(spec))
                    .directory((spec.workingDirectory != null ? spec.workingDirectory : work).toFile())
                    .redirectErrorStream(true);
            Map<String, String> env = pb.environment();
            env.clear();
            env.putAll(environment(spec, home, tmp));
            Result r = execute(pb, spec);
            return then.run(work, r);
        } finally {
            deleteTree(work);
            TEMP_DIRS.remove(work);
        }
    }

    /**
     * A child that stays running and talks over its standard input and output (the Clang worker: one JVM parses file
     * after file). The same wrapper, limits, scrubbed environment and private working directory as {@link #run}; its
     * standard error goes to a file in the working directory (bounded by the file-size limit), read back only through
     * {@link #errorTail}. The spec's timeout bounds the child's whole life; a caller bounds each exchange with
     * {@link #killAfter}. {@link #close()} kills the tree and deletes the directory, as does the shutdown hook.
     */
    public static final class Interactive implements AutoCloseable {
        private final Process process;
        private final Path work;
        private final java.util.concurrent.ScheduledFuture<?> lifetime;
        private volatile boolean killedByDeadline;

        private Interactive(Process process, Path work, Duration life) {
            this.process = process;
            this.work = work;
            this.lifetime = WATCHDOG.schedule(this::kill, life.toMillis(), TimeUnit.MILLISECONDS);
        }

        public java.io.OutputStream stdin() {
            return process.getOutputStream();
        }

        public InputStream stdout() {
            return process.getInputStream();
        }

        public boolean alive() {
            return process.isAlive();
        }

        public long pid() {
            return process.pid();
        }

        /** The exit code once the child has ended (waiting at most {@code ms}), else null. */
        public Integer exitCode(long ms) {
            try {
                return process.waitFor(ms, TimeUnit.MILLISECONDS) ? process.exitValue() : null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }

        /**
         * Kills the tree after {@code ms} unless the returned handle is cancelled first ({@code cancel(false)}):
         * the bound of one exchange.
         */
        public java.util.concurrent.ScheduledFuture<?> killAfter(long ms) {
            return WATCHDOG.schedule(
                    () -> {
                        killedByDeadline = true;
                        kill();
                    },
                    ms,
                    TimeUnit.MILLISECONDS);
        }

        /**
         * Kills the tree once the child has spent {@code cpuMs} of CPU time (user and system, all its threads) from
         * now, or after {@code wallMs} of wall time, whichever comes first, unless the returned handle is cancelled
         * first: the bound of one exchange that should not depend on how loaded the machine is. The CPU time is read
         * every {@link #CPU_POLL_MS} ms from the system ({@link ProcessHandle.Info#totalCpuDuration}); where the system
         * does not say, {@code cpuMs} bounds the wall time instead. {@link #killedByWallCap} tells the two apart.
         */
        public java.util.concurrent.ScheduledFuture<?> killAfterCpu(long cpuMs, long wallMs) {
            long start = cpuNanos();
            if (start < 0) return killAfter(cpuMs);
            long limit = cpuMs * 1_000_000L;
            long wallDeadline = System.nanoTime() + Math.max(cpuMs, wallMs) * 1_000_000L;
            killedByWallCap = false;
            java.util.concurrent.atomic.AtomicReference<java.util.concurrent.ScheduledFuture<?>> self =
                    new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.ScheduledFuture<?> poll = WATCHDOG.scheduleWithFixedDelay(
                    () -> {
                        if (killedByDeadline) return;
                        long used = cpuNanos();
                        boolean overCpu = used >= 0 && used - start >= limit;
                        boolean overWall = System.nanoTime() >= wallDeadline;
                        if (!overCpu && !overWall) return;
                        killedByWallCap = !overCpu;
                        killedByDeadline = true;
                        kill();
                        java.util.concurrent.ScheduledFuture<?> s = self.get();
                        if (s != null) s.cancel(false);
                    },
                    Math.min(CPU_POLL_MS, cpuMs),
                    CPU_POLL_MS,
                    TimeUnit.MILLISECONDS);
            self.set(poll);
            return poll;
        }

        /** How often {@link #killAfterCpu} reads the child's CPU time. */
        static final long CPU_POLL_MS = 100;

        /** The CPU time the child has used (user and system, all threads), or -1 where the system does not say. */
        public long cpuNanos() {
            return process.toHandle()
                    .info()
                    .totalCpuDuration()
                    .map(Duration::toNanos)
                    .orElse(-1L);
        }

        /** Whether a {@link #killAfter} or {@link #killAfterCpu} deadline (not a crash) ended the child. */
        public boolean killedByDeadline() {
            return killedByDeadline;
        }

        /** Whether the deadline that ended the child was {@link #killAfterCpu}'s wall-time cap, not its CPU time. */
        public boolean killedByWallCap() {
            return killedByWallCap;
        }

        private volatile boolean killedByWallCap;

        /** The last {@code max} bytes the child wrote to its standard error (for classifying why it ended). */
        public String errorTail(int max) {
            Path f = work.resolve(".stderr");
            try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(f)) {
                long size = ch.size();
                long from = Math.max(0, size - max);
                ch.position(from);
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((int) (size - from));
                while (b.hasRemaining() && ch.read(b) > 0) {
                    // read on
                }
                return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                return "";
            }
        }

        /**
         * The first {@code max} bytes of a file the child wrote into its private working directory (a JVM child's
         * crash report, {@code -XX:ErrorFile}), or "" when there is none; {@code name} is a plain file name.
         */
        public String fileHead(String name, int max) {
            if (name.isEmpty() || name.contains("/") || name.startsWith(".")) return "";
            Path f = work.resolve(name);
            try (java.nio.channels.SeekableByteChannel ch =
                    Files.newByteChannel(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((int) Math.min(max, ch.size()));
                while (b.hasRemaining() && ch.read(b) > 0) {
                    // read on
                }
                return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                return "";
            }
        }

        private void kill() {
            killTree(process);
        }

        @Override
        public void close() {
            lifetime.cancel(false);
            kill();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            RUNNING.remove(process);
            deleteTree(work);
            TEMP_DIRS.remove(work);
        }
    }

    private static final java.util.concurrent.ScheduledExecutorService WATCHDOG =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "numlint-child-watchdog");
                t.setDaemon(true);
                return t;
            });

    /** Starts the spec as an {@link Interactive} child; IOException when it cannot be started. */
    public static Interactive start(Spec spec) throws IOException {
        Path parent = spec.tempParent != null
                ? dev.numlint.spi.SafeFiles.directory(spec.tempParent)
                : Path.of(System.getProperty("java.io.tmpdir"));
        if (shuttingDown) throw new IOException("numlint is being interrupted: no new process is started");
        Path work = Files.createTempDirectory(parent, "numlint-run-");
        TEMP_DIRS.add(work);
        boolean started = false;
        try {
            Path home = Files.createDirectory(work.resolve(".home"));
            Path tmp = Files.createDirectory(work.resolve(".tmp"));
            ProcessBuilder pb = new ProcessBuilder(command(spec))
                    .directory(work.toFile())
                    .redirectError(work.resolve(".stderr").toFile());
            Map<String, String> env = pb.environment();
            env.clear();
            env.putAll(environment(spec, home, tmp));
            Process p = pb.start();
            RUNNING.add(p);
            if (shuttingDown) killTree(p);
            started = true;
            return new Interactive(p, work, spec.timeout);
        } finally {
            if (!started) {
                deleteTree(work);
                TEMP_DIRS.remove(work);
            }
        }
    }

    /** The full command line: [setsid] /bin/sh -c WRAPPER program args... */
    static List<String> command(Spec spec) {
        List<String> cmd = new ArrayList<>();
        Path setsid = Path.of("/usr/bin/setsid");
        if (Files.isExecutable(setsid)) cmd.add(setsid.toString());
        cmd.add(SH.toString());
        cmd.add("-c");
        // only numbers numlint computed go into the script; the program and its arguments are positional
        cmd.add("ulimit -t " + Math.max(1, spec.cpuSeconds) + " 2>/dev/null; "
                + (spec.addressSpaceBytes > 0
                        ? "ulimit -v " + Math.max(1, spec.addressSpaceBytes / 1024) + " 2>/dev/null; "
                        : "")
                + "ulimit -f " + Math.max(1, spec.fileSizeBytes / 1024) + " 2>/dev/null; exec \"$0\" \"$@\"");
        cmd.add(spec.program.toString());
        cmd.addAll(spec.args);
        return cmd;
    }

    /** The child's complete environment. */
    static Map<String, String> environment(Spec spec, Path home, Path tmp) {
        Map<String, String> env = new LinkedHashMap<>();
        StringBuilder path = new StringBuilder();
        for (Path d : spec.binDirs) path.append(d).append(':');
        path.append("/usr/bin:/bin");
        env.put("PATH", path.toString());
        env.put("HOME", home.toString());
        env.put("TMPDIR", tmp.toString());
        env.put("LANG", "C");
        env.put("LC_ALL", "C");
        env.putAll(spec.extraEnv);
        return env;
    }

    private static Result execute(ProcessBuilder pb, Spec spec) throws IOException {
        Process p = pb.start();
        RUNNING.add(p);
        if (shuttingDown) killTree(p);
        try {
            p.getOutputStream().close();
            Output out = new Output(p, spec.maxOutputBytes);
            Thread reader = new Thread(out, "numlint-child-output");
            reader.setDaemon(true);
            reader.start();
            boolean finished;
            try {
                finished = p.waitFor(spec.timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                killTree(p);
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while " + spec.program.getFileName() + " was running", e);
            }
            if (!finished) killTree(p);
            try {
                reader.join(finished ? 10_000 : 2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (out.truncated) killTree(p);
            int code = finished && !out.truncated ? p.exitValue() : -1;
            return new Result(code, out.text(), !finished, out.truncated);
        } finally {
            if (p.isAlive()) killTree(p);
            RUNNING.remove(p);
        }
    }

    /** Reads the merged output up to the cap; past it, kills the tree. */
    private static final class Output implements Runnable {
        private final Process p;
        private final int cap;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        private volatile boolean truncated;

        Output(Process p, int cap) {
            this.p = p;
            this.cap = cap;
        }

        @Override
        public void run() {
            byte[] b = new byte[8192];
            try (InputStream in = p.getInputStream()) {
                int n;
                while ((n = in.read(b)) >= 0) {
                    synchronized (buf) {
                        int room = cap - buf.size();
                        buf.write(b, 0, Math.max(0, Math.min(room, n)));
                        if (n > room) {
                            truncated = true;
                            killTree(p);
                            return;
                        }
                    }
                }
            } catch (IOException e) {
                // the process was killed
            }
        }

        String text() {
            synchronized (buf) {
                return buf.toString(StandardCharsets.UTF_8);
            }
        }
    }

    /** Kills the process and everything below it (children first collected, then all killed forcibly). */
    static void killTree(Process p) {
        List<ProcessHandle> tree = new ArrayList<>();
        try {
            p.descendants().forEach(tree::add);
        } catch (RuntimeException e) {
            // the process is gone
        }
        p.destroyForcibly();
        for (ProcessHandle h : tree) h.destroyForcibly();
        // children forked meanwhile
        for (ProcessHandle h : tree) {
            try {
                h.descendants().forEach(ProcessHandle::destroyForcibly);
            } catch (RuntimeException e) {
                // gone
            }
        }
    }

    /**
     * The shutdown hook: kills the running trees, waits (at most 5 s) until they have exited, so that no dying
     * compiler writes into a directory after it was emptied, then deletes the private directories (again, should a
     * file have appeared meanwhile).
     */
    /** Set by the shutdown hook: from then on no process is started and no directory is kept. */
    private static volatile boolean shuttingDown;

    private static void cleanUp() {
        shuttingDown = true;
        List<ProcessHandle> dying = new ArrayList<>();
        for (Process p : RUNNING) {
            try {
                dying.add(p.toHandle());
                p.descendants().forEach(dying::add);
            } catch (RuntimeException e) {
                // gone
            }
            killTree(p);
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        for (ProcessHandle h : dying) {
            long left = deadline - System.nanoTime();
            if (left <= 0) break;
            try {
                h.onExit().get(left, java.util.concurrent.TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                // gone, or still dying: the deletion below tries anyway
            }
        }
        // a run that was starting when the flag was set kills its process and deletes its directory itself; these
        // rounds catch what it leaves while the hook still runs
        for (int attempt = 0; attempt < 5; attempt++) {
            for (Process p : RUNNING) killTree(p);
            for (Path d : TEMP_DIRS) deleteTree(d);
            if (TEMP_DIRS.stream().noneMatch(d -> Files.exists(d, java.nio.file.LinkOption.NOFOLLOW_LINKS))) break;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
    }

    /** Deletes a directory tree (without following symlinks); errors are ignored. */
    static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    // left behind
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // left behind
        }
    }
}
