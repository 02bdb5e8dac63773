package dev.numlint.validation.interp;

import dev.numlint.validation.fp.Rounding;
import dev.numlint.validation.interp.Decoder.Options;
import dev.numlint.validation.interp.Decoder.Unsupported;
import dev.numlint.validation.interp.PtxText.Func;
import dev.numlint.validation.interp.PtxText.Insn;
import java.util.List;
import java.util.Map;

/**
 * Decodes the arithmetic instructions: moves, integer arithmetic and bit operations, f32 and f64 arithmetic (with
 * their rounding, .ftz and .sat modifiers, the approximate functions, reference mode's binary64 evaluation of f32
 * operations), comparisons and conversions, and the floating-point exception checks placed before them.
 */
abstract class ArithmeticDecoder extends CodeBuilder {
    ArithmeticDecoder(PtxText.Module m, Func k, Options o) {
        super(m, k, o);
    }

    static int fmode(Insn in, Rounding def) {
        Rounding r = def;
        for (String m : in.mods) {
            if (m.equals("rn") || m.equals("rz") || m.equals("rm") || m.equals("rp")) r = Rounding.fromPtx(m);
        }
        return r.ordinal() | (in.has("ftz") ? 4 : 0) | (in.has("sat") ? 8 : 0);
    }

    static boolean hasRounding(Insn in) {
        return in.has("rn") || in.has("rz") || in.has("rm") || in.has("rp");
    }

    static final Map<String, Integer> F_BIN = Map.of("add", Op.G_ADD, "sub", Op.G_SUB, "mul", Op.G_MUL);

    void mov(Insn in) {
        List<String> o = in.operands;
        String t = type(in);
        String d = o.get(0).trim(), s = o.get(1).trim();
        if (d.startsWith("{")) { // unpack
            String[] parts = d.substring(1, d.length() - 1).split(",");
            int[] v = new int[parts.length];
            for (int i = 0; i < v.length; i++) v[i] = parts[i].trim().equals("_") ? -1 : reg(parts[i]);
            emit(Op.MOV_UNPACK, 0, src(s, t), 0, 0, 0, Types.bits(t) / v.length, v);
            return;
        }
        if (s.startsWith("{")) {
            String[] parts = s.substring(1, s.length() - 1).split(",");
            int[] v = new int[parts.length];
            for (int i = 0; i < v.length; i++) v[i] = src(parts[i], "b" + Types.bits(t) / parts.length);
            emit(Op.MOV_PACK, dst(d), 0, 0, 0, 0, Types.bits(t) / v.length, v);
            return;
        }
        if (t.equals("f32") && ref) {
            int dr = dst(d);
            emit(Op.MOV, dr, wide(dr) ? srcWide(s) : srcNarrow(s), 0, 0, 0, 0, null);
            return;
        }
        if (t.equals("f64") && ref && isReg(s) && wideD(reg(d))) {
            emit(Op.MOV_DD, reg(d), reg(s), 0, 0, 0, 0, null);
            return;
        }
        Sym sym = symbol(s);
        if (!isReg(s) && !Operands.isLiteral(s) && sym != null) {
            emit(Op.MOV, dst(d), constant(sym.address(false) + symOffset(s)), 0, 0, 0, 0, null);
            return;
        }
        emit(Op.MOV, dst(d), src(s, t), 0, 0, 0, 0, null);
    }

    void arith(Insn in) {
        List<String> o = in.operands;
        String op = in.opcode, t = type(in);
        int k = Op.kind(t);
        if (t.equals("f32")) {
            f32(in);
            return;
        }
        if (t.equals("f64")) {
            f64(in);
            return;
        }
        if (Op.isFloat(k)) throw new Unsupported(op + "." + t);
        int d = dst(o.get(0));
        switch (op) {
            case "add":
            case "sub":
            case "addc":
            case "subc": {
                boolean cc = in.has("cc") || op.endsWith("c");
                if (cc) {
                    boolean sub = op.startsWith("sub"), carryIn = op.endsWith("c");
                    emit(
                            Op.ADD_CC,
                            d,
                            src(o.get(1), t),
                            src(o.get(2), t),
                            0,
                            (sub ? 1 : 0) | (carryIn ? 2 : 0) | (in.has("cc") ? 4 : 0),
                            Op.width(k),
                            null);
                    return;
                }
                if (in.has("sat")) throw new Unsupported(op + ".sat." + t);
                emit(op.equals("add") ? Op.ADD_I : Op.SUB_I, d, src(o.get(1), t), src(o.get(2), t), 0, 0, 0, null);
                return;
            }
            case "mul": {
                int a = src(o.get(1), t), b = src(o.get(2), t);
                if (in.has("hi")) emit(Op.MUL_HI, d, a, b, 0, 0, k, null);
                else if (in.has("wide")) emit(Op.MUL_WIDE, d, a, b, 0, 0, k, null);
                else emit(Op.MUL_LO, d, a, b, 0, 0, 0, null);
                return;
            }
            case "mad":
            case "madc": {
                int a = src(o.get(1), t), b = src(o.get(2), t);
                if (in.has("cc") || op.equals("madc")) { // extended-precision multiply-add with the carry flag
                    if (in.has("wide")) throw new Unsupported(op + ".wide.cc");
                    emit(
                            Op.MAD_CC,
                            d,
                            a,
                            b,
                            src(o.get(3), t),
                            (in.has("hi") ? 1 : 0) | (op.equals("madc") ? 2 : 0) | (in.has("cc") ? 4 : 0),
                            Op.width(k),
                            null);
                    return;
                }
                if (in.has("hi")) emit(Op.MAD_HI, d, a, b, src(o.get(3), t), 0, k, null);
                else if (in.has("wide"))
                    emit(
                            Op.MAD_WIDE,
                            d,
                            a,
                            b,
                            src(
                                    o.get(3),
                                    Op.width(k) == 16
                                            ? (Op.signed(k) ? "s32" : "u32")
                                            : (Op.signed(k) ? "s64" : "u64")),
                            0,
                            k,
                            null);
                else emit(Op.MAD_LO, d, a, b, src(o.get(3), t), 0, 0, null);
                return;
            }
            case "mul24":
            case "mad24": {
                if (in.has("hi")) throw new Unsupported(op + ".hi");
                emit(
                        op.equals("mul24") ? Op.MUL24 : Op.MAD24,
                        d,
                        src(o.get(1), t),
                        src(o.get(2), t),
                        op.equals("mad24") ? src(o.get(3), t) : 0,
                        0,
                        k,
                        null);
                return;
            }
            case "div":
                emit(Op.DIV_I, d, src(o.get(1), t), src(o.get(2), t), 0, 0, k, null);
                return;
            case "rem":
                emit(Op.REM_I, d, src(o.get(1), t), src(o.get(2), t), 0, 0, k, null);
                return;
            case "neg":
                emit(Op.NEG_I, d, src(o.get(1), t), 0, 0, 0, 0, null);
                return;
            case "abs":
                emit(Op.ABS_I, d, src(o.get(1), t), 0, 0, 0, k, null);
                return;
            case "min":
                emit(Op.MIN_I, d, src(o.get(1), t), src(o.get(2), t), 0, 0, k, null);
                return;
            case "max":
                emit(Op.MAX_I, d, src(o.get(1), t), src(o.get(2), t), 0, 0, k, null);
                return;
            default:
                throw new Unsupported(op + "." + t);
        }
    }

    static int approxCode(String op) {
        switch (op) {
            case "rcp":
                return Op.A_RCP;
            case "sqrt":
                return Op.A_SQRT;
            case "rsqrt":
                return Op.A_RSQRT;
            case "sin":
                return Op.A_SIN;
            case "cos":
                return Op.A_COS;
            case "lg2":
                return Op.A_LG2;
            case "ex2":
                return Op.A_EX2;
            case "tanh":
                return Op.A_TANH;
            default:
                throw new Unsupported(op + ".approx");
        }
    }

    void f32(Insn in) {
        List<String> o = in.operands;
        String op = in.opcode;
        int d = dst(o.get(0));
        boolean wideDst = wide(d);
        boolean directed = in.has("rz") || in.has("rm") || in.has("rp");
        if (ref && wideDst && !directed) {
            f32Wide(in, d);
            return;
        }
        int tmpDst = d;
        if (ref && wideDst) tmpDst = scratch(); // directed rounding: exact f32, then widen
        int mode = fmode(in, Rounding.RN);
        boolean plain = (mode & ~3) == 0 && (mode & 3) == 0;
        int n = o.size();
        int a = n > 1 ? srcNarrow(o.get(1)) : 0,
                b = n > 2 ? srcNarrow(o.get(2)) : 0,
                c = n > 3 ? srcNarrow(o.get(3)) : 0;
        switch (op) {
            case "add":
            case "sub":
            case "mul":
                if (plain)
                    emit(
                            op.equals("add") ? Op.ADD_F32 : op.equals("sub") ? Op.SUB_F32 : Op.MUL_F32,
                            tmpDst,
                            a,
                            b,
                            0,
                            0,
                            0,
                            null);
                else emit(Op.F32_G, tmpDst, a, b, 0, mode, F_BIN.get(op), null);
                break;
            case "fma":
            case "mad":
                if (!hasRounding(in) && op.equals("mad"))
                    throw new Unsupported("mad.f32 without rounding (sm_1x semantics)");
                if (opts.unfuseFma && (mode & 3) == 0) {
                    int prod = scratch();
                    emit(Op.F32_G, prod, a, b, 0, mode & ~8, Op.G_MUL, null);
                    emit(Op.F32_G, tmpDst, prod, c, 0, mode, Op.G_ADD, null);
                } else if (plain) emit(Op.FMA_F32, tmpDst, a, b, c, 0, 0, null);
                else emit(Op.F32_G, tmpDst, a, b, c, mode, Op.G_FMA, null);
                break;
            case "div":
                if (in.has("approx") || in.has("full")) {
                    p.approximate.add(in.opcode + "." + String.join(".", in.mods));
                    emit(
                            Op.F32_APPROX,
                            tmpDst,
                            a,
                            b,
                            0,
                            in.has("ftz") ? 1 : 0,
                            in.has("full") ? Op.A_DIV_FULL : Op.A_DIV,
                            null);
                } else if (plain) emit(Op.DIV_F32, tmpDst, a, b, 0, 0, 0, null);
                else emit(Op.F32_G, tmpDst, a, b, 0, mode, Op.G_DIV, null);
                break;
            case "sqrt":
            case "rcp":
                if (in.has("approx")) {
                    p.approximate.add(in.opcode + "." + String.join(".", in.mods));
                    emit(Op.F32_APPROX, tmpDst, a, 0, 0, in.has("ftz") ? 1 : 0, approxCode(op), null);
                } else if (plain && op.equals("sqrt")) emit(Op.SQRT_F32, tmpDst, a, 0, 0, 0, 0, null);
                else emit(Op.F32_G, tmpDst, a, 0, 0, mode, op.equals("sqrt") ? Op.G_SQRT : Op.G_RCP, null);
                break;
            case "rsqrt":
            case "sin":
            case "cos":
            case "lg2":
            case "ex2":
            case "tanh":
                p.approximate.add(in.opcode + "." + String.join(".", in.mods));
                emit(Op.F32_APPROX, tmpDst, a, 0, 0, in.has("ftz") ? 1 : 0, approxCode(op), null);
                break;
            case "neg":
                emit(Op.NEG_F32, tmpDst, a, 0, 0, in.has("ftz") ? 1 : 0, 0, null);
                break;
            case "abs":
                emit(Op.ABS_F32, tmpDst, a, 0, 0, in.has("ftz") ? 1 : 0, 0, null);
                break;
            case "min":
            case "max":
                emit(
                        op.equals("min") ? Op.MIN_F32 : Op.MAX_F32,
                        tmpDst,
                        a,
                        b,
                        0,
                        (in.has("ftz") ? 1 : 0) | (in.has("NaN") ? 2 : 0),
                        0,
                        null);
                break;
            case "copysign":
                emit(Op.COPYSIGN_F32, tmpDst, a, b, 0, 0, 0, null);
                break;
            default:
                throw new Unsupported(op + ".f32");
        }
        if (tmpDst != d) emitPost(false, Op.WIDEN, d, tmpDst);
    }

    /** Reference mode: an f32 operation into a wide register, evaluated in binary64. */
    void f32Wide(Insn in, int d) {
        List<String> o = in.operands;
        String op = in.opcode;
        int n = o.size();
        int a = n > 1 ? srcWide(o.get(1)) : 0, b = n > 2 ? srcWide(o.get(2)) : 0, c = n > 3 ? srcWide(o.get(3)) : 0;
        int sat = in.has("sat") ? 8 : 0;
        switch (op) {
            case "add":
            case "sub":
            case "mul":
                if (sat != 0) emit(Op.F64_G, d, a, b, 0, sat, F_BIN.get(op), null);
                else
                    emit(
                            op.equals("add") ? Op.ADD_F64 : op.equals("sub") ? Op.SUB_F64 : Op.MUL_F64,
                            d,
                            a,
                            b,
                            0,
                            0,
                            0,
                            null);
                return;
            case "fma":
            case "mad":
                if (sat != 0) emit(Op.F64_G, d, a, b, c, sat, Op.G_FMA, null);
                else emit(Op.FMA_F64, d, a, b, c, 0, 0, null);
                return;
            case "div":
                emit(Op.DIV_F64, d, a, b, 0, 0, 0, null);
                return;
            case "sqrt":
                emit(Op.SQRT_F64, d, a, 0, 0, 0, 0, null);
                return;
            case "rcp":
                emit(Op.F64_G, d, a, 0, 0, 0, Op.G_RCP, null);
                return;
            case "rsqrt":
            case "sin":
            case "cos":
            case "lg2":
            case "ex2":
            case "tanh":
                emit(Op.F64_APPROX, d, a, 0, 0, 0, approxCode(op), null);
                return;
            case "neg":
                emit(Op.NEG_F64, d, a, 0, 0, 0, 0, null);
                return;
            case "abs":
                emit(Op.ABS_F64, d, a, 0, 0, 0, 0, null);
                return;
            case "min":
                emit(Op.MIN_F64, d, a, b, 0, in.has("NaN") ? 2 : 0, 0, null);
                return;
            case "max":
                emit(Op.MAX_F64, d, a, b, 0, in.has("NaN") ? 2 : 0, 0, null);
                return;
            case "copysign":
                emit(Op.COPYSIGN_F64, d, a, b, 0, 0, 0, null);
                return;
            default:
                throw new Unsupported(op + ".f32");
        }
    }

    void f64(Insn in) {
        List<String> o = in.operands;
        String op = in.opcode;
        int d = dst(o.get(0));
        int mode = fmode(in, Rounding.RN);
        if (ref && wideD(d) && (mode & 3) == 0 && !in.has("approx")) {
            int n = o.size();
            int a = n > 1 ? src(o.get(1), "f64") : 0,
                    b = n > 2 ? src(o.get(2), "f64") : 0,
                    c = n > 3 ? src(o.get(3), "f64") : 0;
            switch (op) {
                case "add":
                    emit(Op.ADD_DD, d, a, b, 0, 0, 0, null);
                    return;
                case "sub":
                    emit(Op.SUB_DD, d, a, b, 0, 0, 0, null);
                    return;
                case "mul":
                    emit(Op.MUL_DD, d, a, b, 0, 0, 0, null);
                    return;
                case "fma":
                case "mad":
                    emit(Op.FMA_DD, d, a, b, c, 0, 0, null);
                    return;
                case "div":
                    emit(Op.DIV_DD, d, a, b, 0, 0, 0, null);
                    return;
                case "sqrt":
                    emit(Op.SQRT_DD, d, a, 0, 0, 0, 0, null);
                    return;
                case "neg":
                    emit(Op.NEG_DD, d, a, 0, 0, 0, 0, null);
                    return;
                case "abs":
                    emit(Op.ABS_DD, d, a, 0, 0, 0, 0, null);
                    return;
                default:
                    break; // min/max/copysign/rcp: binary64 on the high parts (low part cleared)
            }
        }
        boolean plain = mode == 0;
        int n = o.size();
        int a = n > 1 ? src(o.get(1), "f64") : 0,
                b = n > 2 ? src(o.get(2), "f64") : 0,
                c = n > 3 ? src(o.get(3), "f64") : 0;
        switch (op) {
            case "add":
            case "sub":
            case "mul":
                if (plain)
                    emit(
                            op.equals("add") ? Op.ADD_F64 : op.equals("sub") ? Op.SUB_F64 : Op.MUL_F64,
                            d,
                            a,
                            b,
                            0,
                            0,
                            0,
                            null);
                else emit(Op.F64_G, d, a, b, 0, mode, F_BIN.get(op), null);
                return;
            case "fma":
            case "mad":
                if (opts.unfuseFma && (mode & 3) == 0) {
                    int prod = scratch();
                    emit(Op.MUL_F64, prod, a, b, 0, 0, 0, null);
                    emit(Op.ADD_F64, d, prod, c, 0, 0, 0, null);
                } else if (plain) emit(Op.FMA_F64, d, a, b, c, 0, 0, null);
                else emit(Op.F64_G, d, a, b, c, mode, Op.G_FMA, null);
                return;
            case "div":
                if (plain) emit(Op.DIV_F64, d, a, b, 0, 0, 0, null);
                else emit(Op.F64_G, d, a, b, 0, mode, Op.G_DIV, null);
                return;
            case "sqrt":
            case "rcp":
                if (in.has("approx")) {
                    p.approximate.add(in.opcode + "." + String.join(".", in.mods));
                    emit(Op.F64_APPROX, d, a, 0, 0, 1, approxCode(op), null);
                } else if (plain && op.equals("sqrt")) emit(Op.SQRT_F64, d, a, 0, 0, 0, 0, null);
                else emit(Op.F64_G, d, a, 0, 0, mode, op.equals("sqrt") ? Op.G_SQRT : Op.G_RCP, null);
                return;
            case "rsqrt":
                p.approximate.add(in.opcode + "." + String.join(".", in.mods));
                emit(Op.F64_APPROX, d, a, 0, 0, 1, Op.A_RSQRT, null);
                return;
            case "neg":
                emit(Op.NEG_F64, d, a, 0, 0, 0, 0, null);
                return;
            case "abs":
                emit(Op.ABS_F64, d, a, 0, 0, 0, 0, null);
                return;
            case "min":
                emit(Op.MIN_F64, d, a, b, 0, in.has("NaN") ? 2 : 0, 0, null);
                return;
            case "max":
                emit(Op.MAX_F64, d, a, b, 0, in.has("NaN") ? 2 : 0, 0, null);
                return;
            case "copysign":
                emit(Op.COPYSIGN_F64, d, a, b, 0, 0, 0, null);
                return;
            default:
                throw new Unsupported(op + ".f64");
        }
    }

    static final List<String> CMP = List.of(
            "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num",
            "nan");

    void setp(Insn in) {
        List<String> o = in.operands;
        String t = type(in);
        String cmp = in.mods.get(0);
        int code = CMP.indexOf(cmp);
        if (code < 0) throw new Unsupported("setp." + cmp);
        String combine = in.mods.size() > 2
                        && (in.mods.get(1).equals("and")
                                || in.mods.get(1).equals("or")
                                || in.mods.get(1).equals("xor"))
                ? in.mods.get(1)
                : null;
        String dd = o.get(0).trim();
        int q = -1, dslot;
        if (dd.contains("|")) {
            String[] two = dd.split("\\|");
            dslot = reg(two[0]);
            q = reg(two[1]);
        } else dslot = reg(dd);
        int cpred = 0;
        long comb = 0;
        if (combine != null) {
            String c = o.get(3).trim();
            boolean neg = c.startsWith("!");
            cpred = reg(neg ? c.substring(1) : c);
            comb = (combine.equals("and") ? 1 : combine.equals("or") ? 2 : 3) | (neg ? 4 : 0);
        }
        long x = code | (comb << 8) | ((long) (q + 1) << 16);
        int k = Op.kind(t);
        if (t.equals("f32")) {
            if (ref) emit(Op.SETP_F64, dslot, srcWide(o.get(1)), srcWide(o.get(2)), cpred, x, 0, null);
            else emit(Op.SETP_F32, dslot, src(o.get(1), t), src(o.get(2), t), cpred, x, in.has("ftz") ? 1 : 0, null);
        } else if (t.equals("f64")) {
            emit(Op.SETP_F64, dslot, src(o.get(1), t), src(o.get(2), t), cpred, x, 0, null);
        } else if (Op.isFloat(k)) {
            throw new Unsupported("setp." + t);
        } else {
            boolean simple = k == Op.K_S32 && comb == 0 && q < 0;
            emit(simple ? Op.SETP_S32 : Op.SETP_I, dslot, src(o.get(1), t), src(o.get(2), t), cpred, x, k, null);
        }
    }

    void cvt(Insn in) {
        List<String> o = in.operands;
        List<String> ts = types(in);
        if (ts.size() != 2) throw new Unsupported("cvt with types " + ts);
        String dt = ts.get(0), st = ts.get(1);
        if (dt.equals("f16") || st.equals("f16") || dt.equals("bf16") || st.equals("bf16"))
            throw new Unsupported("cvt ." + dt + "." + st + " (half precision)");
        int dk = Op.kind(dt), sk = Op.kind(st);
        Rounding r = Rounding.RN;
        boolean intRound = false;
        for (String m : in.mods) {
            if (m.equals("rni") || m.equals("rzi") || m.equals("rmi") || m.equals("rpi")) {
                r = Rounding.fromPtx(m);
                intRound = true;
            } else if (m.equals("rn") || m.equals("rz") || m.equals("rm") || m.equals("rp")) r = Rounding.fromPtx(m);
        }
        if (Op.isFloat(sk) && !Op.isFloat(dk) && !intRound)
            r = Rounding.RZ; // float-to-int requires an integer rounding
        int d = dst(o.get(0));
        int a;
        if (ref && sk == Op.K_F32) {
            int s = reg(o.get(1));
            if (wide(s)) {
                a = s;
                sk = Op.K_F64;
            } else a = s;
        } else a = src(o.get(1), st);
        if (ref && dk == Op.K_F32 && wide(d)) {
            dk = Op.K_F64;
            if (sk == Op.K_F64 && !intRound && !in.has("sat")) {
                emit(Op.MOV, d, a, 0, 0, 0, 0, null);
                return;
            }
        }
        boolean hostMode =
                host && Op.isFloat(sk) && !Op.isFloat(dk) && (!Op.signed(dk) || Op.width(dk) < 32) && r == Rounding.RZ;
        long x = r.ordinal()
                | (intRound ? 4 : 0)
                | (in.has("ftz") ? 8 : 0)
                | (in.has("sat") ? 16 : 0)
                | (hostMode ? 32 : 0);
        emit(Op.CVT, d, a, 0, 0, x, (dk << 12) | sk, null);
    }

    static final List<String> FPX_OPS =
            List.of("add", "sub", "mul", "fma", "div", "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh");

    /**
     * Before an f32/f64 arithmetic instruction or a conversion from a float, a check of its operands ({@link
     * Op#FPX}, nothing written): x holds the operation (FPX_OPS index, 13 float-to-integer cvt, 14 float-to-float
     * cvt), 256 for f64 sources, 512 for .ftz, the destination kind above bit 16; y the instruction's site.
     */
    void fpx(Insn in) {
        String op = in.opcode;
        List<String> ts = types(in);
        List<String> o = in.operands;
        if (ts.isEmpty() || o.size() < 2) return;
        long x;
        int a, b = -1, c = -1;
        if (op.equals("cvt")) {
            if (ts.size() != 2) return;
            String dt = ts.get(0), st = ts.get(1);
            if (!st.equals("f32") && !st.equals("f64")) return;
            if (dt.equals("f16") || dt.equals("bf16") || dt.startsWith("e") || dt.startsWith("tf")) return;
            boolean toFloat = dt.equals("f32") || dt.equals("f64");
            x = (toFloat ? 14 : 13)
                    | (st.equals("f64") ? 256 : 0)
                    | (in.has("ftz") ? 512 : 0)
                    | ((long) Op.kind(dt) << 16);
            a = src(o.get(1), st);
        } else {
            int k = FPX_OPS.indexOf(op.equals("mad") ? "fma" : op);
            String t = ts.get(ts.size() - 1);
            if (k < 0 || !t.equals("f32") && !t.equals("f64")) return;
            x = k | (t.equals("f64") ? 256 : 0) | (in.has("ftz") ? 512 : 0) | ((long) Op.kind(t) << 16);
            a = src(o.get(1), t);
            if (o.size() > 2) b = src(o.get(2), t);
            if (o.size() > 3) c = src(o.get(3), t);
        }
        int site = p.exceptionSites.size();
        p.exceptionSites.add(new Program.ExceptionSite(in.line, in.text, in.src));
        emit(Op.FPX, 0, a, b, c, x, site, null);
    }
}
