package dev.numlint.toolchain;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where included files may come from, and how much an include graph may cost. {@code roots} are the scanned
 * directories (the only untrusted files that may be read); {@code systemDirs} are trusted header trees (the CUDA
 * toolkit, /usr/include, the host compiler's headers). Both are kept as real paths (symlinks resolved), so a test
 * {@code realPath.startsWith(dir)} is exact.
 *
 * @param roots      real paths of the scanned roots
 * @param systemDirs real paths of the toolkit and system include trees
 * @param maxDepth   deepest include nesting followed (deeper: a problem, the file is not compiled)
 * @param maxFiles   most files of the scanned roots one graph may reach
 * @param maxBytes   most bytes read for one graph (files of the roots and followed system headers)
 */
public record IncludePolicy(List<Path> roots, List<Path> systemDirs, int maxDepth, int maxFiles, long maxBytes) {
    /** Default limits: depth 64, 4,000 files, 256 MiB. */
    public static final int DEFAULT_MAX_DEPTH = 64;

    public static final int DEFAULT_MAX_FILES = 4000;
    public static final long DEFAULT_MAX_BYTES = 256L * 1024 * 1024;

    public IncludePolicy {
        roots = realDirs(roots);
        systemDirs = realDirs(systemDirs);
    }

    /** A policy with the default limits. */
    public static IncludePolicy of(List<Path> roots, List<Path> systemDirs) {
        return new IncludePolicy(roots, systemDirs, DEFAULT_MAX_DEPTH, DEFAULT_MAX_FILES, DEFAULT_MAX_BYTES);
    }

    /**
     * The trusted include trees: the toolkit root (when known) and the system's /usr/include, /usr/local/include
     * and /usr/lib/gcc (the host compiler's own headers).
     */
    public static List<Path> defaultSystemDirs(Path toolkitRoot) {
        List<Path> out = new ArrayList<>();
        if (toolkitRoot != null) out.add(toolkitRoot);
        out.add(Path.of("/usr/include"));
        out.add(Path.of("/usr/local/include"));
        out.add(Path.of("/usr/lib/gcc"));
        return out;
    }

    /**
     * Whether a real path lies inside a scanned root and may be read there ({@link
     * dev.numlint.spi.TrustBoundary#within}: never a version-control directory, {@code /proc}, {@code /sys} or
     * {@code /dev}).
     */
    public boolean inRoots(Path real) {
        return dev.numlint.spi.TrustBoundary.within(roots, real);
    }

    /**
     * Whether a real directory holds a scanned root below it (the project root above the scanned {@code src} and
     * {@code tests}, which a build's {@code -I} names so that {@code #include <proj/x.h>} resolves): an include
     * directory there finds the tree's headers; every header reached through it is still checked against the roots
     * ({@link IncludeGraph}). Never the file system's root.
     */
    public boolean aboveRoots(Path real) {
        if (real == null || real.getParent() == null) return false;
        for (Path r : roots) if (!r.equals(real) && r.startsWith(real)) return true;
        return false;
    }

    /**
     * Whether a real path lies inside a toolkit or system include tree, or inside an installed package's include
     * directory ({@link #packageInclude}).
     */
    public boolean inSystem(Path real) {
        return under(real, systemDirs) || packageInclude(real);
    }

    /**
     * Whether a real path lies inside the include directory of a package installed under {@code /usr/lib} or
     * {@code /usr/lib64}: a path component {@code include} below them, as in Debian's multiarch
     * {@code /usr/lib/x86_64-linux-gnu/openmpi/include} or {@code /usr/lib/x86_64-linux-gnu/hdf5/serial/include}, or a
     * component {@code fortran}: Debian's module directories, {@code /usr/lib/x86_64-linux-gnu/fortran/gfortran-mod-15/openmpi},
     * which hold a package's {@code mpi.h} beside its modules and which {@code mpif90 --showme:incdirs} gives. Builds
     * name such directories with {@code -I} (from {@code mpicc --showme:incdirs}, {@code pkg-config --cflags}); they are
     * the package manager's header trees, like {@code /usr/include}, and hold no user data. Pass a real path (links
     * resolved): a link inside the scanned tree that leads there is judged by its target.
     */
    public static boolean packageInclude(Path real) {
        return packageIncludeOf(real);
    }

    /**
     * The system header a forced include names by a bare file name ({@code -include cstdio}, {@code -include
     * stdio.h}), as the host compiler finds it where no file of that name lies beside the command: in the C++ standard
     * library's directories (the newest version first), then {@code /usr/include} and {@code /usr/local/include}, and
     * the {@code extra} directories (the toolkit's); its real path, or null. Only a name without a directory part is
     * looked up, and only in these trusted trees.
     */
    public static Path systemHeader(String name, List<Path> extra) {
        if (name == null || !name.matches("[A-Za-z0-9_][A-Za-z0-9_.+-]{0,127}")) return null;
        List<Path> dirs = standardDirs();
        dirs.addAll(extra);
        for (Path d : dirs) {
            Path f = d.resolve(name);
            if (Files.isRegularFile(f)) {
                Path r = real(f);
                if (r != null && (r.startsWith(Path.of("/usr")) || under(r, realDirs(extra)))) return r;
            }
        }
        return null;
    }

    /**
     * Whether the system's include path holds {@code name} as written in an include ({@code span}, {@code
     * algorithm}, {@code sys/time.h}): the C++ standard library's directories, {@code /usr/include} (and its
     * multiarch directory) and {@code /usr/local/include}. A compiler finds such a header there when no directory of
     * the build holds one of that name, so a file of the scanned tree by that name is not what the include means
     * (openal-soft's vendored GSL has files named {@code span} and {@code algorithm}).
     */
    public static boolean systemHolds(String name) {
        if (name == null || !name.matches("[A-Za-z0-9_][A-Za-z0-9_.+/-]{0,255}") || name.contains("..")) return false;
        List<Path> dirs = standardDirs();
        dirs.add(Path.of("/usr/include/x86_64-linux-gnu"));
        for (Path d : dirs) if (Files.isRegularFile(d.resolve(name))) return true;
        return false;
    }

    /** The C++ standard library's directories (the newest version first), /usr/include, /usr/local/include. */
    private static List<Path> standardDirs() {
        List<Path> dirs = new ArrayList<>();
        dirs.addAll(versions(Path.of("/usr/include/c++")));
        dirs.addAll(versions(Path.of("/usr/include/x86_64-linux-gnu/c++")));
        dirs.add(Path.of("/usr/include"));
        dirs.add(Path.of("/usr/local/include"));
        return dirs;
    }

    /**
     * Whether an {@code #include <...>} name a scanned file wrote may be looked up below a trusted directory: not
     * empty, not absolute, no {@code ..} (a name that climbs out would report on files outside any include directory).
     */
    public static boolean plainHeaderName(String header) {
        return header != null && !header.isEmpty() && !header.startsWith("/") && !header.contains("..");
    }

    /**
     * The directory one or two levels below {@code /usr/include} or {@code /usr/local/include} that holds
     * {@code header} (a relative name as written in {@code #include <...>}: {@code opencv2/core/core.hpp} is in
     * {@code /usr/include/opencv4}, {@code hdf5.h} in {@code /usr/include/hdf5/serial}), or null. Bounded: at most
     * 4,000 directories are looked at.
     */
    public static Path systemSubdirectoryOf(String header) {
        if (!plainHeaderName(header)) return null;
        return subdirectoryOf(header, List.of(Path.of("/usr/include"), Path.of("/usr/local/include")));
    }

    /** {@link #systemSubdirectoryOf} below {@code roots}. */
    static Path subdirectoryOf(String header, List<Path> roots) {
        if (!plainHeaderName(header)) return null;
        int[] budget = {4000};
        // a bare name two levels down is another library's own header (x86_64-linux-gnu/libavcodec/jni.h for Java's
        // <jni.h>, session 74 round D), unless the level is a version (c++/12/cstdio)
        boolean bare = header.indexOf('/') < 0;
        for (Path top : roots) {
            for (Path d : children(top, budget)) {
                if (Files.isRegularFile(d.resolve(header))) return d;
                for (Path e : children(d, budget)) {
                    if (bare && !e.getFileName().toString().matches("\\d{1,3}(\\.\\d{1,3})*")) continue;
                    if (Files.isRegularFile(e.resolve(header))) return e;
                }
            }
        }
        return null;
    }

    private static List<Path> children(Path dir, int[] budget) {
        List<Path> out = new ArrayList<>();
        if (budget[0] <= 0) return out;
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            s.filter(p -> Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .sorted()
                    .limit(Math.max(0, budget[0]))
                    .forEach(out::add);
        } catch (IOException | RuntimeException e) {
            // unreadable: nothing below it
        }
        budget[0] -= out.size();
        return out;
    }

    /** The version directories of {@code dir} ({@code 12}, {@code 13.2}), the newest first; none when unreadable. */
    public static List<Path> versions(Path dir) {
        List<Path> out = new ArrayList<>();
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().matches("\\d{1,3}(\\.\\d{1,3})*"))
                    .sorted(java.util.Comparator.comparing(
                                    (Path p) -> java.util.Arrays.stream(
                                                    p.getFileName().toString().split("\\."))
                                            .mapToInt(Integer::parseInt)
                                            .toArray(),
                                    java.util.Arrays::compare)
                            .reversed())
                    .forEach(out::add);
        } catch (IOException | RuntimeException e) {
            // no such directory
        }
        return out;
    }

    private static boolean packageIncludeOf(Path real) {
        Path p = real.toAbsolutePath().normalize();
        for (String top : new String[] {"/usr/lib", "/usr/lib64"}) {
            Path base = Path.of(top);
            if (!p.startsWith(base)) continue;
            for (Path part : base.relativize(p)) {
                String n = part.toString();
                if (n.equals("include") || n.equals("fortran")) return true;
            }
        }
        return false;
    }

    private static boolean under(Path p, List<Path> dirs) {
        for (Path d : dirs) if (p.startsWith(d)) return true;
        return false;
    }

    /** Real paths of the existing directories among {@code dirs} (absolute normalized paths for the others). */
    static List<Path> realDirs(List<Path> dirs) {
        Set<Path> out = new LinkedHashSet<>();
        for (Path d : dirs) {
            if (d == null) continue;
            try {
                out.add(d.toAbsolutePath().normalize().toRealPath());
            } catch (IOException | RuntimeException e) {
                // a directory that does not exist cannot hold a file
            }
        }
        return List.copyOf(out);
    }

    /** The real path of {@code p}, or null when it does not exist. */
    public static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static boolean exists(Path p) {
        try {
            return Files.exists(p);
        } catch (RuntimeException e) {
            return false;
        }
    }
}
