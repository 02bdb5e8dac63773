package dev.numlint.validation.interp;

import java.util.Map;

/**
 * What a {@link Launch} asks of the interpreter: {@link Interpreter} implements it, and so does each of its copies
 * that {@link Machines} defines (one per mix of instructions, so that each has a JIT profile of its own).
 */
interface Machine {
    /** The texture objects of the launch, by handle (the 64-bit value the kernel receives). */
    void textures(Map<Long, Texture> t);

    /** Writes bytes at offset of the module's .const space (a __constant__ variable the host wrote). */
    void writeConst(int offset, byte[] bytes);

    /** Stops a launch after this many executed instructions (runaway loops). */
    void setInstructionLimit(long limit);

    /** Instructions executed so far (guarded-off ones included). */
    long executed();

    void launch(int[] grid, int[] block, byte[] params) throws KernelFault;
}
