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
    /** What this memory is, for fault messages: global, shared, local, param, const. */
    final String name;
    /** Bytes [0, limit) may be accessed; the rest of {@link #mem} is outside every allocation. */
    int limit;
    /**
     * Global memory: per byte, whether it lies inside an allocation (a module variable or a buffer); the gaps
     * between allocations are not. Null: every byte below {@link #limit} is allocated.
     */
    boolean[] allocated;
    /** Global memory: the allocations, for fault messages (start offset, length, what). */
    final java.util.List<long[]> allocations = new java.util.ArrayList<>();

    final java.util.List<String> allocationNames = new java.util.ArrayList<>();
    double[] shadow;
    boolean[] valid;
    /** Reference mode: low parts of double-double f64 values, at 8-byte granularity. */
    double[] lo8;

    boolean[] validLo;

    public Space(int size, boolean reference) {
        this("global", new byte[size], size, reference);
    }

    public Space(byte[] mem, boolean reference) {
        this("global", mem, mem.length, reference);
    }

    /** A memory of which bytes [0, limit) are allocated (mem may be longer). */
    public Space(String name, byte[] mem, int limit, boolean reference) {
        this.name = name;
        this.mem = mem;
        this.limit = Math.min(limit, mem.length);
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

    /** Marks [offset, offset + length) as one allocation called what (global memory). */
    public void allocate(long offset, int length, String what) {
        if (allocated == null) allocated = new boolean[mem.length];
        Arrays.fill(allocated, (int) offset, (int) offset + length, true);
        allocations.add(new long[] {offset, length});
        allocationNames.add(what);
    }

    /**
     * The array index of an access of size bytes at addr; throws {@link MemoryFault} when any of the bytes lies
     * outside an allocation. Allocations are separated by unallocated gaps at least as wide as the widest access,
     * so checking the first and the last byte suffices.
     */
    int check(long addr, int size) {
        if (addr < 0 || addr > limit - size) throw new MemoryFault(this, addr, size);
        int i = (int) addr;
        if (allocated != null && !(allocated[i] && allocated[i + size - 1])) throw new MemoryFault(this, addr, size);
        return i;
    }

    /** Where offset lies relative to the allocations, e.g. "4 bytes past the end of buffer 1 (16384 bytes)". */
    String describe(long offset) {
        if (allocations.isEmpty()) {
            return offset < 0
                    ? (-offset) + " bytes before the start of " + name + " memory (" + limit + " bytes)"
                    : offset >= limit
                            ? (offset - limit) + " bytes past the end of " + name + " memory (" + limit + " bytes)"
                            : "offset " + offset + " of " + name + " memory (" + limit + " bytes)";
        }
        long best = Long.MAX_VALUE;
        String what = null;
        for (int k = 0; k < allocations.size(); k++) {
            long st = allocations.get(k)[0], len = allocations.get(k)[1];
            if (offset >= st && offset < st + len)
                return "offset " + (offset - st) + " of " + allocationNames.get(k) + " (" + len + " bytes)";
            long before = st - offset, after = offset - (st + len);
            if (before > 0 && before < best) {
                best = before;
                what = before + " bytes before the start of " + allocationNames.get(k) + " (" + len + " bytes)";
            }
            if (after >= 0 && after < best) {
                best = after;
                what = after + " bytes past the end of " + allocationNames.get(k) + " (" + len + " bytes)";
            }
        }
        return what != null ? what : "outside every allocation";
    }

    /** Loads size bytes (1, 2, 4, 8), zero- or sign-extended. */
    long load(long addr, int size, boolean signed) {
        int i = check(addr, size);
        switch (size) {
            case 1:
                return signed ? mem[i] : mem[i] & 0xFFL;
            case 2: {
                short s = (short) I16.get(mem, i);
                return signed ? s : s & 0xFFFFL;
            }
            case 4: {
                int v = (int) I32.get(mem, i);
                return signed ? v : v & 0xFFFFFFFFL;
            }
            case 8:
                return (long) I64.get(mem, i);
            default:
                throw new IllegalArgumentException("size " + size);
        }
    }

    void store(long addr, int size, long v) {
        int i = check(addr, size);
        switch (size) {
            case 1:
                mem[i] = (byte) v;
                break;
            case 2:
                I16.set(mem, i, (short) v);
                break;
            case 4:
                I32.set(mem, i, (int) v);
                break;
            case 8:
                I64.set(mem, i, v);
                break;
            default:
                throw new IllegalArgumentException("size " + size);
        }
        if (valid != null) invalidate(i, size);
    }

    void invalidate(int i, int size) {
        for (int w = i >> 2, e = (i + size - 1) >> 2; w <= e; w++) valid[w] = false;
        for (int w = i >> 3, e = (i + size - 1) >> 3; w <= e; w++) validLo[w] = false;
    }

    /** Reference mode: the low part stored with an f64 value at addr (0 when none). */
    double loadLo(long addr) {
        int i = check(addr, 8);
        return (i & 7) == 0 && validLo[i >> 3] ? lo8[i >> 3] : 0;
    }

    void storeDD(long addr, long hiBits, double lo) {
        int i = check(addr, 8);
        I64.set(mem, i, hiBits);
        invalidate(i, 8);
        if ((i & 7) == 0) {
            lo8[i >> 3] = lo;
            validLo[i >> 3] = true;
        }
    }

    /** Reference mode: an f32 load of the double shadow when it is valid, else of the float bytes. */
    double loadWideF32(long addr) {
        int i = check(addr, 4);
        if ((i & 3) == 0 && valid[i >> 2]) return shadow[i >> 2];
        return Float.intBitsToFloat((int) I32.get(mem, i));
    }

    void storeWideF32(long addr, double v) {
        int i = check(addr, 4);
        I32.set(mem, i, Float.floatToRawIntBits((float) v));
        invalidate(i, 4);
        if ((i & 3) == 0) {
            shadow[i >> 2] = v;
            valid[i >> 2] = true;
        }
    }

    /** The value at addr as the reference computed it: the shadow double when valid, else the float. */
    public double referenceF32(long addr) {
        int i = (int) addr;
        if (valid != null && (i & 3) == 0 && valid[i >> 2]) return shadow[i >> 2];
        return Float.intBitsToFloat((int) I32.get(mem, i));
    }
}
