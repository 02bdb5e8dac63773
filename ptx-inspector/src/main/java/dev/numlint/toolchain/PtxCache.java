package dev.numlint.toolchain;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The PTX cache shared by the scan and validation: {@code <dir>/ptx/<sha256>.ptx}, keyed by everything that
 * decides the PTX (see {@link PtxCompiler}). Temporary files of nvcc runs live under {@code <dir>/tmp} (never
 * /tmp), in private directories deleted after each run and on interruption.
 */
public final class PtxCache {
    /** The cache directory is unusable (a file, not writable): a usage error for the CLI (exit 2). */
    public static final class CacheDirException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public CacheDirException(String message) {
            super(message);
        }
    }

    private final Path dir;

    public PtxCache(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    public Path dir() {
        return dir;
    }

    /**
     * Throws {@link CacheDirException} when {@code dir} exists but is not a directory, or cannot be created; the
     * message names the directory and says what is wrong.
     */
    public static void checkUsable(Path dir) {
        checkUsable(dir, List.of());
    }

    /**
     * {@link #checkUsable(Path)}, and: {@code dir} is a symbolic link (also a dangling one), or a directory above it
     * inside {@code tree} (the scanned PATHs and the report root) is one. numlint never writes through a link that
     * the scanned tree may have planted.
     */
    public static void checkUsable(Path dir, java.util.Collection<Path> tree) {
        if (dir == null) return;
        String link = dev.numlint.spi.SafeFiles.linkOnPath(dir, tree);
        if (link != null) throw new CacheDirException("cache directory " + link);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new CacheDirException("cache directory '" + dir + "' is a file, not a directory");
        }
        Path p = dir.toAbsolutePath().normalize();
        while (p != null && !Files.exists(p)) p = p.getParent();
        if (p != null && !Files.isDirectory(p)) {
            throw new CacheDirException("cache directory '" + dir + "' cannot be created: '" + p + "' is a file");
        }
    }

    /** $XDG_CACHE_HOME/numlint, else $HOME/.cache/numlint (Java's user.home only when HOME is unset). */
    public static Path defaultDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank())
            return Path.of(xdg, "numlint").toAbsolutePath().normalize();
        String home = System.getenv("HOME");
        if (home == null || home.isBlank()) home = System.getProperty("user.home");
        return Path.of(home, ".cache", "numlint").toAbsolutePath().normalize();
    }

    /** Where nvcc's private working directories go (a real directory, never a link). */
    public Path tempDir() throws IOException {
        checkUsable(dir);
        return dev.numlint.spi.SafeFiles.directory(dir.resolve("tmp"));
    }

    /** The cached PTX for a key. */
    public Optional<String> get(String key) {
        Path p = dir.resolve("ptx").resolve(key + ".ptx");
        try {
            // an entry is a regular file written by numlint, never a link (one planted in a cache inside the tree)
            if (Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    && !Files.isSymbolicLink(p.getParent())) {
                return Optional.of(Files.readString(p, StandardCharsets.UTF_8));
            }
        } catch (IOException | RuntimeException e) {
            // a damaged entry: rebuilt
        }
        return Optional.empty();
    }

    /**
     * A compile that failed for a key, as {@link #putFailure} stored it ({exit code, nvcc's output}), or empty: the
     * same sources, flags and nvcc fail again, so a re-scan does not rerun them (session 76 round C: a re-scan of a
     * tree whose 82 .cu files this nvcc rejects spent 431 s in the PTX layer). nvcc's output is kept, not numlint's
     * notice, so that a later numlint words the notice its own way (session 81: a cached notice kept an advice the
     * new version had corrected).
     */
    public Optional<String[]> failure(String key) {
        Path p = dir.resolve("ptx").resolve(key + ".nvcc-failed");
        try {
            if (Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    && !Files.isSymbolicLink(p.getParent())) {
                String[] f = Files.readString(p, StandardCharsets.UTF_8).split("\n", 2);
                if (f.length == 2 && f[0].matches("\\d{1,9}")) return Optional.of(f);
            }
        } catch (IOException | RuntimeException e) {
            // a damaged entry: compiled again
        }
        return Optional.empty();
    }

    /** Stores a failed compile's exit code and output for a key ({@link #failure}), atomically as {@link #put} does. */
    public void putFailure(String key, int exitCode, String output) throws IOException {
        Path tmp = Files.createTempFile(tempDir(), "failed", ".txt");
        Files.writeString(tmp, Math.max(0, exitCode) + "\n" + output, StandardCharsets.UTF_8);
        Path out = dir.resolve("ptx").resolve(key + ".nvcc-failed");
        dev.numlint.spi.SafeFiles.directory(out.getParent());
        dev.numlint.spi.SafeFiles.move(tmp, out);
    }

    /** The file a key's PTX is stored in (it exists only after {@link #put}). */
    public Path file(String key) {
        return dir.resolve("ptx").resolve(key + ".ptx");
    }

    /**
     * Moves a finished PTX file into the cache and returns its place: atomically (a rename, or a copy to a
     * temporary file beside the entry and a rename), never through a link, so an interrupted run leaves no partial
     * entry.
     */
    public Path put(String key, Path ptx) throws IOException {
        Path out = file(key);
        dev.numlint.spi.SafeFiles.directory(out.getParent());
        dev.numlint.spi.SafeFiles.move(ptx, out);
        return out;
    }
}
