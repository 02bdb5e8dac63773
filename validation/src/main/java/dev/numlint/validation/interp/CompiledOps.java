package dev.numlint.validation.interp;

import static dev.numlint.validation.interp.Decoder.GLOBAL_BASE;
import static dev.numlint.validation.interp.Interpreter.cmpF;
import static dev.numlint.validation.interp.Interpreter.cmpI;
import static dev.numlint.validation.interp.Interpreter.cvt;
import static dev.numlint.validation.interp.Interpreter.db;
import static dev.numlint.validation.interp.Interpreter.dd;
import static dev.numlint.validation.interp.Interpreter.f;
import static dev.numlint.validation.interp.Interpreter.fb;
import static dev.numlint.validation.interp.Interpreter.ftz32;
import static dev.numlint.validation.interp.Interpreter.mask;
import static dev.numlint.validation.interp.Interpreter.setp;
import static dev.numlint.validation.interp.Interpreter.unusual;

import dev.numlint.validation.fp.Approx;
import dev.numlint.validation.fp.Fp32;
import dev.numlint.validation.fp.Rounding;

/**
 * The data instructions of {@link Interpreter#run}'s own switch as static methods, one per opcode, for the code
 * {@link Compiler} generates: each body is the interpreter's case with {@code R[D[i]]} written {@code R[d]} and so
 * on (the decoded operands arrive as constants, and C2 folds them once it has inlined the method into the generated
 * code). Every method has the same parameters, so that the generator emits every call the same way. Instructions
 * of {@link Interpreter#exec} are not here (the generated code calls exec itself), except F32_G, the division of the
 * strict builds, which every replay runs. The integer instructions that are one long operation (mov, add, sub, mul.lo,
 * mad.lo, neg, and, or, xor, not) are not here either: the Compiler writes them as bytecode. The control instructions (branches,
 * exits, barriers, warp collectives, calls) are generated inline by the Compiler.
 */
final class CompiledOps {
    private CompiledOps() {}

    /** The parameter list of every method here, as the generator declares it. */
    static final String DESC =
            "(Ldev/numlint/validation/interp/Interpreter;Ldev/numlint/validation/interp/Interpreter$Thread;"
                    + "[JIIIIIJI)V";

    static void shl(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long n = R[b] & 0xFFFFFFFFL;
        R[d] = n >= y ? 0 : R[a] << n;
    }

    static void shrU(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long n = R[b] & 0xFFFFFFFFL;
        int w = y;
        R[d] = n >= w ? 0 : (R[a] & mask(w)) >>> n;
    }

    static void shrS(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long n = R[b] & 0xFFFFFFFFL;
        int w = y;
        long v = w == 64 ? R[a] : w == 32 ? (int) R[a] : w == 16 ? (short) R[a] : (byte) R[a];
        R[d] = v >> Math.min(n, 63);
    }

    static void mulWide(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = Op.ext(R[a], y) * Op.ext(R[b], y);
    }

    static void madWide(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = Op.ext(R[a], y) * Op.ext(R[b], y) + R[c];
    }

    static void minI(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a], vb = R[b];
        R[d] = cmpI(2, va, vb, y) ? Op.ext(va, y) : Op.ext(vb, y);
    }

    static void maxI(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a], vb = R[b];
        R[d] = cmpI(4, va, vb, y) ? Op.ext(va, y) : Op.ext(vb, y);
    }

    /** setp.s32 (SETP_S32). */
    static void setpS32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        int va = (int) R[a], vb = (int) R[b];
        boolean r;
        switch ((int) x & 0xFF) {
            case 0:
                r = va == vb;
                break;
            case 1:
                r = va != vb;
                break;
            case 2:
                r = va < vb;
                break;
            case 3:
                r = va <= vb;
                break;
            case 4:
                r = va > vb;
                break;
            case 5:
                r = va >= vb;
                break;
            default:
                r = cmpI((int) x & 0xFF, va, vb, Op.K_S32);
                break;
        }
        R[d] = r ? 1 : 0;
    }

    /** The setp.s32 of SETP_S32_BRA (its comparison has no default case beyond >=): the predicate it wrote. */
    static boolean setpS32Bra(long[] R, int d, int a, int b, long x) {
        int va = (int) R[a], vb = (int) R[b];
        boolean r;
        switch ((int) x & 0xFF) {
            case 0:
                r = va == vb;
                break;
            case 1:
                r = va != vb;
                break;
            case 2:
                r = va < vb;
                break;
            case 3:
                r = va <= vb;
                break;
            case 4:
                r = va > vb;
                break;
            default:
                r = va >= vb;
                break;
        }
        R[d] = r ? 1 : 0;
        return r;
    }

    static void setpF32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        float va = f(R[a]), vb = f(R[b]);
        if (y != 0) {
            va = Fp32.ftz(va);
            vb = Fp32.ftz(vb);
        }
        setp(R, d, c, x, cmpF((int) x & 0xFF, va, vb));
    }

    static void selp(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = R[c] != 0 ? R[a] : R[b];
    }

    // ---- f32

    static void addF32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(f(R[a]) + f(R[b]));
    }

    static void subF32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(f(R[a]) - f(R[b]));
    }

    static void mulF32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(f(R[a]) * f(R[b]));
    }

    static void fmaF32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(Math.fma(f(R[a]), f(R[b]), f(R[c])));
    }

    static void addF32Ftz(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(ftz32((float) ((double) ftz32(f(R[a])) + (double) ftz32(f(R[b])))));
    }

    static void subF32Ftz(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(ftz32((float) ((double) ftz32(f(R[a])) + (double) ftz32(-f(R[b])))));
    }

    static void mulF32Ftz(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(ftz32((float) ((double) ftz32(f(R[a])) * (double) ftz32(f(R[b])))));
    }

    static void fmaF32Ftz(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(ftz32(Math.fma(ftz32(f(R[a])), ftz32(f(R[b])), ftz32(f(R[c])))));
    }

    static void cvtF32S32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb((float) (double) (int) R[a]);
    }

    static void cvtS32F32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        float va = f(R[a]);
        R[d] = (int) (x != 0 ? ftz32(va) : va);
    }

    // ---- an exception check fused with the f32 instruction after it (the caller skips that instruction)

    static void addF32FtzX(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a], vb = R[b];
        long r = fb(ftz32((float) ((double) ftz32(f(va)) + (double) ftz32(f(vb)))));
        if (unusual(va) | unusual(vb) | unusual(r)) m.fpxAt(R, i);
        R[d] = r;
    }

    static void subF32FtzX(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a], vb = R[b];
        long r = fb(ftz32((float) ((double) ftz32(f(va)) + (double) ftz32(-f(vb)))));
        if (unusual(va) | unusual(vb) | unusual(r)) m.fpxAt(R, i);
        R[d] = r;
    }

    static void mulF32FtzX(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a], vb = R[b];
        long r = fb(ftz32((float) ((double) ftz32(f(va)) * (double) ftz32(f(vb)))));
        if (unusual(va) | unusual(vb) | unusual(r)) m.fpxAt(R, i);
        R[d] = r;
    }

    static void fmaF32FtzX(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a], vb = R[b], vc = R[c];
        long r = fb(ftz32(Math.fma(ftz32(f(va)), ftz32(f(vb)), ftz32(f(vc)))));
        if (unusual(va) | unusual(vb) | unusual(vc) | unusual(r)) m.fpxAt(R, i);
        R[d] = r;
    }

    static void addF32X(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a], vb = R[b];
        long r = fb(f(va) + f(vb));
        if (unusual(va) | unusual(vb) | unusual(r)) m.fpxAt(R, i);
        R[d] = r;
    }

    static void subF32X(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a], vb = R[b];
        long r = fb(f(va) - f(vb));
        if (unusual(va) | unusual(vb) | unusual(r)) m.fpxAt(R, i);
        R[d] = r;
    }

    static void mulF32X(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a], vb = R[b];
        long r = fb(f(va) * f(vb));
        if (unusual(va) | unusual(vb) | unusual(r)) m.fpxAt(R, i);
        R[d] = r;
    }

    static void fmaF32X(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a], vb = R[b], vc = R[c];
        long r = fb(Math.fma(f(va), f(vb), f(vc)));
        if (unusual(va) | unusual(vb) | unusual(vc) | unusual(r)) m.fpxAt(R, i);
        R[d] = r;
    }

    static void divApproxF32X(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a], vb = R[b];
        long r = fb(Approx.divApprox(f(va), f(vb), (x & 512) != 0));
        if (unusual(va) | unusual(vb) | unusual(r)) m.fpxAt(R, i);
        R[d] = r;
    }

    static void cvtS32F32X(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        long va = R[a];
        int e = (int) (va >>> 23) & 0xFF;
        if (e < 2 || e > 156) m.fpxAt(R, i);
        float v = f(va);
        R[d] = (int) ((x & 512) != 0 ? ftz32(v) : v);
    }

    static void divF32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(f(R[a]) / f(R[b]));
    }

    static void divApproxF32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(Approx.divApprox(f(R[a]), f(R[b]), x != 0));
    }

    static void negF32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        float va = f(R[a]);
        R[d] = Float.floatToRawIntBits(-(x != 0 ? Fp32.ftz(va) : va));
    }

    static void absF32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        float va = f(R[a]);
        R[d] = Float.floatToRawIntBits(Math.abs(x != 0 ? Fp32.ftz(va) : va));
    }

    static void minF32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(Fp32.min(f(R[a]), f(R[b]), (x & 1) != 0, (x & 2) != 0));
    }

    static void maxF32(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb(Fp32.max(f(R[a]), f(R[b]), (x & 1) != 0, (x & 2) != 0));
    }

    /** exec's F32_G (the rounded and .ftz/.sat forms of add, sub, mul, fma, div, sqrt, rcp), here so C2 folds it. */
    static void f32G(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        int mode = (int) x;
        Rounding r = RND[mode & 3];
        boolean ftz = (mode & 4) != 0;
        float va = f(R[a]), vb = f(R[b]), v;
        switch (y) {
            case Op.G_ADD:
                v = Fp32.add(va, vb, r, ftz);
                break;
            case Op.G_SUB:
                v = Fp32.sub(va, vb, r, ftz);
                break;
            case Op.G_MUL:
                v = Fp32.mul(va, vb, r, ftz);
                break;
            case Op.G_FMA:
                v = Fp32.fma(va, vb, f(R[c]), r, ftz);
                break;
            case Op.G_DIV:
                v = Fp32.div(va, vb, r, ftz);
                break;
            case Op.G_SQRT:
                v = Fp32.sqrt(va, r, ftz);
                break;
            default:
                v = Fp32.rcp(va, r, ftz);
                break;
        }
        if ((mode & 8) != 0) v = Fp32.sat(v);
        R[d] = fb(v);
    }

    private static final Rounding[] RND = Rounding.values();

    // ---- f64

    static void addF64(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = db(dd(R[a]) + dd(R[b]));
    }

    static void subF64(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = db(dd(R[a]) - dd(R[b]));
    }

    static void mulF64(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = db(dd(R[a]) * dd(R[b]));
    }

    static void fmaF64(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = db(Math.fma(dd(R[a]), dd(R[b]), dd(R[c])));
    }

    static void cvtG(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = cvt(R[a], x, y);
    }

    static void widen(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = db(f(R[a]));
    }

    static void narrow(
            Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        R[d] = fb((float) dd(R[a]));
    }

    // ---- memory

    static void ldG32(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        Space global = m.globalSpace();
        R[d] = (int) Space.I32.get(global.mem, global.check(R[a] + x - GLOBAL_BASE, 4));
    }

    static void stG32(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        Space global = m.globalSpace();
        int ix = global.check(R[a] + x - GLOBAL_BASE, 4);
        Space.I32.set(global.mem, ix, (int) R[b]);
        if (global.valid != null) global.invalidate(ix, 4);
    }

    static void ld(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y)
            throws KernelFault {
        long ix = m.indexOf(c, R[a] + x, t);
        R[d] = m.resolved().load(ix, y & 15, (y & 16) != 0);
    }

    static void st(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y)
            throws KernelFault {
        long ix = m.indexOf(c, R[a] + x, t);
        m.resolved().store(ix, y & 15, R[b]);
    }

    // ---- the rest

    static void fpx(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y) {
        m.fpxAt(R, i);
    }

    static void exec(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y)
            throws KernelFault {
        m.execAt(t, i);
    }

    static void trap(Interpreter m, Interpreter.Thread t, long[] R, int i, int d, int a, int b, int c, long x, int y)
            throws KernelFault {
        throw new KernelFault("trap");
    }
}
