package dev.numlint.ptx;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.ptx.model.DebugLoc;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.PtxModule;
import dev.numlint.ptx.model.SourcePos;
import dev.numlint.ptx.parser.PtxReader;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.ptx.rules.PtxRules;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The PTX front end: reads .ptx files (and, with {@code --ptx auto} and nvcc available, compiles .cu files to PTX
 * first), builds the program model and reports NL001-NL004 and NL006-NL009 at the PTX layer. A finding's primary
 * location is the CUDA source line from the .loc debug information when that file exists (the outermost call site
 * in user code for inlined helpers); the PTX instruction is a related location and evidence.
 */
public final class PtxAnalyzer implements Analyzer {
    static final Set<String> RULES = Set.of("NL001", "NL002", "NL003", "NL004", "NL006", "NL007", "NL008", "NL009");
    private static final long MAX_BYTES = 512L * 1024 * 1024;

    @Override public String id() { return "ptx"; }
    @Override public Layer layer() { return Layer.PTX; }
    @Override public int phase() { return PHASE_KERNEL; }
    @Override public Set<String> implementedRules() { return RULES; }

    /** .ptx files always; .cu files too (they are compiled only with --ptx auto and nvcc present). */
    @Override
    public boolean accepts(Path file) {
        String n = file.getFileName() == null ? "" : file.getFileName().toString();
        return n.endsWith(".ptx") || n.endsWith(".cu");
    }

    @Override
    public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
        boolean compile = ctx.ptxMode() == PtxMode.AUTO && ctx.nvcc().isPresent()
                && files.stream().anyMatch(f -> f.toString().endsWith(".cu"));
        PtxCompiler nvcc = null;
        if (compile) {
            nvcc = new PtxCompiler(Nvcc.at(ctx.nvcc().get()), new PtxCache(ctx.cacheDir()), roots(ctx),
                    COMPILE_TIMEOUT);
            String why = nvcc.unusable();
            if (why != null) {
                sink.notify(new Notification(null, 0, Level.WARNING, "ptx-unavailable", why
                        + ": .cu files were not compiled to PTX"));
                compile = false;
                nvcc = null;
            }
        }
        PtxCompiler compiler = nvcc;
        SourceCache sources = new SourceCache();
        Map<Path, Path> includedBy = compile ? includedCudaFiles(files) : Map.of();
        List<Future<?>> futures = new ArrayList<>();
        long started = System.nanoTime();
        java.util.concurrent.atomic.AtomicInteger noDevice = new java.util.concurrent.atomic.AtomicInteger();
        for (Path f : files) {
            String n = f.getFileName() == null ? "" : f.getFileName().toString();
            if (n.endsWith(".cu") && !compile) continue;
            Path includer = includedBy.get(f.toAbsolutePath().normalize());
            if (n.endsWith(".cu") && includer != null) {
                // compiled standalone it usually fails (it relies on its includer's declarations); its code is
                // analyzed through the includer's PTX, whose .loc lines point back into this file
                sink.notify(new Notification(ctx.relativize(f), 0, Level.NOTE, "ptx-included", "not compiled on its "
                        + "own: it is #included by " + ctx.relativize(includer) + " and analyzed as part of it"));
                continue;
            }
            futures.add(ctx.executor().submit(() -> analyzeFile(ctx, f, sink, compiler, sources, noDevice)));
        }
        for (Future<?> fu : futures) {
            try {
                fu.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                sink.notify(new Notification(null, 0, Level.WARNING, "internal-error", "ptx analyzer: " + e.getCause()));
            }
        }
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        if (compile && seconds >= SLOW_COMPILE_SECONDS) {
            sink.notify(new Notification(null, 0, Level.NOTE, "ptx-slow", "compiling .cu files to PTX took " + seconds
                    + " s (results are cached for the next scan); --ptx off skips it, the CUDA source layer still"
                    + " runs"));
        }
        if (noDevice.get() > 0) {
            sink.notify(new Notification(null, 0, Level.NOTE, "ptx-no-device-code", noDevice.get() + " .cu file"
                    + (noDevice.get() == 1 ? "" : "s") + " without __global__ or __device__ code (in the file or the "
                    + "headers it includes) " + (noDevice.get() == 1 ? "was" : "were") + " not compiled to PTX"));
        }
    }

    /** A PTX layer that takes this long gets a one-line hint about {@code --ptx off}. */
    static final long SLOW_COMPILE_SECONDS = 30;

    /** Wall-clock limit of one nvcc run. */
    static final Duration COMPILE_TIMEOUT = Duration.ofSeconds(300);

    /**
     * The trees nvcc may read: the scan root, and the directory of any scanned file outside it (a second PATH
     * argument outside the working directory).
     */
    static List<Path> roots(ScanContext ctx) {
        return ROOTS.computeIfAbsent(ctx, PtxAnalyzer::computeRoots);
    }

    private static final Map<ScanContext, List<Path>> ROOTS =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    private static List<Path> computeRoots(ScanContext ctx) {
        List<Path> roots = new ArrayList<>();
        Path root = ctx.root().toAbsolutePath().normalize();
        roots.add(root);
        for (Path f : ctx.files()) {
            Path a = f.toAbsolutePath().normalize();
            if (!a.startsWith(root) && a.getParent() != null && !roots.contains(a.getParent())) roots.add(a.getParent());
        }
        return roots;
    }

    /** Where a flag of the build context was set ("Makefile:12"), or null. */
    static java.util.function.Function<String, String> origins(BuildContext bc, ScanContext ctx) {
        return flag -> {
            String want = flag.replace(" ", "").replace("=", "");
            for (BuildContext.FlagOrigin o : bc.origins()) {
                String have = o.flag().replace(" ", "").replace("=", "");
                if (o.location() != null && (have.equals(want) || want.equals("-Xcompiler" + have)
                        || want.startsWith(have) && !have.isEmpty() && have.length() > 2)) {
                    return o.location().file() + (o.location().startLine() > 0 ? ":" + o.location().startLine() : "");
                }
            }
            return ctx.commandLineFlags().contains(flag) ? "--nvcc-flags" : null;
        };
    }

    private static final java.util.regex.Pattern INCLUDE_CU =
            java.util.regex.Pattern.compile("(?m)^\\s*#\\s*include\\s*\"([^\"]+\\.cu)\"");

    /** .cu files that another .cu file of the scan #includes (included file -> includer). */
    static Map<Path, Path> includedCudaFiles(List<Path> files) {
        Map<Path, Path> out = new java.util.HashMap<>();
        for (Path f : files) {
            if (!f.toString().endsWith(".cu")) continue;
            try {
                if (Files.size(f) > 8L * 1024 * 1024) continue;
                java.util.regex.Matcher m = INCLUDE_CU.matcher(Files.readString(f, StandardCharsets.ISO_8859_1));
                while (m.find()) {
                    Path inc = f.toAbsolutePath().getParent().resolve(m.group(1)).normalize();
                    if (!inc.equals(f.toAbsolutePath().normalize())) out.putIfAbsent(inc, f);
                }
            } catch (IOException | RuntimeException e) {
                // unreadable: analyzeFile reports it
            }
        }
        return out;
    }

    private void analyzeFile(ScanContext ctx, Path f, FindingSink sink, PtxCompiler nvcc, SourceCache sources,
                             java.util.concurrent.atomic.AtomicInteger noDevice) {
        String rel = ctx.relativize(f);
        try {
            if (f.getFileName().toString().endsWith(".cu")) {
                BuildContext bc = ctx.buildContext(f);
                String arch = bc.cudaArch() != null ? bc.cudaArch() : ctx.cudaArch();
                PtxCompiler.Result r = nvcc.compile(f, arch, nvccFlags(bc), rel, origins(bc, ctx));
                r.notifications().forEach(sink::notify);
                if (r.noDeviceCode()) noDevice.incrementAndGet();
                if (!r.ok()) return;
                analyzeText(ctx, sink, r.ptx(), r.ptxFile(), f, bc, sources);
            } else {
                long size = Files.size(f);
                if (size > MAX_BYTES) {
                    sink.notify(new Notification(rel, 0, Level.ERROR, "file-too-large", "PTX file of " + size
                            + " bytes is larger than the limit of " + MAX_BYTES + " bytes; not analyzed"));
                    return;
                }
                byte[] bytes = Files.readAllBytes(f);
                for (int i = 0; i < Math.min(bytes.length, 4096); i++) {
                    if (bytes[i] == 0) {
                        sink.notify(new Notification(rel, 0, Level.ERROR, "binary-file",
                                "not a text PTX file (NUL byte at offset " + i + "); not analyzed"));
                        return;
                    }
                }
                analyzeText(ctx, sink, new String(bytes, StandardCharsets.UTF_8), f, null, ctx.buildContext(f),
                        sources);
            }
        } catch (IOException e) {
            sink.notify(new Notification(rel, 0, Level.ERROR, "unreadable-file", "cannot read: " + e.getMessage()));
        } catch (RuntimeException | StackOverflowError e) {
            sink.notify(new Notification(rel, 0, Level.ERROR, "internal-error", "PTX analysis failed: " + e));
        }
    }

    /**
     * The nvcc flags for a build context: the flags as written plus the floating-point settings the build-flag
     * audit recorded (--use_fast_math, -ftz, -prec-div, -prec-sqrt, -fmad) when no written flag carries them.
     */
    static List<String> nvccFlags(BuildContext bc) {
        List<String> flags = new ArrayList<>(bc.nvccFlags());
        String all = String.join(" ", flags);
        if (Boolean.TRUE.equals(bc.fastMath()) && !all.contains("use_fast_math")) flags.add("--use_fast_math");
        if (bc.ftz() != null && !all.contains("-ftz")) flags.add("-ftz=" + bc.ftz());
        if (bc.precDiv() != null && !all.contains("-prec-div")) flags.add("-prec-div=" + bc.precDiv());
        if (bc.precSqrt() != null && !all.contains("-prec-sqrt")) flags.add("-prec-sqrt=" + bc.precSqrt());
        if (bc.fmad() != null && !all.contains("-fmad")) flags.add("-fmad=" + bc.fmad());
        return flags;
    }

    /**
     * Analyzes PTX text. {@code ptxFile} is where the text lives (the .ptx, or the cached PTX of {@code cuFile});
     * {@code cuFile} is the CUDA file it was compiled from, or null.
     */
    public static void analyzeText(ScanContext ctx, FindingSink sink, String text, Path ptxFile, Path cuFile,
                                   BuildContext bc, SourceCache sources) {
        Path shownFile = cuFile != null ? cuFile : ptxFile;
        String rel = ctx.relativize(shownFile);
        PtxReader.Result res = PtxReader.read(text);
        if (res.failed() || (res.module().functions().isEmpty() && !res.problems().isEmpty())) {
            PtxReader.Problem p = res.problems().get(0);
            sink.notify(new Notification(rel, cuFile == null ? p.line() : 0, Level.ERROR, "parse-error",
                    "not valid PTX: " + p.message() + " at '" + p.token() + "' (PTX line " + p.line() + ")"));
            return;
        }
        if (!res.problems().isEmpty()) {
            Set<String> reported = new HashSet<>();
            for (PtxReader.Problem p : res.problems()) {
                String fn = p.function();
                String key = fn == null ? "line" + p.line() : fn;
                if (!reported.add(key) || reported.size() > 20) continue;
                sink.notify(new Notification(rel, cuFile == null ? p.line() : 0, Level.WARNING, "parse-error",
                        "PTX syntax error at line " + p.line() + " near '" + p.token() + "': " + p.message()
                        + (res.skippedFunctions().isEmpty() ? "" : "; skipped functions: "
                        + String.join(", ", res.skippedFunctions().stream().limit(5).toList()))));
            }
        }
        PtxModule m = res.module();
        Path ptxDir = ptxFile.toAbsolutePath().getParent();
        Map<Integer, Path> fileIndex = new java.util.HashMap<>();
        List<Path> realRoots = realPaths(roots(ctx));
        for (Map.Entry<Integer, String> e : m.files().entrySet()) {
            Path p = resolveSource(e.getValue(), ptxDir, ctx.root(), cuFile, realRoots);
            if (p != null) fileIndex.put(e.getKey(), p);
        }
        if (cuFile == null) staleness(ctx, sink, ptxFile, fileIndex.values());
        PtxRules.Settings settings = new PtxRules.Settings(ctx.rules().intOption("NL004", "min-trip-count"),
                bc != null && bc.effectiveFastMath(),
                loc -> {
                    // the line where the operation is written: the innermost position when it is user code
                    SourcePos u = isSystemPath(m.files().get(loc.pos().fileIndex())) ? userPos(loc, m.files())
                            : loc.pos();
                    Path p = u == null ? null : fileIndex.get(u.fileIndex());
                    return p == null ? null : sources.line(p, u.line());
                });
        Map<String, Finding.Builder> out = new java.util.LinkedHashMap<>();
        Map<String, Integer> ordinals = new java.util.HashMap<>();
        long budgetMs = fileBudgetMs();
        long deadline = System.nanoTime() + budgetMs * 1_000_000L;
        List<PtxFunction> functions = m.definedFunctions();
        for (int i = 0; i < functions.size(); i++) {
            PtxFunction fn = functions.get(i);
            if (isLibraryFunction(fn.name())) continue;
            if (System.nanoTime() - deadline > 0) {
                sink.notify(new Notification(rel, 0, Level.WARNING, "ptx-budget", "not fully analyzed: the PTX "
                        + "layer's budget of " + budgetMs + " ms per file was used up after " + i + " of "
                        + functions.size() + " functions; the rest (from " + Demangler.simpleName(fn.name())
                        + ") was skipped"));
                break;
            }
            List<PtxHit> hits = PtxRules.check(fn, settings, id -> ctx.rules().enabled(id));
            for (PtxHit h : hits) {
                report(ctx, h, ptxFile, cuFile, m.files(), fileIndex, sources, out, ordinals);
            }
        }
        out.values().forEach(sink::report);
    }

    /** Modification times closer than this are treated as equal (a fresh checkout writes files in some order). */
    static final long STALE_TOLERANCE_MS = 5_000;

    /**
     * A checked-in .ptx older than a source file its debug information names (inside the scan root): its line
     * numbers may no longer match, so findings could point at the wrong lines. Said once per .ptx file.
     */
    static void staleness(ScanContext ctx, FindingSink sink, Path ptxFile, java.util.Collection<Path> sources) {
        Path root = ctx.root().toAbsolutePath().normalize();
        try {
            long ptxTime = Files.getLastModifiedTime(ptxFile).toMillis();
            for (Path src : new java.util.TreeSet<>(sources)) {
                Path a = src.toAbsolutePath().normalize();
                if (!a.startsWith(root) || !Files.isRegularFile(a)) continue;
                long srcTime = Files.getLastModifiedTime(a).toMillis();
                if (srcTime > ptxTime + STALE_TOLERANCE_MS) {
                    sink.notify(new Notification(ctx.relativize(ptxFile), 0, Level.WARNING, "ptx-stale",
                            ctx.relativize(ptxFile) + " is older than " + ctx.relativize(a) + ", which was changed "
                            + "after it was generated: its findings may point at shifted source lines; regenerate "
                            + "the .ptx (or delete it and let numlint compile " + ctx.relativize(a) + ")"));
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            // times unknown: nothing to say
        }
    }

    /**
     * The PTX layer's time budget per file (property {@code numlint.ptx.fileBudgetMs}, default 120 s): functions
     * not reached within it are skipped with a "not fully analyzed" notice, so one hostile file cannot stall a scan.
     */
    static long fileBudgetMs() {
        return Math.max(0, Long.getLong("numlint.ptx.fileBudgetMs", 120_000L));
    }

    /** CUDA math-library helpers emitted as separate functions (__internal_trig_reduction_slowpathd ...). */
    static boolean isLibraryFunction(String name) {
        return name.startsWith("__internal_") || name.startsWith("__nv_") || name.startsWith("__cuda_")
                || name.startsWith("__cudart_");
    }

    /** Headers of the toolkit and the system: code there is library code, not the programmer's. */
    static boolean isSystemPath(String p) {
        if (p == null) return false;
        String s = p.replace('\\', '/');
        return s.startsWith("/usr/include/") || s.startsWith("/usr/lib/") || s.contains("/include/cccl/")
                || s.contains("/targets/x86_64-linux/") || s.contains("/targets/sbsa-linux/")
                || inCudaInclude(s) || s.contains("/include/c++/") || s.contains("/crt/");
    }

    /**
     * Whether the path has a {@code /cuda.../include/} segment (what {@code .*\/cuda[^/]*\/include/.*} matches, in
     * linear time: the path comes from PTX text, which may be hostile).
     */
    static boolean inCudaInclude(String s) {
        for (int i = s.indexOf("/cuda"); i >= 0; i = s.indexOf("/cuda", i + 1)) {
            int slash = s.indexOf('/', i + 1);
            if (slash < 0) return false;
            if (s.startsWith("/include/", slash)) return true;
        }
        return false;
    }

    /**
     * The position in user code: the outermost call site (inlined_at chain) that is not in a toolkit or system
     * header, else the .loc position itself when it is user code; null when everything is library code.
     */
    static SourcePos userPos(DebugLoc loc, Map<Integer, String> files) {
        if (loc == null) return null;
        List<SourcePos> chain = loc.inlinedAt();
        for (int i = chain.size() - 1; i >= 0; i--) {
            SourcePos p = chain.get(i);
            if (!isSystemPath(files.get(p.fileIndex()))) return p;
        }
        return isSystemPath(files.get(loc.pos().fileIndex())) ? null : loc.pos();
    }

    /**
     * The debug location of the hit's instruction; when it has none or only line 0 (compiler-generated code between
     * statements), the nearest located instruction among the hit's related instructions, then before it in the
     * function, so the finding never lands on line 1 of the source by default.
     */
    static DebugLoc locatedLoc(PtxHit h) {
        DebugLoc own = h.at().loc();
        if (own != null && own.pos().line() > 0) return own;
        if (h.related() != null) {
            for (Instruction r : h.related()) {
                if (r.loc() != null && r.loc().pos().line() > 0) return r.loc();
            }
        }
        List<Instruction> ins = h.function().instructions();
        for (int i = ins.indexOf(h.at()) - 1; i >= 0; i--) {
            DebugLoc l = ins.get(i).loc();
            if (l != null && l.pos().line() > 0) return l;
        }
        return own;
    }

    /**
     * The source file a PTX {@code .file} entry names, when it exists inside the scanned roots (symlinks resolved);
     * null otherwise. A .file entry (or a {@code #line} directive behind it) naming a file elsewhere, such as
     * {@code /etc/passwd} or a toolkit header, is never read: nothing from outside the roots may reach a report.
     */
    static Path resolveSource(String written, Path ptxDir, Path root, Path cuFile, List<Path> realRoots) {
        if (written == null || written.isEmpty()) return null;
        try {
            Path p = Path.of(written);
            List<Path> candidates = new ArrayList<>();
            if (p.isAbsolute()) {
                candidates.add(p);
            } else {
                for (Path base : new Path[] {cuFile == null ? null : cuFile.toAbsolutePath().getParent(), ptxDir,
                        root}) {
                    if (base != null) candidates.add(base.resolve(p));
                }
            }
            for (Path q : candidates) {
                if (!Files.isRegularFile(q)) continue;
                Path real = q.toRealPath();
                boolean inside = false;
                for (Path r : realRoots) inside |= real.startsWith(r);
                return inside ? q.normalize() : null;
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    private static List<Path> realPaths(List<Path> dirs) {
        List<Path> out = new ArrayList<>();
        for (Path d : dirs) {
            try {
                out.add(d.toRealPath());
            } catch (IOException | RuntimeException e) {
                out.add(d.toAbsolutePath().normalize());
            }
        }
        return out;
    }

    private static void report(ScanContext ctx, PtxHit h, Path ptxFile, Path cuFile, Map<Integer, String> files,
                               Map<Integer, Path> fileIndex, SourceCache sources, Map<String, Finding.Builder> out,
                               Map<String, Integer> ordinals) {
        Instruction in = h.at();
        DebugLoc loc = locatedLoc(h);
        SourcePos user = userPos(loc, files);
        if (loc != null && user == null) return; // toolkit/system header code (math library, CUB, Thrust)
        Path srcFile = user == null ? null : fileIndex.get(user.fileIndex());
        Location ptxLoc = Location.line(ctx.relativize(ptxFile), in.ptxLine());
        Location primary;
        String srcLine = null;
        if (srcFile != null) {
            primary = Location.of(ctx.relativize(srcFile), user.line(), Math.max(0, user.column()));
            srcLine = sources.line(srcFile, user.line());
        } else if (cuFile != null) {
            primary = Location.line(ctx.relativize(cuFile), user == null ? 1 : user.line());
        } else {
            primary = ptxLoc;
        }
        // one finding per rule and source line (template instances and unrolled copies are counted, not repeated);
        // without a readable source, per .loc line when there is one, else per instruction
        String dedupe = h.ruleId() + "|" + primary.file() + "|" + (srcFile != null || cuFile != null
                ? "line" + primary.startLine()
                : user != null ? "loc" + user.fileIndex() + ":" + user.line() : "i" + in.ptxLine());
        Finding.Builder prev = out.get(dedupe);
        if (prev != null) {
            int n = ordinals.merge("instances|" + dedupe, 1, Integer::sum) + 1;
            prev.property("instances", n);
            return;
        }
        String fnName = h.function().name();
        Finding.Builder b = Finding.builder(h.ruleId())
                .location(primary)
                .message(h.message())
                .layer(Layer.PTX)
                .confidence(h.confidence())
                .function(Demangler.simpleName(fnName))
                .property("mangledName", fnName)
                .property("ptxLine", in.ptxLine())
                .property("ptxInstruction", in.text());
        if (cuFile != null) {
            b.evidence(new Evidence("ptx", in.text(), null));
            b.related(Location.line(ctx.relativize(cuFile), primary.startLine()),
                    "emitted as `" + in.text() + "` (PTX line " + in.ptxLine() + ")");
        } else {
            b.evidence(new Evidence("ptx", in.text(), primary == ptxLoc ? null : ptxLoc));
            if (primary != ptxLoc) b.related(ptxLoc, "emitted as `" + in.text() + "`");
        }
        for (Instruction r : h.related()) {
            b.evidence(new Evidence("ptx", r.text(), cuFile != null ? null : Location.line(ctx.relativize(ptxFile),
                    r.ptxLine())));
        }
        if (srcLine != null) b.evidence(Evidence.source(srcLine.strip()));
        if (loc != null && loc.inlined() && !loc.pos().equals(user)) {
            Path inner = fileIndex.get(loc.pos().fileIndex());
            if (inner != null) {
                b.related(Location.of(ctx.relativize(inner), loc.pos().line(), Math.max(0, loc.pos().column())),
                        "inside the inlined function called here; the instruction comes from this line");
            }
        }
        String shapeText = srcLine != null ? srcLine.strip().replaceAll("\\s+", " ") : h.shape();
        String key = h.ruleId() + "|" + fnName + "|" + h.shape() + "|" + shapeText;
        int ord = ordinals.merge(key, 1, Integer::sum);
        b.fingerprintKey(key + (ord > 1 ? "#" + ord : ""));
        out.put(dedupe, b);
    }

    /** Lines of CUDA source files named by .loc, read once per scan (thread-safe). */
    public static final class SourceCache {
        private final Map<Path, String[]> files = new ConcurrentHashMap<>();

        public String line(Path file, int line) {
            String[] lines = files.computeIfAbsent(file, p -> {
                try {
                    if (Files.size(p) > 16L * 1024 * 1024) return new String[0];
                    return new String(Files.readAllBytes(p), StandardCharsets.UTF_8).split("\r?\n", -1);
                } catch (IOException | RuntimeException e) {
                    return new String[0];
                }
            });
            return line >= 1 && line <= lines.length ? lines[line - 1] : null;
        }
    }
}
