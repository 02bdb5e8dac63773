package dev.numlint.validation.interp;

/** A run-time failure of an interpreted kernel (out-of-bounds access, trap, instruction limit). */
public final class KernelFault extends Exception {
    private static final long serialVersionUID = 1L;

    public KernelFault(String msg) {
        super(msg);
    }
}
