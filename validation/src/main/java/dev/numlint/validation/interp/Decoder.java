package dev.numlint.validation.interp;

import dev.numlint.validation.fp.Rounding;
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
 */
public final class Decoder {
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

    private static final class Sym {
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

    private final PtxText.Module mod;
    private final Func kernel;
    private final Program p;
    private final boolean ref, host;
    private final List<long[]> ins = new ArrayList<>(); // op,d,a,b,c,g,x,y
    private final List<int[]> vecs = new ArrayList<>();
    private final List<String> texts = new ArrayList<>();
    private final List<Integer> lines = new ArrayList<>();
    private final List<String> srcs = new ArrayList<>();
    private final List<Long> template = new ArrayList<>();
    private final List<Boolean> slotF32 = new ArrayList<>();
    private final Set<Integer> f64Slots = new HashSet<>();
    private final Map<String, Integer> consts = new HashMap<>();
    private final Map<String, Sym> moduleSyms = new HashMap<>();
    private final Map<String, Integer> funcEntry = new HashMap<>();
    private final List<Object[]> callFixups = new ArrayList<>(); // {siteIndex, funcName}
    private final List<int[]> callSites = new ArrayList<>();
    private final Map<String, Map<String, Sym>> funcParamSyms = new HashMap<>();
    private int sharedTop, localTop, cparamTop, constTop, globalsTop, dynamicSharedOffset;
    private byte[] constInit = new byte[0], globalsInit = new byte[0];

    // per-function state
    private Map<String, Integer> regs;
    private Map<String, Sym> syms;
    private Map<String, Integer> labels;
    private List<Object[]> branchFixups; // {insnIndex, label}
    private Set<Integer> narrow; // reference mode: f32 slots whose bits are observed
    private Insn cur;
    private final List<long[]> post = new ArrayList<>();

    private final Options opts;

    private Decoder(PtxText.Module m, Func k, Options o) {
        this.mod = m;
        this.kernel = k;
        this.opts = o;
        this.ref = o.reference;
        this.host = o.hostConversions;
        this.p = new Program(k.name, o.reference);
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

    private static String calleeName(Insn in) {
        for (String o : in.operands) {
            String t = o.trim();
            if (!t.startsWith("(") && !t.isEmpty()) {
                if (t.startsWith("%")) throw new Unsupported("indirect call: " + in.text);
                return t;
            }
        }
        throw new Unsupported("cannot read call: " + in.text);
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

    // ------------------------------------------------------------------ reference-mode roles

    private static final Set<String> F32_OPS = Set.of(
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
    private static boolean f32Role(Insn in, int i) {
        return floatRole(in, i, "f32");
    }

    /** Whether operand i is read or written as a value of the float type ft (f32 or f64), not as bits. */
    private static boolean floatRole(Insn in, int i, String ft) {
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

    private void markNarrow(Func f) {
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

    private static List<String> regNames(String operand) {
        List<String> r = new ArrayList<>();
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("%[A-Za-z_$][A-Za-z0-9_$]*").matcher(operand);
        while (m.find()) r.add(m.group());
        return r;
    }

    private boolean wide(int slot) {
        return ref && slot < slotF32.size() && slotF32.get(slot) && !narrow.contains(slot);
    }

    /** Reference mode: an f64 register carried as a double-double (its low part in the thread's L array). */
    private boolean wideD(int slot) {
        return ref && f64Slots.contains(slot) && !narrow.contains(slot);
    }

    private static boolean isDD(int op) {
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

    private static String type(Insn in) {
        List<String> t = types(in);
        if (t.isEmpty()) throw new Unsupported("instruction without a type");
        return t.get(t.size() - 1);
    }

    private int reg(String name) {
        String n = name.trim();
        Integer s = regs.get(n);
        if (s != null) return s;
        Integer sp = special(n);
        if (sp != null) return sp;
        throw new Unsupported("unknown register " + n);
    }

    private static Integer special(String n) {
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

    private int constant(long bits) {
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

    private int scratch() {
        template.add(0L);
        slotF32.add(false);
        return template.size() - 1;
    }

    private boolean isReg(String t) {
        t = t.trim();
        return t.startsWith("%");
    }

    /** A source operand as raw bits for an instruction of the given type. */
    private int src(String t, String type) {
        t = t.trim();
        if (t.equals("WARP_SZ")) return constant(32);
        if (isReg(t)) return reg(t);
        if (Operands.isLiteral(t)) return constant(Operands.literalBits(t, type));
        Sym s = symbol(t);
        if (s != null) return constant(s.address(false) + symOffset(t));
        throw new Unsupported("operand " + t);
    }

    /** Reference mode: an f32 source as a double slot. */
    private int srcWide(String t) {
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
    private int srcNarrow(String t) {
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

    private void emitPost(boolean after, int op, int d, int a) {
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

    private Sym symbol(String t) {
        String n = t;
        int plus = n.indexOf('+');
        if (plus > 0) n = n.substring(0, plus).trim();
        return syms.get(n);
    }

    private static long symOffset(String t) {
        int plus = t.indexOf('+');
        return plus > 0 ? Long.parseLong(t.substring(plus + 1).trim()) : 0;
    }

    /** [base+off] → {baseSlot, offset}; space-relative symbol addresses unless generic. */
    private long[] address(String t, int space) {
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
    private static Insn endOf() {
        Insn c = new Insn();
        c.opcode = "ret";
        c.mods = new ArrayList<>();
        c.operands = new ArrayList<>();
        c.text = "(end of an empty body)";
        return c;
    }

    private int guard(Insn in) {
        if (in == null || in.guard == null) return 0;
        int r = reg(in.guard);
        return in.guardNeg ? -(r + 1) : r + 1;
    }

    private int emit(int op, int d, int a, int b, int c, long x, int y, int[] v) {
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

    private static boolean writesD(int op) {
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

    private int dst(String t) {
        return reg(t);
    }

    private void pack() {
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

    // ------------------------------------------------------------------ instructions

    private static int fmode(Insn in, Rounding def) {
        Rounding r = def;
        for (String m : in.mods) {
            if (m.equals("rn") || m.equals("rz") || m.equals("rm") || m.equals("rp")) r = Rounding.fromPtx(m);
        }
        return r.ordinal() | (in.has("ftz") ? 4 : 0) | (in.has("sat") ? 8 : 0);
    }

    private static boolean hasRounding(Insn in) {
        return in.has("rn") || in.has("rz") || in.has("rm") || in.has("rp");
    }

    private static final Map<String, Integer> F_BIN = Map.of("add", Op.G_ADD, "sub", Op.G_SUB, "mul", Op.G_MUL);

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

    private void mov(Insn in) {
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

    private void arith(Insn in) {
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

    private static int approxCode(String op) {
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

    private void f32(Insn in) {
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
    private void f32Wide(Insn in, int d) {
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

    private void f64(Insn in) {
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

    private static final List<String> CMP = List.of(
            "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num",
            "nan");

    private void setp(Insn in) {
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

    private void cvt(Insn in) {
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

    private int space(Insn in) {
        if (in.has("global")) return Op.SP_GLOBAL;
        if (in.has("shared")) return Op.SP_SHARED;
        if (in.has("local")) return Op.SP_LOCAL;
        if (in.has("const")) return Op.SP_CONST;
        if (in.has("param")) return -1; // resolved by symbol
        return Op.SP_GENERIC;
    }

    private void ldst(Insn in, boolean load) {
        List<String> o = in.operands;
        String t = type(in);
        int vec = in.has("v2") ? 2 : in.has("v4") ? 4 : in.has("v8") ? 8 : 1;
        int size = Types.size(t);
        if (size > 8) throw new Unsupported((load ? "ld" : "st") + " ." + t);
        int sp = space(in);
        String addrOp = load ? o.get(1) : o.get(0);
        String valOp = load ? o.get(0) : o.get(1);
        if (sp == -1) {
            String inner =
                    addrOp.trim().substring(1, addrOp.trim().length() - 1).trim();
            String base = inner.split("\\+")[0].trim();
            Sym s = syms.get(base);
            if (s == null) {
                if (base.startsWith("%")) sp = Op.SP_KPARAM; // address of a kernel parameter in a register
                else throw new Unsupported("unknown parameter " + base);
            } else sp = s.space;
        }
        long[] ad = address(addrOp, sp);
        int[] regsList;
        String vo = valOp.trim();
        if (vo.startsWith("{")) {
            String[] parts = vo.substring(1, vo.length() - 1).split(",");
            regsList = new int[parts.length];
            for (int i = 0; i < parts.length; i++) {
                String pt = parts[i].trim();
                regsList[i] = pt.equals("_") ? -1 : load ? reg(pt) : src(pt, t);
            }
        } else {
            regsList = new int[] {load ? reg(vo) : (t.equals("f32") && ref ? -2 : src(vo, t))};
        }
        boolean f32 = t.equals("f32");
        if (ref && f32 && (sp == Op.SP_GLOBAL || sp == Op.SP_SHARED || sp == Op.SP_LOCAL || sp == Op.SP_GENERIC)) {
            // element-wise through the double shadow for wide registers
            for (int i = 0; i < regsList.length; i++) {
                String pt = vo.startsWith("{")
                        ? vo.substring(1, vo.length() - 1).split(",")[i].trim()
                        : vo;
                if (pt.equals("_")) continue;
                if (load) {
                    int r = reg(pt);
                    emit(wide(r) ? Op.LD_W : Op.LD, r, (int) ad[0], 0, sp, ad[1] + 4L * i, 4, null);
                } else {
                    boolean isR = isReg(pt);
                    int r = isR ? reg(pt) : src(pt, t);
                    emit(isR && wide(r) ? Op.ST_W : Op.ST, 0, (int) ad[0], r, sp, ad[1] + 4L * i, 4, null);
                }
            }
            return;
        }
        if (regsList.length == 1 && regsList[0] == -2) regsList[0] = src(vo, t);
        int[] widenAfter = null; // reference mode, param/const space: f32 bits in and out of wide registers
        if (ref && f32) {
            String[] parts =
                    vo.startsWith("{") ? vo.substring(1, vo.length() - 1).split(",") : new String[] {vo};
            for (int i = 0; i < regsList.length; i++) {
                String pt = parts[i].trim();
                if (regsList[i] < 0 || !isReg(pt)) continue;
                if (!load) regsList[i] = srcNarrow(pt);
                else if (wide(regsList[i])) {
                    if (widenAfter == null) widenAfter = regsList.clone();
                    regsList[i] = scratch();
                }
            }
        }
        if (ref
                && t.equals("f64")
                && vec == 1
                && isReg(vo)
                && wideD(reg(vo))
                && (sp == Op.SP_GLOBAL || sp == Op.SP_SHARED || sp == Op.SP_LOCAL || sp == Op.SP_GENERIC)) {
            if (load) emit(Op.LD_DD, reg(vo), (int) ad[0], 0, sp, ad[1], 8, null);
            else emit(Op.ST_DD, 0, (int) ad[0], reg(vo), sp, ad[1], 8, null);
            return;
        }
        boolean signed = Types.isSigned(t);
        int y = size | (signed ? 16 : 0);
        if (vec == 1 && regsList.length == 1) {
            if (load)
                emit(
                        sp == Op.SP_GLOBAL && size == 4 ? Op.LD_G32 : Op.LD,
                        regsList[0],
                        (int) ad[0],
                        0,
                        sp,
                        ad[1],
                        y,
                        null);
            else
                emit(
                        sp == Op.SP_GLOBAL && size == 4 ? Op.ST_G32 : Op.ST,
                        0,
                        (int) ad[0],
                        regsList[0],
                        sp,
                        ad[1],
                        y,
                        null);
        } else {
            for (int i = 0; i < regsList.length; i++) {
                if (regsList[i] < 0) continue;
                if (load) emit(Op.LD, regsList[i], (int) ad[0], 0, sp, ad[1] + (long) size * i, y, null);
                else emit(Op.ST, 0, (int) ad[0], regsList[i], sp, ad[1] + (long) size * i, y, null);
            }
        }
        if (widenAfter != null)
            for (int i = 0; i < regsList.length; i++)
                if (regsList[i] >= 0 && regsList[i] != widenAfter[i])
                    emitPost(false, Op.WIDEN, widenAfter[i], regsList[i]);
    }

    private static final List<String> ATOMS =
            List.of("add", "min", "max", "inc", "dec", "exch", "cas", "and", "or", "xor");

    private void atom(Insn in) {
        List<String> o = in.operands;
        String t = type(in);
        boolean red = in.opcode.equals("red");
        int aop = -1;
        for (String m : in.mods) if (ATOMS.contains(m)) aop = ATOMS.indexOf(m);
        if (aop < 0) throw new Unsupported(in.opcode + "." + String.join(".", in.mods));
        int sp = space(in);
        if (sp < 0) throw new Unsupported("atom on param space");
        int k = Op.kind(t);
        if (k == Op.K_F16) throw new Unsupported("atom .f16");
        int d = red ? -1 : reg(o.get(0));
        int base = red ? 0 : 1;
        long[] ad = address(o.get(base), sp);
        String ft = t.equals("f32") ? "f32" : t;
        int b = t.equals("f32") ? srcNarrow(o.get(base + 1)) : src(o.get(base + 1), ft);
        int c = aop == 6 ? (t.equals("f32") ? srcNarrow(o.get(base + 2)) : src(o.get(base + 2), t)) : 0;
        int tmp = d;
        if (d >= 0 && wide(d)) tmp = scratch();
        emit(Op.ATOM, tmp, (int) ad[0], b, c, ad[1], sp | (aop << 4) | (k << 12), null);
        if (tmp != d) emitPost(false, Op.WIDEN, d, tmp);
    }

    private void call(Insn in) {
        List<String> o = in.operands;
        String callee = calleeName(in);
        List<String> rets = new ArrayList<>(), args = new ArrayList<>();
        boolean seenName = false;
        for (String s : o) {
            String t = s.trim();
            if (t.startsWith("(")) {
                List<String> into = seenName ? args : rets;
                for (String x : t.substring(1, t.length() - 1).split(","))
                    if (!x.trim().isEmpty()) into.add(x.trim());
            } else if (t.equals(callee)) seenName = true;
        }
        Func f = mod.func(callee);
        Map<String, Sym> ps = funcParamSyms.get(callee);
        if (f.params.size() != args.size() || f.rets.size() != rets.size())
            throw new Unsupported("call argument count for " + callee);
        int[] site = new int[2 + 3 * args.size() + 1 + 3 * rets.size()];
        int i = 1;
        site[i++] = args.size();
        for (int j = 0; j < args.size(); j++) {
            Sym from = syms.get(args.get(j));
            if (from == null) throw new Unsupported("call argument " + args.get(j));
            Sym to = ps.get(f.params.get(j).name);
            site[i++] = (int) from.offset;
            site[i++] = (int) to.offset;
            site[i++] = Math.min(from.size, to.size);
        }
        site[i++] = rets.size();
        for (int j = 0; j < rets.size(); j++) {
            Sym to = syms.get(rets.get(j));
            if (to == null) throw new Unsupported("call result " + rets.get(j));
            Sym from = ps.get(f.rets.get(j).name);
            site[i++] = (int) from.offset;
            site[i++] = (int) to.offset;
            site[i++] = Math.min(from.size, to.size);
        }
        callSites.add(site);
        callFixups.add(new Object[] {callSites.size() - 1, callee});
        emit(Op.CALL, 0, 0, 0, 0, 0, callSites.size() - 1, null);
    }

    private void shfl(Insn in) {
        List<String> o = in.operands;
        String mode = null;
        for (String m : in.mods)
            if (m.equals("up") || m.equals("down") || m.equals("bfly") || m.equals("idx")) mode = m;
        if (mode == null) throw new Unsupported("shfl mode");
        String dd = o.get(0).trim();
        int d, pq = -1;
        if (dd.contains("|")) {
            String[] two = dd.split("\\|");
            d = reg(two[0]);
            pq = reg(two[1]);
        } else d = reg(dd);
        int modeCode = List.of("up", "down", "bfly", "idx").indexOf(mode);
        int[] v = {src(o.get(3), "b32"), pq, o.size() > 4 ? src(o.get(4), "b32") : constant(-1)};
        emit(Op.SHFL, d, src(o.get(1), "b32"), src(o.get(2), "b32"), 0, modeCode, 0, v);
    }

    private static final java.util.regex.Pattern TEX_OPERANDS = java.util.regex.Pattern.compile(
            "^\\{([^}]*)\\}\\s*,\\s*\\[\\s*([^,\\s]+)\\s*,\\s*\\[?\\s*\\{([^}]*)\\}\\s*\\]?\\s*\\]$");
    static final List<String> TEX_GEOMETRIES = List.of("1d", "2d", "3d", "a1d", "a2d");

    /**
     * tex.{1d,2d,3d,a1d,a2d}.v4.{f32,s32,u32}.{f32,s32} of a texture object (its 64-bit handle in a register): the
     * sample of {@link Texture}; v holds the four destinations then the four coordinates (-1 where absent).
     */
    private void tex(Insn in) {
        for (String m : in.mods)
            if (m.equals("level")
                    || m.equals("grad")
                    || m.equals("base")
                    || m.equals("cube")
                    || m.equals("acube")
                    || m.equals("2dms")
                    || m.equals("a2dms"))
                throw new Unsupported("texture access tex." + String.join(".", in.mods) + " (only tex.1d/2d/3d and"
                        + " the layered a1d/a2d forms without level, gradient or depth compare)");
        String geom = null;
        for (String m : in.mods) if (TEX_GEOMETRIES.contains(m)) geom = m;
        List<String> ts = types(in);
        if (geom == null || !in.has("v4") || ts.size() != 2)
            throw new Unsupported("texture access tex." + String.join(".", in.mods));
        String dt = ts.get(0), ct = ts.get(1);
        if (!List.of("f32", "s32", "u32").contains(dt) || !List.of("f32", "s32").contains(ct))
            throw new Unsupported("texture access tex." + String.join(".", in.mods));
        java.util.regex.Matcher mt =
                TEX_OPERANDS.matcher(String.join(", ", in.operands).trim());
        if (!mt.matches()) throw new Unsupported("texture access with operands " + in.operands);
        String handle = mt.group(2);
        if (!isReg(handle))
            throw new Unsupported("texture reference " + handle + " (a .texref bound by host code; texture objects are"
                    + " read from recordings)");
        String[] ds = mt.group(1).split(","), cs = mt.group(3).split(",");
        int[] v = new int[8];
        java.util.Arrays.fill(v, -1);
        List<int[]> widen = new ArrayList<>();
        for (int k = 0; k < 4 && k < ds.length; k++) {
            String r = ds[k].trim();
            if (r.equals("_") || r.isEmpty()) continue;
            int d = reg(r);
            if (dt.equals("f32") && wide(d)) {
                int tmp = scratch();
                widen.add(new int[] {d, tmp});
                d = tmp;
            }
            v[k] = d;
        }
        for (int k = 0; k < 4 && k < cs.length; k++) {
            String c = cs[k].trim();
            if (c.equals("_") || c.isEmpty()) continue;
            boolean layerIndex = geom.startsWith("a") && k == 0;
            v[4 + k] = !layerIndex && ct.equals("f32") ? srcNarrow(c) : src(c, "b32");
        }
        long x = TEX_GEOMETRIES.indexOf(geom) | (dt.equals("f32") ? 16 : 0) | (ct.equals("f32") ? 32 : 0);
        emit(Op.TEX, 0, reg(handle), 0, 0, x, 0, v);
        for (int[] w : widen) emitPost(false, Op.WIDEN, w[0], w[1]);
    }

    private static final List<String> FPX_OPS =
            List.of("add", "sub", "mul", "fma", "div", "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh");

    /**
     * Before an f32/f64 arithmetic instruction or a conversion from a float, a check of its operands ({@link
     * Op#FPX}, nothing written): x holds the operation (FPX_OPS index, 13 float-to-integer cvt, 14 float-to-float
     * cvt), 256 for f64 sources, 512 for .ftz, the destination kind above bit 16; y the instruction's site.
     */
    private void fpx(Insn in) {
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

    private void vote(Insn in) {
        List<String> o = in.operands;
        String mode = null;
        for (String m : in.mods)
            if (m.equals("all") || m.equals("any") || m.equals("uni") || m.equals("ballot")) mode = m;
        if (mode == null) throw new Unsupported("vote mode");
        int code = List.of("all", "any", "uni", "ballot").indexOf(mode);
        String s = o.get(1).trim();
        boolean neg = s.startsWith("!");
        int a = reg(neg ? s.substring(1) : s);
        emit(Op.VOTE, reg(o.get(0)), a, 0, 0, code | (neg ? 8 : 0), 0, null);
    }
}
