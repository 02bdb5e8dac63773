package dev.numlint.validation.interp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One byte-addressed memory (global, shared, local, param or const) with typed little-endian access. In
 * reference mode it carries a shadow of doubles at 4-byte granularity: an f32 value computed in double precision
 * is stored rounded to float in the bytes and exactly in the shadow, so a later f32 load sees the double.
 */
public final class Space {
    static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    public byte[] mem;
    double[] shadow;
    boolean[] valid;

    public Space(int size, boolean reference) {
        mem = new byte[size];
        if (reference) {
            shadow = new double[(size + 3) / 4];
            valid = new boolean[shadow.length];
        }
    }

    public Space(byte[] mem, boolean reference) {
        this.mem = mem;
        if (reference) {
            shadow = new double[(mem.length + 3) / 4];
            valid = new boolean[shadow.length];
        }
    }

    public void clear() {
        Arrays.fill(mem, (byte) 0);
        if (valid != null) Arrays.fill(valid, false);
    }

    /** Loads size bytes (1, 2, 4, 8), zero- or sign-extended. */
    long load(long addr, int size, boolean signed) {
        int i = Math.toIntExact(addr);
        switch (size) {
            case 1: return signed ? mem[i] : mem[i] & 0xFFL;
            case 2: { short s = (short) I16.get(mem, i); return signed ? s : s & 0xFFFFL; }
            case 4: { int v = (int) I32.get(mem, i); return signed ? v : v & 0xFFFFFFFFL; }
            case 8: return (long) I64.get(mem, i);
            default: throw new IllegalArgumentException("size " + size);
        }
    }

    void store(long addr, int size, long v) {
        int i = Math.toIntExact(addr);
        switch (size) {
            case 1: mem[i] = (byte) v; break;
            case 2: I16.set(mem, i, (short) v); break;
            case 4: I32.set(mem, i, (int) v); break;
            case 8: I64.set(mem, i, v); break;
            default: throw new IllegalArgumentException("size " + size);
        }
        if (valid != null) invalidate(i, size);
    }

    void invalidate(int i, int size) {
        for (int w = i >> 2, e = (i + size - 1) >> 2; w <= e; w++) valid[w] = false;
    }

    /** Reference mode: an f32 load of the double shadow when it is valid, else of the float bytes. */
    double loadWideF32(long addr) {
        int i = Math.toIntExact(addr);
        if ((i & 3) == 0 && valid[i >> 2]) return shadow[i >> 2];
        return Float.intBitsToFloat((int) I32.get(mem, i));
    }

    void storeWideF32(long addr, double v) {
        int i = Math.toIntExact(addr);
        I32.set(mem, i, Float.floatToRawIntBits((float) v));
        if ((i & 3) == 0) {
            shadow[i >> 2] = v;
            valid[i >> 2] = true;
        }
    }

    /** The value at addr as the reference computed it: the shadow double when valid, else the float. */
    public double referenceF32(long addr) {
        int i = Math.toIntExact(addr);
        if (valid != null && (i & 3) == 0 && valid[i >> 2]) return shadow[i >> 2];
        return Float.intBitsToFloat((int) I32.get(mem, i));
    }
}
