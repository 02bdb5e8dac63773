package dev.numlint.ptx;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds nvcc for tests: $NVCC, then PATH, then $CUDA_HOME/bin and /usr/local/cuda/bin. */
final class Nvcc {
    private Nvcc() {
    }

    static Optional<Path> find() {
        String env = System.getenv("NVCC");
        if (env != null && Files.isExecutable(Path.of(env))) return Optional.of(Path.of(env));
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(java.io.File.pathSeparator)) {
                if (d.isEmpty()) continue;
                Path p = Path.of(d, "nvcc");
                if (Files.isExecutable(p)) return Optional.of(p);
            }
        }
        String home = System.getenv("CUDA_HOME");
        if (home != null && Files.isExecutable(Path.of(home, "bin", "nvcc"))) return Optional.of(Path.of(home, "bin", "nvcc"));
        Path p = Path.of("/usr/local/cuda/bin/nvcc");
        return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }
}
