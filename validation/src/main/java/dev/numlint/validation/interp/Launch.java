package dev.numlint.validation.interp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * One kernel launch on the interpreter: device buffers in global memory (module .global variables first, then
 * each allocation 256-byte aligned), the parameter buffer, the launch, and read-back of results (including the
 * double shadow of f32 values in reference mode).
 */
public final class Launch {
    private final Program p;
    private final List<byte[]> buffers = new ArrayList<>();
    private final List<Long> offsets = new ArrayList<>();
    private int top;
    private final byte[] params;
    private Space global;
    private long executed;

    /**
     * Unallocated bytes between buffers: an access that runs past a buffer lands here and faults (it never reaches
     * the next buffer), see {@link Space#check}.
     */
    public static final int GAP = 256;

    private final List<String> names = new ArrayList<>();

    public Launch(Program p) {
        this.p = p;
        this.top = align(p.globalsSize) + GAP;
        this.params = new byte[Math.max(p.kparamSize, 8)];
    }

    private static int align(int v) {
        return (v + 255) / 256 * 256;
    }

    /** Allocates a device buffer initialised with data and returns its device address. */
    public long alloc(byte[] data) {
        return alloc(data, "buffer " + buffers.size());
    }

    /** Allocates a device buffer called what (for fault messages) initialised with data. */
    public long alloc(byte[] data, String what) {
        offsets.add((long) top);
        buffers.add(data);
        names.add(what);
        top = align(top + Math.max(data.length, 1)) + GAP;
        return Decoder.GLOBAL_BASE + offsets.get(offsets.size() - 1);
    }

    /** Sets kernel parameter i to the low bytes of bits (its declared size). */
    public void param(int i, long bits) {
        Program.Param pr = p.params.get(i);
        ByteBuffer b = ByteBuffer.wrap(params).order(ByteOrder.LITTLE_ENDIAN);
        switch (pr.size) {
            case 1:
                b.put(pr.offset, (byte) bits);
                break;
            case 2:
                b.putShort(pr.offset, (short) bits);
                break;
            case 4:
                b.putInt(pr.offset, (int) bits);
                break;
            case 8:
                b.putLong(pr.offset, bits);
                break;
            default:
                throw new IllegalArgumentException("parameter " + pr + " of " + pr.size + " bytes");
        }
    }

    private final java.util.Map<String, byte[]> variables = new java.util.LinkedHashMap<>();
    private final java.util.Map<Long, Texture> textures = new java.util.HashMap<>();

    /** Makes the texture object handle (the 64-bit value a kernel parameter passes) sample t. */
    public void texture(long handle, Texture t) {
        textures.put(handle, t);
    }

    /**
     * Gives the module variable name ({@code __constant__} or {@code __device__}) these bytes for the launch (what
     * the host wrote with cudaMemcpyToSymbol); false when the kernel's module declares no such variable or its
     * size differs.
     */
    public boolean moduleVariable(String name, byte[] bytes) {
        int[] v = p.moduleVariables.get(name);
        if (v == null || v[2] != bytes.length) return false;
        variables.put(name, bytes.clone());
        return true;
    }

    /** Sets kernel parameter i (an aggregate passed by value) to the given bytes. */
    public void paramBytes(int i, byte[] bytes) {
        Program.Param pr = p.params.get(i);
        System.arraycopy(bytes, 0, params, pr.offset, Math.min(bytes.length, pr.size));
    }

    /**
     * Runs the interpreter's warm-up now if it has not run in this JVM and a launch can run on the shared loop (the
     * first {@link #run} on it does it otherwise): a profile of the whole interpreter loop for the JIT, so that no
     * build's first new instruction throws the compiled loop away (Warmup). Off with {@code
     * -Dnumlint.interp.warmup=false}. Where every program gets its own copy of the loop from its first launch
     * ({@code -Dnumlint.interp.copyAfter=0}) the shared loop never runs, and warming it only kept the JIT's one
     * optimizing-compiler thread busy while the first copies waited for it (interpreter-speed-session15.md).
     */
    public static void warmUp() {
        ForegroundCompile.install();
        if (Machines.JVM.sharedLoopRuns()) Warmup.once();
    }

    /**
     * Whether this JVM compiles the interpreter loop in the foreground (ForegroundCompile, tried at the first launch or
     * warm-up): "on", "off (...)" or "unavailable (...)" with the reason, "not tried" before that.
     */
    public static String foregroundCompile() {
        return ForegroundCompile.status();
    }

    /**
     * The generated code in this JVM (interp/Compiler): {programs translated to classes of their own, nanoseconds
     * spent translating and defining them, programs left to the interpreter}; null when it is off ({@code
     * -Dnumlint.interp.compile=false}).
     */
    public static long[] generatedCode() {
        return Compiler.ON ? Compiler.stats() : null;
    }

    public void run(int[] grid, int[] block, int dynamicShared, long instructionLimit) throws KernelFault {
        run(grid, block, dynamicShared, instructionLimit, Machines.JVM);
    }

    /** Runs the launch on what machines gives p (Machines), or on the shared interpreter class when null (the warm-up). */
    void run(int[] grid, int[] block, int dynamicShared, long instructionLimit, Machines machines) throws KernelFault {
        ForegroundCompile.install(); // once per JVM: the loop's compiled code before its launches run long
        global = new Space(Math.max(top, 8), p.reference);
        System.arraycopy(p.globalsInit, 0, global.mem, 0, p.globalsInit.length);
        global.allocate(0, p.globalsSize, "the module's .global variables");
        for (int i = 0; i < buffers.size(); i++) {
            byte[] d = buffers.get(i);
            System.arraycopy(d, 0, global.mem, (int) (long) offsets.get(i), d.length);
            global.allocate(offsets.get(i), d.length, names.get(i));
        }
        Machine it = machines == null
                ? new Interpreter(p, global, dynamicShared)
                : machines.create(p, global, dynamicShared);
        it.textures(textures);
        for (java.util.Map.Entry<String, byte[]> e : variables.entrySet()) {
            int[] v = p.moduleVariables.get(e.getKey());
            if (v[0] == 1) it.writeConst(v[1], e.getValue());
            else System.arraycopy(e.getValue(), 0, global.mem, v[1], e.getValue().length);
        }
        it.setInstructionLimit(instructionLimit);
        try {
            it.launch(grid, block, params);
        } finally {
            executed = it.executed();
            if (machines != null && it instanceof Interpreter) machines.ran(p, executed);
        }
    }

    public long executed() {
        return executed;
    }

    public byte[] read(long address, int bytes) {
        int off = (int) (address - Decoder.GLOBAL_BASE);
        byte[] r = new byte[bytes];
        System.arraycopy(global.mem, off, r, 0, bytes);
        return r;
    }

    /** Reference mode: the f32 elements of a buffer as computed in double precision where they were. */
    public double[] readReferenceF32(long address, int count) {
        int off = (int) (address - Decoder.GLOBAL_BASE);
        double[] r = new double[count];
        for (int i = 0; i < count; i++) r[i] = global.referenceF32(off + 4L * i);
        return r;
    }
}
