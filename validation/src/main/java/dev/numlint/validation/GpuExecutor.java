package dev.numlint.validation;

import java.util.List;
import java.util.Map;

/** Runs a kernel from PTX on a real GPU ({@link dev.numlint.validation.gpu.JCudaGpuExecutor}). */
public interface GpuExecutor extends AutoCloseable {
    /** A short name for reports, e.g. "gpu:NVIDIA H100". */
    String name();

    /** Device name, compute capability and driver CUDA version, as "key: value" facts for the report. */
    Map<String, String> facts();

    /** Buffers after the first launch by parameter index, and the median kernel time of the timed repeats. */
    record Result(Map<Integer, byte[]> buffers, double medianMillis, float[] kernelMillis) {}

    /**
     * Launches the kernel. args holds, per kernel parameter in order, a byte[] (device buffer contents, copied
     * in, pointer parameter), a Long (the scalar's bit pattern, passed in its declared size) or an aggregate's
     * bytes ({@link Bytes}). paramSizes are the declared .param sizes in bytes (from the PTX).
     */
    Result run(
            String ptx,
            String kernel,
            int[] grid,
            int[] block,
            int sharedBytes,
            List<Object> args,
            int[] paramSizes,
            int timedRepeats)
            throws Exception;

    /** A by-value aggregate parameter's bytes. */
    record Bytes(byte[] bytes) {}

    @Override
    void close();
}
