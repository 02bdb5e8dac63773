package dev.numlint.validation;

import java.util.List;
import java.util.Map;

/** Runs a kernel from PTX on a real GPU (the JCuda executor comes with the next issue). */
public interface GpuExecutor {
    /** A short name for reports, e.g. "gpu:NVIDIA H100". */
    String name();

    /**
     * Launches the kernel. args holds, per kernel parameter in order, a byte[] (device buffer contents, copied
     * in) or a Long (the scalar's bit pattern). Returns the device buffers' contents after the launch, by
     * parameter index.
     */
    Map<Integer, byte[]> run(String ptx, String kernel, int[] grid, int[] block, int sharedBytes, List<Object> args) throws Exception;
}
