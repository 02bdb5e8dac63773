package dev.numlint.validation;

import dev.numlint.validation.gpu.JCudaGpuExecutor;
import dev.numlint.validation.gpu.JCudaLauncher;
import java.util.Optional;

/**
 * In-process access to the GPU (JCuda's driver API when the natives load and the driver reports a device), for the
 * GPU child process and GPU-host tests of the launcher. Validation itself never opens the GPU in its own JVM: it
 * runs each kernel's GPU work in a child process ({@link dev.numlint.validation.gpu.GpuProcess}).
 */
public final class GpuExecutors {
    private GpuExecutors() {}

    /** Why no GPU executor can be used, or empty when one can. */
    public static Optional<String> unavailableReason() {
        try {
            return JCudaLauncher.unavailableReason();
        } catch (LinkageError e) {
            return Optional.of("JCuda could not be loaded: " + e);
        }
    }

    /**
     * A GPU executor on device 0, or empty (see {@link #unavailableReason()}). Its CUDA context is created on first
     * use, so {@code find().isPresent()} is a cheap check; a caller that runs kernels closes it.
     */
    public static Optional<GpuExecutor> find() {
        if (unavailableReason().isPresent()) return Optional.empty();
        return Optional.of(new JCudaGpuExecutor());
    }
}
