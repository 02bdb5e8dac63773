package dev.numlint.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A kernel launch read from host code (CUDA {@code <<<...>>>}, {@code cudaLaunchKernel}, {@code cuLaunchKernel},
 * JCuda {@code cuLaunchKernel}): what could be resolved statically of the grid, the block, the dynamic shared
 * memory and each argument, with where each came from. Unresolved parts are null and fall back to inference.
 *
 * <p>A model type: the CUDA front end reads it (through {@code spi.HostCodeReader}) and validation consumes it, so
 * that no front end depends on validation.
 */
public final class HostLaunch {
    /** The kernel's name as written in the host code. */
    public String kernel;
    /** file:line of the launch. */
    public String at;

    public int[] grid;
    public int[] block;
    public Integer sharedBytes;
    public final List<Arg> args = new ArrayList<>();
    /** For grid, block, shared: where the value came from. */
    public final Map<String, String> provenance = new LinkedHashMap<>();

    /** One launch argument. */
    public static final class Arg {
        /** The argument as written. */
        public String expr;
        /** A device or host buffer's size in bytes (cudaMalloc, cudaMallocManaged, new[], std::vector, cudaMemcpy). */
        public Long bufferBytes;
        /** Every element of the buffer, when the host fills it with one statically known value. */
        public Double fill;
        /** A scalar's value. */
        public Double value;
        /** A struct passed by value, laid out with natural alignment. */
        public byte[] bytes;
        /** Where the value came from, e.g. "cudaMalloc(&d_a, n * sizeof(float)) at main.cu:40 (16384 bytes)". */
        public String provenance;

        @Override
        public String toString() {
            return expr
                    + (bufferBytes != null
                            ? " [" + bufferBytes + " bytes]"
                            : value != null
                                    ? " = " + value
                                    : bytes != null ? " {" + bytes.length + " bytes}" : " (unresolved)");
        }
    }

    @Override
    public String toString() {
        return kernel + " at " + at + ": grid " + java.util.Arrays.toString(grid) + " block "
                + java.util.Arrays.toString(block) + " shared " + sharedBytes + " args " + args;
    }
}
