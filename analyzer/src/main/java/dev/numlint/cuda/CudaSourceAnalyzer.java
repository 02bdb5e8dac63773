package dev.numlint.cuda;

import dev.numlint.cuda.checks.CudaCheck;
import dev.numlint.cuda.clang.ClangFrontEnd;
import dev.numlint.cuda.clang.ClangSupplement;
import dev.numlint.cuda.clang.ClangUnit;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.SourceDialect;
import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.cuda.parser.CudaParser;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.Checks;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ListTokenSource;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * The CUDA C/C++ source front end. Two levels: {@link Preprocessor} + {@link TopLevelSplitter} split each file
 * into declarations and function bodies by brace matching; each body is parsed by the ANTLR statement grammar
 * (SLL prediction first, full LL only when SLL fails) and analyzed by {@link FunctionAnalyzer}. A body the grammar
 * cannot parse loses only that function and is reported as a WARNING notification naming file, line and token.
 * The facts of each function are computed once and handed to the registered {@link CudaCheck}s, one per rule.
 */
public final class CudaSourceAnalyzer implements Analyzer {
    /** The checks of this layer, found through their {@code @AutoService(CudaCheck.class)} registration. */
    private static final List<CudaCheck> CHECKS = Checks.load(CudaCheck.class, Layer.CUDA_SOURCE);
    /** CUDA sources and headers: nvcc's view (__CUDACC__ defined). Plain headers may be included from .cu files. */
    private static final Set<String> CUDA_EXTENSIONS = Set.of("cu", "cuh", "h", "hpp");
    /** Host sources compiled by the host compiler. */
    private static final Set<String> HOST_EXTENSIONS = Set.of("c", "cc", "cpp", "cxx");
    /** C++ keywords that are ordinary identifiers in C (rodinia's C code has variables named new and public). */
    private static final Set<Integer> CXX_ONLY_KEYWORDS = Set.of(
            CudaLexer.CLASS,
            CudaLexer.NEW,
            CudaLexer.DELETE,
            CudaLexer.THIS,
            CudaLexer.PUBLIC,
            CudaLexer.PRIVATE,
            CudaLexer.PROTECTED,
            CudaLexer.TEMPLATE,
            CudaLexer.TYPENAME,
            CudaLexer.NAMESPACE,
            CudaLexer.OPERATOR,
            CudaLexer.VIRTUAL,
            CudaLexer.EXPLICIT,
            CudaLexer.FRIEND,
            CudaLexer.MUTABLE,
            CudaLexer.USING,
            CudaLexer.TRY,
            CudaLexer.CATCH,
            CudaLexer.THROW,
            CudaLexer.NULLPTR,
            CudaLexer.NOEXCEPT,
            CudaLexer.CONSTEXPR,
            CudaLexer.STATIC_CAST,
            CudaLexer.REINTERPRET_CAST,
            CudaLexer.CONST_CAST,
            CudaLexer.DYNAMIC_CAST);
    /**
     * Macros of widely used library headers outside the project that expand to nothing and sit where the grammar
     * expects none ({@code std::min BOOST_PREVENT_MACRO_SUBSTITUTION (a, b)}).
     */
    private static final Set<String> EMPTY_LIBRARY_MACROS = Set.of("BOOST_PREVENT_MACRO_SUBSTITUTION");
    /** Per-file budget of the front end: tokens after preprocessing, and wall time for the function bodies. */
    static final int MAX_TOKENS = 8_000_000;

    static final int MAX_INCLUDE_DEPTH = 32;
    /** The most files of the scanned tree indexed to resolve an include by name ({@link Run#inTree}). */
    static final long MAX_TREE_FILES = 200_000;

    /**
     * CPU time per file for the function bodies ({@code -Dnumlint.cuda.fileBudgetMs}): 5 s, so that a file of the tree
     * made to take minutes (a 100,000-line kernel) costs seconds; the largest real files measured take well under it.
     */
    static final long FILE_BUDGET_MS = 5_000;

    static long fileBudgetNanos() {
        return Math.max(1, Long.getLong("numlint.cuda.fileBudgetMs", FILE_BUDGET_MS)) * 1_000_000L;
    }
    /**
     * Tokens of one function body the front end parses ({@code -Dnumlint.cuda.maxFunctionTokens}). The parse tree and
     * the facts of a function are held whole while it is analyzed (about 500 bytes a token), so a generated function
     * of 100,000 lines (1.5 million tokens) took 1.3 GB; past the limit the function gets an {@code over-budget}
     * notice and the rest of the file is analyzed. Hand-written kernels have a few thousand tokens.
     */
    static final int MAX_FUNCTION_TOKENS = 400_000;

    static int maxFunctionTokens() {
        return Math.max(1, Integer.getInteger("numlint.cuda.maxFunctionTokens", MAX_FUNCTION_TOKENS));
    }

    /** Headers larger than the cuda-source max-file-size are not followed (set per scan in analyze). */
    private volatile long maxHeaderBytes = ScanContext.defaultMaxFileSize(dev.numlint.model.Layer.CUDA_SOURCE);
    /** Deeper nesting than this is generated code; the parser's recursion would be slow (and could overflow). */
    private static final int MAX_NESTING = 200;

    /** Counters for corpus runs and benchmarks. */
    public static final class Stats {
        public final AtomicLong files = new AtomicLong();
        public final AtomicLong lines = new AtomicLong();
        public final AtomicLong functions = new AtomicLong();
        public final AtomicLong sllParsed = new AtomicLong();
        public final AtomicLong llParsed = new AtomicLong();
        public final AtomicLong failed = new AtomicLong();
        public final Map<String, AtomicLong> findings = new ConcurrentHashMap<>();
        /** Nanoseconds in preprocessing+splitting, parsing, and rule analysis. */
        public final AtomicLong preNanos = new AtomicLong();

        public final AtomicLong parseNanos = new AtomicLong();
        public final AtomicLong ruleNanos = new AtomicLong();
        /** Files Clang parsed, functions only Clang analyzed, facts Clang added, accumulations it corrected. */
        public final AtomicLong clangFiles = new AtomicLong();

        public final AtomicLong clangFunctions = new AtomicLong();
        public final AtomicLong clangErrorFiles = new AtomicLong();
        public final AtomicLong clangRecovered = new AtomicLong();
        public final AtomicLong clangAdded = new AtomicLong();
        public final AtomicLong clangResets = new AtomicLong();
        public final AtomicLong clangNanos = new AtomicLong();

        @Override
        public String toString() {
            return "files=" + files + " lines=" + lines + " functions=" + functions + " sll=" + sllParsed + " ll="
                    + llParsed + " failed=" + failed + " findings=" + new java.util.TreeMap<>(findings)
                    + " ms(pre/parse/rules)="
                    + preNanos.get() / 1_000_000 + "/" + parseNanos.get() / 1_000_000 + "/"
                    + ruleNanos.get() / 1_000_000
                    + (clangFiles.get() == 0
                            ? ""
                            : " clang(files/with-errors/functions/recovered/added/resets/ms)=" + clangFiles + "/"
                                    + clangErrorFiles + "/" + clangFunctions + "/" + clangRecovered + "/"
                                    + clangAdded + "/" + clangResets + "/" + clangNanos.get() / 1_000_000);
        }
    }

    private final Stats stats = new Stats();

    public Stats stats() {
        return stats;
    }

    @Override
    public String id() {
        return "cuda-source";
    }

    @Override
    public Layer layer() {
        return Layer.CUDA_SOURCE;
    }

    @Override
    public int phase() {
        return PHASE_KERNEL;
    }

    @Override
    public Set<String> implementedRules() {
        return Checks.ruleIds(CHECKS);
    }

    @Override
    public boolean accepts(Path file) {
        String n = file.getFileName() == null ? "" : file.getFileName().toString();
        int dot = n.lastIndexOf('.');
        if (dot <= 0) return false;
        String ext = n.substring(dot + 1).toLowerCase(Locale.ROOT);
        return CUDA_EXTENSIONS.contains(ext) || HOST_EXTENSIONS.contains(ext);
    }

    /** How a file is compiled, from its extension: .c as C, .cpp/.cc/.cxx as host C++, the rest through nvcc. */
    static Preprocessor.Dialect dialect(Path file) {
        String n = file.getFileName() == null ? "" : file.getFileName().toString();
        String ext = n.substring(n.lastIndexOf('.') + 1);
        if (ext.equals("c")) return Preprocessor.Dialect.HOST_C; // .C (upper case) is C++
        ext = ext.toLowerCase(Locale.ROOT);
        return HOST_EXTENSIONS.contains(ext) ? Preprocessor.Dialect.HOST_CXX : Preprocessor.Dialect.CUDA;
    }

    private static SourceDialect sourceDialect(Preprocessor.Dialect d) {
        return switch (d) {
            case HOST_C -> SourceDialect.C;
            case HOST_CXX -> SourceDialect.HOST_CXX;
            default -> SourceDialect.CUDA;
        };
    }

    /**
     * Runs every enabled check on one function's (or the file's) facts, after Clang's corrections when Clang read the
     * file ({@code clang} not null).
     */
    private static void runChecks(FunctionFacts facts, Reporter rep, ClangSupplement clang) {
        if (clang != null) clang.amend(facts);
        for (CudaCheck c : CHECKS) {
            if (rep.enabled(c.ruleId())) c.check(facts, rep);
        }
    }

    @Override
    public void analyze(ScanContext ctx, List<Path> files, FindingSink sink) {
        maxHeaderBytes = ctx.maxFileSize(dev.numlint.model.Layer.CUDA_SOURCE);
        Run run = new Run(ctx, files);
        if (run.clang.fallback() != null && !files.isEmpty()) {
            sink.notify(new Notification(
                    ctx.relativize(files.get(0)), 0, Level.NOTE, "frontend-fallback", run.clang.fallback()));
        }
        // Files are pulled from a shared queue by the calling thread and by helpers on the scan's pool, so the
        // scan never deadlocks when its pool is busy (the caller alone can finish the work).
        // sources first, then the headers they include: a listed header takes the constants its first includer
        // defined (IncluderConstants), which the includers' preprocessing records
        List<Path> sources = new ArrayList<>();
        List<Path> headers = new ArrayList<>();
        for (Path f : files) (isHeader(f) ? headers : sources).add(f);
        for (List<Path> phase : List.of(sources, headers)) {
            if (phase.isEmpty()) continue;
            ConcurrentLinkedQueue<Path> queue = new ConcurrentLinkedQueue<>(phase);
            Runnable worker = () -> {
                Path f;
                while ((f = queue.poll()) != null) {
                    analyzeFile(run, f, sink, null);
                }
            };
            runWorkers(ctx, phase.size(), worker);
        }
        analyzeIncluded(run, sink);
        Notification undefined = run.undefinedTypes.summary();
        if (undefined != null) sink.notify(undefined);
    }

    /** A header (.cuh, .h, .hpp): compiled only as part of the files that include it. */
    private static boolean isHeader(Path f) {
        String n = f.getFileName() == null ? "" : f.getFileName().toString();
        String ext = n.substring(n.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        return ext.equals("cuh") || ext.equals("h") || ext.equals("hpp");
    }

    /**
     * Files reached by {@code #include} from the scanned sources that the scan itself does not list (extensions such
     * as .hcu, .inl, .hxx, .tpp): each is analyzed once, with the macros its first includer (in path order) had
     * defined at the include and that includer's build context; headers they include follow, until none is left.
     */
    private void analyzeIncluded(Run run, FindingSink sink) {
        Set<Path> done = new HashSet<>();
        while (true) {
            List<Map.Entry<Path, IncludedFrom>> pending = new ArrayList<>();
            for (Map.Entry<Path, IncludedFrom> e : run.included.entrySet()) {
                if (!done.contains(e.getKey())) pending.add(e);
            }
            if (pending.isEmpty()) return;
            pending.sort(Map.Entry.comparingByKey());
            for (Map.Entry<Path, IncludedFrom> e : pending) {
                done.add(e.getKey());
                analyzeFile(run, e.getKey(), sink, e.getValue());
            }
        }
    }

    private static void runWorkers(ScanContext ctx, int nfiles, Runnable worker) {
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

    /** Extensions of included files analyzed when a scanned source includes them (configurable). */
    public static final List<String> DEFAULT_INCLUDE_EXTENSIONS = List.of(
            "h", "hh", "hpp", "hxx", "h++", "cuh", "hcu", "cuinc", "inc", "inl", "ipp", "tpp", "txx", "tcc", "impl");

    private volatile Set<String> includeExtensions = Set.copyOf(DEFAULT_INCLUDE_EXTENSIONS);

    /** Sets the extensions (without the dot, case-insensitive) of included files that are analyzed. */
    public CudaSourceAnalyzer includeExtensions(java.util.Collection<String> exts) {
        includeExtensions = normalizedExtensions(exts);
        return this;
    }

    static Set<String> normalizedExtensions(java.util.Collection<String> exts) {
        Set<String> s = new HashSet<>();
        for (String e : exts) {
            String x = e.strip().toLowerCase(Locale.ROOT);
            if (x.startsWith(".")) x = x.substring(1);
            if (!x.isEmpty()) s.add(x);
        }
        return Set.copyOf(s);
    }

    /** The first includer of a file that the scan does not list, with the macros defined at the include. */
    record IncludedFrom(Path includer, Map<String, Preprocessor.Macro> macros, Preprocessor.Dialect dialect) {}

    /** State of one analyze() call, shared by its files. */
    final class Run {
        final ScanContext ctx;
        final Map<HeaderKey, HeaderVariants> cache = new ConcurrentHashMap<>();
        /** Real paths of the files the scan gave this analyzer. */
        final Set<Path> listed = new HashSet<>();
        /** Files reached by #include that the scan does not list, by real path, with their first includer. */
        final Map<Path, IncludedFrom> included = new ConcurrentHashMap<>();
        /** Listed files reached by #include, by real path, with their first includer (for its constants). */
        final Map<Path, IncludedFrom> listedIncluders = new ConcurrentHashMap<>();

        final dev.numlint.toolchain.IncludePolicy policy;
        /** The types Clang found used but defined in no file it read, over the whole scan (one notice at the end). */
        final UndefinedTypes undefinedTypes = new UndefinedTypes();
        /** Includes already reported as not read (includer:line:name). */
        final Set<String> refusedIncludes = ConcurrentHashMap.newKeySet();

        Run(ScanContext ctx, List<Path> files) {
            this.ctx = ctx;
            for (Path f : files) {
                Path r = realPath(f);
                if (r != null) listed.add(r);
            }
            policy = dev.numlint.toolchain.IncludePolicy.of(
                    ctx.root() == null ? List.of() : ctx.boundary().roots(), List.of());
            allConfigurations =
                    ctx.setting("all-configurations").map(Boolean::parseBoolean).orElse(false);
            clang = ClangFrontEnd.forScan(ctx);
            for (String g : ctx.setting("exclude").orElse("").split("\n")) {
                if (g.isBlank()) continue;
                try {
                    excludes.add(new dev.numlint.util.Glob(g));
                } catch (IllegalArgumentException bad) {
                    // the scan validated its excludes already
                }
            }
            extensions = ctx.setting("include-extensions")
                    .map(v -> normalizedExtensions(List.of(v.split(","))))
                    .orElse(includeExtensions);
        }

        final boolean allConfigurations;
        final Set<String> extensions;
        /** The Clang front end of this scan (inactive with --frontend legacy or when libclang does not load). */
        final ClangFrontEnd clang;

        /** Why Clang's workers cannot run libclang, once noted for the scan (null until then). */
        final java.util.concurrent.atomic.AtomicReference<String> clangUnavailable =
                new java.util.concurrent.atomic.AtomicReference<>();

        /** The file names that a scanned file #includes (read once, on first request). */
        private Set<String> includedNames;

        /**
         * Whether a scanned file includes a file of {@code file}'s name (then it is no translation unit of its own:
         * its includer compiles it with more code).
         */
        /**
         * The file names of the {@code #include "..."} and {@code #include <...>} lines of {@code b} (a line that
         * starts, after blanks, with {@code #}, blanks, {@code include}, blanks and a quote or angle bracket): a scan of
         * the bytes, as every listed file is read for it.
         */
        static void includeNames(byte[] b, Set<String> out) {
            int n = b.length;
            int i = 0;
            while (i < n) {
                int j = i;
                while (j < n && (b[j] == ' ' || b[j] == '\t')) j++;
                if (j < n && b[j] == '#') {
                    j++;
                    while (j < n && (b[j] == ' ' || b[j] == '\t')) j++;
                    if (j + 7 <= n
                            && b[j] == 'i'
                            && b[j + 1] == 'n'
                            && b[j + 2] == 'c'
                            && b[j + 3] == 'l'
                            && b[j + 4] == 'u'
                            && b[j + 5] == 'd'
                            && b[j + 6] == 'e') {
                        j += 7;
                        while (j < n && (b[j] == ' ' || b[j] == '\t')) j++;
                        if (j < n && (b[j] == '"' || b[j] == '<')) {
                            int start = ++j;
                            while (j < n && b[j] != '"' && b[j] != '>' && b[j] != '\n') j++;
                            if (j < n && j > start && b[j] != '\n') {
                                String name = new String(b, start, j - start, StandardCharsets.UTF_8);
                                out.add(name.substring(name.lastIndexOf('/') + 1));
                            }
                        }
                    }
                }
                while (j < n && b[j] != '\n') j++;
                i = j + 1;
            }
        }

        synchronized boolean includedByName(Path file) {
            if (includedNames == null) {
                includedNames = new HashSet<>();
                for (Path f : listed) {
                    try {
                        if (Files.size(f) > maxHeaderBytes) continue;
                        includeNames(Files.readAllBytes(f), includedNames);
                    } catch (IOException | RuntimeException e) {
                        // unreadable: reported where the file itself is analyzed
                    }
                }
            }
            Path n = file.getFileName();
            return n == null || includedNames.contains(n.toString());
        }

        final List<dev.numlint.util.Glob> excludes = new ArrayList<>();

        /** Whether {@code real} (a file inside the root) matches an exclude glob, itself or a directory above it. */
        boolean excluded(Path real) {
            if (excludes.isEmpty() || ctx.root() == null) return false;
            Path root = realPath(ctx.root());
            if (root == null || !real.startsWith(root)) return false;
            String rel = root.relativize(real).toString().replace('\\', '/');
            for (dev.numlint.util.Glob g : excludes) {
                if (g.matches(rel)) return true;
                for (int i = rel.indexOf('/'); i > 0; i = rel.indexOf('/', i + 1)) {
                    if (g.matchesDirectory(rel.substring(0, i))) return true;
                }
            }
            return false;
        }

        /** The scanned tree's regular files by file name, built at the first include that no directory resolves. */
        private Map<String, List<Path>> byName;

        /**
         * The one file of the scanned tree that {@code #include "name"} can mean when neither the includer's
         * directory nor the build's include directories hold it (the build's include path is unknown: a CMake
         * project whose sources include {@code "x.hcu"} from a sibling {@code include/} directory): the files whose
         * path ends with {@code name}; null when none or more than one does.
         */
        synchronized Path inTree(String name) {
            if (ctx.root() == null) return null;
            if (byName == null) {
                byName = new HashMap<>();
                Path root = ctx.root().toAbsolutePath().normalize();
                try (java.util.stream.Stream<Path> all = Files.walk(root)) {
                    all.limit(MAX_TREE_FILES).forEach(f -> {
                        Path fn = f.getFileName();
                        if (fn == null || !Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
                        for (Path part : root.relativize(f)) if (part.toString().startsWith(".")) return;
                        byName.computeIfAbsent(fn.toString(), k -> new ArrayList<>())
                                .add(f);
                    });
                } catch (IOException | RuntimeException e) {
                    // an unreadable tree resolves nothing by name
                }
            }
            Path wanted;
            try {
                wanted = Path.of(name).normalize();
            } catch (RuntimeException bad) {
                return null;
            }
            if (wanted.isAbsolute() || wanted.getFileName() == null || wanted.startsWith("..")) return null;
            Path hit = null;
            for (Path f : byName.getOrDefault(wanted.getFileName().toString(), List.of())) {
                Path real = realPath(f);
                if (!f.endsWith(wanted) || real == null || excluded(real)) continue;
                if (hit != null) return null;
                hit = real;
            }
            return hit;
        }

        void reached(Path header, Path includer, Map<String, Preprocessor.Macro> macros, Preprocessor.Dialect d) {
            if (listed.contains(header)) {
                listedIncluders.compute(
                        header,
                        (k, old) -> old != null && old.includer().compareTo(includer) <= 0
                                ? old
                                : new IncludedFrom(includer, new HashMap<>(macros), d));
                return;
            }
            String n = header.getFileName() == null ? "" : header.getFileName().toString();
            int dot = n.lastIndexOf('.');
            String ext = dot < 0 ? "" : n.substring(dot + 1).toLowerCase(Locale.ROOT);
            if (!extensions.contains(ext) || excluded(header)) return;
            included.compute(
                    header,
                    (k, old) -> old != null && old.includer().compareTo(includer) <= 0
                            ? old
                            : new IncludedFrom(includer, new HashMap<>(macros), d));
        }
    }

    static Path realPath(Path p) {
        try {
            return p.toAbsolutePath().normalize().toRealPath();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A header as read in one dialect (host C++ sources do not see its __CUDACC__ branches). */
    record HeaderKey(Path file, Preprocessor.Dialect dialect) {}

    /** Macros and declarations of a project header, cached per scan. */
    record HeaderInfo(Map<String, Preprocessor.Macro> macros, FileScope scope) {}

    /** Analyzes one file (never throws), as a scan of just this file would. */
    public void analyzeFile(ScanContext ctx, Path file, FindingSink sink) {
        analyzeFile(new Run(ctx, List.of(file)), file, sink, null);
    }

    /**
     * Analyzes one file (never throws). {@code from} is null for a file the scan lists; for a file reached only by
     * {@code #include} it is the first includer, whose macros and build context the file is analyzed with.
     */
    void analyzeFile(Run run, Path file, FindingSink sink, IncludedFrom from) {
        ScanContext ctx = run.ctx;
        String rel = ctx.relativize(file);
        try {
            byte[] bytes;
            try {
                long max = ctx.maxFileSize(dev.numlint.model.Layer.CUDA_SOURCE);
                long size = Files.size(file);
                if (size > max) {
                    sink.notify(new Notification(
                            rel,
                            0,
                            Level.ERROR,
                            "file-too-large",
                            "not analyzed: the file has " + size + " bytes, more than max-file-size for cuda-source ("
                                    + max + ")"));
                    return;
                }
                bytes = Files.readAllBytes(file);
            } catch (IOException e) {
                sink.notify(
                        new Notification(rel, 0, Level.ERROR, "unreadable-file", "not analyzed: " + e.getMessage()));
                return;
            }
            for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
                if (bytes[i] == 0) {
                    sink.notify(new Notification(rel, 0, Level.ERROR, "binary-file", "not analyzed: binary content"));
                    return;
                }
            }
            String text = new String(bytes, StandardCharsets.UTF_8);
            stats.files.incrementAndGet();
            stats.lines.addAndGet(countLines(text));
            Path buildFile = from == null ? file : from.includer();
            BuildContext bc = ctx.buildContext(buildFile);
            Map<String, Preprocessor.Macro> macros = new HashMap<>();
            List<Path> includeDirs = new ArrayList<>();
            for (String m : EMPTY_LIBRARY_MACROS) macros.put(m, new Preprocessor.Macro(m, null, false, List.of()));
            commandLineMacros(ctx, bc, macros, includeDirs, buildFile);
            if (from != null) macros.putAll(from.macros());
            Preprocessor.Dialect dialect = from == null ? dialect(file) : from.dialect();
            FileScope scope = new FileScope();
            Set<Path> active = new HashSet<>();
            active.add(file.toAbsolutePath().normalize());
            // an included header contributes its macros and declarations only: its own lines are analyzed (once)
            // when the scan reaches the header itself, or after the scanned files when the scan does not list it
            Preprocessor pp = new Preprocessor(macros, (name, line) -> {
                        HeaderInfo h = header(run, file, line, name, includeDirs, macros, active, dialect, sink);
                        if (h != null) {
                            macros.putAll(h.macros());
                            scope.mergeFrom(h.scope());
                        }
                    })
                    .dialect(dialect)
                    .allConfigurations(run.allConfigurations);
            long t0 = System.nanoTime();
            List<PToken> toks = pp.run(text);
            if (pp.truncated() != null) {
                sink.notify(new Notification(
                        rel,
                        pp.truncatedLine(),
                        Level.WARNING,
                        "not-fully-evaluated",
                        "preprocessing not fully evaluated: " + pp.truncated() + "; the code after line "
                                + pp.truncatedLine() + " is analyzed without further macro expansion"));
            }
            if (toks.size() > MAX_TOKENS) {
                sink.notify(new Notification(
                        rel,
                        0,
                        Level.ERROR,
                        "over-budget",
                        "not analyzed: more than " + MAX_TOKENS
                                + " tokens after preprocessing (the CUDA front end's per-file budget)"));
                return;
            }
            if (dialect == Preprocessor.Dialect.HOST_C) toks = cIdentifiers(toks);
            TopLevelSplitter sp = new TopLevelSplitter(toks, scope, true);
            sp.split();
            IncludedFrom includer = from == null ? run.listedIncluders.get(realPath(file)) : null;
            if (includer != null) {
                // a listed header is compiled as part of its includer: a name it uses without defining it has the
                // constant value the first includer gave it
                IncluderConstants.of(includer.macros()).forEach((n, v) -> {
                    if (!macros.containsKey(n) && !scope.globals.containsKey(n)) scope.globals.put(n, v);
                });
            }
            RandomDraws.propagate(toks, sp.functions, scope);
            stats.preNanos.addAndGet(System.nanoTime() - t0);
            Reporter rep = new Reporter(ctx, sink, file, bc, sourceDialect(dialect));
            rep.activeError = pp.activeError;
            FunctionFacts fileFacts = new FunctionFacts(null);
            for (TopLevelSplitter.LongDoubleDecl ld : sp.longDoubles) {
                fileFacts.longDoubles.add(new FunctionFacts.LongDouble(
                        new Reporter.Pos(ld.line(), ld.col(), ld.line(), 0)
                                .site("long double " + ld.what(), false, true, null),
                        ld.what()));
            }
            runChecks(fileFacts, rep, null);
            // a file whose macros the preprocessor had to stop expanding (made to explode) is not given to Clang
            ClangSupplement clang =
                    pp.truncated() != null ? null : clangSupplement(run, file, bytes, bc, dialect, rel, sink);
            HeldNotices held = new HeldNotices(sink, clang != null);
            // the budget is cooperative: the parser's token source, the function walk and the def-use queries
            // check it (WorkBudget.check), so one huge function stops too, not only the functions after it
            dev.numlint.model.WorkBudget.start(fileBudgetNanos());
            try {
                // a file compiled on its own: callers of its static and inline functions are all in it
                CallSiteRanges callSites = new CallSiteRanges(
                        toks, sp.functions, () -> from == null && !isHeader(file) && !run.includedByName(file));
                List<TopLevelSplitter.FunctionDef> order = callSites.order();
                for (int i = 0; i < order.size(); i++) {
                    TopLevelSplitter.FunctionDef f = order.get(i);
                    boolean partly = false;
                    if (!dev.numlint.model.WorkBudget.spent()) {
                        stats.functions.incrementAndGet();
                        try {
                            if (analyzeFunction(ctx, rel, scope, f, toks, rep, held, callSites, clang)
                                    && clang != null) {
                                clang.analyzed(f.line);
                            }
                        } catch (dev.numlint.model.WorkBudget.Exceeded e) {
                            partly = true;
                        }
                        if (!dev.numlint.model.WorkBudget.spent()) continue;
                        partly = true;
                    }
                    int rest = order.size() - i - (partly ? 1 : 0);
                    sink.notify(new Notification(
                            rel,
                            f.line,
                            Level.WARNING,
                            "over-budget",
                            (partly
                                            ? "function '" + f.name + "' (line " + f.line + ") not fully analyzed"
                                                    + (rest > 0 ? " and " : "")
                                            : "")
                                    + (rest > 0 ? rest + " function" + (rest == 1 ? "" : "s") + " not analyzed" : "")
                                    + ": the file took longer than the CUDA front end's per-file budget of "
                                    + fileBudgetNanos() / 1_000_000L + " ms of CPU time (set -Dnumlint.cuda"
                                    + ".fileBudgetMs to raise it); the scan goes on"));
                    break;
                }
            } finally {
                dev.numlint.model.WorkBudget.stop();
            }
            if (clang != null) supplement(clang, rel, rep, held, sink);
            rep.counts.forEach((k, v) ->
                    stats.findings.computeIfAbsent(k, x -> new AtomicLong()).addAndGet(v));
        } catch (OutOfMemoryError e) {
            sink.notify(new Notification(
                    rel,
                    0,
                    Level.ERROR,
                    "over-budget",
                    dev.numlint.model.WorkBudget.outOfMemory("the CUDA source front end")));
        } catch (StackOverflowError | RuntimeException e) {
            sink.notify(new Notification(
                    rel, 0, Level.ERROR, "internal-error", "CUDA source analysis failed: " + e + where(e)));
        }
    }

    /**
     * Clang's reading of one file for the supplement, or null (legacy front end, no libclang, a CUDA file without a
     * toolkit, or an include Clang must not follow: then a notice says why).
     */
    private ClangSupplement clangSupplement(
            Run run,
            Path file,
            byte[] bytes,
            BuildContext bc,
            Preprocessor.Dialect dialect,
            String rel,
            FindingSink sink) {
        ClangFrontEnd fe = run.clang;
        if (!fe.active()) return null;
        ClangFrontEnd.Language lang =
                switch (dialect) {
                    case HOST_C -> ClangFrontEnd.Language.C;
                    case HOST_CXX -> ClangFrontEnd.Language.CXX;
                    default -> ClangFrontEnd.Language.CUDA;
                };
        // an include Clang must not follow: the file stays with the hand-written front end, whose include-not-read
        // notices name those includes
        if (fe.refusal(file, bytes) != null) return null;
        long t0 = System.nanoTime();
        List<Path> byName = ClangFrontEnd.includeDirsByName(file, bytes, bc, run::inTree);
        ClangUnit unit = fe.parse(file, fe.arguments(file, lang, bc, byName), bytes);
        stats.clangNanos.addAndGet(System.nanoTime() - t0);
        if (unit.unavailable()) {
            // libclang does not run in a worker: one note for the scan, no notice per file
            if (run.clangUnavailable.compareAndSet(null, unit.failure())) {
                sink.notify(new Notification(
                        rel, 0, Level.NOTE, "frontend-fallback", ClangFrontEnd.fallbackNote(unit.failure())));
            }
            return null;
        }
        if (unit.failure() != null) {
            sink.notify(new Notification(
                    rel,
                    0,
                    Level.WARNING,
                    "clang-not-parsed",
                    "not analyzed by Clang: " + unit.failure()
                            + " (analyzed by the fallback front end, which guesses)"));
            return null;
        }
        stats.clangFiles.incrementAndGet();
        stats.clangFunctions.addAndGet(unit.functions().size());
        run.undefinedTypes.add(unit.undefinedTypes());
        if (unit.errors() > 0) stats.clangErrorFiles.incrementAndGet();
        // a header missing from the tree or the toolkit is the hand-written front end's to report (include notes, the
        // PTX layer's missing-header summary); Clang's note names any other first error
        if (unit.errors() > 0 && !unit.firstError().endsWith("' file not found")) {
            sink.notify(new Notification(
                    rel,
                    0,
                    Level.NOTE,
                    "clang-error",
                    "Clang reported " + unit.errors() + " error" + (unit.errors() == 1 ? "" : "s") + ", the first at "
                            + unit.firstError()
                            + (ClangFrontEnd.guessed(bc)
                                    ? " (no build file gave this file's compile command: its flags are guessed)"
                                    : "")
                            + "; what Clang recovered is analyzed"));
        }
        return new ClangSupplement(unit);
    }

    /**
     * After the hand-written front end: the facts Clang adds (functions it could not read, sites it missed) go
     * through the checks; a parse-error notice of a function Clang analyzed instead is dropped, the others are passed
     * on, and one note names the functions only Clang analyzed.
     */
    private void supplement(ClangSupplement clang, String rel, Reporter rep, HeldNotices held, FindingSink sink) {
        ClangSupplement.Added added = clang.missing();
        stats.clangRecovered.addAndGet(added.recovered().size());
        for (FunctionFacts f : added.facts()) {
            stats.clangAdded.addAndGet(f.conversions.size() + f.atomics.size() + f.calls.size() + f.divisions.size());
            runChecks(f, rep, null);
        }
        stats.clangResets.addAndGet(clang.resetsApplied());
        List<ClangUnit.Function> rec = new ArrayList<>(added.recovered());
        for (Notification n : held.held) {
            if (!clang.covers(n.line())) {
                sink.notify(n);
                continue;
            }
            // the function stays named (its sums and promotions are not analyzed), with what Clang checked of it
            sink.notify(new Notification(
                    n.file(),
                    n.line(),
                    n.level(),
                    n.id(),
                    n.message() + "; Clang read it: its conversions, atomics, intrinsics and divisions were checked"));
            rec.removeIf(f -> n.line() >= f.startLine() && n.line() <= f.endLine());
        }
        if (!rec.isEmpty()) {

            StringBuilder names = new StringBuilder();
            for (int i = 0; i < Math.min(5, rec.size()); i++) {
                names.append(i == 0 ? "" : ", ")
                        .append('\'')
                        .append(rec.get(i).name())
                        .append("' (line ")
                        .append(rec.get(i).line())
                        .append(')');
            }
            if (rec.size() > 5) names.append(" and ").append(rec.size() - 5).append(" more");
            sink.notify(new Notification(
                    rel,
                    rec.get(0).line(),
                    Level.NOTE,
                    "clang-only",
                    rec.size() + " function" + (rec.size() == 1 ? "" : "s") + " analyzed from Clang's facts only ("
                            + names + "): the hand-written front end could not read "
                            + (rec.size() == 1 ? "it" : "them")
                            + " (no notice said so); conversions, atomics, intrinsics and divisions are checked, sums"
                            + " and promotions not yet"));
        }
    }

    /** A sink that holds parse-error notices while Clang may still analyze the function; the rest passes on. */
    private static final class HeldNotices implements FindingSink {
        final FindingSink to;
        final boolean hold;
        final List<Notification> held = new ArrayList<>();

        HeldNotices(FindingSink to, boolean hold) {
            this.to = to;
            this.hold = hold;
        }

        @Override
        public void report(dev.numlint.model.Finding.Builder finding) {
            to.report(finding);
        }

        @Override
        public void notify(Notification n) {
            if (hold && "parse-error".equals(n.id())) held.add(n);
            else to.notify(n);
        }
    }

    private static long countLines(String s) {
        long n = 1;
        for (int i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
        return n;
    }

    /** C++ keywords become identifiers in C code (a C variable may be called new or this). */
    private static List<PToken> cIdentifiers(List<PToken> toks) {
        for (int i = 0; i < toks.size(); i++) {
            PToken t = toks.get(i);
            if (CXX_ONLY_KEYWORDS.contains(t.getType())) {
                toks.set(
                        i,
                        new PToken(
                                CudaLexer.IDENTIFIER,
                                t.getText(),
                                t.getLine(),
                                t.getCharPositionInLine(),
                                t.hide,
                                t.fromMacro));
            }
        }
        return toks;
    }

    /**
     * Macros and include directories from the build context's nvcc flags: {@code -DNAME}, {@code -D NAME},
     * {@code -DNAME=V}, {@code --define-macro=NAME[=V]}, {@code -Idir}, {@code -I dir}, {@code --include-path=dir}.
     * An include directory is used only when it lies inside the scan root (the scan reads nothing outside it); a
     * relative one is resolved against the directory of the build file that set it, then the source file's
     * directory, then the scan root.
     */
    static void commandLineMacros(
            ScanContext ctx, BuildContext bc, Map<String, Preprocessor.Macro> macros, List<Path> dirs, Path file) {
        Preprocessor tmp = new Preprocessor(macros, null);
        List<String> flags = new ArrayList<>(bc.nvccFlags());
        // a host compile (.c/.cpp) has no nvcc flags: its -D/-U/-I are the context's preprocessor state
        if (flags.isEmpty()) {
            for (String d : bc.defines()) flags.add("-D" + d);
            for (String u : bc.undefines()) flags.add("-U" + u);
            for (Path p : bc.includePaths()) flags.add("-I" + p);
        }
        Path root = ctx.root() == null ? null : ctx.root().toAbsolutePath().normalize();
        for (int i = 0; i < flags.size(); i++) {
            String fl = flags.get(i).strip();
            String def = null;
            String inc = null;
            String raw = fl;
            String undef = null;
            if (fl.equals("-D")
                    || fl.equals("--define-macro")
                    || fl.equals("-I")
                    || fl.equals("--include-path")
                    || fl.equals("-U")
                    || fl.equals("--undefine-macro")
                    || fl.equals("-isystem")) {
                if (i + 1 >= flags.size()) break;
                String v = flags.get(++i).strip();
                raw = fl + " " + v;
                if (fl.equals("-D") || fl.equals("--define-macro")) def = v;
                else if (fl.equals("-U") || fl.equals("--undefine-macro")) undef = v;
                else inc = v;
            } else if (fl.startsWith("--undefine-macro=")) {
                undef = fl.substring("--undefine-macro=".length());
            } else if (fl.startsWith("-U")) {
                undef = fl.substring(2);
            } else if (fl.startsWith("--define-macro=")) {
                def = fl.substring("--define-macro=".length());
            } else if (fl.startsWith("-D")) {
                def = fl.substring(2);
            } else if (fl.startsWith("--include-path=")) {
                inc = fl.substring("--include-path=".length());
            } else if (fl.startsWith("-I")) {
                inc = fl.substring(2);
            }
            if (undef != null) {
                macros.remove(undef.strip());
            } else if (def != null) {
                if (def.startsWith("=")) def = def.substring(1);
                int eq = def.indexOf('=');
                String name = eq < 0 ? def : def.substring(0, eq);
                if (name.isEmpty() || !Character.isJavaIdentifierStart(name.charAt(0))) continue;
                tmp.run("#define " + (eq < 0 ? name + " 1" : name + " " + def.substring(eq + 1)) + "\n");
            } else if (inc != null && !inc.isEmpty() && root != null) {
                Path dir = includeDir(ctx, bc, root, file, raw, fl, inc);
                if (dir != null && !dirs.contains(dir)) dirs.add(dir);
            }
        }
    }

    private static Path includeDir(
            ScanContext ctx, BuildContext bc, Path root, Path file, String raw, String fl, String value) {
        Path p;
        try {
            p = Path.of(value);
        } catch (RuntimeException bad) {
            return null;
        }
        List<Path> bases = new ArrayList<>();
        if (p.isAbsolute()) {
            bases.add(null);
        } else {
            String compact = raw.replace(" ", "");
            bc.originOf(f -> f.replace(" ", "").equals(compact) || f.equals(fl)).ifPresent(o -> {
                String where = o.location() == null ? null : o.location().file();
                if (where != null && !where.startsWith("--")) {
                    Path bf = root.resolve(where).getParent();
                    if (bf != null) bases.add(bf);
                }
            });
            Path fd = file.toAbsolutePath().getParent();
            if (fd != null) bases.add(fd);
            bases.add(root);
        }
        for (Path b : bases) {
            Path d = (b == null ? p : b.resolve(p)).toAbsolutePath().normalize();
            if (d.startsWith(root) && Files.isDirectory(d)) return d;
        }
        return null;
    }

    /**
     * Macros and declarations of the project header {@code name} included from {@code from} at {@code line}.
     * Resolution as the compiler's for quoted includes: the includer's directory, then the -I directories. Only
     * regular files inside the scanned tree are read (symbolic links resolved): an include that leads outside it or
     * to a device, FIFO or other special file is not read and is reported once, at the include.
     */
    private HeaderInfo header(
            Run run,
            Path from,
            int line,
            String name,
            List<Path> dirs,
            Map<String, Preprocessor.Macro> macros,
            Set<Path> active,
            Preprocessor.Dialect dialect,
            FindingSink sink) {
        Path found = null;
        String refused = null;
        List<Path> candidates = new ArrayList<>();
        try {
            Path dir = from.toAbsolutePath().getParent();
            if (dir != null) candidates.add(dir.resolve(name));
            for (Path d : dirs) candidates.add(d.resolve(name));
        } catch (RuntimeException badPath) {
            return null;
        }
        for (Path c : candidates) {
            if (!Files.exists(c, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !Files.exists(c)) continue;
            Path real = realPath(c);
            if (real == null) continue;
            if (Files.isDirectory(real)) continue;
            if (!Files.isRegularFile(real, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                refused = "it is not a regular file (a device, FIFO or other special file)";
            } else if (dev.numlint.spi.TrustBoundary.refusedName(real) != null) {
                refused = dev.numlint.spi.TrustBoundary.refusedName(real);
            } else if (!run.policy.inRoots(real)) {
                refused = "it lies outside the scanned tree (numlint reads nothing outside it)";
            } else {
                found = real;
            }
            break;
        }
        if (refused != null) {
            String key = from.toAbsolutePath().normalize() + ":" + line + ":" + name;
            if (run.refusedIncludes.add(key)) {
                sink.notify(new Notification(
                        run.ctx.relativize(from),
                        line,
                        Level.WARNING,
                        "include-not-read",
                        "#include \"" + name + "\" not read and not analyzed: " + refused));
            }
            return null;
        }
        if (found == null && candidates.stream().noneMatch(c -> Files.exists(c))) {
            // the build's include path is unknown: the one file of the scanned tree by that name
            Path real = run.inTree(name);
            if (real != null && run.policy.inRoots(real)) {
                found = real;
                // an assumption about the build, so the output says it once per header name
                if (run.refusedIncludes.add("by-name:" + name)) {
                    sink.notify(new Notification(
                            run.ctx.relativize(from),
                            line,
                            Level.NOTE,
                            "include-by-name",
                            "#include \"" + name + "\" read from " + run.ctx.relativize(real)
                                    + ", the only file of that name: no include directory of the build holds it"));
                }
            }
        }
        if (found == null) return null;
        Path includer = realPath(from);
        run.reached(found, includer == null ? from : includer, macros, dialect);
        if (active.contains(found)) return null;
        if (active.size() > MAX_INCLUDE_DEPTH) {
            if (run.refusedIncludes.add(from.toAbsolutePath().normalize() + ":" + line + ":" + name)) {
                sink.notify(new Notification(
                        run.ctx.relativize(from),
                        line,
                        Level.WARNING,
                        "not-fully-evaluated",
                        "#include \"" + name + "\" not followed: includes nested deeper than " + MAX_INCLUDE_DEPTH
                                + " levels"));
            }
            return null;
        }
        HeaderKey key = new HeaderKey(found, dialect);
        HeaderVariants variants = run.cache.computeIfAbsent(key, k -> new HeaderVariants());
        HeaderInfo h = variants.find(macros);
        if (h != null) return h;
        String text;
        try {
            if (Files.size(found) > maxHeaderBytes) return null;
            text = new String(Files.readAllBytes(found), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        active.add(found);
        HeaderVariants.Recording hm = new HeaderVariants.Recording(macros);
        FileScope hs = new FileScope();
        Path headerPath = found;
        Preprocessor pp = new Preprocessor(hm, (n, l) -> {
                    HeaderInfo inner = header(run, headerPath, l, n, dirs, hm, active, dialect, sink);
                    if (inner != null) {
                        hm.putAll(inner.macros());
                        hs.mergeFrom(inner.scope());
                    }
                })
                .dialect(dialect);
        List<PToken> toks = pp.run(text);
        if (dialect == Preprocessor.Dialect.HOST_C) toks = cIdentifiers(toks);
        new TopLevelSplitter(toks, hs, false).split();
        active.remove(found);
        // keep only what the header (and its includes) defined, not a copy of the includer's macro table
        h = new HeaderInfo(hm.own(), hs);
        variants.add(hm.inputs(), h);
        return h;
    }

    /** Analyzes one function; false when it could not be parsed (a notice says so). */
    private boolean analyzeFunction(
            ScanContext ctx,
            String rel,
            FileScope scope,
            TopLevelSplitter.FunctionDef f,
            List<PToken> toks,
            Reporter rep,
            FindingSink sink,
            CallSiteRanges callSites,
            ClangSupplement clang) {
        int size = f.bodyEnd - f.bodyStart + 1;
        if (size > maxFunctionTokens()) {
            stats.failed.incrementAndGet();
            sink.notify(new Notification(
                    rel,
                    f.line,
                    Level.WARNING,
                    "over-budget",
                    "function '" + f.name + "' (line " + f.line + ") not analyzed: " + size
                            + " tokens, more than the CUDA front end's limit of " + maxFunctionTokens()
                            + " per function (set -Dnumlint.cuda.maxFunctionTokens to raise it); the rest of the file"
                            + " was analyzed"));
            return false;
        }
        List<PToken> body = new ArrayList<>(size + 1);
        int depth = 0;
        for (int i = f.bodyStart; i <= f.bodyEnd; i++) {
            PToken t = toks.get(i);
            int ty = t.getType();
            if (ty == CudaLexer.LPAREN || ty == CudaLexer.LBRACKET || ty == CudaLexer.LBRACE) {
                if (++depth > MAX_NESTING) {
                    stats.failed.incrementAndGet();
                    sink.notify(new Notification(
                            rel,
                            t.getLine(),
                            Level.WARNING,
                            "parse-error",
                            "function '" + f.name
                                    + "' (line " + f.line + ") not analyzed: brackets nested deeper than " + MAX_NESTING
                                    + " at line " + t.getLine() + "; the rest of the file was analyzed"));
                    return false;
                }
            } else if (ty == CudaLexer.RPAREN || ty == CudaLexer.RBRACKET || ty == CudaLexer.RBRACE) {
                depth--;
            }
            t.setTokenIndex(body.size());
            body.add(t);
        }
        PToken last = body.get(body.size() - 1);
        PToken eof = new PToken(Token.EOF, "<EOF>", last.getLine(), 0, Set.of(), null);
        eof.setTokenIndex(body.size());
        body.add(eof);
        CudaParser.FunctionBodyContext tree;
        long t0 = System.nanoTime();
        CudaParser p = new CudaParser(new CommonTokenStream(new BudgetedTokenSource(new ArrayList<CommonToken>(body))));
        p.setTypeNames(n -> scope.isTypeName(n) || f.templateParams.contains(n));
        p.setTrimParseTree(true); // children lists at their size, not ArrayList's default of ten
        p.removeErrorListeners();
        p.setErrorHandler(new BailErrorStrategy());
        p.getInterpreter().setPredictionMode(PredictionMode.SLL);
        try {
            tree = p.functionBody();
            stats.sllParsed.incrementAndGet();
        } catch (ParseCancellationException sllFailure) {
            p = new CudaParser(new CommonTokenStream(new BudgetedTokenSource(new ArrayList<CommonToken>(body))));
            p.setTypeNames(n -> scope.isTypeName(n) || f.templateParams.contains(n));
            p.setTrimParseTree(true);
            p.removeErrorListeners();
            p.setErrorHandler(new BailErrorStrategy());
            p.getInterpreter().setPredictionMode(PredictionMode.LL);
            try {
                tree = p.functionBody();
                stats.llParsed.incrementAndGet();
            } catch (ParseCancellationException e) {
                stats.failed.incrementAndGet();
                Token bad = e.getCause() instanceof RecognitionException
                        ? ((RecognitionException) e.getCause()).getOffendingToken()
                        : p.getCurrentToken();
                String near =
                        bad == null ? "?" : bad.getType() == Token.EOF ? "end of function" : "'" + bad.getText() + "'";
                int line = bad == null ? f.line : bad.getLine();
                sink.notify(new Notification(
                        rel,
                        line,
                        Level.WARNING,
                        "parse-error",
                        "function '" + f.name
                                + "' (line " + f.line + ") not analyzed: construct not understood near " + near
                                + " at line "
                                + line + "; the rest of the file was analyzed"));
                return false;
            }
        } catch (StackOverflowError e) {
            stats.failed.incrementAndGet();
            sink.notify(new Notification(
                    rel,
                    f.line,
                    Level.WARNING,
                    "parse-error",
                    "function '" + f.name + "' not analyzed: nesting too deep"));
            return false;
        }
        long t1 = System.nanoTime();
        stats.parseNanos.addAndGet(t1 - t0);
        FunctionAnalyzer analyzer = new FunctionAnalyzer(scope, f, body, rep.dialect(), callSites, callSites.params(f));
        runChecks(analyzer.analyze(tree), rep, clang);
        ctx.addRandomVariateLines(rel, analyzer.variateLines());
        stats.ruleNanos.addAndGet(System.nanoTime() - t1);
        return true;
    }

    /** The tokens of a function body for the parser, checking the per-file budget as the parser reads them. */
    private static final class BudgetedTokenSource extends ListTokenSource {
        BudgetedTokenSource(List<? extends Token> tokens) {
            super(tokens);
        }

        @Override
        public Token nextToken() {
            dev.numlint.model.WorkBudget.check();
            return super.nextToken();
        }
    }

    /** " at Class.method(File.java:N)": the frame in numlint's code where an internal error was thrown. */
    static String where(Throwable e) {
        for (StackTraceElement f : e.getStackTrace()) {
            if (f.getClassName().startsWith("dev.numlint.")) {
                return " at " + f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "."
                        + f.getMethodName() + "(" + f.getFileName() + ":" + f.getLineNumber() + ")";
            }
        }
        return "";
    }
}
