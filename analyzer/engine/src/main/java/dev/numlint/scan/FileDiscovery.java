package dev.numlint.scan;

import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.util.Glob;
import java.io.IOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Finds the files a scan looks at: C/C++/CUDA sources and headers, PTX, Java, build files (CMake, make,
 * compile_commands.json) and pom.xml, recursively under each PATH. Version-control directories, excluded globs,
 * CMake's internal directories of a configured build tree and the cache directory are skipped; symbolic links are followed inside the scanned trees (a link leading outside them
 * is reported and not followed: nothing outside the trees is read), loops reported once and skipped, and a file
 * reached twice (through a link) is scanned once. The result is sorted by path relative to the root, so it does not depend
 * on the file system's order.
 */
public final class FileDiscovery {
    private static final Set<String> EXTENSIONS = Set.of(
            "cu", "cuh", "c", "cc", "cpp", "cxx", "h", "hpp", "hh", "hxx", "inl", "ipp", "tcc", "tpp", "ptx", "java");
    /** Besides the build files ({@link dev.numlint.spi.BuildFileNames}): Maven's, for the Java layers. */
    private static final Set<String> NAMES = Set.of("pom.xml");

    private static final Set<String> VCS_DIRS = dev.numlint.spi.TrustBoundary.VCS_DIRS;

    /** The files found, absolute and normalized, in a deterministic order, and what went wrong on the way. */
    public record Result(List<Path> files, List<Notification> notifications) {}

    private final Path root;
    private final List<Glob> excludes;
    private final Path skipDir;
    /** The exclude patterns that matched a file or directory (the others are said in a notice). */
    private final java.util.Set<Glob> used =
            java.util.Collections.newSetFromMap(new java.util.concurrent.ConcurrentHashMap<>());

    /**
     * @param root     the scan root (paths are reported relative to it)
     * @param excludes globs, matched against paths relative to the root and relative to the scanned PATH
     * @param skipDir  a directory never to descend into (the cache), or null
     */
    public FileDiscovery(Path root, List<Glob> excludes, Path skipDir) {
        this.root = root.toAbsolutePath().normalize();
        this.excludes = List.copyOf(excludes);
        this.skipDir = skipDir == null ? null : skipDir.toAbsolutePath().normalize();
    }

    /** Whether numlint looks at a file of this name. */
    public static boolean isScannable(String fileName) {
        if (NAMES.contains(fileName) || dev.numlint.spi.BuildFileNames.isBuildFile(fileName)) {
            return true;
        }
        int dot = fileName.lastIndexOf('.');
        return dot > 0 && EXTENSIONS.contains(fileName.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    public Result discover(List<Path> paths) {
        List<Path> found = new ArrayList<>();
        List<Notification> notes = new ArrayList<>();
        List<String> metadata = new ArrayList<>();
        List<String> intermediates = new ArrayList<>();
        // the scanned trees as real paths: a symbolic link leading out of them is not followed, so nothing outside
        // the trees is read (a link from one scanned PATH into another is fine)
        List<Path> trees = new ArrayList<>();
        for (Path p : paths) {
            Path a = p.toAbsolutePath().normalize();
            trees.add(a);
            try {
                trees.add(a.toRealPath());
            } catch (IOException | RuntimeException e) {
                // a PATH that cannot be resolved: walking it reports the problem
            }
        }
        for (Path p : paths) {
            Path start = p.toAbsolutePath().normalize();
            String never = neverRead(start);
            if (never != null) {
                notes.add(
                        new Notification(relativize(start), 0, Level.ERROR, "not-a-source", "not analyzed: " + never));
                continue;
            }
            if (Files.isRegularFile(start)) {
                // a file named on the command line is scanned whatever its name
                found.add(start);
                continue;
            }
            try {
                Files.walkFileTree(
                        start, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE, new SimpleFileVisitor<>() {
                            @Override
                            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                                if (dir.equals(start)) {
                                    return FileVisitResult.CONTINUE;
                                }
                                String name = dir.getFileName().toString();
                                if (VCS_DIRS.contains(name) || dir.equals(skipDir) || excluded(start, dir, true)) {
                                    return FileVisitResult.SKIP_SUBTREE;
                                }
                                if (cmakeInternal(dir)) return FileVisitResult.SKIP_SUBTREE;
                                if (neverRead(dir) != null) {
                                    // /proc, /sys, /dev of a scan started at / (quietly: they are no part of a tree)
                                    return FileVisitResult.SKIP_SUBTREE;
                                }
                                if (!insideTrees(dir, trees)) {
                                    notes.add(new Notification(
                                            relativize(dir),
                                            0,
                                            Level.NOTE,
                                            "symlink-outside",
                                            "not followed: symbolic link to a directory outside the scanned tree"));
                                    return FileVisitResult.SKIP_SUBTREE;
                                }
                                return FileVisitResult.CONTINUE;
                            }

                            @Override
                            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                                if (attrs.isRegularFile()
                                        && isScannable(file.getFileName().toString())
                                        && !excluded(start, file, false)) {
                                    String never = neverRead(file);
                                    if (never != null) {
                                        // a link to .git/config, /proc/self/environ: never a source
                                        notes.add(new Notification(
                                                relativize(file),
                                                0,
                                                Level.ERROR,
                                                "not-a-source",
                                                "not analyzed: " + never));
                                    } else if (insideTrees(file, trees)) {
                                        if (appleDouble(file)) metadata.add(relativize(file));
                                        else if (nvccIntermediate(file)) intermediates.add(relativize(file));
                                        else found.add(file);
                                    } else {
                                        notes.add(new Notification(
                                                relativize(file),
                                                0,
                                                Level.ERROR,
                                                "symlink-outside",
                                                "not analyzed: symbolic link to a file outside " + "the scanned tree"));
                                    }
                                } else if (attrs.isOther()
                                        && isScannable(file.getFileName().toString())
                                        && !excluded(start, file, false)) {
                                    // a named pipe, socket or device with a source's name: never opened (a read
                                    // of a pipe would wait for ever), but said, not skipped silently
                                    notes.add(new Notification(
                                            relativize(file),
                                            0,
                                            Level.ERROR,
                                            "not-a-source",
                                            "not analyzed: not a regular file (a named pipe, socket or device)"));
                                }
                                return FileVisitResult.CONTINUE;
                            }

                            @Override
                            public FileVisitResult visitFileFailed(Path file, IOException exc) {
                                String rel = relativize(file);
                                if (exc instanceof FileSystemLoopException) {
                                    notes.add(new Notification(
                                            rel, 0, Level.NOTE, "symlink-loop", "not followed: symbolic link loop"));
                                } else if (tooLong(exc)) {
                                    // the system cannot open it: said, never skipped silently
                                    notes.add(new Notification(
                                            rel,
                                            0,
                                            Level.ERROR,
                                            "unreadable-file",
                                            "not analyzed: the path is too long for the system ("
                                                    + file.toAbsolutePath()
                                                            .toString()
                                                            .getBytes(java.nio.charset.StandardCharsets.UTF_8)
                                                            .length
                                                    + " bytes); nothing below it was scanned"));
                                } else if (isScannable(file.getFileName().toString()) || Files.isDirectory(file)) {
                                    notes.add(new Notification(
                                            rel,
                                            0,
                                            Level.ERROR,
                                            "unreadable-file",
                                            "not analyzed: cannot read: " + describe(exc)));
                                }
                                return FileVisitResult.CONTINUE;
                            }
                        });
            } catch (IOException e) {
                notes.add(new Notification(
                        relativize(start),
                        0,
                        Level.ERROR,
                        "unreadable-file",
                        "not analyzed: cannot read: " + describe(e)));
            }
        }
        found.sort(Comparator.comparing(this::relativize));
        // a file reached twice (through symbolic links) is scanned once, under its own name if it was reached so;
        // but a .cu name wins over a C/C++ one: the build compiles the file with nvcc under that name (warp-ctc's
        // ctc_entrypoint.cu -> ctc_entrypoint.cpp), so its device code and PTX are only seen as .cu
        java.util.Map<Path, Path> chosen = new java.util.LinkedHashMap<>();
        for (Path f : found) {
            Path real;
            try {
                real = f.toRealPath();
            } catch (IOException e) {
                real = f;
            }
            Path prev = chosen.get(real);
            boolean cuda = isCudaName(f);
            if (prev == null
                    || cuda && !isCudaName(prev)
                    || cuda == isCudaName(prev) && Files.isSymbolicLink(prev) && !Files.isSymbolicLink(f)) {
                chosen.put(real, f);
            }
        }
        List<Path> unique = new ArrayList<>(chosen.values());
        unique.sort(Comparator.comparing(this::relativize));
        // a pattern that excluded nothing is said (an absolute path is read from the scan root, as a .gitignore
        // pattern that starts with '/': session 55, a reviewer's --exclude '/tmp/.../pydeps/**' let 131 findings in)
        for (Glob g : excludes) {
            if (used.contains(g)) continue;
            notes.add(
                    new Notification(
                            null,
                            0,
                            Level.NOTE,
                            "exclude-unmatched",
                            "exclude pattern '"
                                    + (g.text().length() > 200 ? g.text().substring(0, 200) + "..." : g.text())
                                    + "' matched no file or directory: patterns are matched against paths relative to the"
                                    + " scan root or to the scanned path; one that starts with '/' is read from the scan root"));
        }
        if (!metadata.isEmpty()) {
            metadata.sort(null);
            notes.add(new Notification(
                    null,
                    0,
                    Level.NOTE,
                    "apple-double",
                    "not read: " + metadata.size() + " macOS AppleDouble file" + (metadata.size() == 1 ? "" : "s")
                            + " (the '._NAME' resource forks an archive made on a Mac carries, no source), such as '"
                            + metadata.get(0) + "'"));
        }
        if (!intermediates.isEmpty()) {
            intermediates.sort(null);
            notes.add(new Notification(
                    null,
                    0,
                    Level.NOTE,
                    "nvcc-intermediate",
                    "not analyzed: " + intermediates.size() + " file" + (intermediates.size() == 1 ? "" : "s")
                            + " nvcc writes with --keep (preprocessed copies of a .cu file with every header it"
                            + " includes, and the fat binary's data), such as '" + intermediates.get(0)
                            + "': the .cu file itself is the source"));
        }
        return new Result(List.copyOf(unique), notes);
    }

    /** The names of the files nvcc keeps ({@code --keep}): {@code X.cudafe1.cpp}, {@code X.cudafe1.stub.c}... */
    private static final java.util.regex.Pattern NVCC_KEPT = java.util.regex.Pattern.compile(
            ".+\\.(?:cudafe\\d(?:\\.stub)?\\.(?:c|cpp|gpu)|fatbin\\.c|cpp\\d\\.ii|cpp\\d\\.i)");

    /**
     * Whether {@code file} is one nvcc wrote with {@code --keep}: named as those are and starting as those do, with
     * a line marker of the preprocessed source ({@code # 1 "x.cu"}), the fat binary's data or the stub's include of
     * the host runtime (session 75 round A: a reconstruction code's committed Visual Studio intermediates doubled
     * its findings with the preprocessed system headers).
     */
    static boolean nvccIntermediate(Path file) {
        if (!NVCC_KEPT.matcher(file.getFileName().toString()).matches()) return false;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            String head = new String(in.readNBytes(8192), java.nio.charset.StandardCharsets.ISO_8859_1);
            return head.startsWith("# 1 \"")
                    || head.startsWith("#line 1 \"")
                    || head.contains("\n# 1 \"")
                    || head.contains("fatbinData")
                    || head.contains("__CUDAFATBIN")
                    || head.contains("crt/host_runtime.h");
        } catch (IOException e) {
            return false; // read again by the scan, which says why it cannot
        }
    }

    /** The four bytes an AppleDouble header starts with (RFC 1740). */
    private static final byte[] APPLE_DOUBLE = {0x00, 0x05, 0x16, 0x07};

    /**
     * Whether {@code file} is a Mac's AppleDouble companion of another file: named {@code ._NAME} and starting with
     * the AppleDouble magic number (session 61: 18 of a course repository's '._*.cu' were "binary file" errors).
     */
    static boolean appleDouble(Path file) {
        if (!file.getFileName().toString().startsWith("._")) return false;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            return java.util.Arrays.equals(in.readNBytes(4), APPLE_DOUBLE);
        } catch (IOException e) {
            return false; // read again by the scan, which says why it cannot
        }
    }

    /**
     * Why {@code p} (its lexical and its real path) is never read as a source ({@link
     * dev.numlint.spi.TrustBoundary#refusedName}: a version-control directory, /proc, /sys, /dev), or null.
     */
    private static String neverRead(Path p) {
        String why =
                dev.numlint.spi.TrustBoundary.refusedName(p.toAbsolutePath().normalize());
        if (why != null) return why;
        try {
            return dev.numlint.spi.TrustBoundary.refusedName(p.toRealPath());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Whether the real path of {@code p} lies inside one of the scanned trees (false when it cannot be resolved). */
    private static boolean insideTrees(Path p, List<Path> trees) {
        Path real;
        try {
            real = p.toRealPath();
        } catch (IOException | RuntimeException e) {
            return false;
        }
        for (Path t : trees) {
            if (real.startsWith(t)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isCudaName(Path p) {
        return p.getFileName() != null && p.getFileName().toString().endsWith(".cu");
    }

    /**
     * CMake's own directory of a configured build tree ({@code build/CMakeFiles}, {@code build/src/CMakeFiles}: the
     * compiler identification sources, try_compile scratch projects, FindCUDA's generated {@code *.cu.o.cmake}
     * scripts): nothing there is a source or build file of the project. Recognised by the files CMake writes there.
     */
    static boolean cmakeInternal(Path dir) {
        if (!dir.getFileName().toString().equals("CMakeFiles")) return false;
        return Files.isRegularFile(dir.resolve("cmake.check_cache"))
                || Files.isRegularFile(dir.resolve("CMakeDirectoryInformation.cmake"))
                || dir.getParent() != null
                        && Files.isRegularFile(dir.getParent().resolve("CMakeCache.txt"));
    }

    private boolean excluded(Path start, Path p, boolean dir) {
        if (excludes.isEmpty()) {
            return false;
        }
        String fromRoot = relativize(p);
        String fromStart = p.startsWith(start) ? start.relativize(p).toString().replace('\\', '/') : fromRoot;
        for (Glob g : excludes) {
            if (dir
                    ? g.matchesDirectory(fromRoot) || g.matchesDirectory(fromStart)
                    : g.matches(fromRoot) || g.matches(fromStart)) {
                used.add(g);
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a finding's file ({@code file}, relative to the scan root) is excluded: matched as discovery matches a
     * file, relative to the scan root or to the scanned path it lies in (session 57: with a second scanned path the
     * root moved above the first, and {@code --exclude 'common/GetPot.h'} left the header's findings in).
     */
    static boolean excludes(List<Glob> excludes, Path root, List<Path> scanned, String file) {
        if (Glob.excludes(excludes, file)) return true;
        if (excludes.isEmpty() || file == null) return false;
        Path abs;
        try {
            abs = root.resolve(file).toAbsolutePath().normalize();
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
        for (Path p : scanned) {
            Path start = p.toAbsolutePath().normalize();
            if (!abs.startsWith(start) || abs.equals(start)) continue;
            if (Glob.excludes(excludes, start.relativize(abs).toString().replace('\\', '/'))) return true;
        }
        return false;
    }

    String relativize(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        return abs.startsWith(root) ? root.relativize(abs).toString().replace('\\', '/') : abs.toString();
    }

    /** Whether the system refused a path for its length (ENAMETOOLONG). */
    static boolean tooLong(IOException e) {
        return e instanceof java.nio.file.FileSystemException fse
                && fse.getReason() != null
                && fse.getReason().toLowerCase(Locale.ROOT).contains("too long");
    }

    static String describe(IOException e) {
        String m = e.getMessage();
        String kind = e.getClass().getSimpleName();
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        return m == null ? kind : kind + ": " + m;
    }

    /** The layer whose max-file-size applies to a discovered file. */
    static Layer layerOf(Path f) {
        String n = f.getFileName() == null ? "" : f.getFileName().toString();
        String lower = n.toLowerCase(java.util.Locale.ROOT);
        if (lower.endsWith(".ptx")) {
            return Layer.PTX;
        }
        if (lower.endsWith(".java")) {
            return Layer.JAVA_SOURCE;
        }
        for (String ext : List.of(
                ".cu", ".cuh", ".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".hh", ".hxx", ".inl", ".ipp", ".tcc",
                ".tpp")) {
            if (lower.endsWith(ext)) {
                return Layer.CUDA_SOURCE;
            }
        }
        return Layer.BUILD_FLAGS;
    }
}
