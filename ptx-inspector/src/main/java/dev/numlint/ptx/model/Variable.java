package dev.numlint.ptx.model;

import java.util.Map;

/**
 * A module- or function-level variable ({@code .global .const .shared .local .tex}).
 *
 * @param name          name
 * @param space         state space without dot: global, const, shared, local, param, tex
 * @param linkage       visible, extern, weak, common or null
 * @param type          element type without dot (b8, f32, u64, texref ...)
 * @param elementSize   bytes per element (0 for opaque types)
 * @param length        total number of elements (product of dimensions; -1 for an unsized extern array; 1 scalar)
 * @param align         alignment in bytes
 * @param init          initial bytes (little endian, length = size()) or null when not initialized
 * @param initSymbols   byte offset -> symbol for initializers that take an address ({@code generic(x)}, {@code x})
 * @param ptxLine       line of the declaration
 */
public record Variable(
        String name,
        String space,
        String linkage,
        String type,
        int elementSize,
        long length,
        int align,
        byte[] init,
        Map<Integer, String> initSymbols,
        int ptxLine) {
    /** Size in bytes, or -1 for an unsized array. */
    public long size() {
        return length < 0 ? -1 : elementSize * length;
    }
}
