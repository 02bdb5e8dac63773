package dev.numlint.validation.interp;

import static dev.numlint.validation.interp.Decoder.CONST_WIN;
import static dev.numlint.validation.interp.Decoder.GLOBAL_BASE;
import static dev.numlint.validation.interp.Decoder.KPARAM_WIN;
import static dev.numlint.validation.interp.Decoder.LOCAL_WIN;
import static dev.numlint.validation.interp.Decoder.SHARED_WIN;

import dev.numlint.validation.fp.Approx;
import dev.numlint.validation.fp.Cvt;
import dev.numlint.validation.fp.DoubleDouble;
import dev.numlint.validation.fp.Fp32;
import dev.numlint.validation.fp.Fp64;
import dev.numlint.validation.fp.HostX86;
import dev.numlint.validation.fp.Rounding;
import java.util.Arrays;

/**
 * Executes a decoded {@link Program} on the CPU with PTX semantics. Threads of a block run one after another;
 * when the kernel uses bar.sync or warp collectives (shfl/vote/bar.warp.sync/activemask) each thread runs until
 * its next synchronisation point, and the block advances in lock-step phases: warp collectives are executed for
 * all lanes of a warp that reached them together, barriers release when every live thread of the block arrived.
 * Atomics happen in thread order.
 */
public final class Interpreter implements Machine {
    private static final Rounding[] RND = Rounding.values();
    private static final int S_EXIT = 0, S_BAR = 1, S_WARP = 2, S_SLICE = 3;

    /**
     * The first {@link #YOUNG} calls of {@link #run} in this class (each copy of {@link Machines} is a class of its
     * own) return {@code S_SLICE} after {@link #SLICE} instructions, and the caller calls again at once; later calls
     * run until the thread exits or synchronises. Why: the JIT compiles a method whole once it has been called often
     * enough (600 calls with 15,000 calls and loop turns together), and its loop alone (on-stack replacement, OSR) once
     * the loop has turned 40,000 times. A thread runs hundreds to thousands of PTX instructions, one loop turn each,
     * so with one call per thread the loop count came first: C2 compiled the OSR version first, every call then began
     * in the profiled C1 code (15-20 M instructions/s) and moved into the OSR code at its first backward branch (75-100
     * M/s), and the whole-method compile (185-220 M/s) was queued only after the OSR compile had finished: a new copy
     * took from 1 to 13 runs of a 3 M-instruction launch to reach its speed (interpreter-speed-session15.md). Short
     * calls reach the call count first.
     */
    static final int SLICE = 16;

    static final int YOUNG = Integer.getInteger("numlint.interp.youngCalls", 4000);

    static int youngCalls = YOUNG; // each copy (a class of its own) counts its own calls

    private final Program p;
    private final Space global, constSpace;
    private Space shared, kparam;
    private final int dynShared;
    private long executed;
    private long limit = Long.MAX_VALUE;
    // scratch for generic address resolution
    private Space rs;

    /** One thread's state. */
    static final class Thread {
        long[] R;
        /** Reference mode: low parts of double-double registers. */
        double[] L;

        int pc;
        Space local, cparam;
        int[] stack;
        int sp;
        int state = -1; // -1 runnable, else S_*
        int lane;
    }

    public Interpreter(Program p, Space global, int dynamicSharedBytes) {
        this.p = p;
        this.global = global;
        this.dynShared = dynamicSharedBytes;
        this.constSpace = new Space("const", new byte[Math.max(p.constSize, 8)], p.constSize, false);
        System.arraycopy(p.constInit, 0, constSpace.mem, 0, p.constInit.length);
    }

    private java.util.Map<Long, Texture> textures = java.util.Map.of();

    @Override
    public void textures(java.util.Map<Long, Texture> t) {
        textures = t;
    }

    private void tex(long[] R, int i) throws KernelFault {
        int[] v = p.v[i];
        long x = p.x[i];
        long handle = R[p.a[i]];
        Texture tx = textures.get(handle);
        if (tx == null)
            throw new KernelFault(
                    String.format("texture object 0x%x: not among the launch's recorded texture objects", handle));
        int geom = (int) (x & 15);
        boolean layered = geom >= 3;
        int dims = geom == 3 ? 1 : geom == 4 ? 2 : geom + 1;
        if (dims != tx.dims)
            throw new KernelFault("tex." + Decoder.TEX_GEOMETRIES.get(geom) + " of a " + tx.dims + "-D texture object");
        int first = layered ? 5 : 4;
        int layer = layered && v[4] >= 0 ? (int) R[v[4]] : 0;
        long[] out;
        if ((x & 32) != 0) {
            double[] c = new double[3];
            for (int k = 0; k < dims; k++) c[k] = v[first + k] >= 0 ? Float.intBitsToFloat((int) R[v[first + k]]) : 0;
            out = tx.sample(c, layer);
        } else {
            int[] c = new int[3];
            for (int k = 0; k < dims; k++) c[k] = v[first + k] >= 0 ? (int) R[v[first + k]] : 0;
            out = tx.fetch(c, layer);
        }
        for (int k = 0; k < 4; k++) if (v[k] >= 0) R[v[k]] = out[k];
    }

    private static double fval(long bits, boolean f64) {
        return f64 ? Double.longBitsToDouble(bits) : Float.intBitsToFloat((int) bits);
    }

    private static boolean subnormal(double v, boolean f64) {
        double a = Math.abs(v);
        return a != 0 && a < (f64 ? Double.MIN_NORMAL : Float.MIN_NORMAL);
    }

    /**
     * The floating-point exceptions the instruction after this check raises on its operands (GPU-FPX's classes):
     * a NaN or an infinity from finite operands, a division (or reciprocal) by zero, an operand or a result that
     * .ftz flushes to zero, a conversion to an integer of a NaN or of a value outside the integer's range. The
     * result is computed here in binary64 from the operands (the approximate functions by their exact values),
     * which classifies it as the f32/f64 instruction's result would be classified.
     */
    private void fpx(long[] R, int i) {
        long x = p.x[i];
        int kind = (int) (x & 255);
        boolean f64 = (x & 256) != 0, ftz = (x & 512) != 0;
        int dk = (int) (x >>> 16);
        double a = fval(R[p.a[i]], f64);
        double b = p.b[i] >= 0 ? fval(R[p.b[i]], f64) : 0, c = p.c[i] >= 0 ? fval(R[p.c[i]], f64) : 0;
        long[] row = p.exceptions[p.y[i]];
        boolean finite = Double.isFinite(a) && Double.isFinite(b) && Double.isFinite(c);
        if (kind == 13) { // float to integer
            double r = Math.rint(a);
            int w = dk & 127;
            boolean signed = (dk & 128) != 0;
            double half = Math.scalb(1.0, w - 1); // 2^(w-1), exactly (Math.pow cost more than the whole check)
            double lo = signed ? -half : 0, hi = signed ? half : 2 * half;
            if (Double.isNaN(a) || r < lo - 1 || r >= hi) row[Program.CONVERSION_OVERFLOW]++;
            if (ftz && !f64 && subnormal(a, false)) row[Program.FTZ_FLUSH]++;
            return;
        }
        boolean toF64 = kind == 14 ? dk == Op.K_F64 : f64;
        double r;
        switch (kind) {
            case 0 -> r = a + b;
            case 1 -> r = a - b;
            case 2 -> r = a * b;
            case 3 -> r = Math.fma(a, b, c);
            case 4 -> r = a / b;
            case 5 -> r = 1 / a;
            case 6 -> r = Math.sqrt(a);
            case 7 -> r = 1 / Math.sqrt(a);
            case 8 -> r = Math.pow(2, a);
            case 9 -> r = Math.log(a) / Math.log(2);
            case 10 -> r = Math.sin(a);
            case 11 -> r = Math.cos(a);
            case 12 -> r = Math.tanh(a);
            default -> r = a; // 14: conversion between float formats
        }
        double rr = toF64 ? r : (float) r;
        if (finite && Double.isNaN(rr)) row[Program.NAN_FROM_FINITE]++;
        if (finite && Double.isInfinite(rr)) row[Program.INF_FROM_FINITE]++;
        if ((kind == 4 && b == 0 || kind == 5 && a == 0) && !Double.isNaN(a)) row[Program.DIVISION_BY_ZERO]++;
        if (ftz
                && (subnormal(a, f64)
                        || p.b[i] >= 0 && subnormal(b, f64)
                        || p.c[i] >= 0 && subnormal(c, f64)
                        || subnormal(rr, toF64))) row[Program.FTZ_FLUSH]++;
    }

    /**
     * An f32 value (low 32 bits) that may raise or be flushed: zero, subnormal, in the lowest or highest normal binade
     * (a neighbouring rounding of it may be subnormal or infinite), infinite or NaN. Where no operand and no result
     * of an add/sub/mul/fma/div.approx is unusual, {@link #fpx} counts nothing.
     */
    static boolean unusual(long bits) {
        int e = (int) (bits >>> 23) & 0xFF;
        return e < 2 || e > 253;
    }

    @Override
    public void writeConst(int offset, byte[] bytes) {
        System.arraycopy(bytes, 0, constSpace.mem, offset, bytes.length);
    }

    @Override
    public void setInstructionLimit(long limit) {
        this.limit = limit;
    }

    @Override
    public long executed() {
        return executed;
    }

    @Override
    public void launch(int[] grid, int[] block, byte[] params) throws KernelFault {
        kparam = new Space("param", Arrays.copyOf(params, Math.max(params.length, p.kparamSize)), p.kparamSize, false);
        int nb = block[0] * block[1] * block[2];
        boolean sync = p.hasSync;
        Thread[] ts = new Thread[sync ? nb : 1];
        for (int i = 0; i < ts.length; i++) ts[i] = newThread();
        for (int bz = 0; bz < grid[2]; bz++) {
            for (int by = 0; by < grid[1]; by++) {
                for (int bx = 0; bx < grid[0]; bx++) {
                    if (shared == null)
                        shared = new Space(
                                "shared", new byte[p.sharedSize + dynShared], p.sharedSize + dynShared, p.reference);
                    else shared.clear();
                    int lin = 0;
                    for (int tz = 0; tz < block[2]; tz++) {
                        for (int ty = 0; ty < block[1]; ty++) {
                            for (int tx = 0; tx < block[0]; tx++, lin++) {
                                Thread t = ts[sync ? lin : 0];
                                init(t, grid, block, bx, by, bz, tx, ty, tz, lin, nb);
                                if (!sync) {
                                    int st;
                                    do st = code != null ? code.run(this, t) : run(t);
                                    while (st == S_SLICE);
                                    if (st != S_EXIT) throw new KernelFault("unexpected synchronisation");
                                }
                            }
                        }
                    }
                    if (sync) runBlock(ts);
                }
            }
        }
    }

    private Thread newThread() {
        Thread t = new Thread();
        t.R = new long[p.nRegs];
        if (p.reference) t.L = new double[p.nRegs];
        t.local = new Space("local", new byte[Math.max(p.localSize, 8)], p.localSize, p.reference);
        if (p.cparamSize > 0) t.cparam = new Space("param", new byte[p.cparamSize], p.cparamSize, false);
        t.stack = new int[2 * p.maxCallDepth];
        return t;
    }

    private void init(
            Thread t, int[] grid, int[] block, int bx, int by, int bz, int tx, int ty, int tz, int lin, int nb) {
        long[] R = t.R;
        System.arraycopy(p.regTemplate, 0, R, 0, p.nRegs);
        R[Program.R_TID] = tx;
        R[Program.R_TID + 1] = ty;
        R[Program.R_TID + 2] = tz;
        R[Program.R_NTID] = block[0];
        R[Program.R_NTID + 1] = block[1];
        R[Program.R_NTID + 2] = block[2];
        R[Program.R_CTAID] = bx;
        R[Program.R_CTAID + 1] = by;
        R[Program.R_CTAID + 2] = bz;
        R[Program.R_NCTAID] = grid[0];
        R[Program.R_NCTAID + 1] = grid[1];
        R[Program.R_NCTAID + 2] = grid[2];
        int lane = lin & 31;
        t.lane = lane;
        R[Program.R_LANEID] = lane;
        R[Program.R_WARPID] = lin >> 5;
        R[Program.R_NWARPID] = (nb + 31) >> 5;
        R[Program.R_LANEMASK_EQ] = 1L << lane;
        R[Program.R_LANEMASK_LT] = (1L << lane) - 1;
        R[Program.R_LANEMASK_LE] = (2L << lane) - 1;
        R[Program.R_LANEMASK_GT] = ~((2L << lane) - 1) & 0xFFFFFFFFL;
        R[Program.R_LANEMASK_GE] = ~((1L << lane) - 1) & 0xFFFFFFFFL;
        if (t.L != null) Arrays.fill(t.L, 0);
        t.pc = 0;
        t.sp = 0;
        t.state = -1;
        if (p.localSize > 0) t.local.clear();
    }

    private void runBlock(Thread[] ts) throws KernelFault {
        int n = ts.length;
        while (true) {
            for (Thread t : ts) {
                if (t.state == -1) {
                    int st;
                    do st = code != null ? code.run(this, t) : run(t);
                    while (st == S_SLICE);
                    t.state = st;
                }
            }
            boolean anyWarp = false, anyBar = false;
            for (Thread t : ts) {
                if (t.state == S_WARP) anyWarp = true;
                else if (t.state == S_BAR) anyBar = true;
            }
            if (anyWarp) {
                for (int w = 0; w < n; w += 32) {
                    int end = Math.min(n, w + 32);
                    boolean[] done = new boolean[end - w];
                    for (int i = w; i < end; i++) {
                        if (ts[i].state != S_WARP || done[i - w]) continue;
                        int pc = ts[i].pc;
                        int cnt = 0;
                        Thread[] grp = new Thread[end - w];
                        for (int j = i; j < end; j++) {
                            if (ts[j].state == S_WARP && ts[j].pc == pc) {
                                grp[cnt++] = ts[j];
                                done[j - w] = true;
                            }
                        }
                        collective(Arrays.copyOf(grp, cnt), pc);
                        for (int j = 0; j < cnt; j++) {
                            grp[j].pc = pc + 1;
                            grp[j].state = -1;
                        }
                    }
                }
            } else if (anyBar) {
                for (Thread t : ts) if (t.state == S_BAR) t.state = -1;
            } else {
                return;
            }
        }
    }

    private void collective(Thread[] grp, int pc) {
        int op = p.op[pc];
        long mask = 0;
        for (Thread t : grp) mask |= 1L << t.lane;
        int d = p.d[pc], a = p.a[pc];
        switch (op) {
            case Op.WARPSYNC:
                return;
            case Op.ACTIVEMASK:
                for (Thread t : grp) t.R[d] = mask;
                return;
            case Op.VOTE: {
                int code = (int) p.x[pc] & 7;
                boolean neg = (p.x[pc] & 8) != 0;
                long ballot = 0;
                int trues = 0;
                for (Thread t : grp) {
                    boolean v = (t.R[a] != 0) ^ neg;
                    if (v) {
                        ballot |= 1L << t.lane;
                        trues++;
                    }
                }
                for (Thread t : grp) {
                    switch (code) {
                        case 0:
                            t.R[d] = trues == grp.length ? 1 : 0;
                            break;
                        case 1:
                            t.R[d] = trues > 0 ? 1 : 0;
                            break;
                        case 2:
                            t.R[d] = trues == 0 || trues == grp.length ? 1 : 0;
                            break;
                        default:
                            t.R[d] = ballot;
                            break;
                    }
                }
                return;
            }
            case Op.SHFL: {
                int mode = (int) p.x[pc];
                int[] v = p.v[pc];
                Thread[] byLane = new Thread[32];
                for (Thread t : grp) byLane[t.lane] = t;
                long[] vals = new long[grp.length];
                boolean[] ok = new boolean[grp.length];
                for (int i = 0; i < grp.length; i++) {
                    Thread t = grp[i];
                    int lane = t.lane;
                    int bval = (int) t.R[p.b[pc]] & 31;
                    int cw = (int) t.R[v[0]];
                    int cval = cw & 31, seg = (cw >> 8) & 31;
                    int maxLane = (lane & seg) | (cval & ~seg), minLane = lane & seg;
                    int j;
                    boolean pv;
                    switch (mode) {
                        case 0:
                            j = lane - bval;
                            pv = j >= maxLane;
                            break;
                        case 1:
                            j = lane + bval;
                            pv = j <= maxLane;
                            break;
                        case 2:
                            j = lane ^ bval;
                            pv = j <= maxLane;
                            break;
                        default:
                            j = minLane | (bval & ~seg);
                            pv = j <= maxLane;
                            break;
                    }
                    if (!pv || j < 0 || j > 31 || byLane[j] == null) j = lane;
                    vals[i] = byLane[j].R[a];
                    ok[i] = pv;
                }
                for (int i = 0; i < grp.length; i++) {
                    grp[i].R[d] = vals[i];
                    if (v[1] >= 0) grp[i].R[v[1]] = ok[i] ? 1 : 0;
                }
                return;
            }
            default:
                throw new IllegalStateException("not a collective: " + p.text[pc]);
        }
    }

    // ---------------------------------------------------------------- helpers

    static float f(long r) {
        return Float.intBitsToFloat((int) r);
    }

    static long fb(float v) {
        return v != v ? Fp32.CANONICAL_NAN_BITS : Float.floatToRawIntBits(v);
    }

    /** {@link Fp32#ftz} on the bits: a subnormal becomes the zero of its sign. */
    static float ftz32(float v) {
        int bits = Float.floatToRawIntBits(v);
        return (bits & 0x7F800000) == 0 ? Float.intBitsToFloat(bits & 0x80000000) : v;
    }

    static double dd(long r) {
        return Double.longBitsToDouble(r);
    }

    static long db(double v) {
        return v != v ? Fp64.CANONICAL_NAN_BITS : Double.doubleToRawLongBits(v);
    }

    private long index(int sp, long addr, Thread t) throws KernelFault {
        switch (sp) {
            case Op.SP_GLOBAL:
                rs = global;
                return addr - GLOBAL_BASE;
            case Op.SP_SHARED:
                rs = shared;
                return addr;
            case Op.SP_LOCAL:
                rs = t.local;
                return addr;
            case Op.SP_KPARAM:
                rs = kparam;
                return addr;
            case Op.SP_CPARAM:
                rs = t.cparam;
                return addr;
            case Op.SP_CONST:
                rs = constSpace;
                return addr;
            default:
                if (addr >= KPARAM_WIN) {
                    rs = kparam;
                    return addr - KPARAM_WIN;
                }
                if (addr >= CONST_WIN) {
                    rs = constSpace;
                    return addr - CONST_WIN;
                }
                if (addr >= LOCAL_WIN) {
                    rs = t.local;
                    return addr - LOCAL_WIN;
                }
                if (addr >= SHARED_WIN) {
                    rs = shared;
                    return addr - SHARED_WIN;
                }
                if (addr >= GLOBAL_BASE) {
                    rs = global;
                    return addr - GLOBAL_BASE;
                }
                throw new KernelFault("generic access to unmapped address 0x" + Long.toHexString(addr));
        }
    }

    static boolean cmpF(int code, double a, double b) {
        boolean nan = a != a || b != b;
        switch (code) {
            case 0:
                return a == b;
            case 1:
                return !nan && a != b;
            case 2:
                return a < b;
            case 3:
                return a <= b;
            case 4:
                return a > b;
            case 5:
                return a >= b;
            case 10:
                return nan || a == b;
            case 11:
                return nan || a != b;
            case 12:
                return nan || a < b;
            case 13:
                return nan || a <= b;
            case 14:
                return nan || a > b;
            case 15:
                return nan || a >= b;
            case 16:
                return !nan;
            case 17:
                return nan;
            default:
                throw new IllegalArgumentException("float comparison " + code);
        }
    }

    static boolean cmpI(int code, long a, long b, int kind) {
        boolean uns = !Op.signed(kind);
        a = Op.ext(a, kind);
        b = Op.ext(b, kind);
        switch (code) {
            case 0:
                return a == b;
            case 1:
                return a != b;
            case 2:
                return uns ? Long.compareUnsigned(a, b) < 0 : a < b;
            case 3:
                return uns ? Long.compareUnsigned(a, b) <= 0 : a <= b;
            case 4:
                return uns ? Long.compareUnsigned(a, b) > 0 : a > b;
            case 5:
                return uns ? Long.compareUnsigned(a, b) >= 0 : a >= b;
            case 6:
                return Long.compareUnsigned(a, b) < 0;
            case 7:
                return Long.compareUnsigned(a, b) <= 0;
            case 8:
                return Long.compareUnsigned(a, b) > 0;
            case 9:
                return Long.compareUnsigned(a, b) >= 0;
            default:
                throw new IllegalArgumentException("integer comparison " + code);
        }
    }

    static void setp(long[] R, int d, int cpred, long x, boolean t) {
        int comb = (int) (x >>> 8) & 7;
        int q = (int) (x >>> 16) - 1;
        boolean nt = !t;
        if ((comb & 3) != 0) {
            boolean c = (R[cpred] != 0) ^ ((comb & 4) != 0);
            switch (comb & 3) {
                case 1:
                    t = t && c;
                    nt = nt && c;
                    break;
                case 2:
                    t = t || c;
                    nt = nt || c;
                    break;
                default:
                    t = t ^ c;
                    nt = nt ^ c;
                    break;
            }
        }
        R[d] = t ? 1 : 0;
        if (q >= 0) R[q] = nt ? 1 : 0;
    }

    static long mask(int w) {
        return w == 64 ? -1L : (1L << w) - 1;
    }

    static long cvt(long v, long x, int y) {
        int dk = y >>> 12, sk = y & 0xFFF;
        Rounding r = RND[(int) x & 3];
        boolean intRound = (x & 4) != 0, ftz = (x & 8) != 0, sat = (x & 16) != 0, host = (x & 32) != 0;
        boolean sf = Op.isFloat(sk), df = Op.isFloat(dk);
        if (!sf && !df) {
            long val = Op.ext(v, sk);
            if (sat) {
                int w = Op.width(dk);
                boolean srcUnsigned64 = sk == Op.K_U64;
                if (Op.signed(dk)) {
                    long max = w == 64 ? Long.MAX_VALUE : (1L << (w - 1)) - 1,
                            min = w == 64 ? Long.MIN_VALUE : -(1L << (w - 1));
                    if (srcUnsigned64 && val < 0) val = max;
                    else if (val > max) val = max;
                    else if (val < min) val = min;
                } else {
                    if (Op.signed(sk) && val < 0) val = 0;
                    else if (w < 64 && !(srcUnsigned64 && val < 0) && val > mask(w)) val = mask(w);
                    else if (w < 64 && srcUnsigned64 && val < 0) val = mask(w);
                }
            }
            return Op.ext(val, dk);
        }
        if (sf && !df) {
            double val = sk == Op.K_F32 ? (ftz ? Fp32.ftz(f(v)) : f(v)) : dd(v);
            int w = Op.width(dk);
            if (host)
                return Op.signed(dk) ? HostX86.floatToSigned(val, w) : HostX86.floatToUnsigned(val, w, sk == Op.K_F32);
            return Cvt.floatToInt(val, r, w, Op.signed(dk));
        }
        if (!sf) {
            long iv = Op.ext(v, sk);
            boolean u64 = sk == Op.K_U64;
            if (dk == Op.K_F32) {
                float fv = Cvt.intToFloat(iv, u64, r);
                if (sat) fv = Fp32.sat(fv);
                return fb(fv);
            }
            double dv = Cvt.intToDouble(iv, u64, r);
            return db(sat ? Fp64.sat(dv) : dv);
        }
        if (sk == Op.K_F32 && dk == Op.K_F64) {
            float fv = f(v);
            if (ftz) fv = Fp32.ftz(fv);
            double dv = fv;
            if (intRound) dv = Cvt.roundToIntegral(dv, r);
            return db(sat ? Fp64.sat(dv) : dv);
        }
        if (sk == Op.K_F64 && dk == Op.K_F32) {
            double dv = dd(v);
            if (intRound) return fb(Cvt.doubleToFloat(Cvt.roundToIntegral(dv, r), Rounding.RN, ftz, sat));
            return fb(Cvt.doubleToFloat(dv, r, ftz, sat));
        }
        if (sk == Op.K_F32) {
            float fv = f(v);
            if (ftz) fv = Fp32.ftz(fv);
            if (intRound) fv = Cvt.roundToIntegral(fv, r);
            if (sat) fv = Fp32.sat(fv);
            return fb(fv);
        }
        double dv = dd(v);
        if (intRound) dv = Cvt.roundToIntegral(dv, r);
        if (sat) dv = Fp64.sat(dv);
        return db(dv);
    }

    private static float approx32(int code, float a, float b, boolean ftz) {
        switch (code) {
            case Op.A_RCP:
                return Approx.rcp(a, ftz);
            case Op.A_DIV:
                return Approx.divApprox(a, b, ftz);
            case Op.A_DIV_FULL:
                return Approx.divFull(a, b, ftz);
            case Op.A_SQRT:
                return Approx.sqrt(a, ftz);
            case Op.A_RSQRT:
                return Approx.rsqrt(a, ftz);
            case Op.A_SIN:
                return Approx.sin(a, ftz);
            case Op.A_COS:
                return Approx.cos(a, ftz);
            case Op.A_LG2:
                return Approx.lg2(a, ftz);
            case Op.A_EX2:
                return Approx.ex2(a, ftz);
            default:
                return Approx.tanh(a);
        }
    }

    /** Binary64 versions: the exact functions for reference mode, and the f64 approximations (rcp/rsqrt). */
    private static double approx64(int code, double a) {
        switch (code) {
            case Op.A_RCP:
                return 1.0 / a;
            case Op.A_SQRT:
                return Math.sqrt(a);
            case Op.A_RSQRT:
                return 1.0 / Math.sqrt(a);
            case Op.A_SIN:
                return Math.sin(a);
            case Op.A_COS:
                return Math.cos(a);
            case Op.A_LG2:
                return Math.log(a) / Math.log(2.0);
            case Op.A_EX2:
                return Math.pow(2.0, a);
            default:
                return Math.tanh(a);
        }
    }

    private long atom(Thread t, int pc) throws KernelFault {
        long[] R = t.R;
        int y = p.y[pc];
        int sp = y & 15, aop = (y >> 4) & 15, kind = y >>> 12;
        long addr = R[p.a[pc]] + p.x[pc];
        long i = index(sp, addr, t);
        Space s = rs;
        int size = Op.isFloat(kind) ? Op.width(kind) / 8 : Math.max(Op.width(kind) / 8, 4);
        long old = s.load(i, size, false);
        long b = R[p.b[pc]];
        long nv;
        switch (aop) {
            case 0:
                if (kind == Op.K_F32) nv = fb(Fp32.add(f(old), f(b), Rounding.RN, true));
                else if (kind == Op.K_F64) nv = db(dd(old) + dd(b));
                else nv = old + b;
                break;
            case 1:
                nv = cmpI(2, old, b, kind) ? old : b;
                break;
            case 2:
                nv = cmpI(4, old, b, kind) ? old : b;
                break;
            case 3:
                nv = Long.compareUnsigned(old & 0xFFFFFFFFL, b & 0xFFFFFFFFL) >= 0 ? 0 : old + 1;
                break;
            case 4:
                nv = (old & 0xFFFFFFFFL) == 0 || Long.compareUnsigned(old & 0xFFFFFFFFL, b & 0xFFFFFFFFL) > 0
                        ? b
                        : old - 1;
                break;
            case 5:
                nv = b;
                break;
            case 6:
                nv = Op.ext(old, kind) == Op.ext(b, kind) ? R[p.c[pc]] : old;
                break;
            case 7:
                nv = old & b;
                break;
            case 8:
                nv = old | b;
                break;
            default:
                nv = old ^ b;
                break;
        }
        s.store(i, size, nv);
        return old;
    }

    private void copyParams(Thread t, int[] site, int from) {
        int n = site[from];
        for (int k = 0; k < n; k++) {
            int src = site[from + 1 + 3 * k], dst = site[from + 2 + 3 * k], sz = site[from + 3 + 3 * k];
            System.arraycopy(t.cparam.mem, src, t.cparam.mem, dst, sz);
        }
    }

    // ---------------------------------------------------------------- the interpreter loop

    int run(Thread t) throws KernelFault {
        final int[] OPG = p.opGuarded, D = p.d, A = p.a, B = p.b, C = p.c, G = p.g, Y = p.y;
        final long[] X = p.x;
        final long[] R = t.R;
        final byte[] gm = global.mem;
        int pc = t.pc;
        long count = 0;
        final long budget = limit - executed; // the limit holds for the whole launch
        final long slice = youngCalls > 0 && youngCalls-- > 0 ? SLICE : Long.MAX_VALUE;
        int i = pc;
        try {
            while (true) {
                if (count >= slice) {
                    t.pc = pc;
                    return S_SLICE;
                }
                i = pc++;
                count++;
                int o = OPG[i];
                if (o >= Program.GUARDED) {
                    int g = G[i];
                    boolean v = R[g > 0 ? g - 1 : -g - 1] != 0;
                    if (v != (g > 0)) continue;
                    o -= Program.GUARDED;
                }
                switch (o) {
                    case Op.NOP:
                        break;
                    case Op.MOV:
                        R[D[i]] = R[A[i]];
                        break;
                    case Op.ADD_I:
                        R[D[i]] = R[A[i]] + R[B[i]];
                        break;
                    case Op.SUB_I:
                        R[D[i]] = R[A[i]] - R[B[i]];
                        break;
                    case Op.MUL_LO:
                        R[D[i]] = R[A[i]] * R[B[i]];
                        break;
                    case Op.MAD_LO:
                        R[D[i]] = R[A[i]] * R[B[i]] + R[C[i]];
                        break;
                    case Op.NEG_I:
                        R[D[i]] = -R[A[i]];
                        break;
                    case Op.AND:
                        R[D[i]] = R[A[i]] & R[B[i]];
                        break;
                    case Op.OR:
                        R[D[i]] = R[A[i]] | R[B[i]];
                        break;
                    case Op.XOR:
                        R[D[i]] = R[A[i]] ^ R[B[i]];
                        break;
                    case Op.NOT:
                        R[D[i]] = ~R[A[i]];
                        break;
                    case Op.AND_PRED:
                        R[D[i]] = R[A[i]] & R[B[i]];
                        break;
                    case Op.OR_PRED:
                        R[D[i]] = R[A[i]] | R[B[i]];
                        break;
                    case Op.XOR_PRED:
                        R[D[i]] = R[A[i]] ^ R[B[i]];
                        break;
                    case Op.NOT_PRED:
                        R[D[i]] = R[A[i]] ^ 1;
                        break;
                    case Op.SHL: {
                        long n = R[B[i]] & 0xFFFFFFFFL;
                        R[D[i]] = n >= Y[i] ? 0 : R[A[i]] << n;
                        break;
                    }
                    case Op.SHR_U: {
                        long n = R[B[i]] & 0xFFFFFFFFL;
                        int w = Y[i];
                        R[D[i]] = n >= w ? 0 : (R[A[i]] & mask(w)) >>> n;
                        break;
                    }
                    case Op.SHR_S: {
                        long n = R[B[i]] & 0xFFFFFFFFL;
                        int w = Y[i];
                        long v = w == 64
                                ? R[A[i]]
                                : w == 32 ? (int) R[A[i]] : w == 16 ? (short) R[A[i]] : (byte) R[A[i]];
                        R[D[i]] = v >> Math.min(n, 63);
                        break;
                    }
                    case Op.MUL_WIDE:
                        R[D[i]] = Op.ext(R[A[i]], Y[i]) * Op.ext(R[B[i]], Y[i]);
                        break;
                    case Op.MAD_WIDE:
                        R[D[i]] = Op.ext(R[A[i]], Y[i]) * Op.ext(R[B[i]], Y[i]) + R[C[i]];
                        break;
                    case Op.MIN_I: {
                        long a = R[A[i]], b = R[B[i]];
                        R[D[i]] = cmpI(2, a, b, Y[i]) ? Op.ext(a, Y[i]) : Op.ext(b, Y[i]);
                        break;
                    }
                    case Op.MAX_I: {
                        long a = R[A[i]], b = R[B[i]];
                        R[D[i]] = cmpI(4, a, b, Y[i]) ? Op.ext(a, Y[i]) : Op.ext(b, Y[i]);
                        break;
                    }
                    case Op.SETP_S32: {
                        int a = (int) R[A[i]], b = (int) R[B[i]];
                        boolean r;
                        switch ((int) X[i] & 0xFF) {
                            case 0:
                                r = a == b;
                                break;
                            case 1:
                                r = a != b;
                                break;
                            case 2:
                                r = a < b;
                                break;
                            case 3:
                                r = a <= b;
                                break;
                            case 4:
                                r = a > b;
                                break;
                            case 5:
                                r = a >= b;
                                break;
                            default:
                                r = cmpI((int) X[i] & 0xFF, a, b, Op.K_S32);
                                break;
                        }
                        R[D[i]] = r ? 1 : 0;
                        break;
                    }
                    case Op.SETP_F32: {
                        float a = f(R[A[i]]), b = f(R[B[i]]);
                        if (Y[i] != 0) {
                            a = Fp32.ftz(a);
                            b = Fp32.ftz(b);
                        }
                        setp(R, D[i], C[i], X[i], cmpF((int) X[i] & 0xFF, a, b));
                        break;
                    }
                    case Op.SELP:
                        R[D[i]] = R[C[i]] != 0 ? R[A[i]] : R[B[i]];
                        break;
                        // ---- f32
                    case Op.ADD_F32:
                        R[D[i]] = fb(f(R[A[i]]) + f(R[B[i]]));
                        break;
                    case Op.SUB_F32:
                        R[D[i]] = fb(f(R[A[i]]) - f(R[B[i]]));
                        break;
                    case Op.MUL_F32:
                        R[D[i]] = fb(f(R[A[i]]) * f(R[B[i]]));
                        break;
                    case Op.FMA_F32:
                        R[D[i]] = fb(Math.fma(f(R[A[i]]), f(R[B[i]]), f(R[C[i]])));
                        break;
                    case Op.ADD_F32_FTZ: // Fp32.add(a, b, RN, true)
                        R[D[i]] = fb(ftz32((float) ((double) ftz32(f(R[A[i]])) + (double) ftz32(f(R[B[i]])))));
                        break;
                    case Op.SUB_F32_FTZ: // Fp32.sub(a, b, RN, true)
                        R[D[i]] = fb(ftz32((float) ((double) ftz32(f(R[A[i]])) + (double) ftz32(-f(R[B[i]])))));
                        break;
                    case Op.MUL_F32_FTZ: // Fp32.mul(a, b, RN, true)
                        R[D[i]] = fb(ftz32((float) ((double) ftz32(f(R[A[i]])) * (double) ftz32(f(R[B[i]])))));
                        break;
                    case Op.FMA_F32_FTZ: // Fp32.fma(a, b, c, RN, true)
                        R[D[i]] = fb(ftz32(Math.fma(ftz32(f(R[A[i]])), ftz32(f(R[B[i]])), ftz32(f(R[C[i]])))));
                        break;
                    case Op.CVT_F32_S32: // cvt.rn.f32.s32
                        R[D[i]] = fb((float) (double) (int) R[A[i]]);
                        break;
                    case Op.CVT_S32_F32: { // cvt.rzi{.ftz}.s32.f32: NaN to 0, saturating, toward zero
                        float a = f(R[A[i]]);
                        R[D[i]] = (int) (X[i] != 0 ? ftz32(a) : a);
                        break;
                    }
                        // ---- an exception check fused with the f32 instruction after it
                        // (Superinstructions.fuseChecks):
                        // the full check (fpx) only on unusual operands or results, before the result is written
                    case Op.ADD_F32_FTZ_X: {
                        long a = R[A[i]], b = R[B[i]];
                        long r = fb(ftz32((float) ((double) ftz32(f(a)) + (double) ftz32(f(b)))));
                        if (unusual(a) | unusual(b) | unusual(r)) fpx(R, i);
                        R[D[i]] = r;
                        count++;
                        pc = i + 2;
                        break;
                    }
                    case Op.SUB_F32_FTZ_X: {
                        long a = R[A[i]], b = R[B[i]];
                        long r = fb(ftz32((float) ((double) ftz32(f(a)) + (double) ftz32(-f(b)))));
                        if (unusual(a) | unusual(b) | unusual(r)) fpx(R, i);
                        R[D[i]] = r;
                        count++;
                        pc = i + 2;
                        break;
                    }
                    case Op.MUL_F32_FTZ_X: {
                        long a = R[A[i]], b = R[B[i]];
                        long r = fb(ftz32((float) ((double) ftz32(f(a)) * (double) ftz32(f(b)))));
                        if (unusual(a) | unusual(b) | unusual(r)) fpx(R, i);
                        R[D[i]] = r;
                        count++;
                        pc = i + 2;
                        break;
                    }
                    case Op.FMA_F32_FTZ_X: {
                        long a = R[A[i]], b = R[B[i]], c = R[C[i]];
                        long r = fb(ftz32(Math.fma(ftz32(f(a)), ftz32(f(b)), ftz32(f(c)))));
                        if (unusual(a) | unusual(b) | unusual(c) | unusual(r)) fpx(R, i);
                        R[D[i]] = r;
                        count++;
                        pc = i + 2;
                        break;
                    }
                    case Op.ADD_F32_X: {
                        long a = R[A[i]], b = R[B[i]];
                        long r = fb(f(a) + f(b));
                        if (unusual(a) | unusual(b) | unusual(r)) fpx(R, i);
                        R[D[i]] = r;
                        count++;
                        pc = i + 2;
                        break;
                    }
                    case Op.SUB_F32_X: {
                        long a = R[A[i]], b = R[B[i]];
                        long r = fb(f(a) - f(b));
                        if (unusual(a) | unusual(b) | unusual(r)) fpx(R, i);
                        R[D[i]] = r;
                        count++;
                        pc = i + 2;
                        break;
                    }
                    case Op.MUL_F32_X: {
                        long a = R[A[i]], b = R[B[i]];
                        long r = fb(f(a) * f(b));
                        if (unusual(a) | unusual(b) | unusual(r)) fpx(R, i);
                        R[D[i]] = r;
                        count++;
                        pc = i + 2;
                        break;
                    }
                    case Op.FMA_F32_X: {
                        long a = R[A[i]], b = R[B[i]], c = R[C[i]];
                        long r = fb(Math.fma(f(a), f(b), f(c)));
                        if (unusual(a) | unusual(b) | unusual(c) | unusual(r)) fpx(R, i);
                        R[D[i]] = r;
                        count++;
                        pc = i + 2;
                        break;
                    }
                    case Op.DIV_APPROX_F32_X: {
                        long a = R[A[i]], b = R[B[i]];
                        long r = fb(Approx.divApprox(f(a), f(b), (X[i] & 512) != 0));
                        if (unusual(a) | unusual(b) | unusual(r)) fpx(R, i);
                        R[D[i]] = r;
                        count++;
                        pc = i + 2;
                        break;
                    }
                    case Op.CVT_S32_F32_X: { // cvt.rzi{.ftz}.s32.f32: cannot raise below 2^30
                        long a = R[A[i]];
                        int e = (int) (a >>> 23) & 0xFF;
                        if (e < 2 || e > 156) fpx(R, i);
                        float v = f(a);
                        R[D[i]] = (int) ((X[i] & 512) != 0 ? ftz32(v) : v);
                        count++;
                        pc = i + 2;
                        break;
                    }
                    case Op.DIV_F32: // div.rn.f32 (the strict builds' division)
                        R[D[i]] = fb(f(R[A[i]]) / f(R[B[i]]));
                        break;
                    case Op.DIV_APPROX_F32: // div.approx{.ftz}.f32 (fast-math division)
                        R[D[i]] = fb(Approx.divApprox(f(R[A[i]]), f(R[B[i]]), X[i] != 0));
                        break;
                    case Op.NEG_F32: {
                        float a = f(R[A[i]]);
                        R[D[i]] = Float.floatToRawIntBits(-(X[i] != 0 ? Fp32.ftz(a) : a));
                        break;
                    }
                    case Op.ABS_F32: {
                        float a = f(R[A[i]]);
                        R[D[i]] = Float.floatToRawIntBits(Math.abs(X[i] != 0 ? Fp32.ftz(a) : a));
                        break;
                    }
                    case Op.MIN_F32:
                        R[D[i]] = fb(Fp32.min(f(R[A[i]]), f(R[B[i]]), (X[i] & 1) != 0, (X[i] & 2) != 0));
                        break;
                    case Op.MAX_F32:
                        R[D[i]] = fb(Fp32.max(f(R[A[i]]), f(R[B[i]]), (X[i] & 1) != 0, (X[i] & 2) != 0));
                        break;
                        // ---- f64
                    case Op.ADD_F64:
                        R[D[i]] = db(dd(R[A[i]]) + dd(R[B[i]]));
                        break;
                    case Op.SUB_F64:
                        R[D[i]] = db(dd(R[A[i]]) - dd(R[B[i]]));
                        break;
                    case Op.MUL_F64:
                        R[D[i]] = db(dd(R[A[i]]) * dd(R[B[i]]));
                        break;
                    case Op.FMA_F64:
                        R[D[i]] = db(Math.fma(dd(R[A[i]]), dd(R[B[i]]), dd(R[C[i]])));
                        break;
                    case Op.CVT:
                        R[D[i]] = cvt(R[A[i]], X[i], Y[i]);
                        break;
                    case Op.WIDEN:
                        R[D[i]] = db(f(R[A[i]]));
                        break;
                    case Op.NARROW:
                        R[D[i]] = fb((float) dd(R[A[i]]));
                        break;
                        // ---- memory
                    case Op.LD_G32:
                        R[D[i]] = (int) Space.I32.get(gm, global.check(R[A[i]] + X[i] - GLOBAL_BASE, 4));
                        break;
                    case Op.ST_G32: {
                        int ix = global.check(R[A[i]] + X[i] - GLOBAL_BASE, 4);
                        Space.I32.set(gm, ix, (int) R[B[i]]);
                        if (global.valid != null) global.invalidate(ix, 4);
                        break;
                    }
                    case Op.LD: {
                        long ix = index(C[i], R[A[i]] + X[i], t);
                        R[D[i]] = rs.load(ix, Y[i] & 15, (Y[i] & 16) != 0);
                        break;
                    }
                    case Op.ST: {
                        long ix = index(C[i], R[A[i]] + X[i], t);
                        rs.store(ix, Y[i] & 15, R[B[i]]);
                        break;
                    }
                        // ---- control
                    case Op.BRA:
                        pc = Y[i];
                        if (pc <= i && count > budget) throw limitReached();
                        break;
                    case Op.BRA_T:
                        if (R[A[i]] != 0) {
                            pc = Y[i];
                            if (pc <= i && count > budget) throw limitReached();
                        }
                        break;
                    case Op.BRA_F:
                        if (R[A[i]] == 0) {
                            pc = Y[i];
                            if (pc <= i && count > budget) throw limitReached();
                        }
                        break;
                    case Op.SETP_S32_BRA: {
                        // setp.s32 at i and the guarded bra at i + 1 on its predicate (Superinstructions.fuseBranches)
                        int a = (int) R[A[i]], b = (int) R[B[i]];
                        boolean r;
                        switch ((int) X[i] & 0xFF) {
                            case 0:
                                r = a == b;
                                break;
                            case 1:
                                r = a != b;
                                break;
                            case 2:
                                r = a < b;
                                break;
                            case 3:
                                r = a <= b;
                                break;
                            case 4:
                                r = a > b;
                                break;
                            default:
                                r = a >= b;
                                break;
                        }
                        R[D[i]] = r ? 1 : 0;
                        count++;
                        if (r == (Y[i] != 0)) {
                            pc = C[i];
                            if (pc <= i + 1 && count > budget) throw limitReached();
                        } else {
                            pc = i + 2;
                        }
                        break;
                    }
                    case Op.CALL: {
                        int[] site = p.callSites[Y[i]];
                        if (t.sp >= t.stack.length) throw new KernelFault("call depth above " + p.maxCallDepth);
                        copyParams(t, site, 1);
                        t.stack[t.sp++] = pc;
                        t.stack[t.sp++] = Y[i];
                        pc = site[0];
                        if (count > budget) throw limitReached();
                        break;
                    }
                    case Op.RET: {
                        if (t.sp == 0) {
                            t.pc = pc;
                            return S_EXIT;
                        }
                        int siteIx = t.stack[--t.sp];
                        pc = t.stack[--t.sp];
                        int[] site = p.callSites[siteIx];
                        copyParams(t, site, 2 + 3 * site[1]);
                        break;
                    }
                    case Op.EXIT:
                        t.pc = pc;
                        return S_EXIT;
                    case Op.BAR:
                        t.pc = pc;
                        return S_BAR;
                    case Op.WARPSYNC:
                    case Op.SHFL:
                    case Op.VOTE:
                    case Op.ACTIVEMASK:
                        t.pc = i; // executed by the scheduler for the whole warp
                        return S_WARP;
                    case Op.TRAP:
                        throw new KernelFault("trap");
                    case Op.FPX: // before every checked instruction of a build counting exceptions
                        fpx(R, i);
                        break;
                    default:
                        exec(t, i);
                        break;
                }
                // the instruction limit is checked where execution can repeat: backward branches and calls
            }
        } catch (KernelFault e) {
            throw KernelFault.at(e.what(), e.outOfBounds, where(t, i));
        } catch (MemoryFault e) {
            throw KernelFault.at(e.getMessage(), true, where(t, i));
        } catch (RuntimeException e) {
            String what = e instanceof IndexOutOfBoundsException
                    ? "out-of-bounds memory access (" + e.getMessage() + ")"
                    : e.toString();
            throw KernelFault.at(what, e instanceof IndexOutOfBoundsException, where(t, i));
        } finally {
            executed += count;
        }
    }

    /**
     * The instructions that are not in {@link #run}'s own switch: data operations that do not change control flow.
     * Kept out of {@code run} so that its bytecode stays small enough for C2 to inline every helper of the hot
     * cases (its budget, DesiredMethodLimit, is 8000 bytes for a method and all it inlines; past it even
     * {@code Float.intBitsToFloat} wrappers become calls, and which ones depends on the profile).
     */
    private void exec(Thread t, int i) throws KernelFault {
        final int[] D = p.d, A = p.a, B = p.b, C = p.c, Y = p.y;
        final long[] X = p.x;
        final long[] R = t.R;
        final double[] L = t.L;
        switch (p.op[i]) {
            case Op.TEX:
                tex(R, i);
                break;
            case Op.MOV_PACK: {
                int[] v = p.v[i];
                int w = Y[i];
                long r = 0, m = mask(w);
                for (int k = 0; k < v.length; k++) r |= (R[v[k]] & m) << (w * k);
                R[D[i]] = r;
                break;
            }
            case Op.MOV_UNPACK: {
                int[] v = p.v[i];
                int w = Y[i];
                long s = R[A[i]], m = mask(w);
                for (int k = 0; k < v.length; k++) if (v[k] >= 0) R[v[k]] = (s >>> (w * k)) & m;
                break;
            }
            case Op.CNOT:
                R[D[i]] = Op.ext(R[A[i]], Y[i]) == 0 ? 1 : 0;
                break;
            case Op.MUL_HI:
                R[D[i]] = mulHi(R[A[i]], R[B[i]], Y[i]);
                break;
            case Op.MAD_HI:
                R[D[i]] = mulHi(R[A[i]], R[B[i]], Y[i]) + R[C[i]];
                break;
            case Op.MUL24:
                R[D[i]] = ext24(R[A[i]], Y[i]) * ext24(R[B[i]], Y[i]);
                break;
            case Op.MAD24:
                R[D[i]] = ext24(R[A[i]], Y[i]) * ext24(R[B[i]], Y[i]) + R[C[i]];
                break;
            case Op.DIV_I:
                R[D[i]] = divI(R[A[i]], R[B[i]], Y[i], false);
                break;
            case Op.REM_I:
                R[D[i]] = divI(R[A[i]], R[B[i]], Y[i], true);
                break;
            case Op.ABS_I:
                R[D[i]] = Math.abs(Op.ext(R[A[i]], Y[i] | 128));
                break;
            case Op.POPC:
                R[D[i]] = Long.bitCount(R[A[i]] & mask(Y[i]));
                break;
            case Op.CLZ:
                R[D[i]] = Y[i] == 64 ? Long.numberOfLeadingZeros(R[A[i]]) : Integer.numberOfLeadingZeros((int) R[A[i]]);
                break;
            case Op.BREV:
                R[D[i]] = Y[i] == 64 ? Long.reverse(R[A[i]]) : Integer.reverse((int) R[A[i]]);
                break;
            case Op.BFIND: {
                int k = Y[i], w = Op.width(k);
                long v = Op.ext(R[A[i]], k);
                if (Op.signed(k) && v < 0) v = ~v;
                int pos = v == 0 ? -1 : 63 - Long.numberOfLeadingZeros(v);
                if (pos >= 0 && X[i] != 0) pos = w - 1 - pos;
                R[D[i]] = pos < 0 ? 0xFFFFFFFFL : pos;
                break;
            }
            case Op.BFE:
                R[D[i]] = bfe(R[A[i]], (int) (R[B[i]] & 0xFF), (int) (R[C[i]] & 0xFF), Y[i]);
                break;
            case Op.BFI: {
                int w = Y[i];
                int pos = (int) (R[C[i]] & 0xFF), len = (int) (R[p.v[i][0]] & 0xFF);
                long base = R[B[i]];
                if (len > 0 && pos < w) {
                    int l = Math.min(len, w - pos);
                    long m = mask(l) << pos;
                    base = (base & ~m) | ((R[A[i]] << pos) & m);
                }
                R[D[i]] = base;
                break;
            }
            case Op.PRMT:
                R[D[i]] = prmt((int) R[A[i]], (int) R[B[i]], (int) R[C[i]]);
                break;
            case Op.LOP3: {
                long a = R[A[i]], b = R[B[i]], c = R[C[i]], lut = X[i], r = 0;
                if ((lut & 1) != 0) r |= ~a & ~b & ~c;
                if ((lut & 2) != 0) r |= ~a & ~b & c;
                if ((lut & 4) != 0) r |= ~a & b & ~c;
                if ((lut & 8) != 0) r |= ~a & b & c;
                if ((lut & 16) != 0) r |= a & ~b & ~c;
                if ((lut & 32) != 0) r |= a & ~b & c;
                if ((lut & 64) != 0) r |= a & b & ~c;
                if ((lut & 128) != 0) r |= a & b & c;
                R[D[i]] = r & 0xFFFFFFFFL;
                break;
            }
            case Op.ADD_CC: {
                int w = Y[i];
                long xm = X[i];
                long m = mask(w);
                long a = R[A[i]] & m, b = R[B[i]] & m;
                long cin = (xm & 2) != 0 ? R[Program.R_CARRY] : 0;
                long r;
                long carry;
                if ((xm & 1) == 0) {
                    r = a + b + cin;
                    carry = w == 64 ? (Long.compareUnsigned(r, a) < 0 || (cin != 0 && r == a) ? 1 : 0) : (r >>> w) & 1;
                } else { // a - b - borrow; carry flag holds the borrow
                    r = a - b - cin;
                    carry = Long.compareUnsigned(a, b + cin) < 0 || (w == 64 && cin != 0 && b == -1L) ? 1 : 0;
                }
                R[D[i]] = r & m;
                if ((xm & 4) != 0) R[Program.R_CARRY] = carry;
                break;
            }
            case Op.MAD_CC: {
                int w = Y[i];
                long xm = X[i];
                long m = mask(w);
                long a = R[A[i]] & m, b = R[B[i]] & m, c = R[C[i]] & m;
                long cin = (xm & 2) != 0 ? R[Program.R_CARRY] : 0;
                long part, r, carry;
                if (w == 32) {
                    long prod = a * b; // exact: 32 x 32 bits unsigned
                    part = (xm & 1) != 0 ? prod >>> 32 : prod & m;
                    r = part + c + cin;
                    carry = (r >>> 32) & 1;
                } else {
                    part = (xm & 1) != 0 ? mulHi(a, b, Op.K_U64) : a * b;
                    long s1 = part + c;
                    long c1 = Long.compareUnsigned(s1, part) < 0 ? 1 : 0;
                    r = s1 + cin;
                    carry = c1 | (Long.compareUnsigned(r, s1) < 0 ? 1 : 0);
                }
                R[D[i]] = r & m;
                if ((xm & 4) != 0) R[Program.R_CARRY] = carry;
                break;
            }
            case Op.SETP_I:
                setp(R, D[i], C[i], X[i], cmpI((int) X[i] & 0xFF, R[A[i]], R[B[i]], Y[i]));
                break;
            case Op.SETP_F64:
                setp(R, D[i], C[i], X[i], cmpF((int) X[i] & 0xFF, dd(R[A[i]]), dd(R[B[i]])));
                break;
            case Op.SLCT: {
                long c = R[C[i]];
                boolean ge = Y[i] == Op.K_F32 ? (X[i] != 0 ? Fp32.ftz(f(c)) : f(c)) >= 0 : (int) c >= 0;
                R[D[i]] = ge ? R[A[i]] : R[B[i]];
                break;
            }
            case Op.TESTP_F32:
                R[D[i]] = testp((int) X[i], f(R[A[i]]), false) ? 1 : 0;
                break;
            case Op.TESTP_F64:
                R[D[i]] = testp((int) X[i], dd(R[A[i]]), Y[i] == 0) ? 1 : 0;
                break;
            case Op.SQRT_F32:
                R[D[i]] = fb((float) Math.sqrt(f(R[A[i]])));
                break;
            case Op.COPYSIGN_F32:
                R[D[i]] = Float.floatToRawIntBits(Math.copySign(f(R[B[i]]), f(R[A[i]])));
                break;
            case Op.F32_G: {
                int m = (int) X[i];
                Rounding r = RND[m & 3];
                boolean ftz = (m & 4) != 0;
                float a = f(R[A[i]]), b = f(R[B[i]]), v;
                switch (Y[i]) {
                    case Op.G_ADD:
                        v = Fp32.add(a, b, r, ftz);
                        break;
                    case Op.G_SUB:
                        v = Fp32.sub(a, b, r, ftz);
                        break;
                    case Op.G_MUL:
                        v = Fp32.mul(a, b, r, ftz);
                        break;
                    case Op.G_FMA:
                        v = Fp32.fma(a, b, f(R[C[i]]), r, ftz);
                        break;
                    case Op.G_DIV:
                        v = Fp32.div(a, b, r, ftz);
                        break;
                    case Op.G_SQRT:
                        v = Fp32.sqrt(a, r, ftz);
                        break;
                    default:
                        v = Fp32.rcp(a, r, ftz);
                        break;
                }
                if ((m & 8) != 0) v = Fp32.sat(v);
                R[D[i]] = fb(v);
                break;
            }
            case Op.F32_APPROX:
                R[D[i]] = fb(approx32(Y[i], f(R[A[i]]), f(R[B[i]]), X[i] != 0));
                break;
            case Op.DIV_F64:
                R[D[i]] = db(dd(R[A[i]]) / dd(R[B[i]]));
                break;
            case Op.SQRT_F64:
                R[D[i]] = db(Math.sqrt(dd(R[A[i]])));
                break;
            case Op.NEG_F64:
                R[D[i]] = R[A[i]] ^ Long.MIN_VALUE;
                break;
            case Op.ABS_F64:
                R[D[i]] = R[A[i]] & Long.MAX_VALUE;
                break;
            case Op.MIN_F64:
                R[D[i]] = db(Fp64.min(dd(R[A[i]]), dd(R[B[i]]), (X[i] & 2) != 0));
                break;
            case Op.MAX_F64:
                R[D[i]] = db(Fp64.max(dd(R[A[i]]), dd(R[B[i]]), (X[i] & 2) != 0));
                break;
            case Op.COPYSIGN_F64:
                R[D[i]] = db(Math.copySign(dd(R[B[i]]), dd(R[A[i]])));
                break;
            case Op.F64_G: {
                int m = (int) X[i];
                Rounding r = RND[m & 3];
                double a = dd(R[A[i]]), b = dd(R[B[i]]), v;
                switch (Y[i]) {
                    case Op.G_ADD:
                        v = Fp64.add(a, b, r);
                        break;
                    case Op.G_SUB:
                        v = Fp64.sub(a, b, r);
                        break;
                    case Op.G_MUL:
                        v = Fp64.mul(a, b, r);
                        break;
                    case Op.G_FMA:
                        v = Fp64.fma(a, b, dd(R[C[i]]), r);
                        break;
                    case Op.G_DIV:
                        v = Fp64.div(a, b, r);
                        break;
                    case Op.G_SQRT:
                        v = Fp64.sqrt(a, r);
                        break;
                    default:
                        v = Fp64.rcp(a, r);
                        break;
                }
                if ((m & 8) != 0) v = Fp64.sat(v);
                R[D[i]] = db(v);
                break;
            }
            case Op.F64_APPROX:
                R[D[i]] = db(approx64(Y[i], dd(R[A[i]])));
                break;
            case Op.LD_W: {
                long ix = index(C[i], R[A[i]] + X[i], t);
                R[D[i]] = db(rs.loadWideF32(ix));
                break;
            }
            case Op.ST_W: {
                long ix = index(C[i], R[A[i]] + X[i], t);
                rs.storeWideF32(ix, dd(R[B[i]]));
                break;
            }
            case Op.ATOM: {
                long old = atom(t, i);
                if (D[i] >= 0) R[D[i]] = old;
                break;
            }
                // ---- reference mode: binary64 registers carried as double-double
            case Op.ADD_DD:
                dd(R, L, D[i], ddv(R, L, A[i]).add(ddv(R, L, B[i])));
                break;
            case Op.SUB_DD:
                dd(R, L, D[i], ddv(R, L, A[i]).sub(ddv(R, L, B[i])));
                break;
            case Op.MUL_DD:
                dd(R, L, D[i], ddv(R, L, A[i]).mul(ddv(R, L, B[i])));
                break;
            case Op.FMA_DD:
                dd(R, L, D[i], ddv(R, L, A[i]).mul(ddv(R, L, B[i])).add(ddv(R, L, C[i])));
                break;
            case Op.DIV_DD:
                dd(R, L, D[i], ddv(R, L, A[i]).div(ddv(R, L, B[i])));
                break;
            case Op.SQRT_DD:
                dd(R, L, D[i], ddv(R, L, A[i]).sqrt());
                break;
            case Op.NEG_DD:
                dd(R, L, D[i], ddv(R, L, A[i]).negate());
                break;
            case Op.ABS_DD: {
                DoubleDouble v = ddv(R, L, A[i]);
                dd(R, L, D[i], v.hi < 0 || (v.hi == 0 && Double.doubleToRawLongBits(v.hi) < 0) ? v.negate() : v);
                break;
            }
            case Op.MOV_DD:
                R[D[i]] = R[A[i]];
                L[D[i]] = L[A[i]];
                break;
            case Op.SELP_DD: {
                int src = R[C[i]] != 0 ? A[i] : B[i];
                R[D[i]] = R[src];
                L[D[i]] = L[src];
                break;
            }
            case Op.LD_DD: {
                long ix = index(C[i], R[A[i]] + X[i], t);
                R[D[i]] = rs.load(ix, 8, false);
                L[D[i]] = rs.loadLo(ix);
                break;
            }
            case Op.ST_DD: {
                long ix = index(C[i], R[A[i]] + X[i], t);
                rs.storeDD(ix, R[B[i]], L[B[i]]);
                break;
            }
            case Op.ZERO_LO:
                L[D[i]] = 0;
                break;
            default:
                throw new KernelFault("bad opcode " + p.op[i]);
        }
    }

    // ---------------------------------------------------------------- for the compiled code (Compiler)

    /** The program's generated code (Compiler), or null: the launch runs on {@link #run}. */
    Compiler.Code code;

    /** Whether this launch runs on generated code. */
    boolean compiled() {
        return code != null;
    }

    /** A lookup in this package with full privilege, for defining the generated classes. */
    static java.lang.invoke.MethodHandles.Lookup lookup() {
        return java.lang.invoke.MethodHandles.lookup();
    }

    void fpxAt(long[] R, int i) {
        fpx(R, i);
    }

    void execAt(Thread t, int i) throws KernelFault {
        exec(t, i);
    }

    long indexOf(int sp, long addr, Thread t) throws KernelFault {
        return index(sp, addr, t);
    }

    /** The space of the last {@link #indexOf}. */
    Space resolved() {
        return rs;
    }

    Space globalSpace() {
        return global;
    }

    /** Counts executed instructions (run counts its own at its end). */
    void ran(int instructions) {
        executed += instructions;
    }

    /** run's check at a backward branch or a call, on the launch's count so far. */
    void pastLimit() throws KernelFault {
        if (executed > limit) throw limitReached();
    }

    /** run's CALL at pc i, but for the jump (the generated code knows the entry). */
    void compiledCall(Thread t, int i) throws KernelFault {
        int[] site = p.callSites[p.y[i]];
        if (t.sp >= t.stack.length) throw new KernelFault("call depth above " + p.maxCallDepth);
        copyParams(t, site, 1);
        t.stack[t.sp++] = i + 1;
        t.stack[t.sp++] = p.y[i];
    }

    /** run's RET: the pc to return to, or -1 when the thread's kernel returns (the thread exits). */
    int compiledRet(Thread t) {
        if (t.sp == 0) return -1;
        int siteIx = t.stack[--t.sp];
        int pc = t.stack[--t.sp];
        int[] site = p.callSites[siteIx];
        copyParams(t, site, 2 + 3 * site[1]);
        return pc;
    }

    /** What run throws for e raised at instruction i (its catch clauses): the fault with where it happened. */
    Throwable compiledFault(Throwable e, Thread t, int i) {
        if (e instanceof KernelFault k) return KernelFault.at(k.what(), k.outOfBounds, where(t, i));
        if (e instanceof MemoryFault) return KernelFault.at(e.getMessage(), true, where(t, i));
        if (e instanceof RuntimeException) {
            String what = e instanceof IndexOutOfBoundsException
                    ? "out-of-bounds memory access (" + e.getMessage() + ")"
                    : e.toString();
            return KernelFault.at(what, e instanceof IndexOutOfBoundsException, where(t, i));
        }
        return e;
    }

    private KernelFault limitReached() {
        return new KernelFault("instruction limit of " + limit + " per launch reached (runaway loop?)");
    }

    private KernelFault.Where where(Thread t, int pc) {
        long[] R = t.R;
        return new KernelFault.Where(
                new int[] {(int) R[Program.R_TID], (int) R[Program.R_TID + 1], (int) R[Program.R_TID + 2]},
                new int[] {(int) R[Program.R_CTAID], (int) R[Program.R_CTAID + 1], (int) R[Program.R_CTAID + 2]},
                p.line[pc],
                p.src == null ? null : p.src[pc],
                p.text[pc]);
    }

    private static DoubleDouble ddv(long[] R, double[] L, int s) {
        return new DoubleDouble(Double.longBitsToDouble(R[s]), L[s]);
    }

    private static void dd(long[] R, double[] L, int d, DoubleDouble v) {
        double lo = v.lo;
        if (Double.isNaN(v.hi) || Double.isInfinite(v.hi) || Double.isNaN(lo)) lo = 0;
        R[d] = db(v.hi);
        L[d] = lo;
    }

    private static long ext24(long v, int kind) {
        return Op.signed(kind) ? ((long) ((int) v << 8) >> 8) : v & 0xFFFFFFL;
    }

    private static long mulHi(long a, long b, int kind) {
        int w = Op.width(kind);
        if (w == 64)
            return Op.signed(kind)
                    ? Math.multiplyHigh(a, b)
                    : Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
        long r = Op.ext(a, kind) * Op.ext(b, kind);
        return r >> w;
    }

    private static long divI(long a, long b, int kind, boolean rem) {
        long x = Op.ext(a, kind), y = Op.ext(b, kind);
        if (y == 0) return rem ? x : -1L; // unspecified in PTX; hardware-like all ones
        if (Op.width(kind) == 64 && !Op.signed(kind))
            return rem ? Long.remainderUnsigned(x, y) : Long.divideUnsigned(x, y);
        if (Op.signed(kind) && y == -1) return rem ? 0 : -x;
        return rem ? x % y : x / y;
    }

    private static long bfe(long a, int pos, int len, int kind) {
        int w = Op.width(kind);
        int msb = w - 1;
        boolean signed = Op.signed(kind);
        long av = Op.ext(a, kind);
        boolean sbit = signed && len > 0 && ((av >>> Math.min(pos + len - 1, msb)) & 1) != 0;
        long r = 0;
        for (int k = 0; k < w; k++) {
            boolean bit = (k < len && pos + k <= msb) ? ((av >>> (pos + k)) & 1) != 0 : sbit;
            if (bit) r |= 1L << k;
        }
        return signed ? Op.ext(r, kind) : r;
    }

    private static long prmt(int a, int b, int c) {
        long bytes = (a & 0xFFFFFFFFL) | ((b & 0xFFFFFFFFL) << 32);
        long r = 0;
        for (int k = 0; k < 4; k++) {
            int sel = (c >>> (4 * k)) & 0xF;
            int by = (int) ((bytes >>> (8 * (sel & 7))) & 0xFF);
            if ((sel & 8) != 0) by = (by & 0x80) != 0 ? 0xFF : 0;
            r |= (long) by << (8 * k);
        }
        return r;
    }

    private static boolean testp(int code, double v, boolean f64) {
        double min = f64 ? Double.MIN_NORMAL : Float.MIN_NORMAL;
        switch (code) {
            case 0:
                return !Double.isNaN(v) && !Double.isInfinite(v);
            case 1:
                return Double.isInfinite(v);
            case 2:
                return !Double.isNaN(v);
            case 3:
                return Double.isNaN(v);
            case 4:
                return !Double.isNaN(v) && !Double.isInfinite(v) && Math.abs(v) >= min;
            default:
                return v != 0 && Math.abs(v) < min;
        }
    }
}
