package dev.numlint.ptx.model;

/**
 * A kernel or function parameter (or return parameter). Layout: {@link #offset()} is the byte offset in the
 * parameter buffer (each parameter aligned to {@link #align()}), {@link #size()} its size in bytes.
 *
 * @param name        parameter name (referenced as {@code [name]} or {@code [name+8]} by ld.param)
 * @param space       "param" or "reg"
 * @param type        element type without dot, e.g. "u64", "f32", "b8"
 * @param elementSize size of one element in bytes
 * @param length      number of elements (1 for scalars; array length for {@code .b8 x[16]})
 * @param align       alignment in bytes (explicit .align or the element size)
 * @param offset      byte offset within the parameter list
 * @param ptrSpace    for {@code .ptr .global .align 16}: the pointed-to state space, else null
 * @param ptrAlign    the pointee alignment given with .ptr, else 0
 */
public record Param(
        String name,
        String space,
        String type,
        int elementSize,
        int length,
        int align,
        int offset,
        String ptrSpace,
        int ptrAlign) {
    public int size() {
        return elementSize * length;
    }
}
