package dev.numlint.scan;

import dev.numlint.config.ConfiguredRuleSettings;
import dev.numlint.config.NumlintConfig;
import dev.numlint.spi.Analyzer;
import dev.numlint.spi.PtxMode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Everything a scan needs; build with {@link #builder(Path)}. */
public final class ScanOptions {
    /** Default for {@code --cuda-arch}. */
    public static final String DEFAULT_CUDA_ARCH = "compute_90";

    final Path root;
    final List<Path> paths;
    final List<Analyzer> analyzers;
    final ConfiguredRuleSettings rules;

    /** The effective rule configuration of the scan (catalog defaults overlaid with the configuration file). */
    public dev.numlint.spi.RuleSettings ruleSettings() {
        return rules;
    }

    final List<String> excludes;
    final java.util.Map<dev.numlint.model.Layer, Long> maxFileSizes;
    final PtxMode ptxMode;
    final PtxMode ptxRequested;
    final Path nvcc;
    final List<String> nvccFlags;
    final String cudaArch;
    final List<Path> classpath;
    final Path cacheDir;
    final PrintStream progress;
    final boolean progressLines;
    final int threads;
    /** {@code -j N}: the analyzers of a phase run one after another, so N threads in all do the work (0: no limit). */
    final int jobs;
    /** Front-end settings ({@link dev.numlint.spi.ScanContext#setting}). */
    final java.util.Map<String, String> settings;
    /** Notices found before the scan (a configuration file not read), reported with the scan's. */
    final List<dev.numlint.model.Notification> notices;

    private ScanOptions(Builder b) {
        root = b.root.toAbsolutePath().normalize();
        paths = b.paths.isEmpty() ? List.of(root) : List.copyOf(b.paths);
        analyzers = withBuildOptions(b.analyzers == null ? Analyzers.load() : List.copyOf(b.analyzers), b.build);
        rules = b.rules == null ? ConfiguredRuleSettings.defaults() : b.rules;
        excludes = List.copyOf(b.excludes);
        maxFileSizes = java.util.Map.copyOf(b.maxFileSizes);
        ptxRequested = b.ptxMode;
        ptxMode = b.nvcc == null ? PtxMode.OFF : b.ptxMode;
        nvcc = ptxMode == PtxMode.AUTO ? b.nvcc : null;
        nvccFlags = List.copyOf(b.nvccFlags);
        cudaArch = b.cudaArch == null ? DEFAULT_CUDA_ARCH : b.cudaArch;
        classpath = List.copyOf(b.classpath);
        cacheDir = b.cacheDir == null
                ? defaultCacheDir()
                : b.cacheDir.toAbsolutePath().normalize();
        progress = b.progress;
        progressLines = b.progressLines;
        jobs = b.jobs;
        threads = b.jobs > 0
                ? Math.max(1, b.jobs - 1)
                : b.threads > 0 ? b.threads : Runtime.getRuntime().availableProcessors();
        java.util.Map<String, String> st = new java.util.HashMap<>(b.settings);
        // front ends that reach files by #include honour the excludes too
        if (!excludes.isEmpty()) st.put("exclude", String.join("\n", excludes));
        settings = java.util.Map.copyOf(st);
        notices = List.copyOf(b.notices);
    }

    /** The build-flag analyzer of the list configured with the build-model options ({@code -p}, ...). */
    private static List<Analyzer> withBuildOptions(List<Analyzer> as, dev.numlint.spi.BuildOptions build) {
        if (build == null) return as;
        List<Analyzer> out = new ArrayList<>();
        for (Analyzer a : as) {
            out.add(a.withBuildOptions(build));
        }
        return List.copyOf(out);
    }

    /** The max-file-size of {@code layer}. */
    public long maxFileSize(dev.numlint.model.Layer layer) {
        Long v = maxFileSizes.get(layer);
        return v != null ? v : dev.numlint.spi.ScanContext.defaultMaxFileSize(layer);
    }

    public static Builder builder(Path root) {
        return new Builder(root);
    }

    public Path root() {
        return root;
    }

    public List<Analyzer> analyzers() {
        return analyzers;
    }

    /** $XDG_CACHE_HOME/numlint, else $HOME/.cache/numlint (Java's user.home only when $HOME is not set). */
    public static Path defaultCacheDir() {
        return defaultCacheDir(System.getenv());
    }

    /** {@link #defaultCacheDir()} for the given environment. */
    static Path defaultCacheDir(java.util.Map<String, String> env) {
        String xdg = env.get("XDG_CACHE_HOME");
        // the XDG base directory specification: a relative path is invalid and must be ignored
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "numlint").normalize();
        }
        String home = env.get("HOME");
        if (home == null || home.isBlank()) {
            home = System.getProperty("user.home");
        }
        return Path.of(home, ".cache", "numlint").toAbsolutePath().normalize();
    }

    public static final class Builder {
        private final Path root;
        private final List<Path> paths = new ArrayList<>();
        private List<Analyzer> analyzers;
        private ConfiguredRuleSettings rules;
        private final List<String> excludes = new ArrayList<>();
        private final java.util.Map<dev.numlint.model.Layer, Long> maxFileSizes =
                new java.util.EnumMap<>(NumlintConfig.defaultSizes());
        private PtxMode ptxMode = PtxMode.OFF;
        private Path nvcc;
        private final List<String> nvccFlags = new ArrayList<>();
        private String cudaArch;
        private final List<Path> classpath = new ArrayList<>();
        private Path cacheDir;
        private PrintStream progress;
        private boolean progressLines;
        private int threads;
        private int jobs;
        private dev.numlint.spi.BuildOptions build;
        private final java.util.Map<String, String> settings = new java.util.HashMap<>();

        private Builder(Path root) {
            this.root = Objects.requireNonNull(root, "root");
        }

        /** A file or directory to scan (default: the root). */
        private final List<dev.numlint.model.Notification> notices = new ArrayList<>();

        /** A notice found before the scan, reported with the scan's. */
        public Builder notice(dev.numlint.model.Notification n) {
            if (n != null) notices.add(n);
            return this;
        }

        public Builder path(Path p) {
            paths.add(p.toAbsolutePath().normalize());
            return this;
        }

        public Builder paths(List<Path> ps) {
            ps.forEach(this::path);
            return this;
        }
        /** The analyzers to run (default: those found with ServiceLoader). */
        public Builder analyzers(List<Analyzer> a) {
            analyzers = a;
            return this;
        }
        /** Applies a configuration: rule settings, excludes and the file size limit. */
        public Builder config(NumlintConfig c) {
            rules = c.ruleSettings();
            excludes.addAll(c.exclude());
            maxFileSizes.putAll(c.maxFileSizes());
            if (c.includeExtensions() != null)
                settings.put("include-extensions", String.join(",", c.includeExtensions()));
            if (c.bundledCode() != null) settings.put("bundled-code", c.bundledCode());
            return this;
        }
        /** A front-end setting (see {@link dev.numlint.spi.ScanContext#setting}). */
        public Builder setting(String key, String value) {
            settings.put(key, value);
            return this;
        }

        public Builder rules(ConfiguredRuleSettings r) {
            rules = r;
            return this;
        }

        public Builder exclude(String glob) {
            excludes.add(glob);
            return this;
        }
        /** The same max-file-size for every layer. */
        public Builder maxFileSize(long bytes) {
            maxFileSizes.replaceAll((l, v) -> bytes);
            return this;
        }
        /** The max-file-size of one layer. */
        public Builder maxFileSize(dev.numlint.model.Layer layer, long bytes) {
            maxFileSizes.put(layer, bytes);
            return this;
        }
        /** {@code --ptx}: AUTO takes effect only with an nvcc. */
        public Builder ptx(PtxMode mode, Path nvccPath) {
            ptxMode = mode;
            nvcc = nvccPath;
            return this;
        }

        public Builder nvccFlags(List<String> flags) {
            nvccFlags.addAll(flags);
            return this;
        }

        public Builder cudaArch(String arch) {
            cudaArch = arch;
            return this;
        }

        public Builder classpath(List<Path> cp) {
            classpath.addAll(cp);
            return this;
        }

        public Builder cacheDir(Path dir) {
            cacheDir = dir;
            return this;
        }
        /** Where to print {@code [done/total]} progress, or null for none. */
        public Builder progress(PrintStream out) {
            progress = out;
            progressLines = false;
            return this;
        }
        /** Where to print a progress line now and then (a log, not a terminal), or null for none. */
        public Builder progressLines(PrintStream out) {
            progress = out;
            progressLines = true;
            return this;
        }

        public Builder threads(int n) {
            threads = n;
            return this;
        }

        /**
         * At most {@code n} threads do the analysis ({@code -j}): the analyzers of a phase run one after another on
         * one thread and their helpers on {@code n - 1} more (front ends size their helpers with
         * {@link dev.numlint.model.Cores}, which the command line limits too). 0: no limit.
         */
        public Builder jobs(int n) {
            jobs = Math.max(0, n);
            return this;
        }
        /** Build-model options: {@code -p}, {@code --make-target}, {@code --cmake-define}, {@code --preset}. */
        public Builder buildOptions(dev.numlint.spi.BuildOptions o) {
            build = o;
            return this;
        }

        public ScanOptions build() {
            return new ScanOptions(this);
        }
    }
}
