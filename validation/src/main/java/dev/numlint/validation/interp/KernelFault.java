package dev.numlint.validation.interp;

import java.util.Arrays;

/**
 * A run-time failure of an interpreted kernel (out-of-bounds access, trap, instruction limit), with the thread,
 * block, PTX line and source line where it happened when known.
 */
public final class KernelFault extends Exception {
    private static final long serialVersionUID = 1L;

    /** Where a fault happened: thread and block index (x, y, z), PTX line, source position, instruction text. */
    public record Where(int[] thread, int[] block, int ptxLine, String source, String instruction) {
        @Override
        public String toString() {
            return "thread " + triple(thread) + " of block " + triple(block) + ", PTX line " + ptxLine
                    + (source != null ? ", source " + source : "") + ": '" + instruction + "'";
        }

        private static String triple(int[] v) {
            return "(" + v[0] + "," + v[1] + "," + v[2] + ")";
        }
    }

    /** True for an access outside every allocation. */
    public final boolean outOfBounds;
    /** Null when the fault happened outside an instruction (e.g. a launch the interpreter cannot run). */
    public final transient Where where;

    public KernelFault(String msg) {
        this(msg, false, null);
    }

    public KernelFault(String msg, boolean outOfBounds, Where where) {
        super(msg);
        this.outOfBounds = outOfBounds;
        this.where = where;
    }

    static KernelFault at(String what, boolean outOfBounds, Where where) {
        return new KernelFault(what, outOfBounds, where);
    }

    @Override
    public String getMessage() {
        return where == null ? super.getMessage() : super.getMessage() + " in " + where;
    }

    /** The fault without its position. */
    public String what() {
        return super.getMessage();
    }

    @Override
    public String toString() {
        return "KernelFault: " + getMessage() + (where == null ? "" : " " + Arrays.toString(where.thread()));
    }
}
