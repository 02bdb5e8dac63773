package dev.numlint.validation.gpu;

import dev.numlint.validation.GpuExecutor;
import java.util.Optional;

/**
 * A source of {@link GpuExecutor}s for the GPU child process ({@link GpuChild}), found with {@link
 * java.util.ServiceLoader} and chosen by name in the job file. numlint ships one, {@code jcuda} ({@link
 * JCudaProvider}); tests register their own executors (a sticky fault, a crash, a hang) to exercise the real child
 * process path without a GPU.
 */
public interface GpuExecutorProvider {
    /** The name a job selects this provider by. */
    String name();

    /** Why no GPU can be used, or empty when one can. */
    Optional<String> unavailableReason();

    /** An executor on device {@code ordinal}; its context may be created on first use. */
    GpuExecutor open(int ordinal);
}
