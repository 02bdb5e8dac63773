package dev.numlint.scan;

import dev.numlint.config.ConfiguredRuleSettings;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.model.Suppression;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.KernelLink;
import dev.numlint.spi.PtxMode;
import dev.numlint.spi.RuleSettings;
import dev.numlint.spi.ScanContext;
import dev.numlint.util.Glob;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The scan engine: discovers files, rejects those that cannot be analyzed (unreadable, binary, too large), runs
 * the analyzers phase by phase (build context, host code and kernel links, kernels), then merges source and PTX
 * findings, attaches launch sites, applies in-source suppressions, assigns fingerprints and sorts everything.
 * Bad input and failing analyzers become notifications; a scan never aborts because of one file.
 */
public final class Scanner {
    /** How many bytes are inspected for a NUL byte to recognize binary files. */
    static final int BINARY_PROBE = 8192;

    public static final Comparator<Finding> FINDING_ORDER = Comparator.comparing(
                    (Finding f) -> f.location().file())
            .thenComparingInt(f -> f.location().startLine())
            .thenComparingInt(f -> f.location().startColumn())
            .thenComparing(Finding::ruleId)
            .thenComparing(Finding::message)
            .thenComparing(f -> f.layer().id())
            .thenComparingInt(f -> f.location().endLine())
            .thenComparingInt(f -> f.location().endColumn())
            // ties (which one of two near-identical findings survives the merge) must not depend on threads
            .thenComparing(f -> f.function() == null ? "" : f.function())
            .thenComparing(f -> f.fingerprintKey() == null ? "" : f.fingerprintKey())
            .thenComparing(f -> f.confidence().ordinal())
            .thenComparing(f -> f.level().ordinal())
            .thenComparing(f -> f.evidence().toString())
            .thenComparing(f -> f.related().toString())
            .thenComparing(f -> f.properties().toString())
            .thenComparing(f -> String.valueOf(f.suppression()));

    public static final Comparator<Notification> NOTIFICATION_ORDER = Comparator.comparing(
                    (Notification n) -> n.file() == null ? "" : n.file())
            .thenComparingInt(Notification::line)
            .thenComparing(Notification::id)
            .thenComparing(Notification::message)
            .thenComparing(Notification::level);

    /** The notification id of a failure of numlint itself (exit code 3). */
    public static final String INTERNAL_ERROR = "internal-error";

    private final ScanOptions options;
    private final RuleCatalog catalog = RuleCatalog.get();

    public Scanner(ScanOptions options) {
        this.options = options;
    }

    public static ScanResult scan(ScanOptions options) {
        return new Scanner(options).run();
    }

    public ScanResult run() {
        Path root = options.root;
        List<Glob> excludes = options.excludes.stream().map(Glob::new).collect(Collectors.toList());
        long t0 = dev.numlint.model.Timings.start();
        FileDiscovery.Result discovered = new FileDiscovery(root, excludes, options.cacheDir).discover(options.paths);
        dev.numlint.model.Timings.since("discovery", t0);
        Shared shared = new Shared(root);
        discovered.notifications().forEach(shared::notify);
        options.notices.forEach(shared::notify);
        List<Path> ok = new ArrayList<>();
        for (Path f : discovered.files()) {
            Notification bad = check(f, shared.relativize(f));
            if (bad == null) {
                ok.add(f);
            } else {
                shared.notify(bad);
            }
        }
        shared.files = List.copyOf(ok);
        Set<Path> handled = new LinkedHashSet<>();
        Progress progress = options.progressLines
                ? Progress.lines(options.progress, Progress.ptxHint(options.ptxMode, ok))
                : new Progress(options.progress);
        progress.startHeartbeat();

        ExecutorService pool = Executors.newFixedThreadPool(options.threads, daemon("numlint-worker"));
        ExecutorService runners = options.jobs > 0
                ? Executors.newFixedThreadPool(1, daemon("numlint-analyzer"))
                : Executors.newCachedThreadPool(daemon("numlint-analyzer"));
        try {
            Context ctx = new Context(shared, pool);
            // each analyzer is told its files before the first phase (a slow start of its own overlaps those before)
            List<Path> first = shared.files;
            Map<Analyzer, List<Path>> found = new java.util.LinkedHashMap<>();
            for (Analyzer a : options.analyzers) found.put(a, accepted(a, first, shared));
            found.forEach((a, fs) -> a.prepare(new AnalyzerRun(ctx, a, 0, progress), fs));
            if (options.ptxRequested == PtxMode.AUTO
                    && options.nvcc == null
                    && ok.stream().anyMatch(f -> f.getFileName().toString().endsWith(".cu"))) {
                shared.notify(new Notification(
                        null,
                        0,
                        Level.NOTE,
                        "ptx-unavailable",
                        "PTX layer off: nvcc not found (not on PATH, not in /usr/local/cuda/bin); install the CUDA "
                                + "toolkit or pass --nvcc PATH (the CUDA source layer still ran)"));
            }
            TreeMap<Integer, List<Analyzer>> phases = new TreeMap<>();
            for (Analyzer a : options.analyzers) {
                phases.computeIfAbsent(a.phase(), k -> new ArrayList<>()).add(a);
            }
            for (Map.Entry<Integer, List<Analyzer>> phase : phases.entrySet()) {
                if (phase.getKey() >= Analyzer.PHASE_KERNEL) {
                    addLinkedFiles(shared);
                }
                List<Path> files = shared.files;
                List<Future<?>> running = new ArrayList<>();
                for (Analyzer a : phase.getValue()) {
                    List<Path> accepted = files == first ? found.get(a) : accepted(a, files, shared);
                    handled.addAll(accepted);
                    progress.add(accepted.size());
                    running.add(runners.submit(() -> runAnalyzer(a, accepted, ctx, progress)));
                }
                for (Future<?> f : running) {
                    try {
                        f.get();
                    } catch (ExecutionException e) {
                        shared.internalError(null, "internal error in the scan: " + e.getCause());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("scan interrupted", e);
                    }
                }
            }
        } finally {
            pool.shutdownNow();
            runners.shutdownNow();
            progress.done();
        }
        long t1 = dev.numlint.model.Timings.start();
        ScanResult result = finish(shared, handled);
        dev.numlint.model.Timings.since("merge", t1);
        progress.finish(result.filesAnalyzed(), result.filesNotAnalyzed());
        return result;
    }

    private List<Path> accepted(Analyzer a, List<Path> files, Shared shared) {
        List<Path> out = new ArrayList<>();
        for (Path f : files) {
            try {
                if (a.accepts(Path.of(shared.relativize(f)))) {
                    out.add(f);
                }
            } catch (RuntimeException e) {
                shared.internalError(
                        shared.relativize(f), "internal error in " + a.id() + " on " + shared.relativize(f) + ": " + e);
            }
        }
        return out;
    }

    /** Runs one analyzer; when it throws, runs it again file by file so one bad file does not cost the others. */
    private void runAnalyzer(Analyzer a, List<Path> files, Context ctx, Progress progress) {
        AnalyzerRun batch = new AnalyzerRun(ctx, a, files.size(), progress);
        try {
            long t0 = dev.numlint.model.Timings.start();
            a.analyze(batch, files, batch);
            dev.numlint.model.Timings.since("analyzer " + a.id() + " (" + files.size() + " files)", t0);
            batch.commit();
            batch.finishProgress();
            return;
        } catch (RuntimeException | LinkageError | StackOverflowError | OutOfMemoryError e) {
            if (files.size() <= 1) {
                String file = files.isEmpty() ? null : ctx.shared.relativize(files.get(0));
                ctx.shared.internalError(
                        file, "internal error in " + a.id() + (file == null ? "" : " on " + file) + ": " + e);
                batch.finishProgress();
                return;
            }
            batch.undoProgress();
        }
        for (Path f : files) {
            AnalyzerRun one = new AnalyzerRun(ctx, a, 1, progress);
            try {
                a.analyze(one, List.of(f), one);
                one.commit();
            } catch (RuntimeException | LinkageError | StackOverflowError | OutOfMemoryError e) {
                String file = ctx.shared.relativize(f);
                ctx.shared.internalError(file, "internal error in " + a.id() + " on " + file + ": " + e);
            }
            one.finishProgress();
        }
    }

    /** Files linked from host code that the scan did not find itself join the kernel phase. */
    private void addLinkedFiles(Shared shared) {
        List<Path> files = new ArrayList<>(shared.files);
        Set<Path> known = new HashSet<>(files);
        boolean added = false;
        for (KernelLink link : shared.links()) {
            Path k = link.kernelFile().toAbsolutePath().normalize();
            if (known.contains(k)) {
                continue;
            }
            known.add(k);
            String rel = shared.relativize(k);
            if (!Files.isRegularFile(k)) {
                Location site = link.launchSite();
                shared.notify(new Notification(
                        site == null ? rel : site.file(),
                        site == null ? 0 : site.startLine(),
                        Level.WARNING,
                        "missing-kernel-file",
                        "kernel file " + rel + " launched here does not exist"));
                continue;
            }
            Notification bad = check(k, rel);
            if (bad != null) {
                shared.notify(bad);
                continue;
            }
            files.add(k);
            added = true;
        }
        if (added) {
            files.sort(Comparator.comparing(shared::relativize));
            shared.files = List.copyOf(files);
        }
    }

    /** Null when the file can be analyzed, else the notification that says why not. */
    private Notification check(Path f, String rel) {
        try {
            long size = Files.size(f);
            Layer layer = FileDiscovery.layerOf(f);
            long max = options.maxFileSize(layer);
            if (size > max) {
                return new Notification(
                        rel,
                        0,
                        Level.ERROR,
                        "file-too-large",
                        "not analyzed: the file has " + size
                                + " bytes, more than max-file-size for " + layer.id() + " (" + max + "); raise "
                                + "max-file-size-by-layer: {" + layer.id()
                                + ": BYTES} or max-file-size in .numlint.yml, "
                                + "or exclude the file");
            }
            byte[] head = new byte[BINARY_PROBE];
            int n;
            try (InputStream in = Files.newInputStream(f)) {
                n = in.readNBytes(head, 0, head.length);
            }
            for (int i = 0; i < n; i++) {
                if (head[i] == 0) {
                    return new Notification(
                            rel,
                            0,
                            Level.ERROR,
                            "binary-file",
                            "not analyzed: binary file (NUL byte at offset " + i + ")");
                }
            }
            return null;
        } catch (IOException e) {
            return new Notification(
                    rel, 0, Level.ERROR, "unreadable-file", "not analyzed: cannot read: " + FileDiscovery.describe(e));
        }
    }

    /**
     * Notices that depend on how long the run took (the PTX layer's "compiling took N s" hint): printed on standard
     * error, never put in a report, so that two runs over the same tree give identical reports.
     */
    static final Set<String> TIMING_NOTICES = Set.of("ptx-slow");

    /** The note of a file outside the scan's scope ({@code --scope build}): not counted as analyzed. */
    static final String OUTSIDE_SCOPE = "outside-build";

    private ScanResult finish(Shared shared, Set<Path> handled) {
        synchronized (shared) {
            for (java.util.Iterator<Notification> it = shared.notifications.iterator(); it.hasNext(); ) {
                Notification n = it.next();
                if (!TIMING_NOTICES.contains(n.id())) continue;
                it.remove();
                if (options.progress != null) {
                    options.progress.println("numlint: note: " + dev.numlint.util.Escapes.text(n.message()));
                }
            }
        }
        SourceLines lines = new SourceLines(shared.root, shared.boundary);
        List<Finding> findings = new ArrayList<>(shared.findings);
        // a finding located in an excluded file goes with the file (a .ptx elsewhere maps findings into it)
        List<Glob> excludes = options.excludes.stream().map(Glob::new).toList();
        findings.removeIf(f -> FileDiscovery.excludes(
                excludes, shared.root, options.paths, f.location().file()));
        findings = LaunchSites.attach(findings, shared.links(), shared::relativize);
        findings.sort(FINDING_ORDER);
        // source and PTX findings of one rule on one line (input sorted, order kept)
        findings = LayerMerge.merge(findings, shared.lines);
        findings.removeIf(Scanner::exact);
        TreeSet<Notification> notes = new TreeSet<>(NOTIFICATION_ORDER);
        notes.addAll(shared.notifications);
        // each front end's review of the merged findings (the build flags: what a device-code flag changes)
        Map<String, BuildContext> contexts = shared.contexts();
        Set<String> unanalyzed = notAnalyzed(notes);
        for (Analyzer a : options.analyzers) {
            var l = shared.lines;
            findings = a.review(findings, contexts, unanalyzed, l.units(), l.functions(), l.launches(), l.calls());
        }
        // code the project carries but did not write (scan/BundledCode): notes, one notice per library
        String bundled = options.settings.get(BundledCode.SETTING);
        findings = BundledCode.review(findings, lines, shared.boundary, contexts, bundled, shared.notifications);
        findings = CopiedFiles.review(findings, lines, shared.notifications); // a build's copy of a written file
        // what the merge added to a message may not exceed the one short line a message is
        findings = findings.stream()
                .map(f -> f.message().length() <= dev.numlint.rules.Quote.MESSAGE
                        ? f
                        : f.toBuilder()
                                .message(dev.numlint.rules.Quote.fit(f.message()))
                                .build())
                .collect(Collectors.toCollection(ArrayList::new));
        findings = suppress(findings, lines);
        findings = LoopGroups.group(findings); // the sums one loop carries (policy group-by-loop), suppressed or not
        findings = RunGroups.group(findings); // one hazard on neighbouring lines of a function (policy group-runs)
        for (Path f : handled) {
            reportUnjustified(shared.relativize(f), lines, shared);
        }
        findings.sort(FINDING_ORDER);
        String project = options.settings.get(ProjectRoot.SETTING); // a scan inside a project: named from it
        findings = Fingerprints.assign(
                findings,
                lines,
                Fingerprints.paths(shared.root, project == null ? options.paths : List.of(Path.of(project))));

        notes = new TreeSet<>(NOTIFICATION_ORDER);
        notes.addAll(shared.notifications);
        // analyzers report their own per-file failures as "internal-error" notifications: those count too
        boolean internal = shared.internalError || notes.stream().anyMatch(n -> INTERNAL_ERROR.equals(n.id()));
        Set<String> notAnalyzed = notes.stream()
                .filter(n -> n.notAnalyzed() && n.file() != null)
                .map(Notification::file)
                .collect(Collectors.toCollection(TreeSet::new));
        // files a front end left out of the scan's scope (--scope build) are neither analyzed nor failures
        Set<String> outside = notes.stream()
                .filter(n -> OUTSIDE_SCOPE.equals(n.id()) && n.file() != null)
                .map(Notification::file)
                .collect(Collectors.toSet());
        int analyzed = (int) handled.stream()
                .map(shared::relativize)
                .filter(f -> !notAnalyzed.contains(f) && !outside.contains(f))
                .count();
        return new ScanResult(
                shared.root,
                List.copyOf(findings),
                List.copyOf(notes),
                analyzed,
                notAnalyzed.size(),
                !internal,
                shared::buildContext);
    }

    private static Set<String> notAnalyzed(Set<Notification> notes) {
        return notes.stream()
                .filter(n -> n.notAnalyzed() && n.file() != null)
                .map(Notification::file)
                .collect(Collectors.toSet());
    }

    /** A finding whose impact is provably exact: no hazard, dropped once it has merged with the other layer. */
    static boolean exact(Finding f) {
        return f.impact() != null && f.impact().kind() == Impact.Kind.EXACT;
    }

    private static List<Finding> suppress(List<Finding> findings, SourceLines lines) {
        Map<String, SuppressionComments.FileComments> comments = new HashMap<>();
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            if (f.suppressed()) {
                out.add(f);
                continue;
            }
            String file = f.location().file();
            SuppressionComments.Comment hit = comments.computeIfAbsent(
                            file, k -> SuppressionComments.parse(k, lines.lines(k)))
                    .match(f.location().startLine(), f.ruleId());
            out.add(
                    hit == null
                            ? f
                            : f.toBuilder()
                                    .suppression(new Suppression(
                                            "inSource", hit.justification(), Location.line(file, hit.line())))
                                    .build());
        }
        return out;
    }

    private void reportUnjustified(String file, SourceLines lines, Shared shared) {
        SuppressionComments.FileComments fc = SuppressionComments.parse(file, lines.linesUncached(file));
        for (SuppressionComments.Comment c : fc.comments) {
            String problem = SuppressionComments.problem(c, fc.syntax);
            if (problem != null) {
                shared.notify(new Notification(
                        file,
                        c.line(),
                        Level.WARNING,
                        c.ids().isEmpty()
                                        || !c.stray().isEmpty()
                                        || c.kind() == SuppressionComments.Kind.BEGIN && c.endLine() == 0
                                ? "malformed-suppression"
                                : "unjustified-suppression",
                        problem));
            }
            for (String id : c.ids()) {
                if (!id.equals(SuppressionComments.ALL) && !catalog.has(id)) {
                    shared.notify(new Notification(
                            file, c.line(), Level.WARNING, "unknown-rule", "suppression names unknown rule " + id));
                }
            }
        }
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * The scanned PATHs, plus the project root a scan inside a project was given ({@link ProjectRoot#SETTING}) and the
     * build directory named with -p ({@link ProjectRoot#BUILD_DIR_SETTING}).
     */
    private List<Path> boundaryRoots() {
        List<Path> roots = new ArrayList<>(options.paths);
        for (String key : List.of(ProjectRoot.SETTING, ProjectRoot.BUILD_DIR_SETTING)) {
            if (options.settings.get(key) != null) roots.add(Path.of(options.settings.get(key)));
        }
        return roots;
    }

    /** State shared by all analyzers of one scan. */
    final class Shared {
        final Path root;
        /**
         * What the scan may read and quote: the real paths of the scanned PATHs, never the working directory; for a
         * file or subdirectory scanned inside a project, also that project's root ({@link ProjectRoot#find}: never
         * above a repository root, the home directory or a directory others may write): its build files and headers.
         */
        final dev.numlint.spi.TrustBoundary boundary = dev.numlint.spi.TrustBoundary.of(boundaryRoots());

        volatile List<Path> files = List.of();
        final List<Finding> findings = new ArrayList<>();
        final List<Notification> notifications = new ArrayList<>();
        private final List<KernelLink> links = new ArrayList<>();
        /** Random-variate lines and the lines PTX compiled, by file ({@link ScanContext#addRandomVariateLines}). */
        final LineFacts lines = new LineFacts();

        private BuildContext project = BuildContext.defaults();
        private final Map<Path, BuildContext> perFile = new HashMap<>();
        volatile boolean internalError;

        Shared(Path root) {
            this.root = root;
        }

        String relativize(Path file) {
            Path abs = file.toAbsolutePath().normalize();
            return abs.startsWith(root) ? root.relativize(abs).toString().replace('\\', '/') : abs.toString();
        }

        synchronized void notify(Notification n) {
            notifications.add(n);
        }

        void internalError(String file, String message) {
            internalError = true;
            notify(new Notification(file, 0, Level.ERROR, INTERNAL_ERROR, message));
        }

        /** The build context of every file that has one, by path relative to the root. */
        synchronized Map<String, BuildContext> contexts() {
            Map<String, BuildContext> out = new HashMap<>();
            for (Map.Entry<Path, BuildContext> e : perFile.entrySet()) out.put(relativize(e.getKey()), e.getValue());
            return out;
        }

        synchronized List<KernelLink> links() {
            return List.copyOf(links);
        }

        synchronized BuildContext buildContext(Path file) {
            BuildContext c = project.copy();
            BuildContext own =
                    file == null ? null : perFile.get(file.toAbsolutePath().normalize());
            return own == null ? c : c.merge(own);
        }

        synchronized void commit(
                List<Finding> fs,
                List<Notification> ns,
                List<KernelLink> ls,
                List<Map.Entry<Path, BuildContext>> contexts) {
            findings.addAll(fs);
            notifications.addAll(ns);
            links.addAll(ls);
            for (Map.Entry<Path, BuildContext> e : contexts) {
                if (e.getKey() == null) {
                    project = project.copy().merge(e.getValue());
                } else {
                    perFile.merge(
                            e.getKey().toAbsolutePath().normalize(),
                            e.getValue().copy(),
                            (a, b) -> a.copy().merge(b));
                }
            }
        }
    }

    /** The scan-wide context. */
    final class Context {
        final Shared shared;
        final ExecutorService pool;

        Context(Shared shared, ExecutorService pool) {
            this.shared = shared;
            this.pool = pool;
        }
    }

    /** One call of one analyzer: a context and sink that hand what it reports over only if the call returns. */
    final class AnalyzerRun implements ScanContext, FindingSink {
        private final Context ctx;
        private final Analyzer analyzer;
        private final ConfiguredRuleSettings rules = options.rules;
        private final List<Finding> findings = new ArrayList<>();
        private final List<Notification> notifications = new ArrayList<>();
        private final List<KernelLink> links = new ArrayList<>();
        private final List<Map.Entry<Path, BuildContext>> contexts = new ArrayList<>();

        private final AnalyzerProgress progress;
        private final ExecutorService executor;

        AnalyzerRun(Context ctx, Analyzer analyzer, int fileCount, Progress progress) {
            this.ctx = ctx;
            this.analyzer = analyzer;
            this.progress = new AnalyzerProgress(progress, fileCount);
            this.executor = new CountingExecutor(ctx.pool, this.progress::taskDone);
        }

        @Override
        public void fileDone() {
            progress.fileDone();
        }

        @Override
        public void moreFiles(int n) {
            progress.more(n);
        }

        void finishProgress() {
            progress.finish();
        }

        void undoProgress() {
            progress.undo();
        }

        void commit() {
            List<Finding> fs;
            List<Notification> ns;
            List<KernelLink> ls;
            List<Map.Entry<Path, BuildContext>> cs;
            synchronized (this) {
                fs = List.copyOf(findings);
                ns = List.copyOf(notifications);
                ls = List.copyOf(links);
                cs = List.copyOf(contexts);
            }
            ctx.shared.commit(fs, ns, ls, cs);
        }

        // FindingSink
        @Override
        public void report(Finding.Builder b) {
            String id = b.ruleId();
            if (id == null || !catalog.has(id)) {
                throw new IllegalArgumentException(analyzer.id() + " reported a finding with unknown rule id " + id);
            }
            if (!rules.enabled(id)) {
                return;
            }
            Optional<Level> configured = rules.configuredLevel(id);
            if (configured.isPresent()) {
                b.level(configured.get());
            } else if (b.level() == null) {
                b.level(rules.level(id));
            }
            if (b.impact() != null) {
                // the configured or catalog level is the ceiling; the impact decides below it
                java.util.Set<Impact.Reach> tieOnly = catalog.policy(id).tieOnly();
                Level byImpact = b.impact().level(b.level(), tieOnly);
                if (byImpact != null) {
                    if (b.impact().onlyAtTie(tieOnly)) b.property("onlyAtTie", true);
                    b.level(byImpact);
                }
                // provably exact: not a hazard, never shown; kept until the layers merge, where it takes the other
                // layer's finding of the same operation with it (LayerMerge)
            }
            Finding f = b.build();
            Location l = f.location();
            if (Path.of(l.file()).isAbsolute()) {
                // an analyzer that forgot ctx.relativize: report paths under the root relative to it anyway
                String rel = relativize(Path.of(l.file()));
                if (!rel.equals(l.file())) {
                    f = f.toBuilder()
                            .location(new Location(rel, l.startLine(), l.startColumn(), l.endLine(), l.endColumn()))
                            .build();
                }
            }
            synchronized (this) {
                findings.add(f);
            }
        }

        @Override
        public synchronized void notify(Notification n) {
            notifications.add(n);
        }

        // ScanContext
        @Override
        public Path root() {
            return ctx.shared.root;
        }

        @Override
        public dev.numlint.spi.TrustBoundary boundary() {
            return ctx.shared.boundary;
        }

        @Override
        public List<Path> files() {
            return ctx.shared.files;
        }

        @Override
        public RuleSettings rules() {
            return rules;
        }

        @Override
        public BuildContext buildContext(Path file) {
            BuildContext c = ctx.shared.buildContext(file);
            Path abs = file == null ? null : file.toAbsolutePath().normalize();
            synchronized (this) {
                for (Map.Entry<Path, BuildContext> e : contexts) {
                    if (e.getKey() == null || e.getKey().equals(abs)) {
                        c.merge(e.getValue());
                    }
                }
            }
            return c;
        }

        @Override
        public synchronized void addBuildContext(Path file, BuildContext bc) {
            contexts.add(new java.util.AbstractMap.SimpleImmutableEntry<>(
                    file == null ? null : file.toAbsolutePath().normalize(), bc.copy()));
        }

        @Override
        public List<String> commandLineFlags() {
            return options.nvccFlags;
        }

        @Override
        public PtxMode ptxMode() {
            return options.ptxMode;
        }

        @Override
        public String cudaArch() {
            return options.cudaArch;
        }

        @Override
        public Optional<Path> nvcc() {
            return Optional.ofNullable(options.nvcc);
        }

        @Override
        public List<Path> classpath() {
            return options.classpath;
        }

        @Override
        public ExecutorService executor() {
            return executor;
        }

        @Override
        public String relativize(Path file) {
            return ctx.shared.relativize(file);
        }

        @Override
        public Optional<String> setting(String key) {
            return Optional.ofNullable(options.settings.get(key));
        }

        @Override
        public long maxFileSize(Layer layer) {
            return options.maxFileSize(layer);
        }

        @Override
        public synchronized void linkKernel(KernelLink link) {
            links.add(link);
        }

        @Override
        public void addRandomVariateLines(String file, Set<Integer> lines) {
            ctx.shared.lines.addVariates(file, lines);
        }

        @Override
        public void addCompiledLines(String file, Set<Integer> code, Set<Integer> fp64) {
            ctx.shared.lines.addCompiled(file, code, fp64);
        }

        @Override
        public void addPtxUnit(String unit, boolean read) {
            ctx.shared.lines.addPtxUnit(unit, read);
        }

        @Override
        public void addUnitArithmetic(dev.numlint.model.UnitArithmetic fact) {
            ctx.shared.lines.addUnit(fact);
        }

        @Override
        public void addFunctions(java.util.Collection<dev.numlint.model.DeclaredFunction> functions) {
            ctx.shared.lines.addFunctions(functions);
        }

        @Override
        public void addLaunches(java.util.Collection<dev.numlint.model.KernelLaunch> launches) {
            ctx.shared.lines.addLaunches(launches);
        }

        @Override
        public void addCalls(dev.numlint.model.FileCalls calls) {
            ctx.shared.lines.addCalls(calls);
        }

        @Override
        public Path cacheDir() {
            try {
                return Files.createDirectories(options.cacheDir);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot create the cache directory " + options.cacheDir, e);
            }
        }
    }
}
