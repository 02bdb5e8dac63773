package dev.numlint.scan;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds nvcc: on PATH, else /usr/local/cuda/bin/nvcc. */
public final class Nvcc {
    private Nvcc() {
    }

    public static Optional<Path> find() {
        return find(System.getenv("PATH"));
    }

    static Optional<Path> find(String pathVar) {
        if (pathVar != null) {
            for (String dir : pathVar.split(File.pathSeparator)) {
                if (dir.isEmpty()) {
                    continue;
                }
                Path p = Path.of(dir, "nvcc");
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return Optional.of(p.toAbsolutePath());
                }
            }
        }
        Path fallback = Path.of("/usr/local/cuda/bin/nvcc");
        return Files.isRegularFile(fallback) && Files.isExecutable(fallback) ? Optional.of(fallback) : Optional.empty();
    }
}
