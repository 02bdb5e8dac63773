package dev.numlint.validation.interp;

import static dev.numlint.validation.interp.Decoder.CONST_WIN;
import static dev.numlint.validation.interp.Decoder.GLOBAL_BASE;
import static dev.numlint.validation.interp.Decoder.KPARAM_WIN;
import static dev.numlint.validation.interp.Decoder.LOCAL_WIN;
import static dev.numlint.validation.interp.Decoder.SHARED_WIN;

import dev.numlint.validation.interp.Decoder.Options;
import dev.numlint.validation.interp.Decoder.Unsupported;
import dev.numlint.validation.interp.PtxText.Func;
import dev.numlint.validation.interp.PtxText.Insn;
import dev.numlint.validation.interp.PtxText.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The program a {@link Decoder} builds: the decoder's state (the module's symbols and memory layout, the current
 * function's registers, symbols and labels), the register file (named registers, special registers, constant
 * registers for literals and symbol addresses, scratch registers), operand resolution, instruction emission and
 * the packing into {@link Program}'s flat arrays; and the reference mode's register roles (which .f32 registers
 * are "wide" and carry doubles).
 */
abstract class CodeBuilder {
    static final class Sym {
        final int space;
        final long offset;
        final int size;

        Sym(int space, long offset, int size) {
            this.space = space;
            this.offset = offset;
            this.size = size;
        }

        long address(boolean generic) {
            switch (space) {
                case Op.SP_GLOBAL:
                    return GLOBAL_BASE + offset;
                case Op.SP_SHARED:
                    return generic ? SHARED_WIN + offset : offset;
                case Op.SP_LOCAL:
                    return generic ? LOCAL_WIN + offset : offset;
                case Op.SP_CONST:
                    return generic ? CONST_WIN + offset : offset;
                case Op.SP_KPARAM:
                    return generic ? KPARAM_WIN + offset : offset;
                default:
                    return offset;
            }
        }
    }

    final PtxText.Module mod;
    final Func kernel;
    final Program p;
    final boolean ref, host;
    final List<long[]> ins = new ArrayList<>(); // op,d,a,b,c,g,x,y
    final List<int[]> vecs = new ArrayList<>();
    final List<String> texts = new ArrayList<>();
    final List<Integer> lines = new ArrayList<>();
    final List<String> srcs = new ArrayList<>();
    final List<Long> template = new ArrayList<>();
    final List<Boolean> slotF32 = new ArrayList<>();
    final Set<Integer> f64Slots = new HashSet<>();
    final Map<String, Integer> consts = new HashMap<>();
    final Map<String, Sym> moduleSyms = new HashMap<>();
    final Map<String, Integer> funcEntry = new HashMap<>();
    final List<Object[]> callFixups = new ArrayList<>(); // {siteIndex, funcName}
    final List<int[]> callSites = new ArrayList<>();
    final Map<String, Map<String, Sym>> funcParamSyms = new HashMap<>();
    int sharedTop, localTop, cparamTop, constTop, globalsTop, dynamicSharedOffset;
    byte[] constInit = new byte[0], globalsInit = new byte[0];

    // per-function state
    Map<String, Integer> regs;
    Map<String, Sym> syms;
    Map<String, Integer> labels;
    List<Object[]> branchFixups; // {insnIndex, label}
    Set<Integer> narrow; // reference mode: f32 slots whose bits are observed
    Insn cur;
    final List<long[]> post = new ArrayList<>();

    final Options opts;

    CodeBuilder(PtxText.Module m, Func k, Options o) {
        this.mod = m;
        this.kernel = k;
        this.opts = o;
        this.ref = o.reference;
        this.host = o.hostConversions;
        this.p = new Program(k.name, o.reference);
    }

    // ------------------------------------------------------------------ reference-mode roles

    static final Set<String> F32_OPS = Set.of(
            "add",
            "sub",
            "mul",
            "fma",
            "mad",
            "div",
            "sqrt",
            "rcp",
            "rsqrt",
            "sin",
            "cos",
            "lg2",
            "ex2",
            "tanh",
            "abs",
            "neg",
            "min",
            "max",
            "copysign",
            "mov",
            "selp",
            "setp",
            "testp",
            "ld",
            "st",
            "ldu",
            "slct",
            "set");

    /** Whether operand i of the instruction is read or written as an f32 value (not as bits). */
    static boolean f32Role(Insn in, int i) {
        return floatRole(in, i, "f32");
    }

    /** Whether operand i is read or written as a value of the float type ft (f32 or f64), not as bits. */
    static boolean floatRole(Insn in, int i, String ft) {
        if (in.opcode.equals("cvt")) {
            List<String> t = types(in);
            return t.size() == 2 && (i == 0 ? t.get(0) : t.get(1)).equals(ft);
        }
        if (!F32_OPS.contains(in.opcode)) return false;
        List<String> t = types(in);
        if (t.isEmpty() || !t.get(t.size() - 1).equals(ft)) return false;
        if (in.opcode.equals("setp") || in.opcode.equals("testp")) return i >= 1 && i <= 2;
        if (in.opcode.equals("selp")) return i <= 2;
        if (in.opcode.equals("slct")) return i <= 1 && t.size() == 2 && t.get(0).equals(ft);
        if (in.opcode.equals("ld") || in.opcode.equals("ldu")) return i == 0;
        if (in.opcode.equals("st")) return i == 1;
        return true;
    }

    void markNarrow(Func f) {
        for (Stmt s : f.body) {
            if (!(s instanceof Insn)) continue;
            Insn in = (Insn) s;
            for (int i = 0; i < in.operands.size(); i++) {
                boolean r32 = f32Role(in, i), r64 = floatRole(in, i, "f64");
                for (String r : regNames(in.operands.get(i))) {
                    Integer slot = regs.get(r);
                    if (slot == null) continue;
                    if (slotF32.get(slot) && !r32) narrow.add(slot);
                    if (f64Slots.contains(slot) && !r64) narrow.add(slot);
                }
                // vector ld/st and atomics of f64 keep exact binary64 semantics
                if ((in.opcode.equals("atom") || in.opcode.equals("red") || in.has("v2") || in.has("v4"))
                        && in.has("f64")) {
                    for (String r : regNames(in.operands.get(i))) {
                        Integer slot = regs.get(r);
                        if (slot != null && f64Slots.contains(slot)) narrow.add(slot);
                    }
                }
            }
        }
    }

    static List<String> regNames(String operand) {
        List<String> r = new ArrayList<>();
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("%[A-Za-z_$][A-Za-z0-9_$]*").matcher(operand);
        while (m.find()) r.add(m.group());
        return r;
    }

    boolean wide(int slot) {
        return ref && slot < slotF32.size() && slotF32.get(slot) && !narrow.contains(slot);
    }

    /** Reference mode: an f64 register carried as a double-double (its low part in the thread's L array). */
    boolean wideD(int slot) {
        return ref && f64Slots.contains(slot) && !narrow.contains(slot);
    }

    static boolean isDD(int op) {
        return op == Op.ADD_DD
                || op == Op.SUB_DD
                || op == Op.MUL_DD
                || op == Op.FMA_DD
                || op == Op.DIV_DD
                || op == Op.SQRT_DD
                || op == Op.NEG_DD
                || op == Op.ABS_DD
                || op == Op.MOV_DD
                || op == Op.SELP_DD
                || op == Op.LD_DD
                || op == Op.ZERO_LO;
    }

    // ------------------------------------------------------------------ operands

    static List<String> types(Insn in) {
        List<String> t = new ArrayList<>();
        for (String m : in.mods) if (Types.isType(m)) t.add(m);
        return t;
    }

    static String type(Insn in) {
        List<String> t = types(in);
        if (t.isEmpty()) throw new Unsupported("instruction without a type");
        return t.get(t.size() - 1);
    }

    int reg(String name) {
        String n = name.trim();
        Integer s = regs.get(n);
        if (s != null) return s;
        Integer sp = special(n);
        if (sp != null) return sp;
        throw new Unsupported("unknown register " + n);
    }

    static Integer special(String n) {
        switch (n) {
            case "%tid.x":
                return Program.R_TID;
            case "%tid.y":
                return Program.R_TID + 1;
            case "%tid.z":
                return Program.R_TID + 2;
            case "%ntid.x":
                return Program.R_NTID;
            case "%ntid.y":
                return Program.R_NTID + 1;
            case "%ntid.z":
                return Program.R_NTID + 2;
            case "%ctaid.x":
                return Program.R_CTAID;
            case "%ctaid.y":
                return Program.R_CTAID + 1;
            case "%ctaid.z":
                return Program.R_CTAID + 2;
            case "%nctaid.x":
                return Program.R_NCTAID;
            case "%nctaid.y":
                return Program.R_NCTAID + 1;
            case "%nctaid.z":
                return Program.R_NCTAID + 2;
            case "%laneid":
                return Program.R_LANEID;
            case "%warpid":
                return Program.R_WARPID;
            case "%nwarpid":
                return Program.R_NWARPID;
            case "%lanemask_eq":
                return Program.R_LANEMASK_EQ;
            case "%lanemask_lt":
                return Program.R_LANEMASK_LT;
            case "%lanemask_le":
                return Program.R_LANEMASK_LE;
            case "%lanemask_gt":
                return Program.R_LANEMASK_GT;
            case "%lanemask_ge":
                return Program.R_LANEMASK_GE;
            case "%smid":
            case "%gridid":
                return Program.R_SMID;
            case "%clock":
            case "%clock64":
            case "%globaltimer":
            case "%globaltimer_lo":
                return Program.R_ZERO;
            default:
                return n.startsWith("%envreg") ? Program.R_ZERO : null; // driver-defined environment registers read 0
        }
    }

    int constant(long bits) {
        String k = Long.toString(bits);
        Integer s = consts.get(k);
        if (s == null) {
            s = template.size();
            template.add(bits);
            slotF32.add(false);
            consts.put(k, s);
        }
        return s;
    }

    int scratch() {
        template.add(0L);
        slotF32.add(false);
        return template.size() - 1;
    }

    boolean isReg(String t) {
        t = t.trim();
        return t.startsWith("%");
    }

    /** A source operand as raw bits for an instruction of the given type. */
    int src(String t, String type) {
        t = t.trim();
        if (t.equals("WARP_SZ")) return constant(32);
        if (isReg(t)) return reg(t);
        if (Operands.isLiteral(t)) return constant(Operands.literalBits(t, type));
        Sym s = symbol(t);
        if (s != null) return constant(s.address(false) + symOffset(t));
        throw new Unsupported("operand " + t);
    }

    /** Reference mode: an f32 source as a double slot. */
    int srcWide(String t) {
        t = t.trim();
        if (isReg(t)) {
            int r = reg(t);
            if (wide(r)) return r;
            int s = scratch();
            emitPost(false, Op.WIDEN, s, r);
            return s;
        }
        if (Operands.isLiteral(t))
            return constant(Double.doubleToRawLongBits(Float.intBitsToFloat((int) Operands.literalBits(t, "f32"))));
        throw new Unsupported("operand " + t);
    }

    /** An f32 source as float bits (narrowing a wide register in reference mode). */
    int srcNarrow(String t) {
        t = t.trim();
        if (isReg(t)) {
            int r = reg(t);
            if (!wide(r)) return r;
            int s = scratch();
            emitPost(false, Op.NARROW, s, r);
            return s;
        }
        return src(t, "f32");
    }

    void emitPost(boolean after, int op, int d, int a) {
        long[] e = {op, d, a, 0, 0, guard(cur), 0, 0};
        if (after) post.add(e);
        else {
            ins.add(e);
            vecs.add(null);
            texts.add(cur.text);
            lines.add(cur.line);
            srcs.add(cur.src);
        }
    }

    Sym symbol(String t) {
        String n = t;
        int plus = n.indexOf('+');
        if (plus > 0) n = n.substring(0, plus).trim();
        return syms.get(n);
    }

    static long symOffset(String t) {
        int plus = t.indexOf('+');
        return plus > 0 ? Long.parseLong(t.substring(plus + 1).trim()) : 0;
    }

    /** [base+off] → {baseSlot, offset}; space-relative symbol addresses unless generic. */
    long[] address(String t, int space) {
        t = t.trim();
        if (!t.startsWith("[") || !t.endsWith("]")) throw new Unsupported("address operand " + t);
        String in = t.substring(1, t.length() - 1).trim();
        String base = in;
        long off = 0;
        int plus = in.indexOf('+');
        if (plus > 0) {
            base = in.substring(0, plus).trim();
            off = Long.parseLong(in.substring(plus + 1).trim().replace(" ", ""));
        } else {
            int minus = in.lastIndexOf('-');
            if (minus > 0) {
                base = in.substring(0, minus).trim();
                off = -Long.parseLong(in.substring(minus + 1).trim());
            }
        }
        if (isReg(base)) return new long[] {reg(base), off};
        if (Operands.isLiteral(base)) return new long[] {constant(Operands.literalBits(base, "u64")), off};
        Sym s = syms.get(base);
        if (s == null) throw new Unsupported("unknown symbol " + base);
        return new long[] {constant(s.address(space == Op.SP_GENERIC)), off, s.space};
    }

    /** The implicit return at the end of a body that holds no instruction (a kernel declared with an empty body). */
    static Insn endOf() {
        Insn c = new Insn();
        c.opcode = "ret";
        c.mods = new ArrayList<>();
        c.operands = new ArrayList<>();
        c.text = "(end of an empty body)";
        return c;
    }

    int guard(Insn in) {
        if (in == null || in.guard == null) return 0;
        int r = reg(in.guard);
        return in.guardNeg ? -(r + 1) : r + 1;
    }

    int emit(int op, int d, int a, int b, int c, long x, int y, int[] v) {
        ins.add(new long[] {op, d, a, b, c, guard(cur), x, y});
        vecs.add(v);
        texts.add(cur.text);
        lines.add(cur.line);
        srcs.add(cur.src);
        int at = ins.size() - 1;
        if (ref && !isDD(op) && writesD(op) && wideD(d)) {
            // a double-double register written by an ordinary binary64 operation: its low part is 0
            ins.add(new long[] {Op.ZERO_LO, d, 0, 0, 0, guard(cur), 0, 0});
            vecs.add(null);
            texts.add(cur.text);
            lines.add(cur.line);
            srcs.add(cur.src);
        }
        return at;
    }

    static boolean writesD(int op) {
        switch (op) {
            case Op.ST:
            case Op.ST_G32:
            case Op.ST_W:
            case Op.ST_DD:
            case Op.BRA:
            case Op.CALL:
            case Op.RET:
            case Op.EXIT:
            case Op.BAR:
            case Op.WARPSYNC:
            case Op.TRAP:
            case Op.NOP:
            case Op.MOV_UNPACK:
            case Op.TEX:
            case Op.FPX:
                return false;
            default:
                return true;
        }
    }

    int dst(String t) {
        return reg(t);
    }

    void pack() {
        int n = ins.size();
        p.n = n;
        p.op = new int[n];
        p.d = new int[n];
        p.a = new int[n];
        p.b = new int[n];
        p.c = new int[n];
        p.g = new int[n];
        p.x = new long[n];
        p.y = new int[n];
        p.v = new int[n][];
        p.text = new String[n];
        p.line = new int[n];
        p.src = new String[n];
        for (int i = 0; i < n; i++) {
            p.src[i] = srcs.get(i);
            long[] e = ins.get(i);
            p.op[i] = (int) e[0];
            p.d[i] = (int) e[1];
            p.a[i] = (int) e[2];
            p.b[i] = (int) e[3];
            p.c[i] = (int) e[4];
            p.g[i] = (int) e[5];
            p.x[i] = e[6];
            p.y[i] = (int) e[7];
            p.v[i] = vecs.get(i);
            p.text[i] = texts.get(i);
            p.line[i] = lines.get(i);
            if (p.op[i] == Op.BAR
                    || p.op[i] == Op.WARPSYNC
                    || p.op[i] == Op.SHFL
                    || p.op[i] == Op.VOTE
                    || p.op[i] == Op.ACTIVEMASK) p.hasSync = true;
        }
        Superinstructions.fuseBranches(p);
        Superinstructions.specialise(p);
        p.nRegs = template.size();
        p.regTemplate = new long[p.nRegs];
        for (int i = 0; i < p.nRegs; i++) p.regTemplate[i] = template.get(i);
        p.callSites = callSites.toArray(new int[0][]);
        p.sharedSize = Math.max(sharedTop, dynamicSharedOffset);
        p.localSize = localTop;
        p.cparamSize = cparamTop;
        p.constSize = constTop;
        p.constInit = java.util.Arrays.copyOf(constInit, constTop);
        p.globalsSize = globalsTop;
        p.globalsInit = java.util.Arrays.copyOf(globalsInit, globalsTop);
        p.exceptions = new long[p.exceptionSites.size()][Program.EXCEPTION_NAMES.size()];
    }
}
