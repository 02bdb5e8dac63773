package dev.numlint.validation.interp;

import dev.numlint.validation.interp.PtxText.Func;
import dev.numlint.validation.interp.PtxText.Insn;
import dev.numlint.validation.interp.PtxText.Label;
import dev.numlint.validation.interp.PtxText.RegDecl;
import dev.numlint.validation.interp.PtxText.Stmt;
import dev.numlint.validation.interp.PtxText.Var;
import dev.numlint.validation.interp.PtxText.VarDecl;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles a kernel (and the .func routines it calls) from {@link PtxText} statements into a {@link Program}:
 * opcodes specialised by type and modifiers, operands as register-file indices (literals and symbol addresses
 * become constant registers), branch targets and call sites resolved.
 *
 * <p>Reference mode (the high-precision run): registers declared .f32 whose bits are never observed by a
 * non-float instruction are "wide" and carry doubles; f32 arithmetic into them is done in binary64, f32 loads
 * and stores go through the memory's double shadow. Registers whose bits are observed (math-library tricks such
 * as the magic-constant rounding in expf) and directed-rounding f32 instructions keep exact f32 semantics.
 *
 * <p>The work is layered by what it decodes: {@link CodeBuilder} (registers, operands, emission, packing and
 * reference mode's register roles), {@link ArithmeticDecoder} (moves, integer and float arithmetic, comparisons,
 * conversions, exception checks), {@link MemoryDecoder} (loads, stores, atomics, calls, warp collectives,
 * textures); this class holds the entry point and options, the PTX-level strictness switches and contractions,
 * the module's memory layout, the functions and the dispatch of each instruction.
 */
public final class Decoder extends MemoryDecoder {
    public static final long GLOBAL_BASE = 1L << 36,
            SHARED_WIN = 1L << 44,
            LOCAL_WIN = 1L << 45,
            CONST_WIN = 1L << 46,
            KPARAM_WIN = 1L << 47;

    /** The kernel uses something the interpreter does not execute; the message names it. */
    /**
     * A kernel that declares more memory than the interpreter runs (the validator's verdict: not runnable, too
     * large). The limits lie above what any GPU gives a kernel, so only a hostile or broken PTX meets them.
     */
    public static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public TooLarge(String msg) {
            super(msg);
        }
    }

    /** Module .global variables, in bytes (the interpreter's global memory is one array). */
    public static final long MAX_GLOBAL_BYTES = 256L << 20;
    /** .const variables (GPUs have 64 KiB of constant memory). */
    public static final long MAX_CONST_BYTES = 1L << 20;
    /** .shared per block, static and dynamic (GPUs have at most 228 KiB). */
    public static final long MAX_SHARED_BYTES = 1L << 20;
    /** .local per thread (the hardware limit is 512 KiB). */
    public static final long MAX_LOCAL_BYTES = 512L << 10;

    /** {@code top} plus the size of {@code v}, or {@link TooLarge} past {@code max} bytes of {@code space}. */
    private static int grow(int top, Var v, long max, String space) {
        long bytes = (long) v.elemSize * Math.max(v.count, 1);
        if (v.elemSize < 0 || v.count < 0 || top + bytes > max) {
            throw new TooLarge("." + space + " variable " + v.name + " brings ." + space + " memory to " + (top + bytes)
                    + " bytes, more than the interpreter's limit of " + max);
        }
        return (int) (top + bytes);
    }

    public static final class Unsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unsupported(String msg) {
            super(msg);
        }
    }

    /**
     * Decode options. reference: the high-precision run; hostConversions: float-to-unsigned (and narrow signed)
     * cvt with x86 semantics. The PTX-level switches stand in for nvcc's when only PTX is available: unfuseFma
     * (fma/mad.rn become mul.rn + add.rn, like -fmad=false; explicit fmaf() is unfused too), exactDiv
     * (div.approx/div.full/rcp.approx become .rn, like -prec-div=true), noFtz (.ftz ignored, like -ftz=false),
     * exactSqrt (sqrt.approx becomes sqrt.rn, like -prec-sqrt=true).
     */
    public static final class Options {
        public boolean reference, hostConversions, unfuseFma, exactDiv, noFtz, exactSqrt;
        /**
         * Count floating-point exceptions per PTX instruction ({@link Program#exceptions}): a check before every
         * f32/f64 arithmetic instruction and float conversion (not with reference).
         */
        public boolean exceptions;

        public Options exceptions(boolean v) {
            exceptions = v;
            return this;
        }

        /**
         * Sets the option a rule's policy names for its PTX rewrite ({@code validation-ptx-options}): {@code contract},
         * {@code unfuse-fma}, {@code exact-div}, {@code exact-sqrt}, {@code no-ftz}.
         */
        public Options option(String name) {
            return switch (name) {
                case "contract" -> contract(true);
                case "unfuse-fma" -> unfuseFma(true);
                case "exact-div" -> exactDiv(true);
                case "exact-sqrt" -> exactSqrt(true);
                case "no-ftz" -> noFtz(true);
                default -> throw new IllegalStateException(
                        "unknown interpreter option '" + name + "' in a rule policy");
            };
        }
        /** Apply ptxas's contractions (the module's {@code contractions}): the program the GPU runs as built. */
        public boolean contract;

        public Options() {}

        public Options reference(boolean v) {
            reference = v;
            return this;
        }

        public Options host(boolean v) {
            hostConversions = v;
            return this;
        }

        public Options unfuseFma(boolean v) {
            unfuseFma = v;
            return this;
        }

        public Options exactDiv(boolean v) {
            exactDiv = v;
            return this;
        }

        public Options noFtz(boolean v) {
            noFtz = v;
            return this;
        }

        public Options exactSqrt(boolean v) {
            exactSqrt = v;
            return this;
        }

        public Options contract(boolean v) {
            contract = v;
            return this;
        }
    }

    public static Program decode(PtxText.Module m, String kernel, boolean reference, boolean hostConversions) {
        return decode(m, kernel, new Options().reference(reference).host(hostConversions));
    }

    public static Program decode(PtxText.Module m, String kernel, Options o) {
        Func k = m.func(kernel);
        if (k == null || k.body == null) throw new Unsupported("no kernel body for " + kernel);
        return new Decoder(m, k, o).run();
    }

    private Decoder(PtxText.Module m, Func k, Options o) {
        super(m, k, o);
    }

    /** The add/sub as ptxas builds it: one fused multiply-add of the mul's operands (negations first). */
    private List<Insn> fused(Insn add, PtxText.Fuse fu) {
        String t = add.has("f64") ? "f64" : "f32";
        List<Insn> out = new ArrayList<>();
        String pa = fu.pa(), other = fu.other();
        if (fu.negateProduct()) {
            String r = "%__ctr" + add.line + "p";
            declare(new PtxText.RegDecl(t, r, -1));
            out.add(synth(add, "neg", List.of(t), List.of(r, pa)));
            pa = r;
        }
        if (fu.negateOther()) {
            String r = "%__ctr" + add.line + "o";
            declare(new PtxText.RegDecl(t, r, -1));
            out.add(synth(add, "neg", List.of(t), List.of(r, other)));
            other = r;
        }
        List<String> mods = new ArrayList<>();
        mods.add("rn");
        if (add.has("ftz")) mods.add("ftz");
        if (add.has("sat")) mods.add("sat");
        mods.add(t);
        out.add(synth(add, "fma", mods, List.of(add.operands.get(0), pa, fu.pb(), other)));
        return out;
    }

    private static Insn synth(Insn like, String opcode, List<String> mods, List<String> operands) {
        Insn c = new Insn();
        c.guard = like.guard;
        c.guardNeg = like.guardNeg;
        c.opcode = opcode;
        c.mods = new ArrayList<>(mods);
        c.operands = new ArrayList<>(operands);
        c.text = like.text + " (contracted by ptxas: " + opcode + "." + String.join(".", mods) + ")";
        c.line = like.line;
        c.src = like.src;
        return c;
    }

    /** Applies the PTX-level strictness switches to a copy of the instruction. */
    private Insn transform(Insn in) {
        boolean f32 = in.mods.contains("f32"), f64 = in.mods.contains("f64");
        List<String> mods = new ArrayList<>(in.mods);
        String op = in.opcode;
        if (opts.noFtz) mods.remove("ftz");
        if (opts.exactDiv
                && f32
                && (op.equals("div") || op.equals("rcp"))
                && (mods.remove("approx") | mods.remove("full"))) {
            mods.add(0, "rn");
        }
        if (opts.exactDiv && f64 && op.equals("rcp") && mods.remove("approx")) {
            mods.remove("ftz");
            mods.add(0, "rn");
        }
        if (opts.exactSqrt && f32 && op.equals("sqrt") && mods.remove("approx")) mods.add(0, "rn");
        if (mods.equals(in.mods)) return in;
        Insn c = new Insn();
        c.guard = in.guard;
        c.guardNeg = in.guardNeg;
        c.opcode = op;
        c.mods = mods;
        c.operands = in.operands;
        c.text = in.text;
        c.line = in.line;
        c.src = in.src;
        return c;
    }

    private static int align(int v, int a) {
        return a <= 1 ? v : (v + a - 1) / a * a;
    }

    private Program run() {
        for (int i = 0; i < Program.N_FIXED; i++) {
            template.add(0L);
            slotF32.add(false);
        }
        // module variables
        for (Var v : mod.vars) {
            switch (v.space == null ? "" : v.space) {
                case "global": {
                    globalsTop = align(globalsTop, Math.max(v.align, 8));
                    int end = grow(globalsTop, v, MAX_GLOBAL_BYTES, "global");
                    moduleSyms.put(v.name, new Sym(Op.SP_GLOBAL, globalsTop, v.bytes()));
                    p.moduleVariables.put(v.name, new int[] {0, globalsTop, v.bytes()});
                    globalsInit = place(globalsInit, globalsTop, v);
                    globalsTop = end;
                    break;
                }
                case "const": {
                    constTop = align(constTop, Math.max(v.align, 8));
                    int end = grow(constTop, v, MAX_CONST_BYTES, "const");
                    moduleSyms.put(v.name, new Sym(Op.SP_CONST, constTop, v.bytes()));
                    p.moduleVariables.put(v.name, new int[] {1, constTop, v.bytes()});
                    constInit = place(constInit, constTop, v);
                    constTop = end;
                    break;
                }
                case "shared": {
                    if (v.count == 0 && v.init == null && isArrayDecl(v)) break; // dynamic: placed below
                    sharedTop = align(sharedTop, Math.max(v.align, 4));
                    int end = grow(sharedTop, v, MAX_SHARED_BYTES, "shared");
                    moduleSyms.put(v.name, new Sym(Op.SP_SHARED, sharedTop, v.bytes()));
                    sharedTop = end;
                    break;
                }
                default:
                    break;
            }
        }
        // kernel parameters
        int off = 0;
        Map<String, Sym> kp = new HashMap<>();
        for (Var v : kernel.params) {
            off = align(off, v.align);
            kp.put(v.name, new Sym(Op.SP_KPARAM, off, v.bytes()));
            p.params.add(new Program.Param(v.name, v.type, off, v.bytes()));
            off += v.bytes();
        }
        p.kparamSize = Math.max(off, 8);
        // reachable functions, recursion check
        List<Func> order = new ArrayList<>();
        reach(kernel, order, new HashSet<>(), new HashSet<>());
        // extern .shared arrays (sized at launch) start after all static shared memory, function-level included
        int top = sharedTop;
        for (Func f : order) {
            for (Stmt st : f.body) {
                if (st instanceof VarDecl && "shared".equals(((VarDecl) st).var.space)) {
                    Var v = ((VarDecl) st).var;
                    top = align(top, Math.max(v.align, 4)) + v.bytes();
                }
            }
        }
        int dynamicAt = align(top, 16);
        for (Var v : mod.vars) {
            if ("shared".equals(v.space) && !moduleSyms.containsKey(v.name))
                moduleSyms.put(v.name, new Sym(Op.SP_SHARED, dynamicAt, 0));
        }
        dynamicSharedOffset = dynamicAt;
        for (Func f : order) {
            if (f != kernel) {
                Map<String, Sym> ps = new HashMap<>();
                for (Var v : f.params) ps.put(v.name, allocCparam(v));
                for (Var v : f.rets) ps.put(v.name, allocCparam(v));
                funcParamSyms.put(f.name, ps);
            }
        }
        funcParamSyms.put(kernel.name, kp);
        for (Func f : order) function(f);
        // resolve calls
        for (Object[] fx : callFixups) {
            int[] site = callSites.get((Integer) fx[0]);
            Integer e = funcEntry.get((String) fx[1]);
            if (e == null) throw new Unsupported("call to " + fx[1] + " without a body");
            site[0] = e;
        }
        pack();
        return p;
    }

    /** A declaration with an empty [] (extern array) rather than a scalar. */
    private static boolean isArrayDecl(Var v) {
        return v.unsized;
    }

    private static byte[] place(byte[] img, int at, Var v) {
        int need = at + v.bytes();
        if (img.length < need) img = java.util.Arrays.copyOf(img, need);
        if (v.init != null) System.arraycopy(v.init, 0, img, at, Math.min(v.init.length, v.bytes()));
        return img;
    }

    private Sym allocCparam(Var v) {
        cparamTop = align(cparamTop, Math.max(v.align, 8));
        Sym s = new Sym(Op.SP_CPARAM, cparamTop, v.bytes());
        cparamTop += Math.max(v.bytes(), 8);
        return s;
    }

    private void reach(Func f, List<Func> order, Set<String> done, Set<String> stack) {
        if (stack.contains(f.name)) throw new Unsupported("recursive call to " + f.name);
        if (!done.add(f.name)) return;
        stack.add(f.name);
        order.add(f);
        for (Stmt s : f.body) {
            if (s instanceof Insn && ((Insn) s).opcode.equals("call")) {
                String callee = calleeName((Insn) s);
                Func g = mod.func(callee);
                if (g == null || g.body == null)
                    throw new Unsupported("call to " + callee + " (no body in this module)");
                reach(g, order, done, stack);
            }
        }
        stack.remove(f.name);
    }

    // ------------------------------------------------------------------ functions

    private void function(Func f) {
        regs = new HashMap<>();
        syms = new HashMap<>(moduleSyms);
        syms.putAll(funcParamSyms.get(f.name));
        labels = new HashMap<>();
        branchFixups = new ArrayList<>();
        funcEntry.put(f.name, ins.size());
        for (Stmt s : f.body) if (s instanceof RegDecl) declare((RegDecl) s);
        narrow = new HashSet<>();
        if (ref) markNarrow(f);
        for (Stmt s : f.body) {
            if (s instanceof Label) labels.put(((Label) s).name, ins.size());
            else if (s instanceof VarDecl) declareVar(((VarDecl) s).var);
            else if (s instanceof Insn
                    && opts.contract
                    && !opts.unfuseFma
                    && mod.contractions.containsKey(((Insn) s).line)) {
                for (Insn x : fused((Insn) s, mod.contractions.get(((Insn) s).line))) {
                    cur = x;
                    insn(cur, f == kernel);
                    ins.addAll(post);
                    for (int i = 0; i < post.size(); i++) {
                        vecs.add(null);
                        texts.add(cur.text);
                        lines.add(cur.line);
                        srcs.add(cur.src);
                    }
                    post.clear();
                }
            } else if (s instanceof Insn) {
                cur = transform((Insn) s);
                try {
                    insn(cur, f == kernel);
                } catch (Unsupported e) {
                    throw new Unsupported(e.getMessage() + " (line " + cur.line + ": " + cur.text + ")");
                } catch (RuntimeException e) {
                    throw new Unsupported("cannot decode '" + cur.text + "' (line " + cur.line + "): " + e);
                }
                ins.addAll(post);
                for (int i = 0; i < post.size(); i++) {
                    vecs.add(null);
                    texts.add(cur.text);
                    lines.add(cur.line);
                    srcs.add(cur.src);
                }
                post.clear();
            }
        }
        // falling off the end returns (a body without instructions has no current one: the return stands alone)
        if (cur == null) cur = endOf();
        emit(Op.RET, 0, 0, 0, 0, 0, 0, null);
        if (f == kernel) ins.get(ins.size() - 1)[0] = Op.EXIT;
        for (Object[] fx : branchFixups) {
            Integer t = labels.get((String) fx[1]);
            if (t == null) throw new Unsupported("branch to unknown label " + fx[1]);
            ins.get((Integer) fx[0])[7] = t;
        }
    }

    private void declare(RegDecl r) {
        if (r.count == -2) {
            for (String n : r.name.split(",")) declareOne(r.type, n.trim());
        } else if (r.count < 0) {
            declareOne(r.type, r.name);
        } else {
            for (int i = 0; i < r.count; i++) declareOne(r.type, r.name + i);
        }
    }

    private void declareOne(String type, String name) {
        regs.put(name, template.size());
        template.add(0L);
        slotF32.add(type.equals("f32"));
        if (type.equals("f64")) f64Slots.add(template.size() - 1);
    }

    private void declareVar(Var v) {
        switch (v.space) {
            case "local":
                localTop = align(localTop, Math.max(v.align, 8));
                int endL = grow(localTop, v, MAX_LOCAL_BYTES, "local");
                syms.put(v.name, new Sym(Op.SP_LOCAL, localTop, v.bytes()));
                localTop = endL;
                break;
            case "shared":
                sharedTop = align(sharedTop, Math.max(v.align, 4));
                int endS = grow(sharedTop, v, MAX_SHARED_BYTES, "shared");
                syms.put(v.name, new Sym(Op.SP_SHARED, sharedTop, v.bytes()));
                sharedTop = endS;
                break;
            case "param":
                syms.put(v.name, allocCparam(v));
                break;
            case "reg":
                throw new Unsupported("register declaration form");
            default:
                throw new Unsupported("." + v.space + " declaration inside a function");
        }
    }

    private void insn(Insn in, boolean inKernel) {
        if (opts.exceptions && !ref) fpx(in);
        List<String> o = in.operands;
        String op = in.opcode;
        switch (op) {
            case "mov":
                mov(in);
                return;
            case "add":
            case "sub":
            case "mul":
            case "mad":
            case "fma":
            case "div":
            case "rem":
            case "neg":
            case "abs":
            case "min":
            case "max":
            case "sqrt":
            case "rcp":
            case "rsqrt":
            case "sin":
            case "cos":
            case "lg2":
            case "ex2":
            case "tanh":
            case "copysign":
            case "mul24":
            case "mad24":
            case "addc":
            case "subc":
            case "madc":
                arith(in);
                return;
            case "and":
            case "or":
            case "xor":
            case "not":
            case "cnot": {
                String t = type(in);
                if (t.equals("pred")) {
                    int opc = op.equals("and")
                            ? Op.AND_PRED
                            : op.equals("or") ? Op.OR_PRED : op.equals("xor") ? Op.XOR_PRED : Op.NOT_PRED;
                    if (op.equals("cnot")) throw new Unsupported("cnot.pred");
                    emit(opc, dst(o.get(0)), src(o.get(1), t), o.size() > 2 ? src(o.get(2), t) : 0, 0, 0, 0, null);
                    return;
                }
                int opc = op.equals("and")
                        ? Op.AND
                        : op.equals("or") ? Op.OR : op.equals("xor") ? Op.XOR : op.equals("not") ? Op.NOT : Op.CNOT;
                emit(
                        opc,
                        dst(o.get(0)),
                        src(o.get(1), t),
                        o.size() > 2 ? src(o.get(2), t) : 0,
                        0,
                        Op.kind(t),
                        Op.kind(t),
                        null);
                return;
            }
            case "shl":
            case "shr": {
                String t = type(in);
                int k = Op.kind(t);
                int opc = op.equals("shl") ? Op.SHL : Op.signed(k) ? Op.SHR_S : Op.SHR_U;
                emit(opc, dst(o.get(0)), src(o.get(1), t), src(o.get(2), "u32"), 0, 0, Op.width(k), null);
                return;
            }
            case "popc":
            case "clz":
            case "brev": {
                String t = type(in);
                int opc = op.equals("popc") ? Op.POPC : op.equals("clz") ? Op.CLZ : Op.BREV;
                emit(opc, dst(o.get(0)), src(o.get(1), t), 0, 0, 0, Op.width(Op.kind(t)), null);
                return;
            }
            case "bfind": {
                String t = type(in);
                emit(Op.BFIND, dst(o.get(0)), src(o.get(1), t), 0, 0, in.has("shiftamt") ? 1 : 0, Op.kind(t), null);
                return;
            }
            case "bfe": {
                String t = type(in);
                emit(
                        Op.BFE,
                        dst(o.get(0)),
                        src(o.get(1), t),
                        src(o.get(2), "u32"),
                        src(o.get(3), "u32"),
                        0,
                        Op.kind(t),
                        null);
                return;
            }
            case "bfi": {
                String t = type(in);
                emit(
                        Op.BFI,
                        dst(o.get(0)),
                        src(o.get(1), t),
                        src(o.get(2), t),
                        src(o.get(3), "u32"),
                        0,
                        Op.width(Op.kind(t)),
                        new int[] {src(o.get(4), "u32")});
                return;
            }
            case "prmt": {
                if (in.mods.size() > 1) throw new Unsupported("prmt mode ." + in.mods.get(1));
                emit(
                        Op.PRMT,
                        dst(o.get(0)),
                        src(o.get(1), "b32"),
                        src(o.get(2), "b32"),
                        src(o.get(3), "b32"),
                        0,
                        0,
                        null);
                return;
            }
            case "lop3": {
                emit(
                        Op.LOP3,
                        dst(o.get(0)),
                        src(o.get(1), "b32"),
                        src(o.get(2), "b32"),
                        src(o.get(3), "b32"),
                        Operands.literalBits(o.get(4), "b32"),
                        0,
                        null);
                return;
            }
            case "setp":
                setp(in);
                return;
            case "set":
                throw new Unsupported("set (use setp)");
            case "selp": {
                String t = type(in);
                if (t.equals("f32") && ref) {
                    int d = dst(o.get(0));
                    if (wide(d)) {
                        emit(Op.SELP, d, srcWide(o.get(1)), srcWide(o.get(2)), reg(o.get(3)), 0, 0, null);
                        return;
                    }
                    emit(Op.SELP, d, srcNarrow(o.get(1)), srcNarrow(o.get(2)), reg(o.get(3)), 0, 0, null);
                    return;
                }
                if (t.equals("f64") && ref && wideD(reg(o.get(0)))) {
                    emit(Op.SELP_DD, reg(o.get(0)), src(o.get(1), t), src(o.get(2), t), reg(o.get(3)), 0, 0, null);
                    return;
                }
                emit(Op.SELP, dst(o.get(0)), src(o.get(1), t), src(o.get(2), t), reg(o.get(3)), 0, 0, null);
                return;
            }
            case "slct": {
                List<String> ts = types(in);
                String t = ts.get(0), ct = ts.get(1);
                if (ref && (t.equals("f32") || ct.equals("f32"))) throw new Unsupported("slct.f32 in reference mode");
                emit(
                        Op.SLCT,
                        dst(o.get(0)),
                        src(o.get(1), t),
                        src(o.get(2), t),
                        src(o.get(3), ct),
                        in.has("ftz") ? 1 : 0,
                        Op.kind(ct),
                        null);
                return;
            }
            case "testp": {
                String t = type(in);
                String kind = in.mods.get(0);
                int code = List.of("finite", "infinite", "number", "notanumber", "normal", "subnormal")
                        .indexOf(kind);
                if (code < 0) throw new Unsupported("testp." + kind);
                if (t.equals("f32") && !ref) emit(Op.TESTP_F32, dst(o.get(0)), src(o.get(1), t), 0, 0, code, 0, null);
                else if (t.equals("f32")) emit(Op.TESTP_F64, dst(o.get(0)), srcWide(o.get(1)), 0, 0, code, 1, null);
                else emit(Op.TESTP_F64, dst(o.get(0)), src(o.get(1), t), 0, 0, code, 0, null);
                return;
            }
            case "cvt":
                cvt(in);
                return;
            case "cvta": {
                String t = type(in);
                boolean to = in.has("to");
                long win;
                if (in.has("global")) win = 0;
                else if (in.has("shared")) win = SHARED_WIN;
                else if (in.has("local")) win = LOCAL_WIN;
                else if (in.has("const")) win = CONST_WIN;
                else if (in.has("param")) win = KPARAM_WIN;
                else throw new Unsupported("cvta space");
                int a = src(o.get(1), t);
                if (win == 0) emit(Op.MOV, dst(o.get(0)), a, 0, 0, 0, 0, null);
                else emit(Op.ADD_I, dst(o.get(0)), a, constant(to ? -win : win), 0, 0, 0, null);
                return;
            }
            case "ld":
            case "ldu":
                ldst(in, true);
                return;
            case "st":
                ldst(in, false);
                return;
            case "atom":
            case "red":
                atom(in);
                return;
            case "bra": {
                int i = emit(Op.BRA, 0, 0, 0, 0, 0, 0, null);
                branchFixups.add(new Object[] {i, o.get(0).trim()});
                return;
            }
            case "call":
                call(in);
                return;
            case "ret":
                emit(inKernel ? Op.EXIT : Op.RET, 0, 0, 0, 0, 0, 0, null);
                return;
            case "exit":
                emit(Op.EXIT, 0, 0, 0, 0, 0, 0, null);
                return;
            case "bar":
            case "barrier": {
                if (in.has("warp")) {
                    emit(Op.WARPSYNC, 0, 0, 0, 0, 0, 0, null);
                    return;
                }
                if (in.has("arrive") || in.has("red")) throw new Unsupported(op + "." + String.join(".", in.mods));
                if (o.size() > 1) throw new Unsupported("bar with a thread count");
                emit(Op.BAR, 0, 0, 0, 0, 0, 0, null);
                return;
            }
            case "membar":
            case "fence":
            case "prefetch":
            case "prefetchu":
            case "nanosleep":
            case "pmevent":
            case "discard":
                return;
            case "shfl":
                shfl(in);
                return;
            case "vote":
                vote(in);
                return;
            case "activemask":
                emit(Op.ACTIVEMASK, dst(o.get(0)), 0, 0, 0, 0, 0, null);
                return;
            case "trap":
                emit(Op.TRAP, 0, 0, 0, 0, 0, 0, null);
                return;
            case "tex":
                tex(in);
                return;
            case "tld4":
            case "txq":
            case "suld":
            case "sust":
            case "sured":
            case "suq":
                throw new Unsupported("texture/surface access " + op + "." + String.join(".", in.mods)
                        + ": the texture's array, addressing and filter mode are set by host code (cudaBindTexture*,"
                        + " cudaCreateTextureObject) that validation does not read yet; not executed");
            default:
                throw new Unsupported("instruction " + op + (in.mods.isEmpty() ? "" : "." + String.join(".", in.mods)));
        }
    }
}
