package dev.numlint.testing;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RuleOption;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.FindingSink;
import dev.numlint.spi.KernelLink;
import dev.numlint.spi.PtxMode;
import dev.numlint.spi.RuleSettings;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A minimal {@link ScanContext} and {@link FindingSink} for analyzer unit and fixture tests: all rules enabled at
 * their catalog levels (or as overridden), findings and notifications collected in memory.
 */
public final class TestScanContext implements ScanContext, FindingSink, RuleSettings {
    private final Path root;
    private final List<Path> files;
    private final Map<Path, BuildContext> contexts = new HashMap<>();
    private BuildContext projectContext = BuildContext.defaults();
    private final Map<String, String> options = new HashMap<>();
    private final Set<String> disabled = new java.util.HashSet<>();
    private PtxMode ptxMode = PtxMode.OFF;
    private List<String> commandLineFlags = List.of();
    private Path nvcc;
    private final List<Path> classpath = new ArrayList<>();
    private final List<KernelLink> links = Collections.synchronizedList(new ArrayList<>());
    private final List<Finding> findings = Collections.synchronizedList(new ArrayList<>());
    private final List<Notification> notifications = Collections.synchronizedList(new ArrayList<>());
    private static final ExecutorService POOL = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "test-scan");
        t.setDaemon(true);
        return t;
    });

    public TestScanContext(Path root) {
        this.root = root.toAbsolutePath().normalize();
        try (Stream<Path> s = Files.walk(this.root)) {
            this.files = s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Leaves the files {@code outside} selects out of the scan: {@link #files} does not list them, as a scan given
     * other PATHs of the project does not, but they stay under the root, readable (a project header the scanned code
     * includes).
     */
    public TestScanContext outsideScan(java.util.function.Predicate<Path> outside) {
        files.removeIf(f -> outside.test(root.relativize(f)));
        return this;
    }

    public TestScanContext option(String ruleId, String option, String value) {
        options.put(ruleId + "." + option, value);
        return this;
    }

    private final Map<String, String> settings = new HashMap<>();

    /** A front-end setting ({@link ScanContext#setting}). */
    public TestScanContext setting(String key, String value) {
        settings.put(key, value);
        return this;
    }

    @Override
    public java.util.Optional<String> setting(String key) {
        return java.util.Optional.ofNullable(settings.get(key));
    }

    public TestScanContext disable(String ruleId) {
        disabled.add(ruleId);
        return this;
    }

    public TestScanContext projectContext(BuildContext c) {
        projectContext = c;
        return this;
    }

    public TestScanContext ptx(PtxMode mode, Path nvccPath) {
        ptxMode = mode;
        nvcc = nvccPath;
        return this;
    }

    public TestScanContext commandLineFlags(List<String> flags) {
        commandLineFlags = List.copyOf(flags);
        return this;
    }

    public TestScanContext classpathEntry(Path p) {
        classpath.add(p);
        return this;
    }

    /** Runs {@code analyzer} on every file under the root it accepts. */
    public TestScanContext run(Analyzer analyzer) {
        List<Path> accepted =
                files.stream().filter(f -> analyzer.accepts(root.relativize(f))).collect(Collectors.toList());
        analyzer.analyze(this, accepted, this);
        return this;
    }

    /** Runs {@code analyzer} on the files under the root it accepts and {@code which} selects (the rest stay in view). */
    public TestScanContext run(Analyzer analyzer, java.util.function.Predicate<Path> which) {
        List<Path> accepted = files.stream()
                .filter(f -> analyzer.accepts(root.relativize(f)) && which.test(f))
                .collect(Collectors.toList());
        analyzer.analyze(this, accepted, this);
        return this;
    }

    public List<Finding> findings() {
        return findings;
    }

    private final Map<String, java.util.Set<Integer>> variateLines = new java.util.TreeMap<>();

    @Override
    public synchronized void addRandomVariateLines(String file, java.util.Set<Integer> lines) {
        variateLines.computeIfAbsent(file, f -> new java.util.TreeSet<>()).addAll(lines);
    }

    /** The random-variate lines the front end gave, by file ({@link ScanContext#addRandomVariateLines}). */
    public synchronized Map<String, java.util.Set<Integer>> variateLines() {
        return new java.util.TreeMap<>(variateLines);
    }

    private final Map<String, java.util.Set<Integer>> codeLines = new java.util.TreeMap<>();
    private final Map<String, java.util.Set<Integer>> fp64Lines = new java.util.TreeMap<>();

    @Override
    public synchronized void addCompiledLines(String file, java.util.Set<Integer> code, java.util.Set<Integer> fp64) {
        codeLines.computeIfAbsent(file, f -> new java.util.TreeSet<>()).addAll(code);
        fp64Lines.computeIfAbsent(file, f -> new java.util.TreeSet<>()).addAll(fp64);
    }

    /** The lines with PTX code the PTX front end gave, by file ({@link ScanContext#addCompiledLines}). */
    public synchronized Map<String, java.util.Set<Integer>> codeLines() {
        return new java.util.TreeMap<>(codeLines);
    }

    /** The lines with an FP64 instruction the PTX front end gave, by file ({@link ScanContext#addCompiledLines}). */
    public synchronized Map<String, java.util.Set<Integer>> fp64Lines() {
        return new java.util.TreeMap<>(fp64Lines);
    }

    public List<Notification> notifications() {
        return notifications;
    }

    public List<KernelLink> links() {
        return links;
    }

    /** Unsuppressed findings as (file, line, rule) for {@link InlineExpectations#compare}. */
    public List<InlineExpectations.Hit> hits() {
        synchronized (findings) {
            return findings.stream()
                    .filter(f -> !f.suppressed())
                    .map(f -> new InlineExpectations.Hit(
                            f.location().file(), f.location().startLine(), f.ruleId()))
                    .collect(Collectors.toList());
        }
    }

    /** The level id of every unsuppressed finding, for {@link InlineExpectations#compare(java.util.Collection, Map)}. */
    public Map<InlineExpectations.Hit, String> levels() {
        synchronized (findings) {
            Map<InlineExpectations.Hit, String> m = new java.util.TreeMap<>();
            for (Finding f : findings) {
                if (!f.suppressed()) {
                    m.merge(
                            new InlineExpectations.Hit(
                                    f.location().file(), f.location().startLine(), f.ruleId()),
                            f.level().id(),
                            (a, b) -> Level.valueOf(a.toUpperCase(java.util.Locale.ROOT))
                                            .atLeast(Level.valueOf(b.toUpperCase(java.util.Locale.ROOT)))
                                    ? a
                                    : b);
                }
            }
            return m;
        }
    }

    // ScanContext
    @Override
    public Path root() {
        return root;
    }

    @Override
    public List<Path> files() {
        return files;
    }

    @Override
    public RuleSettings rules() {
        return this;
    }

    @Override
    public BuildContext buildContext(Path file) {
        BuildContext c = projectContext.copy();
        BuildContext own = contexts.get(file.toAbsolutePath().normalize());
        return own == null ? c : c.merge(own);
    }

    @Override
    public synchronized void addBuildContext(Path file, BuildContext ctx) {
        if (file == null) projectContext = projectContext.copy().merge(ctx);
        else
            contexts.merge(
                    file.toAbsolutePath().normalize(), ctx, (a, b) -> a.copy().merge(b));
    }

    @Override
    public List<String> commandLineFlags() {
        return commandLineFlags;
    }

    @Override
    public PtxMode ptxMode() {
        return ptxMode;
    }

    @Override
    public String cudaArch() {
        return "compute_90";
    }

    @Override
    public Optional<Path> nvcc() {
        return Optional.ofNullable(nvcc);
    }

    @Override
    public List<Path> classpath() {
        return classpath;
    }

    @Override
    public ExecutorService executor() {
        return POOL;
    }

    @Override
    public String relativize(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        return abs.startsWith(root) ? root.relativize(abs).toString().replace('\\', '/') : abs.toString();
    }

    @Override
    public void linkKernel(KernelLink link) {
        links.add(link);
    }

    /**
     * One cache directory for the test JVM, outside every scanned tree (a test's tree may be a fixture directory that
     * other tests read file by file: the Clang header cache kept there was lexed as a source), removed at exit.
     */
    @Override
    public Path cacheDir() {
        return TestCache.DIR;
    }

    private static final class TestCache {
        static final Path DIR = create();

        private static Path create() {
            try {
                Path d = Files.createTempDirectory("numlint-test-cache");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try (var all = Files.walk(d)) {
                        all.sorted(java.util.Comparator.reverseOrder())
                                .forEach(f -> f.toFile().delete());
                    } catch (IOException | UncheckedIOException e) {
                        // a temporary directory: the system's cleanup of its temporary files removes what is left
                    }
                }));
                return d;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    // FindingSink
    @Override
    public void report(Finding.Builder b) {
        if (!enabled(b.ruleId())) return;
        if (b.level() == null) b.level(level(b.ruleId()));
        if (b.impact() != null) {
            // as the scan does: the rule's level is the ceiling, the impact decides below it; exact is no finding
            java.util.Set<dev.numlint.model.Impact.Reach> tieOnly =
                    dev.numlint.rules.RuleCatalog.get().policy(b.ruleId()).tieOnly();
            Level byImpact = b.impact().level(b.level(), tieOnly);
            if (byImpact == null) return;
            if (b.impact().onlyAtTie(tieOnly)) b.property("onlyAtTie", true);
            b.level(byImpact);
        }
        findings.add(b.build());
    }

    @Override
    public void notify(Notification n) {
        notifications.add(n);
    }

    // RuleSettings
    @Override
    public boolean enabled(String ruleId) {
        return !disabled.contains(ruleId);
    }

    @Override
    public Level level(String ruleId) {
        return RuleCatalog.get().rule(ruleId).level();
    }

    @Override
    public String option(String ruleId, String option) {
        String v = options.get(ruleId + "." + option);
        if (v != null) return v;
        RuleOption o = RuleCatalog.get().rule(ruleId).option(option);
        if (o == null) throw new IllegalArgumentException("unknown option " + ruleId + "." + option);
        return o.defaultValue();
    }
}
