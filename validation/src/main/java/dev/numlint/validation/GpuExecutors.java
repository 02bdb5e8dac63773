package dev.numlint.validation;

import java.util.Optional;

/** Discovery hook for a GPU executor. None is available yet: validation runs on the CPU interpreter. */
public final class GpuExecutors {
    private GpuExecutors() {}

    public static Optional<GpuExecutor> find() {
        return Optional.empty();
    }
}
