package dev.numlint.cuda;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.KernelLink;
import dev.numlint.spi.PtxMode;
import dev.numlint.spi.RuleSettings;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs the CUDA source analyzer over directories or file lists on one thread, streaming findings to a file (or
 * dropping them) so memory stays flat in the number of files. Used for corpus statistics and by
 * bench/cuda-throughput.sh. Usage: CudaCorpusMain [--findings OUT] [--notes OUT] [--repeat N] [--fast-math]
 * (DIR|@LISTFILE)...
 */
public final class CudaCorpusMain {
    private CudaCorpusMain() {}

    public static void main(String[] args) throws Exception {
        Path findingsOut = null;
        Path notesOut = null;
        int repeat = 1;
        boolean fastMath = false;
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--findings":
                    findingsOut = Path.of(args[++i]);
                    break;
                case "--notes":
                    notesOut = Path.of(args[++i]);
                    break;
                case "--repeat":
                    repeat = Integer.parseInt(args[++i]);
                    break;
                case "--fast-math":
                    fastMath = true;
                    break;
                default:
                    if (args[i].startsWith("@")) {
                        for (String l : Files.readAllLines(Path.of(args[i].substring(1)))) {
                            if (!l.isBlank()) files.add(Path.of(l.trim()).toAbsolutePath());
                        }
                    } else {
                        try (Stream<Path> s = Files.walk(Path.of(args[i]))) {
                            files.addAll(s.filter(Files::isRegularFile)
                                    .filter(p -> new CudaSourceAnalyzer().accepts(p))
                                    .map(Path::toAbsolutePath)
                                    .sorted()
                                    .collect(Collectors.toList()));
                        }
                    }
            }
        }
        BuildContext bc = fastMath ? BuildContext.defaults().fastMath(true) : BuildContext.defaults();
        PrintStream fout =
                findingsOut == null ? null : new PrintStream(Files.newOutputStream(findingsOut), false, "UTF-8");
        PrintStream nout = notesOut == null ? null : new PrintStream(Files.newOutputStream(notesOut), false, "UTF-8");
        AtomicLong findings = new AtomicLong();
        AtomicLong notes = new AtomicLong();
        FindingSink sink = new FindingSink() {
            @Override
            public synchronized void report(Finding.Builder b) {
                if (b.level() == null)
                    b.level(RuleCatalog.get().rule(b.ruleId()).level());
                Finding f = b.build();
                findings.incrementAndGet();
                if (fout != null) {
                    fout.println(f.location().file() + ":" + f.location().startLine() + " " + f.ruleId() + " ["
                            + f.function() + "] " + f.message());
                }
            }

            @Override
            public synchronized void notify(Notification n) {
                notes.incrementAndGet();
                if (nout != null)
                    nout.println(n.file() + ":" + n.line() + " " + n.level() + " " + n.id() + " " + n.message());
            }
        };
        long best = Long.MAX_VALUE;
        long bestCpu = Long.MAX_VALUE;
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        CudaSourceAnalyzer last = null;
        for (int r = 0; r < repeat; r++) {
            CudaSourceAnalyzer a = new CudaSourceAnalyzer();
            Ctx ctx = new Ctx(Path.of("/").toAbsolutePath(), bc);
            long t0 = System.nanoTime();
            long c0 = mx.getCurrentThreadCpuTime();
            a.analyze(
                    ctx,
                    files,
                    r == repeat - 1
                            ? sink
                            : new FindingSink() {
                                @Override
                                public void report(Finding.Builder b) {}

                                @Override
                                public void notify(Notification n) {}
                            });
            long dt = System.nanoTime() - t0;
            best = Math.min(best, dt);
            bestCpu = Math.min(bestCpu, mx.getCurrentThreadCpuTime() - c0);
            last = a;
        }
        if (fout != null) fout.close();
        if (nout != null) nout.close();
        Runtime rt = Runtime.getRuntime();
        System.gc();
        long withDfa = rt.totalMemory() - rt.freeMemory();
        // the ANTLR prediction cache (DFA) is static and shared; what is left without it is per-scan state
        new dev.numlint.cuda.parser.CudaParser(
                        new org.antlr.v4.runtime.CommonTokenStream(new org.antlr.v4.runtime.ListTokenSource(List.of())))
                .getInterpreter()
                .clearDFA();
        System.gc();
        System.out.printf(
                "heap after run: %d MiB with the ANTLR DFA cache, %d MiB without it%n",
                withDfa >> 20, (rt.totalMemory() - rt.freeMemory()) >> 20);
        CudaStats s = last.stats();
        System.out.printf(
                "files %d  lines %d  functions %d  sll %d  ll %d  failed %d (%.2f%%)%n",
                s.files.get(),
                s.lines.get(),
                s.functions.get(),
                s.sllParsed.get(),
                s.llParsed.get(),
                s.failed.get(),
                100.0 * s.failed.get() / Math.max(1, s.functions.get()));
        System.out.println("findings " + s.findings);
        System.out.println("last run: " + s);
        System.out.printf(
                "best run %.3f s wall, %.3f s cpu  %.0f lines/s wall  %.0f lines/s cpu  heap used after run %d MiB (max %d MiB)%n",
                best / 1e9,
                bestCpu / 1e9,
                s.lines.get() / (best / 1e9),
                s.lines.get() / (bestCpu / 1e9),
                (rt.totalMemory() - rt.freeMemory()) >> 20,
                rt.maxMemory() >> 20);
    }

    /** A single-threaded scan context with one build context for every file. */
    static final class Ctx implements ScanContext, RuleSettings {
        private final Path root;
        private final BuildContext bc;

        Ctx(Path root, BuildContext bc) {
            this.root = root;
            this.bc = bc;
        }

        @Override
        public Path root() {
            return root;
        }

        @Override
        public List<Path> files() {
            return List.of();
        }

        @Override
        public RuleSettings rules() {
            return this;
        }

        @Override
        public BuildContext buildContext(Path file) {
            return bc.copy();
        }

        @Override
        public void addBuildContext(Path file, BuildContext ctx) {}

        @Override
        public List<String> commandLineFlags() {
            return List.of();
        }

        @Override
        public PtxMode ptxMode() {
            return PtxMode.OFF;
        }

        @Override
        public String cudaArch() {
            return "compute_90";
        }

        @Override
        public Optional<Path> nvcc() {
            return Optional.empty();
        }

        @Override
        public List<Path> classpath() {
            return List.of();
        }

        @Override
        public ExecutorService executor() {
            return DIRECT;
        }

        @Override
        public String relativize(Path file) {
            return file.toString();
        }

        @Override
        public void linkKernel(KernelLink link) {}

        /** One cache directory for the run, deleted when the process ends (the benchmarks run this main often). */
        private Path cache;

        @Override
        public synchronized Path cacheDir() {
            if (cache != null) return cache;
            try {
                Path dir = Files.createTempDirectory("numlint");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
                return cache = dir;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private static void deleteTree(Path dir) {
            try (java.util.stream.Stream<Path> s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            } catch (IOException | RuntimeException e) {
                // best effort: a temporary directory
            }
        }

        @Override
        public boolean enabled(String ruleId) {
            return true;
        }

        @Override
        public Level level(String ruleId) {
            return RuleCatalog.get().rule(ruleId).level();
        }

        @Override
        public String option(String ruleId, String option) {
            return RuleCatalog.get().rule(ruleId).option(option).defaultValue();
        }
    }

    /** Runs submitted tasks on the calling thread (one core). */
    static final ExecutorService DIRECT = new AbstractExecutorService() {
        @Override
        public void shutdown() {}

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }

        @Override
        public void execute(Runnable command) {
            command.run();
        }
    };
}
