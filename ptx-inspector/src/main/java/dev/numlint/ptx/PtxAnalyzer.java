package dev.numlint.ptx;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.PtxMode;
import dev.numlint.spi.ScanContext;
import dev.numlint.toolchain.Nvcc;
import dev.numlint.toolchain.PtxCache;
import dev.numlint.toolchain.PtxCompiler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The PTX front end: reads .ptx files (and, with {@code --ptx auto} and nvcc available, compiles .cu files to PTX
 * first), builds the program model and runs the PTX checks (dev.numlint.ptx.checks) over every function. A finding's primary
 * location is the CUDA source line from the .loc debug information when that file exists (the outermost call site
 * in user code for inlined helpers); the PTX instruction is a related location and evidence.
 */
public final class PtxAnalyzer implements Analyzer {

    @Override
    public String id() {
        return "ptx";
    }

    @Override
    public Layer layer() {
        return Layer.PTX;
    }

    @Override
    public int phase() {
        return PHASE_KERNEL;
    }

    @Override
    public Set<String> implementedRules() {
        return dev.numlint.ptx.rules.PtxRules.implementedRules();
    }

    /**
     * .ptx files always; .cu files too (they are compiled only with --ptx auto and nvcc present), and C and C++ sources
     * ({@code .c}, {@code .cc}, {@code .cpp}, {@code .cxx}, {@code .c++}, {@code .C}) that their compile command builds
     * as CUDA ({@code nvcc -x cu}: Quicksilver compiles every {@code .cc} so, ludwig every {@code .c}), decided in
     * {@link #analyze}.
     */
    @Override
    public boolean accepts(Path file) {
        String n = file.getFileName() == null ? "" : file.getFileName().toString();
        return n.endsWith(".ptx") || n.endsWith(".cu") || cxxSource(n);
    }

    private static final java.util.regex.Pattern CXX_SOURCE =
            java.util.regex.Pattern.compile(".*\\.(c|cc|cpp|cxx|c\\+\\+|C)");

    private static boolean cxxSource(String name) {
        return CXX_SOURCE.matcher(name).matches();
    }

    /** A unit nvcc compiles to device code: a .cu file, or a C or C++ source its compile command builds as CUDA. */
    private static boolean cudaUnit(ScanContext ctx, Path f) {
        String n = f.getFileName() == null ? "" : f.getFileName().toString();
        return n.endsWith(".cu") || cxxSource(n) && ctx.buildContext(f).compiledAsCuda();
    }

    @Override
    public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
        // C and C++ sources the build compiles as host code are the CUDA front end's alone
        files = files.stream()
                .filter(f -> !cxxSource(String.valueOf(f.getFileName())) || cudaUnit(ctx, f))
                .toList();
        boolean compile = ctx.ptxMode() == PtxMode.AUTO
                && ctx.nvcc().isPresent()
                && files.stream().anyMatch(f -> !f.toString().endsWith(".ptx"));
        PtxCompiler nvcc = null;
        if (compile) {
            nvcc = new PtxCompiler(
                    Nvcc.at(ctx.nvcc().get()),
                    new PtxCache(ctx.cacheDir()),
                    roots(ctx),
                    userIncludeDirs(ctx.commandLineFlags()),
                    compileTimeout());
            String why = nvcc.unusable();
            if (why != null) {
                sink.notify(new Notification(
                        null, 0, Level.WARNING, "ptx-unavailable", why + ": .cu files were not compiled to PTX"));
                compile = false;
                nvcc = null;
            }
        }
        PtxCompiler compiler = nvcc;
        SourceCache sources = new SourceCache(boundary(ctx));
        Map<Path, Path> includedBy = compile ? includedCudaFiles(files) : Map.of();
        List<Future<?>> futures = new ArrayList<>();
        long started = System.nanoTime();
        java.util.concurrent.atomic.AtomicInteger noDevice = new java.util.concurrent.atomic.AtomicInteger();
        PtxTally tally = new PtxTally();
        // --cuda-arch over an architecture the build sets: how many files of each build architecture it replaced
        Map<String, java.util.concurrent.atomic.AtomicInteger> archOverridden =
                new java.util.concurrent.ConcurrentHashMap<>();
        Set<String> treeNames = compile ? PtxTally.treeNames(ctx.root()) : Set.of();
        for (Path f : files) {
            String n = f.getFileName() == null ? "" : f.getFileName().toString();
            boolean source = !n.endsWith(".ptx");
            if (source && !compile) continue;
            Path includer = source && compile ? includer(ctx.buildContext(f), f, includedBy) : null;
            if (n.endsWith(".cu") && includer != null) {
                // compiled standalone it usually fails (it relies on its includer's declarations); its code is
                // analyzed through the includer's PTX, whose .loc lines point back into this file
                sink.notify(new Notification(
                        ctx.relativize(f),
                        0,
                        Level.NOTE,
                        "ptx-included",
                        "not compiled on its " + "own: it is #included by " + ctx.relativize(includer)
                                + " and analyzed as part of it"));
                continue;
            }
            futures.add(ctx.executor()
                    .submit(() ->
                            analyzeFile(ctx, f, sink, compiler, sources, noDevice, tally, treeNames, archOverridden)));
        }
        for (Future<?> fu : futures) {
            try {
                fu.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                sink.notify(
                        new Notification(null, 0, Level.WARNING, "internal-error", "ptx analyzer: " + e.getCause()));
            }
        }
        tally.droppedNotices().forEach(sink::notify);
        Notification layer = compile ? tally.summary() : null;
        if (layer != null) sink.notify(layer);
        Notification unresolved = compile ? tally.archNotice(ctx.cudaArch()) : null;
        if (unresolved != null) sink.notify(unresolved);
        if (!archOverridden.isEmpty()) {
            String b = PtxTally.counted(archOverridden);
            sink.notify(new Notification(
                    null,
                    0,
                    Level.NOTE,
                    "ptx-arch",
                    "PTX compiled for " + ctx.cudaArch() + " as --cuda-arch asks, not for the architecture the build"
                            + " sets: " + b + " (CMAKE_CUDA_ARCHITECTURES, CUDA_ARCHITECTURES or -arch)"));
        }
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        if (compile && seconds >= slowCompileSeconds()) {
            sink.notify(new Notification(
                    null,
                    0,
                    Level.NOTE,
                    "ptx-slow",
                    "compiling .cu files to PTX took " + seconds
                            + " s (results are cached for the next scan); --ptx off skips it, the CUDA source layer still"
                            + " runs"));
        }
        if (noDevice.get() > 0) {
            sink.notify(new Notification(
                    null,
                    0,
                    Level.NOTE,
                    "ptx-no-device-code",
                    noDevice.get() + (tally.anyBuiltAsCuda() ? " CUDA source file" : " .cu file")
                            + (noDevice.get() == 1 ? "" : "s")
                            + " without __global__ or __device__ code (in the file or the "
                            + "headers it includes) " + (noDevice.get() == 1 ? "was" : "were")
                            + " not compiled to PTX"));
        }
    }

    /**
     * A PTX layer that takes this long gets a one-line hint about {@code --ptx off} ({@code
     * -Dnumlint.ptx.slowSeconds}, default 30 s; read per scan).
     */
    static long slowCompileSeconds() {
        return Long.getLong("numlint.ptx.slowSeconds", 30);
    }

    /** Wall-clock limit of one nvcc run ({@code -Dnumlint.nvcc.compileTimeoutMs}, default 300 s). */
    static Duration compileTimeout() {
        return Duration.ofMillis(Math.max(1, Long.getLong("numlint.nvcc.compileTimeoutMs", 300_000)));
    }

    /**
     * The trees nvcc may read and the PTX layer may quote: the real paths of the scanned PATHs (the scan's
     * {@link dev.numlint.spi.TrustBoundary}), never the working directory.
     */
    /** The include directories the user named in {@code --nvcc-flags} ({@link dev.numlint.spi.UserIncludeDirs}). */
    public static List<Path> userIncludeDirs(List<String> flags) {
        return dev.numlint.spi.UserIncludeDirs.of(flags);
    }

    static List<Path> roots(ScanContext ctx) {
        return ROOTS.computeIfAbsent(ctx, c -> c.boundary()).roots();
    }

    /** The scan's boundary, computed once per context (a default boundary walks the file list). */
    static dev.numlint.spi.TrustBoundary boundary(ScanContext ctx) {
        return ROOTS.computeIfAbsent(ctx, c -> c.boundary());
    }

    private static final Map<ScanContext, dev.numlint.spi.TrustBoundary> ROOTS =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    /** Where a flag of the build context was set ("Makefile:12"), or null. */
    static java.util.function.Function<String, String> origins(BuildContext bc, ScanContext ctx) {
        return flag -> {
            String want = flag.replace(" ", "").replace("=", "");
            for (BuildContext.FlagOrigin o : bc.origins()) {
                String have = o.flag().replace(" ", "").replace("=", "");
                if (o.location() != null
                        && (have.equals(want)
                                || want.equals("-Xcompiler" + have)
                                || want.startsWith(have) && !have.isEmpty() && have.length() > 2)) {
                    return o.location().file()
                            + (o.location().startLine() > 0 ? ":" + o.location().startLine() : "");
                }
            }
            return ctx.commandLineFlags().contains(flag) ? "--nvcc-flags" : null;
        };
    }

    private static final java.util.regex.Pattern INCLUDE_CU =
            java.util.regex.Pattern.compile("(?m)^\\s*#\\s*include\\s*\"([^\"]+\\.cu)\"");

    /** .cu files that another .cu file of the scan #includes (included file -> includer). */
    /**
     * The file whose PTX holds {@code f}'s code instead of its own, or null: the build model knows when the build
     * compiles a file only through another one ({@link BuildContext#compiledVia}); a unit the build compiles on its
     * own is compiled so, whichever file also includes its text (session 59, round A: a {@code gamma.cu} that CMake
     * compiles was left to a {@code tracks_to_photons.cu} that includes it and that the build does not compile);
     * else a {@code .cu} file another {@code .cu} includes ({@link #includedCudaFiles}).
     */
    static Path includer(BuildContext bc, Path f, Map<Path, Path> includedBy) {
        if (bc.compiledVia() != null) return bc.compiledVia();
        if (bc.compiled()) return null;
        return includedBy.get(f.toAbsolutePath().normalize());
    }

    static Map<Path, Path> includedCudaFiles(List<Path> files) {
        Map<Path, Path> out = new java.util.HashMap<>();
        for (Path f : files) {
            if (!f.toString().endsWith(".cu")) continue;
            try {
                if (Files.size(f) > 8L * 1024 * 1024) continue;
                java.util.regex.Matcher m = INCLUDE_CU.matcher(Files.readString(f, StandardCharsets.ISO_8859_1));
                while (m.find()) {
                    Path inc =
                            f.toAbsolutePath().getParent().resolve(m.group(1)).normalize();
                    if (!inc.equals(f.toAbsolutePath().normalize())) out.putIfAbsent(inc, f);
                }
            } catch (IOException | RuntimeException e) {
                // unreadable: analyzeFile reports it
            }
        }
        return out;
    }

    /**
     * The compile notices of a unit the configured build does not compile (its compilation database lists the others):
     * a header nvcc did not find is one its guessed flags miss, not a reason to pass {@code -p} (given already); and
     * nvcc's failure on a file the build does not compile is a note (session 48: an old program's {@code main.cu} beside
     * the built ones gave a warning for C++11 code the toolkit's C++17 headers reject), as its findings are.
     */
    static List<Notification> notBuilt(List<Notification> notes) {
        List<Notification> out = new java.util.ArrayList<>(notes.size());
        for (Notification n : notes) {
            String m = n.message();
            if (n.id().equals("nvcc-failed") && m.endsWith(PtxCompiler.INCLUDE_ADVICE)) {
                m = m.substring(0, m.length() - PtxCompiler.INCLUDE_ADVICE.length())
                        + ": the configured build does not compile this file (not-compiled-units), so nvcc had its"
                        + " directory's or guessed flags";
            }
            if (n.id().equals("nvcc-failed")) n = new Notification(n.file(), n.line(), Level.NOTE, n.id(), m);
            out.add(n);
        }
        return out;
    }

    /** Set (to the architecture) when {@code --cuda-arch} was given: it then wins over the build's architecture. */
    public static final String CUDA_ARCH_SETTING = "cuda-arch";

    private void analyzeFile(
            ScanContext ctx,
            Path f,
            FindingSink sink,
            PtxCompiler nvcc,
            SourceCache sources,
            java.util.concurrent.atomic.AtomicInteger noDevice,
            PtxTally tally,
            Set<String> treeNames,
            Map<String, java.util.concurrent.atomic.AtomicInteger> archOverridden) {
        String rel = ctx.relativize(f);
        // a cooperative budget of CPU time per file: the lexer, the model and the checks' loops check it; one budget
        // for the compile's own work, then one scaled with the PTX's size for reading and checking it
        dev.numlint.model.WorkBudget.start(fileBudgetNanos());
        long[] budget = {fileBudgetNanos(), 0};
        boolean fromSource = !f.getFileName().toString().endsWith(".ptx");
        try {
            if (!f.getFileName().toString().endsWith(".ptx")) { // a .cu file, or C++ built as CUDA (analyze())
                boolean builtAsCuda = !f.getFileName().toString().endsWith(".cu");
                BuildContext bc = ctx.buildContext(f);
                // --cuda-arch wins over the build's architecture (a note says so); without it the build's applies
                boolean given = ctx.setting(CUDA_ARCH_SETTING).isPresent();
                String arch = bc.cudaArch() != null && !given ? bc.cudaArch() : ctx.cudaArch();
                if (given && bc.cudaArch() != null && !bc.cudaArch().equals(arch)) {
                    archOverridden
                            .computeIfAbsent(bc.cudaArch(), k -> new java.util.concurrent.atomic.AtomicInteger())
                            .incrementAndGet();
                }
                ctx.addPtxUnit(rel, false);
                if (!given) tally.archOf(bc);
                PtxCompiler.Result r = nvcc.compile(f, arch, nvccFlags(bc), rel, origins(bc, ctx));
                boolean notBuilt = bc.notCompiledReason() != null;
                List<Notification> notes = notBuilt ? notBuilt(r.notifications()) : r.notifications();
                for (Notification n : notes) if (!tally.dropped(n)) sink.notify(n);
                if (r.noDeviceCode()) {
                    noDevice.incrementAndGet();
                    ctx.addPtxUnit(rel, true); // no device code: nothing of it is emitted
                }
                if (builtAsCuda) tally.builtAsCuda(!r.noDeviceCode());
                if (!r.ok()) {
                    if (!r.noDeviceCode()) tally.failed(f, notes, treeNames, notBuilt);
                    return;
                }
                tally.compiled();
                budget[1] = r.ptx().length();
                budget[0] = fileBudgetNanos(budget[1]);
                dev.numlint.model.WorkBudget.start(budget[0]);
                analyzeText(ctx, unitSink(sink, bc), r.ptx(), r.ptxFile(), f, bc, sources);
            } else {
                long size = Files.size(f);
                long max = ctx.maxFileSize(dev.numlint.model.Layer.PTX);
                if (size > max) {
                    sink.notify(new Notification(
                            rel,
                            0,
                            Level.ERROR,
                            "file-too-large",
                            "not analyzed: the file has " + size + " bytes, more than max-file-size for ptx (" + max
                                    + ")"));
                    return;
                }
                byte[] bytes = Files.readAllBytes(f);
                budget[1] = bytes.length;
                budget[0] = fileBudgetNanos(budget[1]);
                dev.numlint.model.WorkBudget.start(budget[0]);
                for (int i = 0; i < Math.min(bytes.length, 4096); i++) {
                    if (bytes[i] == 0) {
                        sink.notify(new Notification(
                                rel,
                                0,
                                Level.ERROR,
                                "binary-file",
                                "not a text PTX file (NUL byte at offset " + i + "); not analyzed"));
                        return;
                    }
                }
                String text = new String(bytes, StandardCharsets.UTF_8);
                BuildContext bc = ctx.buildContext(f);
                if (buildOutputWithoutLines(ctx, bc, text)) {
                    // its instructions cannot be joined to the source's lines: each finding would be a second copy of
                    // the source's (mumax3's cuda/*_80.ptx beside the kernels they come from)
                    sink.notify(new Notification(
                            rel,
                            0,
                            Level.NOTE,
                            "ptx-build-output",
                            "not analyzed on its own: the build writes it from " + ctx.relativize(bc.writtenFrom())
                                    + " (" + bc.writtenBy() + "), which is analyzed; it has no line information"
                                    + " (.loc) to join its instructions to that source's lines"));
                    return;
                }
                analyzeText(ctx, sink, text, f, null, bc, sources);
            }
        } catch (IOException e) {
            sink.notify(new Notification(rel, 0, Level.ERROR, "unreadable-file", "cannot read: " + e.getMessage()));
        } catch (dev.numlint.model.WorkBudget.Exceeded e) {
            sink.notify(overBudget(rel, fromSource, budget[0] / 1_000_000L, budget[1]));
        } catch (OutOfMemoryError e) {
            sink.notify(new Notification(
                    rel, 0, Level.ERROR, "over-budget", dev.numlint.model.WorkBudget.outOfMemory("the PTX reader")));
        } catch (RuntimeException | StackOverflowError e) {
            sink.notify(new Notification(rel, 0, Level.ERROR, "internal-error", "PTX analysis failed: " + e));
        } finally {
            dev.numlint.model.WorkBudget.stop();
        }
    }

    private static final java.util.regex.Pattern LOC = java.util.regex.Pattern.compile("(?m)^\\s*\\.loc\\s");

    /** A PTX file the build writes from a scanned source ({@link BuildContext#writtenFrom()}), without {@code .loc}. */
    static boolean buildOutputWithoutLines(ScanContext ctx, BuildContext bc, String ptx) {
        Path src = bc.writtenFrom();
        return src != null && ctx.files().contains(src) && !LOC.matcher(ptx).find();
    }

    /**
     * Where the findings of one compiled unit go: a unit that the configured build does not compile (a .cu file its
     * compilation database does not list, compiled here with borrowed or default flags) gives notes only, wherever
     * they land ({@link dev.numlint.rules.NotCompiledNote}): its contraction of a line of a header that the build's
     * own units compile with {@code -fmad=false} is not what this configuration computes.
     */
    static FindingSink unitSink(FindingSink sink, BuildContext bc) {
        String why = bc.notCompiledReason();
        if (why == null) return sink;
        return new FindingSink() {
            @Override
            public void report(dev.numlint.model.Finding.Builder finding) {
                sink.report(dev.numlint.rules.NotCompiledNote.apply(finding, why));
            }

            @Override
            public void notify(Notification notification) {
                sink.notify(notification);
            }
        };
    }

    /** CPU time per PTX file ({@code -Dnumlint.ptx.fileBudgetMs}, default 5 s as for the CUDA/C++ front end). */
    static final long FILE_BUDGET_MS = 5_000;

    /** The PTX text that earns one more per-file budget (a generated .cu of 24 kernels gives 660 KB of PTX). */
    static final long BYTES_PER_BUDGET = 250_000;

    /** The most per-file budgets one PTX gets, however large. */
    static final int MAX_BUDGETS = 8;

    static long fileBudgetNanos() {
        return Math.max(1, Long.getLong("numlint.ptx.fileBudgetMs", FILE_BUDGET_MS)) * 1_000_000L;
    }

    /**
     * The budget of reading and checking {@code bytes} of PTX: one per-file budget and one more for every
     * {@link #BYTES_PER_BUDGET} bytes, at most {@link #MAX_BUDGETS} (as Clang's budget scales with the code it
     * reads: a fixed 5 s refused gkylzero's generated {@code dg_bin_ops_cu.cu} at any load; session 26's defect 8).
     */
    static long fileBudgetNanos(long bytes) {
        return fileBudgetNanos() * Math.min(1 + Math.max(0, bytes) / BYTES_PER_BUDGET, MAX_BUDGETS);
    }

    /**
     * The notice of a file whose PTX went over its budget. For a .cu file (or C++ built as CUDA) only the PTX layer
     * is incomplete: the source layer analyzes the file's functions on its own, so the file is not "not analyzed"
     * (a warning, not an error that would count its functions out); a .ptx file has no other layer (an error).
     */
    static Notification overBudget(String rel, boolean fromSource, long budgetMs, long bytes) {
        if (bytes <= 0) { // over before any PTX was read: the compile's own work (its include graph)
            return new Notification(
                    rel,
                    0,
                    fromSource ? Level.WARNING : Level.ERROR,
                    fromSource ? "ptx-budget" : "over-budget",
                    (fromSource ? "not compiled to PTX" : "not analyzed") + ": preparing the compile took longer than"
                            + " the per-file budget of " + budgetMs + " ms of CPU time (-Dnumlint.ptx.fileBudgetMs"
                            + " raises it)" + (fromSource ? "; the source layer analyzed the file's functions" : "")
                            + "; the scan goes on");
        }
        String budget = "the budget of " + budgetMs + " ms of CPU time for its " + (bytes + 1023) / 1024
                + " KB of PTX (the per-file budget of " + fileBudgetNanos() / 1_000_000L + " ms per "
                + BYTES_PER_BUDGET / 1000 + " KB begun, at most " + MAX_BUDGETS
                + " times; -Dnumlint.ptx.fileBudgetMs raises it)";
        if (fromSource) {
            return new Notification(
                    rel,
                    0,
                    Level.WARNING,
                    "ptx-budget",
                    "PTX layer incomplete (its findings found before are kept): reading and checking the compiled PTX"
                            + " took longer than " + budget + "; the source layer analyzed the file's functions"
                            + " (a notice of its own says if it did not); the scan goes on");
        }
        return new Notification(
                rel,
                0,
                Level.ERROR,
                "over-budget",
                "not analyzed (findings found before are kept): the PTX took longer than " + budget
                        + "; the scan goes on");
    }

    /**
     * The nvcc flags for a build context: the flags as written plus the floating-point settings the build-flag
     * audit recorded (--use_fast_math, -ftz, -prec-div, -prec-sqrt, -fmad) when no written flag carries them, and the
     * host compiler's -fopenmp.
     */
    public static List<String> nvccFlags(BuildContext bc) {
        List<String> flags = new ArrayList<>(bc.nvccFlags());
        String all = String.join(" ", flags);
        if (Boolean.TRUE.equals(bc.fastMath()) && !all.contains("use_fast_math")) flags.add("--use_fast_math");
        if (bc.ftz() != null && !all.contains("-ftz")) flags.add("-ftz=" + bc.ftz());
        if (bc.precDiv() != null && !all.contains("-prec-div")) flags.add("-prec-div=" + bc.precDiv());
        if (bc.precSqrt() != null && !all.contains("-prec-sqrt")) flags.add("-prec-sqrt=" + bc.precSqrt());
        if (bc.fmad() != null && !all.contains("-fmad")) flags.add("-fmad=" + bc.fmad());
        // the host compiler's -fopenmp (the audit keeps it apart from the nvcc flags): _OPENMP holds for the host
        // preprocessing nvcc -ptx runs too, where host code includes <omp.h> under #ifdef _OPENMP (session 83)
        String omp = dev.numlint.toolchain.NvccFlagPolicy.OPENMP;
        if (bc.hostMacroFlags().contains("-fopenmp") && !flags.contains(omp)) flags.add(omp);
        return flags;
    }

    /**
     * Analyzes PTX text. {@code ptxFile} is where the text lives (the .ptx, or the cached PTX of {@code cuFile});
     * {@code cuFile} is the CUDA file it was compiled from, or null.
     */
    public static void analyzeText(
            ScanContext ctx,
            FindingSink sink,
            String text,
            Path ptxFile,
            Path cuFile,
            BuildContext bc,
            SourceCache sources) {
        PtxFindings.analyzeText(ctx, sink, text, ptxFile, cuFile, bc, sources);
    }

    /**
     * Lines of CUDA source files named by .loc, read once per scan (thread-safe); only files the scan's boundary lets
     * it read (never {@code .git/config} or {@code /proc/self/environ}, whatever a .file entry says).
     */
    public static final class SourceCache {
        private final Map<Path, String[]> files = new ConcurrentHashMap<>();
        private final dev.numlint.spi.TrustBoundary boundary;

        public SourceCache(dev.numlint.spi.TrustBoundary boundary) {
            this.boundary = boundary;
        }

        public String line(Path file, int line) {
            String[] lines = lines(file);
            return line >= 1 && line <= lines.length ? lines[line - 1] : null;
        }

        /** The number of lines of {@code file} (a final newline ends the last line); 0 when it cannot be read. */
        public int lineCount(Path file) {
            String[] lines = lines(file);
            return lines.length > 0 && lines[lines.length - 1].isEmpty() ? lines.length - 1 : lines.length;
        }

        private String[] lines(Path file) {
            return files.computeIfAbsent(file, p -> {
                try {
                    if (boundary.readable(p) == null || Files.size(p) > 16L * 1024 * 1024) return new String[0];
                    return new String(Files.readAllBytes(p), StandardCharsets.UTF_8).split("\r?\n", -1);
                } catch (IOException | RuntimeException e) {
                    return new String[0];
                }
            });
        }
    }
}
