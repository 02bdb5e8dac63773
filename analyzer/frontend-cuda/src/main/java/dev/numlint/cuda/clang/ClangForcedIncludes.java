package dev.numlint.cuda.clang;

import dev.numlint.toolchain.IncludePolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a forced include ({@code -include thrust/sort.h}) that is not beside the compile command is found: as the
 * compiler finds it, in the include directories the command passes (those Clang is given, already judged readable),
 * then in the toolkit's headers ({@code include}, {@code include/cccl}), then, for a bare name, in the system's
 * ({@link IncludePolicy#systemHeader}). Session 63 round F: a fluid simulator forces two Thrust headers for CUDA 13;
 * the flag was dropped, and Clang reported up to 28 errors in 8 of 13 units. A file is taken only when it is a regular
 * file whose real path stays in the directory it was found in.
 */
final class ClangForcedIncludes {
    private ClangForcedIncludes() {}

    /** The header {@code name} names, searched as above in {@code args} (Clang's, "-I/dir" entries), or null. */
    static Path found(String name, List<String> args, Path toolkit) {
        if (name == null || name.contains("..") || !name.matches("[A-Za-z0-9_][A-Za-z0-9_./+-]{0,255}")) return null;
        List<Path> dirs = new ArrayList<>();
        for (String a : args) if (a.startsWith("-I") && a.length() > 2) dirs.add(Path.of(a.substring(2)));
        if (toolkit != null) {
            dirs.add(toolkit.resolve("include"));
            dirs.add(toolkit.resolve("include/cccl"));
        }
        for (Path d : dirs) {
            Path f = d.resolve(name).normalize();
            Path real = IncludePolicy.real(f), dir = IncludePolicy.real(d);
            if (real != null && dir != null && real.startsWith(dir) && Files.isRegularFile(real)) return real;
        }
        return name.contains("/")
                ? null
                : IncludePolicy.systemHeader(name, toolkit == null ? List.of() : List.of(toolkit.resolve("include")));
    }
}
