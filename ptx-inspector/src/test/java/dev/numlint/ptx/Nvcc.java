package dev.numlint.ptx;

import java.nio.file.Path;
import java.util.Optional;

/** Finds nvcc for tests the way numlint does (the toolchain's one search order: PATH, /usr/local/cuda/bin). */
final class Nvcc {
    private Nvcc() {}

    static Optional<Path> find() {
        return dev.numlint.toolchain.Nvcc.find(null, System.getenv("PATH"));
    }
}
