package dev.numlint.validation.gpu;

import dev.numlint.validation.GpuExecutor;
import java.util.Optional;

/** The GPU: JCuda's driver API ({@link JCudaGpuExecutor}); the default provider of the GPU child process. */
public final class JCudaProvider implements GpuExecutorProvider {
    public static final String NAME = "jcuda";

    public JCudaProvider() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> unavailableReason() {
        try {
            return JCudaLauncher.unavailableReason();
        } catch (LinkageError e) {
            return Optional.of("JCuda could not be loaded: " + e);
        }
    }

    @Override
    public GpuExecutor open(int ordinal) {
        return new JCudaGpuExecutor(ordinal);
    }
}
