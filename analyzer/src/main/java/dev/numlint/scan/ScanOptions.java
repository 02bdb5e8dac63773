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
    final List<String> excludes;
    final long maxFileSize;
    final PtxMode ptxMode;
    final PtxMode ptxRequested;
    final Path nvcc;
    final List<String> nvccFlags;
    final String cudaArch;
    final List<Path> classpath;
    final Path cacheDir;
    final PrintStream progress;
    final int threads;
    /** Front-end settings ({@link dev.numlint.spi.ScanContext#setting}). */
    final java.util.Map<String, String> settings;

    private ScanOptions(Builder b) {
        root = b.root.toAbsolutePath().normalize();
        paths = b.paths.isEmpty() ? List.of(root) : List.copyOf(b.paths);
        analyzers = b.analyzers == null ? Analyzers.load() : List.copyOf(b.analyzers);
        rules = b.rules == null ? ConfiguredRuleSettings.defaults() : b.rules;
        excludes = List.copyOf(b.excludes);
        maxFileSize = b.maxFileSize;
        ptxRequested = b.ptxMode;
        ptxMode = b.nvcc == null ? PtxMode.OFF : b.ptxMode;
        nvcc = ptxMode == PtxMode.AUTO ? b.nvcc : null;
        nvccFlags = List.copyOf(b.nvccFlags);
        cudaArch = b.cudaArch == null ? DEFAULT_CUDA_ARCH : b.cudaArch;
        classpath = List.copyOf(b.classpath);
        cacheDir = b.cacheDir == null ? defaultCacheDir() : b.cacheDir.toAbsolutePath().normalize();
        progress = b.progress;
        threads = b.threads > 0 ? b.threads : Runtime.getRuntime().availableProcessors();
        java.util.Map<String, String> st = new java.util.HashMap<>(b.settings);
        // front ends that reach files by #include honour the excludes too
        if (!excludes.isEmpty()) st.put("exclude", String.join("\n", excludes));
        settings = java.util.Map.copyOf(st);
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

    /** $XDG_CACHE_HOME/numlint, or ~/.cache/numlint. */
    public static Path defaultCacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "numlint").toAbsolutePath().normalize();
        }
        return Path.of(System.getProperty("user.home"), ".cache", "numlint").toAbsolutePath().normalize();
    }

    public static final class Builder {
        private final Path root;
        private final List<Path> paths = new ArrayList<>();
        private List<Analyzer> analyzers;
        private ConfiguredRuleSettings rules;
        private final List<String> excludes = new ArrayList<>();
        private long maxFileSize = NumlintConfig.DEFAULT_MAX_FILE_SIZE;
        private PtxMode ptxMode = PtxMode.OFF;
        private Path nvcc;
        private final List<String> nvccFlags = new ArrayList<>();
        private String cudaArch;
        private final List<Path> classpath = new ArrayList<>();
        private Path cacheDir;
        private PrintStream progress;
        private int threads;
        private final java.util.Map<String, String> settings = new java.util.HashMap<>();

        private Builder(Path root) {
            this.root = Objects.requireNonNull(root, "root");
        }

        /** A file or directory to scan (default: the root). */
        public Builder path(Path p) { paths.add(p.toAbsolutePath().normalize()); return this; }
        public Builder paths(List<Path> ps) { ps.forEach(this::path); return this; }
        /** The analyzers to run (default: those found with ServiceLoader). */
        public Builder analyzers(List<Analyzer> a) { analyzers = a; return this; }
        /** Applies a configuration: rule settings, excludes and the file size limit. */
        public Builder config(NumlintConfig c) {
            rules = c.ruleSettings();
            excludes.addAll(c.exclude());
            maxFileSize = c.maxFileSize();
            if (c.includeExtensions() != null) settings.put("include-extensions", String.join(",", c.includeExtensions()));
            return this;
        }
        /** A front-end setting (see {@link dev.numlint.spi.ScanContext#setting}). */
        public Builder setting(String key, String value) { settings.put(key, value); return this; }
        public Builder rules(ConfiguredRuleSettings r) { rules = r; return this; }
        public Builder exclude(String glob) { excludes.add(glob); return this; }
        public Builder maxFileSize(long bytes) { maxFileSize = bytes; return this; }
        /** {@code --ptx}: AUTO takes effect only with an nvcc. */
        public Builder ptx(PtxMode mode, Path nvccPath) { ptxMode = mode; nvcc = nvccPath; return this; }
        public Builder nvccFlags(List<String> flags) { nvccFlags.addAll(flags); return this; }
        public Builder cudaArch(String arch) { cudaArch = arch; return this; }
        public Builder classpath(List<Path> cp) { classpath.addAll(cp); return this; }
        public Builder cacheDir(Path dir) { cacheDir = dir; return this; }
        /** Where to print {@code [done/total]} progress, or null for none. */
        public Builder progress(PrintStream out) { progress = out; return this; }
        public Builder threads(int n) { threads = n; return this; }

        public ScanOptions build() {
            return new ScanOptions(this);
        }
    }
}
