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

    /**
     * A recorded launch (numlint record) to replay: the module {@code image} as the program loaded it (PTX text,
     * cubin or fatbinary), or several images of which the first that defines {@code kernel} is used; the parameter
     * block as recorded, {@code params} its layout (offset, size, allocation index or -1, offset in the allocation:
     * a pointer parameter is rewritten to the device address of its restored allocation plus that offset); the
     * allocations' contents before the launch; the module variables ({@code __constant__}, {@code __device__}) by
     * name, written after the module is loaded.
     */
    record Replay(
            List<byte[]> images,
            String kernel,
            int[] grid,
            int[] block,
            int sharedBytes,
            byte[] paramBlock,
            List<int[]> params,
            List<byte[]> allocations,
            Map<String, byte[]> globals,
            List<ReplayTexture> textures,
            int timedRepeats) {}

    /**
     * A recorded texture object to recreate for the parameter {@code param}: its resource ("array", "linear",
     * "pitch2D"), extent, CUarray_format, channels, row pitch, CUaddress_mode per dimension, CUfilter_mode, CU_TRSF
     * flags, border colour, and its texels.
     */
    record ReplayTexture(
            int param,
            String resource,
            int dims,
            long width,
            long height,
            long depth,
            long layers,
            int format,
            int channels,
            long pitch,
            int[] address,
            int filter,
            int flags,
            float[] border,
            byte[] data) {}

    /**
     * The allocations after the first launch, the kernel times of the timed repeats (each on freshly restored
     * inputs), and whether every repeat left the same bytes as the first (false: the kernel's result depends on
     * the order the GPU ran it in, e.g. float atomics).
     */
    record ReplayResult(List<byte[]> allocations, float[] kernelMillis, boolean repeatsIdentical) {}

    /** Replays a recorded launch; an executor that cannot says so. */
    default ReplayResult replay(Replay r) throws Exception {
        throw new UnsupportedOperationException(name() + " cannot replay recorded launches");
    }

    /** A by-value aggregate parameter's bytes. */
    record Bytes(byte[] bytes) {}

    @Override
    void close();
}
