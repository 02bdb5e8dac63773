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
    /** Reference mode: low parts of double-double f64 values, at 8-byte granularity. */
    double[] lo8;
    boolean[] validLo;

    public Space(int size, boolean reference) {
        this(new byte[size], reference);
    }

    public Space(byte[] mem, boolean reference) {
        this.mem = mem;
        if (reference) {
            shadow = new double[(mem.length + 3) / 4];
            valid = new boolean[shadow.length];
            lo8 = new double[(mem.length + 7) / 8];
            validLo = new boolean[lo8.length];
        }
    }

    public void clear() {
        Arrays.fill(mem, (byte) 0);
        if (valid != null) {
            Arrays.fill(valid, false);
            Arrays.fill(validLo, false);
        }
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
        for (int w = i >> 3, e = (i + size - 1) >> 3; w <= e; w++) validLo[w] = false;
    }

    /** Reference mode: the low part stored with an f64 value at addr (0 when none). */
    double loadLo(long addr) {
        int i = Math.toIntExact(addr);
        return (i & 7) == 0 && validLo[i >> 3] ? lo8[i >> 3] : 0;
    }

    void storeDD(long addr, long hiBits, double lo) {
        int i = Math.toIntExact(addr);
        I64.set(mem, i, hiBits);
        invalidate(i, 8);
        if ((i & 7) == 0) {
            lo8[i >> 3] = lo;
            validLo[i >> 3] = true;
        }
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
        invalidate(i, 4);
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
