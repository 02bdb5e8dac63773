package dev.numlint.scan;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;

/**
 * The project that contains a scanned file or subdirectory, so that {@code numlint scan proj/src/kernel.cu} gets
 * the build context (and the fingerprints) of a scan of {@code proj}: the build files of the project are read for
 * the build context, the scan root becomes the project root, and headers and {@code -I} directories of the project
 * above the scanned path stay readable.
 *
 * <p>Found upward from the deepest directory that holds every scanned path: the nearest directory with a build file
 * (CMakeLists.txt, Makefile, makefile, GNUmakefile, compile_commands.json, setup.py); from a directory with a
 * CMakeLists.txt, the top of the chain of list files above that add it ({@code add_subdirectory} naming its path, or
 * a CMakeLists.txt in the parent directory), up to {@link #MAX_SUBDIRECTORY_DEPTH} levels apart. Only a directory
 * above the scanned one is a result (null otherwise: nothing changes).
 *
 * <p>The search never goes above: a repository root (a directory with {@code .git}), the file system of the scanned
 * path, the user's home directory, a directory that others may write (world-writable, such as /tmp) or that
 * another user owns, and {@link #MAX_LEVELS} levels. Reading build files above the given path is what the user asks
 * for when scanning inside a project; nothing outside the found project root is read.
 */
public final class ProjectRoot {
    /** The {@link dev.numlint.spi.ScanContext#setting} that names the project root found for a scan. */
    public static final String SETTING = dev.numlint.spi.ScanContext.PROJECT_ROOT;

    /**
     * The {@link dev.numlint.spi.ScanContext#setting} that names the build directory given with {@code -p}: the user
     * named it, so its configured headers ({@code build/gen/config.h}) are read and passed to nvcc like the scanned
     * tree's, also when it lies beside or outside the scanned PATH.
     */
    public static final String BUILD_DIR_SETTING = "build-dir";

    /** Deepest search upward. */
    static final int MAX_LEVELS = 16;
    /** Most directory levels between a CMakeLists.txt and the one above that adds it. */
    static final int MAX_SUBDIRECTORY_DEPTH = 4;

    private static final List<String> MARKERS =
            List.of("CMakeLists.txt", "Makefile", "makefile", "GNUmakefile", "compile_commands.json", "setup.py");

    private ProjectRoot() {}

    /** The project root above the scanned {@code paths} (absolute), or null when there is none above them. */
    public static Path find(List<Path> paths) {
        Path base = null;
        boolean dirScanned = false;
        for (Path p : paths) {
            Path a = p.toAbsolutePath().normalize();
            Path d = Files.isDirectory(a) ? a : a.getParent();
            if (d == null) return null;
            if (base == null) {
                base = d;
            } else {
                while (base != null && !d.startsWith(base)) base = base.getParent();
            }
        }
        if (base == null) return null;
        for (Path p : paths) dirScanned |= p.toAbsolutePath().normalize().equals(base) && Files.isDirectory(base);
        return find(base, dirScanned);
    }

    /** The project root above the directory {@code base}, or null. */
    static Path find(Path base) {
        return find(base, true);
    }

    /**
     * The project root at or above {@code base}, or null: {@code base} itself is a result only when it was not
     * scanned as a whole ({@code baseScanned} false: files in it were), since its build files are not scanned then.
     */
    static Path find(Path base, boolean baseScanned) {
        FileStore store = store(base);
        if (store == null) return null;
        Path home = home();
        Path found = null;
        int level = 0;
        for (Path d = base; d != null && level <= MAX_LEVELS; d = d.getParent(), level++) {
            if (d != base && !mayClimbInto(d, store, home)) break;
            if (found == null) {
                if (hasMarker(d)) found = d;
            } else if (!cmake(found) || found.getNameCount() - d.getNameCount() > MAX_SUBDIRECTORY_DEPTH) {
                break;
            } else if (cmake(d) && (found.getParent().equals(d) || addsSubdirectory(d, found))) {
                found = d; // the list file above adds this one: the project goes on upward
            }
            if (Files.exists(d.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) break; // a repository root
        }
        return found == null || (found.equals(base) && baseScanned) ? null : found;
    }

    private static boolean cmake(Path d) {
        return Files.isRegularFile(d.resolve("CMakeLists.txt"), LinkOption.NOFOLLOW_LINKS);
    }

    private static final java.util.regex.Pattern ADD_SUBDIRECTORY =
            java.util.regex.Pattern.compile("(?i)add_subdirectory\\s*\\(\\s*\"?([^\\s\")]+)");

    /** Whether {@code d}'s CMakeLists.txt (its first MiB) adds {@code sub}, a directory below it, by name. */
    private static boolean addsSubdirectory(Path d, Path sub) {
        String rel = d.relativize(sub).toString().replace('\\', '/');
        try (java.io.InputStream in = Files.newInputStream(d.resolve("CMakeLists.txt"), LinkOption.NOFOLLOW_LINKS)) {
            String text = new String(in.readNBytes(1 << 20), java.nio.charset.StandardCharsets.ISO_8859_1);
            java.util.regex.Matcher m = ADD_SUBDIRECTORY.matcher(text);
            while (m.find()) {
                String a = m.group(1).replace('\\', '/');
                if (a.endsWith("/")) a = a.substring(0, a.length() - 1);
                if (a.equals(rel) || a.endsWith("/" + rel) || a.endsWith("}" + rel)) return true;
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    private static boolean hasMarker(Path d) {
        for (String m : MARKERS) {
            if (Files.isRegularFile(d.resolve(m), LinkOption.NOFOLLOW_LINKS)) return true;
        }
        return false;
    }

    /** Whether the search may look at directory {@code d} above the scanned one. */
    private static boolean mayClimbInto(Path d, FileStore store, Path home) {
        if (home != null && home.startsWith(d) && !home.equals(d)) return false; // above the home directory
        if (!store.equals(store(d))) return false;
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(d);
            if (perms.contains(PosixFilePermission.OTHERS_WRITE)) return false;
            String owner = Files.getOwner(d).getName();
            String me = System.getProperty("user.name");
            if (me != null && !owner.equals(me) && !owner.equals("root")) return false;
        } catch (UnsupportedOperationException e) {
            return true; // not a POSIX file system: the other limits apply
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return true;
    }

    private static FileStore store(Path d) {
        try {
            return Files.getFileStore(d);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static Path home() {
        String h = System.getProperty("user.home");
        try {
            return h == null || h.isEmpty() ? null : Path.of(h).toAbsolutePath().normalize();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
