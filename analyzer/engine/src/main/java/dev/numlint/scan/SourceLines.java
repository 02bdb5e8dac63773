package dev.numlint.scan;

import java.io.IOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lines of scanned files, read once on demand (for suppression comments and fingerprints). Only files the scan's
 * {@link dev.numlint.spi.TrustBoundary} lets it read: a finding that names a file outside it (or in {@code .git})
 * gets no line.
 */
final class SourceLines {
    private final Path root;
    private final dev.numlint.spi.TrustBoundary boundary;
    private final Map<String, List<String>> cache = new ConcurrentHashMap<>();

    SourceLines(Path root, dev.numlint.spi.TrustBoundary boundary) {
        this.root = root;
        this.boundary = boundary;
    }

    /** Lines of {@code file} (relative to the root, or absolute); empty when it cannot be read. */
    List<String> lines(String file) {
        return cache.computeIfAbsent(file, f -> read(resolve(f)));
    }

    /** Lines of {@code file}, from the cache when there, else read without keeping them. */
    List<String> linesUncached(String file) {
        List<String> l = cache.get(file);
        return l != null ? l : read(resolve(file));
    }

    /** The 1-based line, or "" when absent. */
    String line(String file, int line) {
        List<String> l = lines(file);
        return line >= 1 && line <= l.size() ? l.get(line - 1) : "";
    }

    Path resolve(String file) {
        Path p = Path.of(file);
        return p.isAbsolute() ? p : root.resolve(p);
    }

    /** {@code p} relative to the scan root, with '/' separators (as findings name files), or as given outside it. */
    String relative(Path p) {
        Path r = root.toAbsolutePath().normalize();
        Path a = p.toAbsolutePath().normalize();
        return (a.startsWith(r) ? r.relativize(a) : a).toString().replace('\\', '/');
    }

    private List<String> read(Path p) {
        if (boundary.readable(p) == null) return List.of();
        try {
            byte[] bytes = Files.readAllBytes(p);
            String text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(java.nio.ByteBuffer.wrap(bytes))
                    .toString();
            return List.of(text.split("\r?\n|\r", -1));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
