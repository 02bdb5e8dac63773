package dev.numlint.spi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one trust boundary of a scan: what numlint may read and quote from the scanned tree. Built once from the real
 * paths of the scanned PATHs (a directory itself; a file PATH its directory), never from the working directory or
 * the report root. Every reader of the tree asks it (PTX {@code .file} references, {@code #include}s of both front
 * ends and of the compile, CMake {@code include()}, the configuration, the baseline, {@code --spec}, suppression
 * and fingerprint lines): a file is readable only when its real path (symbolic links resolved) is a regular file
 * inside a root, no component of it is a version-control directory ({@code .git}, {@code .hg}, {@code .svn}, ...),
 * and it is not under {@code /proc}, {@code /sys} or {@code /dev}, so a scan started from {@code /} does not quote
 * {@code /proc/self/environ} and a {@code .ptx} naming {@code .git/config} does not quote the checkout token.
 */
public final class TrustBoundary {
    /** Directories whose content is never a source (also skipped by file discovery). */
    public static final Set<String> VCS_DIRS = Set.of(".git", ".svn", ".hg", ".bzr", "CVS", "_darcs");

    private static final List<Path> PSEUDO = List.of(Path.of("/proc"), Path.of("/sys"), Path.of("/dev"));

    private final List<Path> roots;

    private TrustBoundary(List<Path> roots) {
        this.roots = List.copyOf(roots);
    }

    /** The boundary of the scanned {@code paths}; a path that cannot be resolved adds nothing. */
    public static TrustBoundary of(Collection<Path> paths) {
        Set<Path> out = new LinkedHashSet<>();
        for (Path p : paths) {
            if (p == null) continue;
            try {
                Path real = p.toAbsolutePath().normalize().toRealPath();
                if (!Files.isDirectory(real)) real = real.getParent();
                if (real != null) out.add(real);
            } catch (IOException | RuntimeException e) {
                // a PATH that does not exist holds nothing readable
            }
        }
        return new TrustBoundary(new ArrayList<>(out));
    }

    /** The real paths of the roots. */
    public List<Path> roots() {
        return roots;
    }

    /** Whether the real path {@code real} lies inside a root and outside version-control and pseudo file systems. */
    public boolean contains(Path real) {
        return within(roots, real);
    }

    /**
     * {@link #contains} for a list of real root paths: the one test behind every reader (the include policy of the
     * compile holds its roots as such a list).
     */
    public static boolean within(List<Path> realRoots, Path real) {
        if (real == null || !real.isAbsolute()) return false;
        boolean inside = false;
        for (Path r : realRoots) {
            if (real.startsWith(r)) {
                inside = true;
                break;
            }
        }
        return inside && refusedName(real) == null;
    }

    /** Why a path may never be read as a source whatever the roots (a VCS directory, a pseudo file system), or null. */
    public static String refusedName(Path real) {
        for (Path p : PSEUDO) {
            if (real.startsWith(p)) return "it lies in " + p + ", which is never read";
        }
        for (Path part : real) {
            if (VCS_DIRS.contains(part.toString())) {
                return "it lies in a version-control directory (" + part + "), which is never read";
            }
        }
        return null;
    }

    /** The real path of {@code p} when it is a regular file numlint may read; null otherwise. */
    public Path readable(Path p) {
        return refusal(p) == null ? real(p) : null;
    }

    /**
     * Why {@code p} may not be read (one clause for a notice: "it is a symbolic link that leads outside the scanned
     * tree"), or null when it may.
     */
    public String refusal(Path p) {
        Path real = real(p);
        if (real == null) return "it does not exist or cannot be resolved";
        if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) return "it is not a regular file";
        String name = refusedName(real);
        if (name != null) return name;
        if (!within(roots, real)) {
            return Files.isSymbolicLink(p) || !real.equals(p.toAbsolutePath().normalize())
                    ? "it is a symbolic link that leads outside the scanned tree"
                    : "it lies outside the scanned tree";
        }
        return null;
    }

    private static Path real(Path p) {
        try {
            return p.toAbsolutePath().normalize().toRealPath();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "TrustBoundary" + roots;
    }
}
