package dev.numlint.cuda.clang;

import dev.numlint.model.BuildContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The tree's directories Clang searches for quoted includes that no include directory of the build holds, found by
 * the included file's name as the hand-written front end finds it (a tree with no build file to give its include
 * path).
 */
public final class ClangIncludesByName {
    private ClangIncludesByName() {}

    /**
     * The C library's standard headers (C17, C23's additions) and the POSIX ones a C program includes most: the
     * compiler or the system provides them, so the tree's file of the same name (a stand-in for old compilers) is
     * never found for them by name.
     */
    public static final java.util.Set<String> STANDARD_HEADERS = java.util.Set.of(
            "assert.h",
            "complex.h",
            "ctype.h",
            "errno.h",
            "fenv.h",
            "float.h",
            "inttypes.h",
            "iso646.h",
            "limits.h",
            "locale.h",
            "math.h",
            "setjmp.h",
            "signal.h",
            "stdalign.h",
            "stdarg.h",
            "stdatomic.h",
            "stdbit.h",
            "stdbool.h",
            "stdckdint.h",
            "stddef.h",
            "stdint.h",
            "stdio.h",
            "stdlib.h",
            "stdnoreturn.h",
            "string.h",
            "tgmath.h",
            "threads.h",
            "time.h",
            "uchar.h",
            "wchar.h",
            "wctype.h",
            "unistd.h",
            "pthread.h",
            "fcntl.h",
            "strings.h",
            "dirent.h",
            "dlfcn.h",
            "memory.h",
            "malloc.h",
            "alloca.h",
            "sys/types.h",
            "sys/stat.h",
            "sys/time.h");

    /**
     * Directories of the scanned tree to search for the file's quoted includes that neither its directory nor the
     * build's include directories hold: for each, the directory under which {@code byName} (the one file of the tree
     * whose path ends with the include's name, as the hand-written front end resolves it) lies. The build's include path
     * is unknown there (no build file gave one); the hand-written front end says so in an include-by-name note.
     */
    public static List<Path> includeDirsByName(
            Path file, byte[] text, BuildContext bc, java.util.function.Function<String, Path> byName) {
        List<Path> dirs = new ArrayList<>();
        java.util.ArrayDeque<Path> todo = new java.util.ArrayDeque<>();
        java.util.Set<Path> seen = new java.util.HashSet<>();
        byNameOf(file, text, bc, byName, dirs, todo);
        // the headers found this way include others the same way (at most 200 headers, 1 MB each)
        while (!todo.isEmpty() && seen.size() < 200) {
            Path h = todo.poll();
            if (!seen.add(h)) continue;
            try {
                if (Files.size(h) > (1 << 20)) continue;
                byNameOf(h, Files.readAllBytes(h), bc, byName, dirs, todo);
            } catch (java.io.IOException | RuntimeException e) {
                // unreadable: Clang reports the include
            }
        }
        return dirs;
    }

    /**
     * Whether the tree's header {@code hit} includes the name it was found by ({@code include/frei0r/cairo.h}: {@code
     * #include <cairo.h>}): a wrapper of the library's header of that name, not that header. Offered for it, its
     * directory made the header include itself until Clang stopped, "#include nested too deeply" (session 77 round B:
     * a video-effects project's eight cairo plugins).
     */
    private static boolean includesItsOwnName(Path hit, String name) {
        try {
            // a link is not followed (it may lead out of the scanned tree)
            if (!Files.isRegularFile(hit, java.nio.file.LinkOption.NOFOLLOW_LINKS) || Files.size(hit) > (1 << 20))
                return false;
            java.util.Set<String> names = new java.util.HashSet<>();
            ClangFrontEnd.includeNames(Files.readAllBytes(hit), names);
            return names.contains(name);
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    private static void byNameOf(
            Path file,
            byte[] text,
            BuildContext bc,
            java.util.function.Function<String, Path> byName,
            List<Path> dirs,
            java.util.ArrayDeque<Path> todo) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        ClangFrontEnd.includeNames(text, names);
        Path dir = file.toAbsolutePath().normalize().getParent();
        outer:
        for (String n : names) {
            if (n.startsWith(ClangFrontEnd.COMPUTED) || n.startsWith("/") || STANDARD_HEADERS.contains(n)) continue;
            try {
                if (dir != null && Files.exists(dir.resolve(n))) continue;
                for (Path p : bc.includePaths()) if (Files.exists(p.resolve(n))) continue outer;
                for (Path d : dirs) if (Files.exists(d.resolve(n))) continue outer;
                Path hit = byName.apply(n);
                if (hit == null || includesItsOwnName(hit, n)) continue;
                todo.add(hit);
                Path base = hit;
                for (int i = 0; i < Path.of(n).normalize().getNameCount() && base != null; i++) base = base.getParent();
                if (base != null && !dirs.contains(base)) dirs.add(base);
            } catch (RuntimeException bad) {
                // not a path: Clang reports the include
            }
        }
    }
}
