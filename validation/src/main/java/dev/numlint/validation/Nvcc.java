package dev.numlint.validation;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.toolchain.PtxCache;
import dev.numlint.toolchain.PtxCompiler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Validation's handle on the shared toolchain ({@link dev.numlint.toolchain}): nvcc is located, its flags filtered,
 * the include graph checked, the process run and the PTX cached exactly as for the scan ({@link PtxCompiler}).
 * Validation starts no process of its own.
 */
public final class Nvcc {
    private final dev.numlint.toolchain.Nvcc nvcc;
    private final String arch;
    private final List<Path> roots;
    private final PtxCache ptxCache;
    private final Map<String, Result> cache = new ConcurrentHashMap<>();
    private final Map<List<Path>, PtxCompiler> compilers = new ConcurrentHashMap<>();

    /** PTX text or why there is none; {@code notes}: what the toolchain said (dropped flags, fallbacks). */
    public static final class Result {
        public final String ptx;
        public final String error;
        public final List<String> notes;

        public Result(String ptx, String error) {
            this(ptx, error, List.of());
        }

        public Result(String ptx, String error, List<String> notes) {
            this.ptx = ptx;
            this.error = error;
            this.notes = List.copyOf(notes);
        }
    }

    private Nvcc(dev.numlint.toolchain.Nvcc nvcc, String arch, List<Path> roots, Path cacheDir) {
        this.nvcc = nvcc;
        this.arch = arch;
        this.roots = List.copyOf(roots);
        this.ptxCache = new PtxCache(cacheDir == null ? PtxCache.defaultDir() : cacheDir);
        nvcc.tempParent(ptxCache.dir().resolve("tmp"));
    }

    /** nvcc from the given path, else PATH, else /usr/local/cuda/bin (the toolchain's one search order). */
    public static Optional<Nvcc> find(Path explicit, String arch) {
        return find(explicit, arch, List.of(), null);
    }

    /**
     * Like {@link #find(Path, String)}; {@code roots}: the scanned trees nvcc may read (empty: the working
     * directory, or the file's directory when the file lies outside it); {@code cacheDir}: the PTX cache (null: the
     * default).
     */
    public static Optional<Nvcc> find(Path explicit, String arch, List<Path> roots, Path cacheDir) {
        return dev.numlint.toolchain.Nvcc.locate(explicit)
                .map(n -> new Nvcc(n, arch == null ? "compute_90" : arch, roots == null ? List.of() : roots, cacheDir));
    }

    public String arch() {
        return arch;
    }

    /** The last line of {@code nvcc --version}, or why it is unknown. */
    public String version() {
        return nvcc.version().orElseGet(() -> "unknown (" + nvcc.versionProblem() + ")");
    }

    public Result compile(Path cu, List<String> flags) {
        String key = cu.toAbsolutePath() + "\u0000" + String.join("\u0000", flags);
        return cache.computeIfAbsent(key, k -> run(cu, flags));
    }

    private Result run(Path cu, List<String> flags) {
        List<Path> r = rootsFor(cu);
        PtxCompiler c = compilers.computeIfAbsent(r, k -> new PtxCompiler(nvcc, ptxCache, k, Duration.ofSeconds(300)));
        Path abs = cu.toAbsolutePath().normalize();
        String shown =
                abs.getFileName() == null ? abs.toString() : abs.getFileName().toString();
        for (Path root : r)
            if (abs.startsWith(root)) shown = root.relativize(abs).toString().replace('\\', '/');
        PtxCompiler.Result res = c.compile(cu, arch, flags, shown);
        List<String> notes = new ArrayList<>();
        String error = null;
        for (Notification n : res.notifications()) {
            if (n.level() == Level.NOTE) notes.add(n.message());
            else if (error == null) error = n.message();
        }
        if (res.ok()) return new Result(res.ptx(), null, notes);
        if (error == null) error = res.noDeviceCode() ? "no __global__ or __device__ code to compile" : "nvcc failed";
        return new Result(null, error, notes);
    }

    private List<Path> rootsFor(Path cu) {
        if (!roots.isEmpty()) return roots;
        Path abs = cu.toAbsolutePath().normalize();
        Path cwd = Path.of("").toAbsolutePath().normalize();
        return List.of(abs.startsWith(cwd) ? cwd : abs.getParent());
    }
}
