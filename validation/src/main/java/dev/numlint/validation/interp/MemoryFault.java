package dev.numlint.validation.interp;

/**
 * An access outside every allocation of a memory (thrown by {@link Space}; the interpreter turns it into a
 * {@link KernelFault} naming the thread, block and instruction).
 */
final class MemoryFault extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient Space space;
    final long offset;
    final int size;

    MemoryFault(Space space, long offset, int size) {
        super(null, null, false, false);
        this.space = space;
        this.offset = offset;
        this.size = size;
    }

    @Override
    public String getMessage() {
        return "out-of-bounds " + space.name + " access of " + size + " bytes: " + space.describe(offset);
    }
}
