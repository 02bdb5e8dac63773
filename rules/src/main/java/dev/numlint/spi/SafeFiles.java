package dev.numlint.spi;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collection;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes that never go through a symbolic link planted in the scanned tree: reports ({@code --output}) and the
 * cache ({@code --cache-dir}). A file is written to a fresh temporary file created exclusively ({@code O_EXCL}: it
 * cannot be a link) in the target's directory and renamed over the target (a rename replaces a link there, it never
 * writes through it), so an interruption leaves either the old file or the new one, never a partial one. Paths are
 * checked before: a link at the target (also a dangling one) or at a directory above it inside the tree is refused
 * with a reason.
 */
public final class SafeFiles {
    private SafeFiles() {}

    /** What writes the content of a file. */
    public interface Body {
        void write(OutputStream out) throws IOException;
    }

    /**
     * Why writing {@code target} would go through a symbolic link, or null when it would not: {@code target} itself is
     * a link (dangling or not), or a directory above it that lies inside one of {@code tree} (absolute directories:
     * the scanned PATHs and the report root) is. Directories above the tree are the user's, not checked.
     */
    public static String linkOnPath(Path target, Collection<Path> tree) {
        Path abs = target.toAbsolutePath().normalize();
        if (Files.isSymbolicLink(abs)) {
            return "'" + target + "' is a symbolic link; numlint never writes through a link (remove it or name "
                    + "another file)";
        }
        for (Path q = abs.getParent(); q != null; q = q.getParent()) {
            if (!Files.isSymbolicLink(q)) continue;
            for (Path t : tree) {
                Path ta = t.toAbsolutePath().normalize();
                if (q.startsWith(ta) && !q.equals(ta)) {
                    return "'" + q + "' (a directory above '" + target + "' inside the scanned tree) is a symbolic "
                            + "link; numlint never writes through a link of the scanned tree";
                }
            }
        }
        return null;
    }

    /**
     * Creates {@code dir} (and its parents) and checks that it is a real directory, not a link to one: an
     * {@link IOException} saying so otherwise.
     */
    public static Path directory(Path dir) throws IOException {
        if (!Files.isSymbolicLink(dir)) Files.createDirectories(dir);
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new IOException("'" + dir + "' cannot be created: " + e.getMessage(), e);
        }
        if (!a.isDirectory()) {
            throw new IOException("'" + dir + "' is " + (a.isSymbolicLink() ? "a symbolic link" : "not a directory")
                    + "; numlint never writes through a link");
        }
        return dir;
    }

    /** Writes {@code target} atomically (temporary file created exclusively beside it, then renamed over it). */
    public static void write(Path target, Body body) throws IOException {
        Path[] made = new Path[1];
        try {
            try (OutputStream out = exclusiveSibling(target, made)) {
                body.write(out);
            }
            moveOver(made[0], target);
        } finally {
            if (made[0] != null) Files.deleteIfExists(made[0]);
        }
    }

    /**
     * Moves the finished file {@code src} to {@code target} atomically; across file systems it is first copied to a
     * temporary file beside the target (so the target is never seen partial).
     */
    public static void move(Path src, Path target) throws IOException {
        try {
            moveOver(src, target);
            return;
        } catch (AtomicMoveNotSupportedException crossDevice) {
            // copied below
        }
        write(target, out -> Files.copy(src, out));
    }

    private static void moveOver(Path src, Path target) throws IOException {
        Files.move(src, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * A new file beside {@code target}, created with {@code CREATE_NEW} (it cannot be a link), open for writing; its
     * path in {@code made[0]}.
     */
    private static OutputStream exclusiveSibling(Path target, Path[] made) throws IOException {
        Path abs = target.toAbsolutePath().normalize();
        Path dir = abs.getParent();
        String name = abs.getFileName() == null ? "out" : abs.getFileName().toString();
        for (int i = 0; ; i++) {
            Path tmp = dir.resolve("." + name + ".numlint-"
                    + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
            try {
                OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                made[0] = tmp;
                return out;
            } catch (FileAlreadyExistsException taken) {
                if (i >= 16) throw taken;
            }
        }
    }
}
