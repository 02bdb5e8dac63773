package dev.numlint.validation;

import static dev.numlint.validation.Elements.size;

import dev.numlint.validation.input.KernelSpec;
import dev.numlint.validation.input.ParamSpec;
import dev.numlint.validation.interp.Decoder;
import dev.numlint.validation.interp.Program;

/** What the interpreter refuses to run: launches whose buffers, shared or local memory, grid or block are too large. */
final class LaunchLimits {
    private LaunchLimits() {}

    /** The start of the reason of a kernel not run because its memory or launch exceeds the limits below. */
    public static final String TOO_LARGE = "too large: ";
    /** Bytes of all array arguments of one launch (each variant's run holds a copy). */
    public static final long MAX_BUFFER_BYTES = 256L << 20;
    /** Threads of one block (the hardware limit is 1,024). */
    public static final long MAX_BLOCK_THREADS = 1024;
    /** Threads of one launch (the interpreter runs them one by one; the instruction limit bounds the rest). */
    public static final long MAX_LAUNCH_THREADS = 1L << 26;

    /**
     * Why a launch of {@code ks} on {@code n} elements is too large for the interpreter (sizes of buffers, shared
     * and local memory, grid and block), or null. A negative size (cudaMalloc(&d, -4)) is refused here too.
     */
    static String tooLarge(KernelSpec ks, int n, java.util.Collection<Program> progs) {
        if (n < 0) return "a negative element count (" + n + ")";
        long total = 0;
        for (ParamSpec ps : ks.params) {
            if (!ps.isArray()) {
                if ("bytes".equals(ps.kind) && ps.length != null && (ps.length < 0 || ps.length > 1 << 20))
                    return "aggregate parameter " + ps.name + " of " + ps.length + " bytes";
                continue;
            }
            long len = ps.length != null ? ps.length : n;
            if (len < 0) return "parameter " + ps.name + " has a negative length (" + len + ")";
            total += len * size(ps.type);
            if (total > MAX_BUFFER_BYTES)
                return "the array arguments need more than " + MAX_BUFFER_BYTES + " bytes (parameter " + ps.name + ": "
                        + len + " elements)";
        }
        int[] block = KernelSpec.pad(ks.block == null ? new int[] {1} : ks.block);
        int[] grid = ks.gridFor(Math.max(n, 1));
        long threads = 1;
        for (int b : block) {
            if (b < 1) return "block " + java.util.Arrays.toString(block) + " has a dimension below 1";
            threads *= b;
        }
        if (threads > MAX_BLOCK_THREADS)
            return "block " + java.util.Arrays.toString(block) + " has " + threads + " threads, more than "
                    + MAX_BLOCK_THREADS;
        long all = threads;
        for (int g : grid) {
            if (g < 1) return "grid " + java.util.Arrays.toString(grid) + " has a dimension below 1";
            all *= g;
            if (all > MAX_LAUNCH_THREADS)
                return "grid " + java.util.Arrays.toString(grid) + " x block " + java.util.Arrays.toString(block)
                        + " is more than " + MAX_LAUNCH_THREADS + " threads";
        }
        long dyn = ks.sharedBytes;
        if (dyn < 0) return "negative dynamic shared memory (" + dyn + " bytes)";
        for (Program p : progs) {
            if (p.sharedSize() + dyn > Decoder.MAX_SHARED_BYTES)
                return (p.sharedSize() + dyn) + " bytes of shared memory per block, more than "
                        + Decoder.MAX_SHARED_BYTES;
            if ((long) p.localSize() * threads > 64L << 20)
                return p.localSize() + " bytes of local memory for each of " + threads + " threads";
        }
        return null;
    }
}
