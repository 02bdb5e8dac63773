package dev.numlint.cuda;

import dev.numlint.cuda.checks.CudaCheck;
import dev.numlint.cuda.clang.ClangSupplement;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.cuda.parser.CudaParser;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.Analyzer;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.CommonTokenStream;
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
    /** CUDA sources and headers: nvcc's view (__CUDACC__ defined). Plain headers may be included from .cu files. */
    private static final Set<String> CUDA_EXTENSIONS = Set.of("cu", "cuh", "h", "hpp");
    /**
     * Headers and template implementation files found by extension (issue 26: cuSZ keeps 627 functions in .hh/.inl
     * files): one that a scanned source includes is analyzed once through that include, with its includer's macros
     * and build context; one that no scanned source includes is analyzed on its own afterwards (directory or guessed
     * flags, a notice says so). Only those of the configured include extensions.
     */
    static final Set<String> FRAGMENT_EXTENSIONS = Set.of("hh", "hxx", "inl", "ipp", "tcc", "tpp");
    /**
     * Macros of widely used library headers outside the project that expand to nothing and sit where the grammar
     * expects none ({@code std::min BOOST_PREVENT_MACRO_SUBSTITUTION (a, b)}).
     */
    private static final Set<String> EMPTY_LIBRARY_MACROS = Set.of("BOOST_PREVENT_MACRO_SUBSTITUTION");
    /** Per-file budget of the front end: tokens after preprocessing, and wall time for the function bodies. */
    static final int MAX_TOKENS = 8_000_000;

    /** Headers larger than the cuda-source max-file-size are not followed (set per scan in analyze). */
    private volatile long maxHeaderBytes = ScanContext.defaultMaxFileSize(dev.numlint.model.Layer.CUDA_SOURCE);
    /** Deeper nesting than this is generated code; the parser's recursion would be slow (and could overflow). */
    private static final int MAX_NESTING = 200;

    private final CudaStats stats = new CudaStats();
    /** The C, C++ and CUDA files of the last scan, with those its includes reached ({@link UnreachableCode}). */
    private volatile Map<Path, String> treeFiles;
    /** Whether the scan was given a compilation database ({@code -p}): the undefined-types notice's next step. */
    private volatile boolean databaseGiven;

    @Override
    public dev.numlint.spi.Analyzer withBuildOptions(dev.numlint.spi.BuildOptions options) {
        databaseGiven = options != null && options.compileCommandsDir() != null;
        return this;
    }

    private final ClangSupplements clangSupplements = new ClangSupplements(stats);

    public CudaStats stats() {
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

    /**
     * The checks' review of the merged findings with the tree's functions ({@link CudaCheck#review}), after the notes
     * of {@link OneThreadKernels}, {@link OnlyComparisons}, {@link BuildChoices} and {@link HostOnlyScans}.
     */
    @Override
    public List<dev.numlint.model.Finding> review(
            List<dev.numlint.model.Finding> findings,
            Map<String, BuildContext> contexts,
            Set<String> notAnalyzed,
            Map<String, List<dev.numlint.model.UnitArithmetic>> units,
            List<dev.numlint.model.DeclaredFunction> functions,
            List<dev.numlint.model.KernelLaunch> launches) {
        return review(findings, contexts, notAnalyzed, units, functions, launches, List.of());
    }

    /**
     * As {@link #review(List, Map, Set, Map, List, List)}, with the calls of the files Clang read whole: findings that
     * every call of the program keeps in range are notes first ({@link CallerRanges}), after those of code that never
     * runs ({@link UnreachableCode}).
     */
    @Override
    public List<dev.numlint.model.Finding> review(
            List<dev.numlint.model.Finding> findings,
            Map<String, BuildContext> contexts,
            Set<String> notAnalyzed,
            Map<String, List<dev.numlint.model.UnitArithmetic>> units,
            List<dev.numlint.model.DeclaredFunction> functions,
            List<dev.numlint.model.KernelLaunch> launches,
            List<dev.numlint.model.FileCalls> calls) {
        boolean unread = notAnalyzed.stream().anyMatch(f -> accepts(Path.of(f)));
        long t0 = dev.numlint.model.Timings.start();
        findings = UnreachableCode.review(findings, treeFiles, functions);
        dev.numlint.model.Timings.since("unreachable-code", t0);
        t0 = dev.numlint.model.Timings.start();
        findings = CallerRanges.review(findings, treeFiles, functions, calls);
        dev.numlint.model.Timings.since("caller-ranges", t0);
        List<dev.numlint.model.Finding> oneThread =
                BuildChoices.review(OnlyComparisons.review(OneThreadKernels.review(findings, launches, unread)));
        return CudaChecks.review(
                HostOnlyScans.review(oneThread, contexts, functions, launches, notAnalyzed), functions);
    }

    @Override
    public Set<String> implementedRules() {
        return CudaChecks.ruleIds();
    }

    @Override
    public boolean accepts(Path file) {
        String n = file.getFileName() == null ? "" : file.getFileName().toString();
        int dot = n.lastIndexOf('.');
        if (dot <= 0) return false;
        String ext = n.substring(dot + 1).toLowerCase(Locale.ROOT);
        return CUDA_EXTENSIONS.contains(ext)
                || SourceKinds.HOST_EXTENSIONS.contains(ext)
                || (FRAGMENT_EXTENSIONS.contains(ext) && includeExtensions.contains(ext));
    }

    static boolean isFragment(Path f) {
        String n = f.getFileName() == null ? "" : f.getFileName().toString();
        return FRAGMENT_EXTENSIONS.contains(n.substring(n.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT));
    }

    @Override
    public void analyze(ScanContext ctx, List<Path> all, FindingSink sink) {
        maxHeaderBytes = ctx.maxFileSize(dev.numlint.model.Layer.CUDA_SOURCE);
        // fragments (.inl, .hh, ...) are not listed: reached through an include they take their includer's context
        List<Path> files = all.stream().filter(f -> !isFragment(f)).toList();
        List<Path> fragments =
                all.stream().filter(CudaSourceAnalyzer::isFragment).sorted().toList();
        CudaScanRun run = new CudaScanRun(ctx, files, includeExtensions, extensionsSet, maxHeaderBytes);
        ProjectHeaders included = new ProjectHeaders(run);
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
        // sources the build compiles only through an include of them: after the sources, through their includer
        List<Path> viaIncluder = new ArrayList<>();
        BuildScope scope = BuildScope.of(ctx);
        for (Path f : files) {
            if (isHeader(f)) headers.add(f);
            else if (scope != null && !scope.compiled(f)) scope.outside(f, BuildScope.NOT_COMPILED);
            else if (IncludedSources.compiledThroughInclude(run, f)) viaIncluder.add(f);
            else sources.add(f);
        }
        List<String> sourcesAlone = new ArrayList<>();
        IncludedSources.Driver driver = new IncludedSources.Driver() {
            @Override
            public void analyze(Path file, FindingSink to, CudaScanRun.IncludedFrom from) {
                analyzeFile(run, included, file, to, from);
            }

            @Override
            public void inParallel(int n, Runnable worker) {
                FileWorkers.run(ctx, n, worker);
            }

            @Override
            public Preprocessor.Dialect dialect(Path file) {
                return SourceKinds.dialect(file, ctx.buildContext(file));
            }
        };
        for (List<Path> phase : List.of(sources, viaIncluder, headers)) {
            // --scope build: the headers the build's units read, known once the units are preprocessed
            if (phase == headers && scope != null) scope.keepIncluded(run, headers);
            if (phase.isEmpty()) continue;
            if (phase == viaIncluder) {
                sourcesAlone.addAll(IncludedSources.analyzeThroughIncluders(driver, run, phase, sink));
                continue;
            }
            ConcurrentLinkedQueue<Path> queue = new ConcurrentLinkedQueue<>(phase);
            Runnable worker = () -> {
                Path f;
                while ((f = queue.poll()) != null) {
                    analyzeFile(run, included, f, sink, null);
                    ctx.fileDone();
                }
            };
            FileWorkers.run(ctx, phase.size(), worker);
        }
        // headers whose code only an includer's macros make active (a single-header library's implementation)
        IncludedSources.analyzeInContexts(driver, run, headers, sink);
        // headers a compiled unit names in an #include its compile command does not take: not compiled
        if (scope == null) UnreadHeaders.review(run, ctx, headers, sink);
        // sources that a scanned source includes but the build does not compile through it: analyzed on their own
        Notification sourceAlone = IncludedSources.aloneNotice(run, sources, sourcesAlone);
        if (sourceAlone != null) sink.notify(sourceAlone);
        Set<Path> done = new HashSet<>();
        IncludedSources.analyzeReached(driver, run, sink, done);
        List<String> alone = new ArrayList<>();
        for (Path f : fragments) {
            Path real = CudaScanRun.realPath(f);
            if (real == null || done.contains(real) || done.contains(f) || run.included.containsKey(real)) continue;
            if (scope != null) {
                scope.outside(f, BuildScope.NOT_INCLUDED);
                continue;
            }
            done.add(real); // one analysis per file: an include of it from another fragment does not repeat it
            alone.add(ctx.relativize(f));
            analyzeFile(run, included, f, sink, null);
        }
        IncludedSources.analyzeReached(driver, run, sink, done); // what those include
        if (!alone.isEmpty()) {
            sink.notify(new Notification(
                    alone.get(0),
                    0,
                    Level.NOTE,
                    "header-alone",
                    alone.size() + " header or template file(s) that no scanned source includes were analyzed on"
                            + " their own, with their directory's flags or guessed ones: "
                            + String.join(", ", alone.subList(0, Math.min(8, alone.size())))
                            + (alone.size() > 8 ? ", ..." : "")));
        }
        if (scope != null) scope.report(sink);
        run.flushIncludedByName(sink);
        run.flushLeftOut(sink);
        BuildVariants.flushVariants(run, sink);
        treeFiles = UnreachableCode.tree(ctx, all, run.included.keySet());
        dev.numlint.model.Timings.line("cuda-source " + stats);
        Notification undefined = run.undefinedTypes.summary(databaseGiven);
        if (undefined != null) sink.notify(undefined);
        run.libraryStubs.summary(run.clang.toolkit()).forEach(sink::notify);
    }

    /**
     * A scan that will parse C, C++ or CUDA files with Clang starts its workers now, while the build files are read
     * (docs/frontend/speed-session23.md): one per compiled unit, at most one per core. Only when every file will be
     * parsed: the analysis cache holds no entry (a re-scan may take every file from it and start no worker).
     */
    @Override
    public void prepare(ScanContext ctx, List<Path> files) {
        try {
            long units =
                    files.stream().filter(f -> !isHeader(f) && !isFragment(f)).count();
            if (files.isEmpty() || !SourceCache.empty(ctx)) return;
            dev.numlint.cuda.clang.ClangFrontEnd.prestart(
                    ctx, (int) Math.max(1, Math.min(units, dev.numlint.model.Cores.available())));
        } catch (RuntimeException e) {
            // the workers start at the first parse, as without this
        }
    }

    /** A header (.cuh, .h, .hpp): compiled only as part of the files that include it. */
    static boolean isHeader(Path f) {
        return SourceKinds.isHeader(f);
    }

    /** Extensions of included files analyzed when a scanned source includes them (configurable). */
    public static final List<String> DEFAULT_INCLUDE_EXTENSIONS = List.of(
            "h", "hh", "hpp", "hxx", "h++", "cuh", "hcu", "cuinc", "inc", "inl", "ipp", "tpp", "txx", "tcc", "impl");

    private volatile Set<String> includeExtensions = Set.copyOf(DEFAULT_INCLUDE_EXTENSIONS);
    /** Whether they were set: else an included file of any other extension (a .tcu) is analyzed too. */
    private volatile boolean extensionsSet;

    /** Sets the extensions (without the dot, case-insensitive) of included files that are analyzed. */
    public CudaSourceAnalyzer includeExtensions(java.util.Collection<String> exts) {
        includeExtensions = CudaScanRun.normalizedExtensions(exts);
        extensionsSet = true;
        return this;
    }

    /** Analyzes one file (never throws), as a scan of just this file would. */
    public void analyzeFile(ScanContext ctx, Path file, FindingSink sink) {
        CudaScanRun run = new CudaScanRun(ctx, List.of(file), includeExtensions, extensionsSet, maxHeaderBytes);
        analyzeFile(run, new ProjectHeaders(run), file, sink, null);
        run.flushIncludedByName(sink);
        BuildVariants.flushVariants(run, sink);
    }

    /**
     * Analyzes one file (never throws). {@code from} is null for a file the scan lists; for a file reached only by
     * {@code #include} it is the first includer, whose macros and build context the file is analyzed with. A compiled
     * unit with other build variants is analyzed again in those whose defines it uses ({@link BuildVariants}).
     */
    void analyzeFile(
            CudaScanRun run, ProjectHeaders headers, Path file, FindingSink sink, CudaScanRun.IncludedFrom from) {
        boolean unit = from == null && !isHeader(file) && !isFragment(file);
        BuildVariants.analyze(
                run, file, unit, sink, (to, v, reads) -> analyzeFile(run, headers, file, to, from, v, reads));
    }

    /** One analysis of a file; {@code variant}: a build variant's context instead of the file's; adds to {@code reads}. */
    private void analyzeFile(
            CudaScanRun run,
            ProjectHeaders headers,
            Path file,
            FindingSink sink,
            CudaScanRun.IncludedFrom from,
            BuildContext variant,
            Set<Path> reads) {
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
            if (GlslSources.leftOut(text, rel, sink)) return;
            stats.files.incrementAndGet();
            stats.lines.addAndGet(countLines(text));
            Path buildFile = from == null ? file : from.includer();
            BuildContext bc = variant != null ? variant : ctx.buildContext(buildFile);
            Map<String, Preprocessor.Macro> macros = new HashMap<>();
            List<Path> includeDirs = new ArrayList<>();
            for (String m : EMPTY_LIBRARY_MACROS) macros.put(m, new Preprocessor.Macro(m, null, false, List.of()));
            CommandLineMacros.read(ctx, bc, macros, includeDirs, buildFile);
            if (from != null) macros.putAll(from.macros());
            // a unit its compile command builds as CUDA (-x cu) or C++ (g++ x.c) is read so, whatever its extension;
            // a listed header in the language of the compiled unit Clang reads it in (UnitHeaders)
            Preprocessor.Dialect own = SourceKinds.dialect(file, bc);
            Preprocessor.Dialect dialect = from != null
                    ? from.dialect()
                    : bc.compiledAsCuda()
                            ? Preprocessor.Dialect.CUDA
                            : UnitHeaders.dialect(run, file, HeaderDialect.of(run, file, bc, own));
            FileScope scope = new FileScope();
            Set<Path> active = new HashSet<>();
            active.add(file.toAbsolutePath().normalize());
            // an included header contributes its macros and declarations only: its own lines are analyzed (once)
            // when the scan reaches the header itself, or after the scanned files when the scan does not list it
            Preprocessor pp = new Preprocessor(macros, (name, line) -> {
                        HeaderInfo h =
                                headers.header(file, line, name, includeDirs, macros, active, dialect, sink, reads);
                        if (h != null) {
                            macros.putAll(h.macros());
                            scope.mergeFrom(h.scope());
                        }
                    })
                    .dialect(dialect)
                    .allConfigurations(run.allConfigurations);
            // the compile command's forced includes (-include F) come before the first line, as nvcc reads them
            for (String forced : bc.forcedIncludes()) {
                HeaderInfo h = headers.header(file, 0, forced, includeDirs, macros, active, dialect, sink, reads);
                if (h != null) {
                    macros.putAll(h.macros());
                    scope.mergeFrom(h.scope());
                }
            }
            long t0 = System.nanoTime();
            List<PToken> toks = pp.run(text);
            FindingSink out = sink;
            Path real = CudaScanRun.realPath(file);
            if (from == null && real != null && isHeader(file) && run.listed.contains(real)) {
                run.aloneLines.put(real, IncludedSources.lines(toks));
            } else if (from != null && from.covered() != null) {
                // a listed header in an includer's context: only the lines no earlier analysis of it read
                java.util.BitSet newly = IncludedSources.lines(toks);
                newly.andNot(from.covered());
                if (newly.isEmpty()) return;
                from.covered().or(newly);
                out = new IncludedSources.LineFilter(sink, newly);
            }
            if (pp.truncated() != null) {
                out.notify(new Notification(
                        rel,
                        pp.truncatedLine(),
                        Level.WARNING,
                        "not-fully-evaluated",
                        "preprocessing not fully evaluated: " + pp.truncated() + "; the code after line "
                                + pp.truncatedLine() + " is analyzed without further macro expansion"));
            }
            if (toks.size() > MAX_TOKENS) {
                out.notify(new Notification(
                        rel,
                        0,
                        Level.ERROR,
                        "over-budget",
                        "not analyzed: more than " + MAX_TOKENS
                                + " tokens after preprocessing (the C/C++/CUDA front end's per-file budget)"));
                return;
            }
            if (dialect == Preprocessor.Dialect.HOST_C) toks = ProjectHeaders.cIdentifiers(toks);
            CudaScanRun.IncludedFrom includer = from == null ? run.listedIncluders.get(real) : null;
            // a compiled unit: Clang's parse of it reads the listed headers it is the first includer of
            if (from == null && !isHeader(file) && !isFragment(file) && variant == null) {
                UnitHeaders.reached(run, real, reads);
                run.unitsRead.addAll(reads);
                if (real != null) run.unitsPreprocessed.add(real);
            }
            // Clang reads a file compiled only through an include as the unit that includes it compiles it, and a
            // listed header in the first compiled unit that includes it
            ClangSupplements.Unit through = from != null
                    ? IncludedSources.translationUnit(
                            run,
                            from.includer(),
                            real,
                            CudaSourceAnalyzer::isHeader,
                            f -> SourceKinds.dialect(f, run.ctx.buildContext(f)))
                    : isHeader(file) ? UnitHeaders.unitOf(run, real) : null;
            // the analysis cache (a file reached only through an include: keyed by its includer's macros too)
            String key = run.cache == null
                    ? null
                    : SourceCacheKeys.of(
                            clangSupplements,
                            run,
                            file,
                            rel,
                            bytes,
                            bc,
                            dialect,
                            includeDirs,
                            from,
                            includer,
                            reads,
                            through);
            if (key != null) {
                SourceCache.Entry hit = run.cache.get(key, rel, out);
                if (hit != null) {
                    stats.cached.incrementAndGet();
                    SourceCache.replay(hit, ctx, run, out);
                    return;
                }
            }
            SourceCache.Recording recording = new SourceCache.Recording(out, ctx);
            try {
                analyzeParsed(
                        run, file, rel, bytes, bc, dialect, from, includer, through, pp, toks, scope, macros,
                        recording);
            } catch (RuntimeException | Error e) {
                recording.notStorable();
                throw e;
            }
            if (key != null) run.cache.put(key, rel, recording);
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

    /** The analysis of a preprocessed file: its functions, by both front ends; reports to {@code sink} only. */
    private void analyzeParsed(
            CudaScanRun run,
            Path file,
            String rel,
            byte[] bytes,
            BuildContext bc,
            Preprocessor.Dialect dialect,
            CudaScanRun.IncludedFrom from,
            CudaScanRun.IncludedFrom includer,
            ClangSupplements.Unit through,
            Preprocessor pp,
            List<PToken> toks,
            FileScope scope,
            Map<String, Preprocessor.Macro> macros,
            SourceCache.Recording sink) {
        ScanContext ctx = run.ctx;
        long t0 = System.nanoTime();
        {
            TopLevelSplitter sp = new TopLevelSplitter(toks, scope, true);
            sp.split();
            // the functions it and its project headers define or declare: the checks' reviews find precision families
            if (!run.variantPass.get()) {
                sink.functions(DeclaredFunctions.of(rel, scope));
                sink.launches(KernelLaunches.of(rel, toks, sp.functions, scope));
            }
            // the types this file and its headers define: the scan's undefined-types notice leaves them out
            java.util.Set<String> defined = new java.util.HashSet<>(scope.typedefs.keySet());
            defined.addAll(scope.structs.keySet());
            // and the macros: a name defined as a macro in a file read is no undefined type, whichever #if branch
            // defines it (opus's OPUS_INLINE, which a header parsed alone by Clang shows as an unknown type name):
            // the file's own #defines (recorded with the file's analysis), and the macros its reading knew (this run
            // only: they are its headers' and the command line's, many, and each header scanned records its own)
            defined.addAll(IncludedSources.definedMacros(bytes));
            run.undefinedTypes.defined(defined);
            run.undefinedTypes.defined(macros.keySet());
            sink.definedTypes(defined);
            if (includer != null) {
                // a listed header is compiled as part of its includer: a name it uses without defining it has the
                // constant value the first includer gave it
                IncluderConstants.of(includer.macros()).forEach((n, v) -> {
                    if (!macros.containsKey(n) && !scope.globals.containsKey(n)) scope.globals.put(n, v);
                });
            }
            RandomDraws.propagate(toks, sp.functions, scope);
            stats.preNanos.addAndGet(System.nanoTime() - t0);
            Reporter rep = new Reporter(ctx, sink, file, bc, SourceKinds.sourceDialect(dialect));
            rep.archBranches = ArchBranches.of(bytes);
            // a file whose macros the preprocessor had to stop expanding (made to explode) is not given to Clang
            ClangSupplement clang = pp.truncated() != null
                    ? null
                    : clangSupplements.read(run, file, bytes, bc, dialect, rel, sink, through);
            rep.activeError = clang != null && clang.compiledPast(pp.activeErrorLine) ? null : pp.activeError;
            FunctionFacts fileFacts = new FunctionFacts(null);
            for (TopLevelSplitter.LongDoubleDecl ld : sp.longDoubles) {
                fileFacts.longDoubles.add(new FunctionFacts.LongDouble(
                        new Reporter.Pos(ld.line(), ld.col(), ld.line(), 0)
                                .site("long double " + ld.what(), false, true, null),
                        ld.what(),
                        null,
                        ld.deliberate(),
                        ld.owner()));
            }
            CudaChecks.run(fileFacts, rep, null);
            ClangSupplements.HeldNotices held = new ClangSupplements.HeldNotices(sink, clang != null);
            if (clang != null) {
                rep.neverTaken(dev.numlint.cuda.clang.ClangNeverTaken.of(clang.unit()));
                // the conversions in the initializers of variables outside every function
                CudaChecks.run(dev.numlint.cuda.clang.ClangGlobalInitializers.facts(clang.unit()), rep, null);
            }
            if (from == null && !run.variantPass.get()) {
                java.util.BitSet seen = InactiveSites.codeLines(clang == null ? null : clang.unit());
                Notification inactive = InactiveSites.of(
                        rel, pp, seen::get, InactiveSites.TypeNames.of(clang == null ? null : clang.unit(), scope));
                if (inactive != null) sink.notify(inactive);
            }
            // the functions of a file the build compiles: the scan decides which of them code that runs names
            if (clang != null && bc.compiled()) {
                var definitions = dev.numlint.cuda.clang.ClangDefinitions.of(clang.unit());
                rep.definitions(UnreachableCode.marks(definitions));
                if (!run.variantPass.get()) sink.functions(UnreachableCode.declared(rel, definitions));
                // its calls: what every call of a program passes (CallerRanges)
                if (!run.variantPass.get())
                    sink.calls(
                            dev.numlint.cuda.clang.ClangCalls.of(clang.unit(), rel, scope.functionNames()::contains));
            }
            // the budget is cooperative: the parser's token source, the function walk and the def-use queries
            // check it (WorkBudget.check), so one huge function stops too, not only the functions after it
            dev.numlint.model.WorkBudget.start(FrontEndBudgets.fileBudgetNanos(bytes.length));
            try {
                // a file compiled on its own: callers of its static and inline functions are all in it
                java.util.function.BooleanSupplier alone =
                        () -> from == null && !isHeader(file) && !run.includedByName(file);
                CallSiteRanges callSites = new CallSiteRanges(toks, sp.functions, alone);
                if (clang != null) // Clang's call-site intervals (ClangCallSites)
                clang.compiledAlone(alone, run::mentionedOutside);
                List<TopLevelSplitter.FunctionDef> order = callSites.order();
                // the functions of a file Clang read are Clang's (ClangSupplement.missing), but for those Clang could
                // not see whole (ClangDecides); all of them with -Dnumlint.clang.alone=true
                java.util.Set<TopLevelSplitter.FunctionDef> branchesOnly = java.util.Set.of();
                if (clang != null && run.clang.alone()) order = List.of();
                else if (clang != null && run.clang.decides()) {
                    order = ClangDecides.handWritten(order, toks, pp.conditionalLines, clang);
                    branchesOnly = ClangDecides.branchesOnly(order, toks, pp.conditionalLines, clang);
                }
                java.util.BitSet compiled = branchesOnly.isEmpty() ? null : ClangDecides.compiledLines(clang.unit());
                for (int i = 0; i < order.size(); i++) {
                    TopLevelSplitter.FunctionDef f = order.get(i);
                    // a "function" whose body is another function's (two declarations read as one definition) is
                    // left to Clang, which reads both (ClangSupplement.missing; the clang-only note names them)
                    if (clang != null
                            && clang.joined(f.line, toks.get(f.bodyStart).getLine()) != null) continue;
                    boolean partly = false;
                    if (!dev.numlint.model.WorkBudget.spent()) {
                        stats.functions.incrementAndGet();
                        // a function Clang decides but for the branch it did not compile: only that branch's findings
                        boolean branch = branchesOnly.contains(f);
                        rep.onlyOutside(branch ? compiled : null);
                        try {
                            if (analyzeFunction(sink, rel, scope, f, toks, rep, held, callSites, clang)
                                    && clang != null
                                    && !branch) {
                                clang.analyzed(f.line);
                            }
                        } catch (dev.numlint.model.WorkBudget.Exceeded e) {
                            partly = true;
                        } finally {
                            rep.onlyOutside(null);
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
                                    + ": the file took longer than the C/C++/CUDA front end's per-file budget of "
                                    + FrontEndBudgets.fileBudgetNanos(bytes.length) / 1_000_000L
                                    + " ms of CPU time for its size (set"
                                    + " -Dnumlint.cuda.fileBudgetMs to raise it); the scan goes on"));
                    break;
                }
            } finally {
                dev.numlint.model.WorkBudget.stop();
            }
            if (clang != null) clangSupplements.supplement(clang, rel, rep, held, sink, !run.clang.both());
            // the atomics no fact judged (a grep finds them): one note names why (AtomicRecall)
            Notification unjudged = clang == null || clang.notCompiled() != null
                    ? null
                    : AtomicRecall.notice(rel, toks, rep.atomicLines, clang.unit());
            if (unjudged != null) sink.notify(unjudged);
            rep.counts.forEach((k, v) ->
                    stats.findings.computeIfAbsent(k, x -> new AtomicLong()).addAndGet(v));
        }
    }

    private static long countLines(String s) {
        long n = 1;
        for (int i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
        return n;
    }

    /** Analyzes one function; false when it could not be parsed (a notice says so). */
    private boolean analyzeFunction(
            SourceCache.Recording recording,
            String rel,
            FileScope scope,
            TopLevelSplitter.FunctionDef f,
            List<PToken> toks,
            Reporter rep,
            FindingSink sink,
            CallSiteRanges callSites,
            ClangSupplement clang) {
        int size = f.bodyEnd - f.bodyStart + 1;
        if (size > FrontEndBudgets.maxFunctionTokens()) {
            stats.failed.incrementAndGet();
            sink.notify(new Notification(
                    rel,
                    f.line,
                    Level.WARNING,
                    "over-budget",
                    "function '" + f.name + "' (line " + f.line + ") not analyzed: " + size
                            + " tokens, more than the CUDA front end's limit of " + FrontEndBudgets.maxFunctionTokens()
                            + " per function (set -Dnumlint.cuda.maxFunctionTokens to raise it); the rest of the file"
                            + " was analyzed"));
            // the notice names it as not analyzed: Clang adds to it only what it adds to an analyzed function (its
            // explicit casts, atomics and intrinsics), not a whole function's facts
            if (clang != null) clang.analyzed(f.line);
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
        CudaChecks.run(analyzer.analyze(tree), rep, clang);
        recording.variateLines(rel, analyzer.variateLines());
        stats.ruleNanos.addAndGet(System.nanoTime() - t1);
        return true;
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
