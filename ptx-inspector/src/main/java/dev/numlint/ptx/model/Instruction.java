package dev.numlint.ptx.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One PTX instruction, e.g. {@code @!%p1 cvt.rzi.u32.f32 %r38, %f1;}. Modifiers are kept in order without dots
 * ({@code [rzi, u32, f32]}) and decoded into rounding, .ftz/.sat/.approx/.full, multiply mode, comparison,
 * state space, vector width and the type list.
 */
public final class Instruction {
    /** Rounding modifiers (float rounding .rn/.rz/.rm/.rp, integer rounding .rni/.rzi/.rmi/.rpi, and .rna/.rs). */
    public enum Rounding {
        RN,
        RZ,
        RM,
        RP,
        RNA,
        RS,
        RNI,
        RZI,
        RMI,
        RPI;

        public boolean isInteger() {
            return this == RNI || this == RZI || this == RMI || this == RPI;
        }
    }

    private static final Set<String> TYPES = Set.of(
            "f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "tf32", "e4m3", "e5m2", "e4m3x2", "e5m2x2", "e2m1",
            "e2m1x2", "e3m2", "e2m3", "ue8m0", "s4", "u4", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "b1",
            "b4", "b8", "b16", "b32", "b64", "b128", "pred", "f32x2");
    private static final Set<String> COMPARE = Set.of(
            "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num",
            "nan");
    private static final Set<String> SPACES = Set.of("global", "shared", "local", "const", "param", "tex", "generic");
    /** Opcodes whose first operand is not a destination. */
    private static final Set<String> NO_DEST = Set.of(
            "st",
            "red",
            "bra",
            "brx",
            "ret",
            "exit",
            "bar",
            "barrier",
            "membar",
            "fence",
            "prefetch",
            "prefetchu",
            "trap",
            "brkpt",
            "call",
            "stmatrix",
            "cp",
            "pmevent",
            "nanosleep",
            "griddepcontrol",
            "setmaxnreg",
            "sust",
            "sured",
            "cp.async",
            "discard",
            "applypriority",
            "multimem",
            "wgmma",
            "tcgen05",
            "cvta.to",
            "mbarrier",
            "bar.warp",
            "elect",
            "stackrestore",
            "st.async",
            "red.async",
            "createpolicy.fractional");

    int index;
    final int ptxLine;
    final int startOffset;
    final int endOffset;
    final Operand.Reg guard;
    final boolean guardNegated;
    final String opcode;
    final List<String> modifiers;
    List<Operand> operands;
    final Rounding rounding;
    final boolean ftz;
    final boolean sat;
    final boolean approx;
    final boolean full;
    final String mulMode;
    final String compare;
    final String space;
    final int vectorWidth;
    final List<String> types;
    DebugLoc loc;
    int block = -1;
    final String text;

    public Instruction(
            int ptxLine,
            int startOffset,
            int endOffset,
            Operand.Reg guard,
            boolean guardNegated,
            String opcode,
            List<String> modifiers,
            List<Operand> operands,
            String text) {
        this.text = text;
        this.ptxLine = ptxLine;
        this.startOffset = startOffset;
        this.endOffset = endOffset;
        this.guard = guard;
        this.guardNegated = guardNegated;
        this.opcode = opcode;
        this.modifiers = modifiers;
        this.operands = operands;
        Rounding r = null;
        boolean f = false, s = false, a = false, fu = false;
        String mm = null, cmp = null, sp = null;
        int vw = 1;
        List<String> ty = null;
        for (String m : modifiers) {
            switch (m) {
                case "rn" -> r = Rounding.RN;
                case "rz" -> r = Rounding.RZ;
                case "rm" -> r = Rounding.RM;
                case "rp" -> r = Rounding.RP;
                case "rna" -> r = Rounding.RNA;
                case "rs" -> r = Rounding.RS;
                case "rni" -> r = Rounding.RNI;
                case "rzi" -> r = Rounding.RZI;
                case "rmi" -> r = Rounding.RMI;
                case "rpi" -> r = Rounding.RPI;
                case "ftz" -> f = true;
                case "sat", "satfinite" -> s = true;
                case "approx" -> a = true;
                case "full" -> fu = true;
                case "wide", "hi", "lo" -> {
                    if (cmp == null && (m.equals("wide") || isMulLike(opcode))) mm = m;
                    else if (cmp == null) cmp = m;
                }
                case "v2" -> vw = 2;
                case "v4" -> vw = 4;
                case "v8" -> vw = 8;
                default -> {
                    if (TYPES.contains(m)) {
                        if (ty == null) ty = new ArrayList<>(2);
                        ty.add(m);
                    } else if (COMPARE.contains(m)
                            && cmp == null
                            && (opcode.equals("setp")
                                    || opcode.equals("set")
                                    || opcode.equals("slct")
                                    || opcode.equals("fset"))) {
                        cmp = m;
                    } else {
                        int c = m.indexOf("::");
                        String base = c < 0 ? m : m.substring(0, c);
                        if (sp == null && SPACES.contains(base)) sp = m;
                    }
                }
            }
        }
        this.rounding = r;
        this.ftz = f;
        this.sat = s;
        this.approx = a;
        this.full = fu;
        this.mulMode = mm;
        this.compare = cmp;
        this.space = sp;
        this.vectorWidth = vw;
        this.types = ty == null ? List.of() : List.copyOf(ty);
    }

    private static boolean isMulLike(String op) {
        return op.equals("mul") || op.equals("mad") || op.equals("mul24") || op.equals("mad24") || op.equals("madc");
    }

    /** Index within the function's instruction list. */
    public int index() {
        return index;
    }
    /** 1-based line in the PTX text. */
    public int ptxLine() {
        return ptxLine;
    }
    /** Character offsets of the instruction in the PTX text (start inclusive, end exclusive). */
    public int startOffset() {
        return startOffset;
    }

    public int endOffset() {
        return endOffset;
    }
    /** Guard predicate register, or null when unguarded. */
    public Operand.Reg guard() {
        return guard;
    }

    public boolean guardNegated() {
        return guardNegated;
    }

    public String opcode() {
        return opcode;
    }
    /** Modifiers in order, without dots, e.g. [rn, ftz, f32]. */
    public List<String> modifiers() {
        return modifiers;
    }

    public boolean has(String modifier) {
        return modifiers.contains(modifier);
    }

    public List<Operand> operands() {
        return operands;
    }

    public Operand operand(int i) {
        return i < operands.size() ? operands.get(i) : null;
    }

    public Rounding rounding() {
        return rounding;
    }

    public boolean ftz() {
        return ftz;
    }

    public boolean sat() {
        return sat;
    }

    public boolean approx() {
        return approx;
    }

    public boolean full() {
        return full;
    }
    /** "wide", "hi", "lo" or null. */
    public String mulMode() {
        return mulMode;
    }
    /** Comparison operator of setp/set/slct (eq, lt, geu ...) or null. */
    public String compare() {
        return compare;
    }
    /** State space modifier (global, shared::cta, param ...) or null. */
    public String space() {
        return space;
    }
    /** 1, 2, 4 or 8. */
    public int vectorWidth() {
        return vectorWidth;
    }
    /** Type modifiers in order: cvt.rzi.u32.f32 gives [u32, f32] (destination type first). */
    public List<String> types() {
        return types;
    }
    /** The first type (destination type), or null. */
    public String type() {
        return types.isEmpty() ? null : types.get(0);
    }
    /** The last type (source type of cvt), or null. */
    public String sourceType() {
        return types.isEmpty() ? null : types.get(types.size() - 1);
    }

    public boolean isFloat() {
        String t = type();
        return t != null && (t.equals("f32") || t.equals("f64") || t.startsWith("f16") || t.startsWith("bf16"));
    }
    /** Debug location from the preceding .loc, or null. */
    public DebugLoc loc() {
        return loc;
    }
    /** Index of the basic block containing this instruction. */
    public int block() {
        return block;
    }

    private List<String> defsCache;
    private List<String> usesCache;
    private int hasDest = -1;

    /** Whether the first operand is written (a destination). */
    public boolean hasDestination() {
        int h = hasDest;
        if (h < 0) hasDest = h = computeHasDestination() ? 1 : 0;
        return h == 1;
    }

    private boolean computeHasDestination() {
        if (operands.isEmpty()) return false;
        if (NO_DEST.contains(opcode)) return false;
        if (opcode.equals("wmma") && has("store")) return false;
        if (opcode.equals("mbarrier") || opcode.equals("cp")) return false;
        Operand o = operands.get(0);
        return o instanceof Operand.Reg
                || o instanceof Operand.Vector
                || o instanceof Operand.PredPair
                || o instanceof Operand.Sink;
    }

    /** Registers written by this instruction (computed once; immutable). */
    public List<String> defs() {
        List<String> d = defsCache;
        if (d == null) {
            if (!hasDestination()) {
                d = List.of();
            } else {
                List<String> out = new ArrayList<>(2);
                collectRegs(operands.get(0), out);
                d = List.copyOf(out);
            }
            defsCache = d;
        }
        return d;
    }

    /** Whether {@code reg} is written by this instruction. */
    public boolean defines(String reg) {
        List<String> d = defs();
        for (int i = 0; i < d.size(); i++) {
            if (d.get(i).equals(reg)) return true;
        }
        return false;
    }

    /** Registers read by this instruction (guard included; computed once; immutable). */
    public List<String> uses() {
        List<String> u = usesCache;
        if (u == null) {
            List<String> out = new ArrayList<>(4);
            if (guard != null) out.add(guard.name());
            for (int i = hasDestination() ? 1 : 0; i < operands.size(); i++) {
                collectRegs(operands.get(i), out);
            }
            u = usesCache = List.copyOf(out);
        }
        return u;
    }

    private static void collectRegs(Operand o, List<String> out) {
        if (o instanceof Operand.Reg r) {
            if (!r.isSpecial()) out.add(r.name());
        } else if (o instanceof Operand.Vector v) {
            for (Operand e : v.elements()) collectRegs(e, out);
        } else if (o instanceof Operand.ParenList p) {
            for (Operand e : p.elements()) collectRegs(e, out);
        } else if (o instanceof Operand.Address a) {
            if (a.base() != null) collectRegs(a.base(), out);
            for (Operand e : a.extra()) collectRegs(e, out);
        } else if (o instanceof Operand.Offset a) {
            collectRegs(a.base(), out);
        } else if (o instanceof Operand.Not n) {
            collectRegs(n.operand(), out);
        } else if (o instanceof Operand.PredPair p) {
            out.add(p.first().name());
            out.add(p.second().name());
        }
    }

    /** Whether the instruction ends a basic block (branch, return, exit, trap). */
    public boolean isTerminator() {
        return opcode.equals("bra")
                || opcode.equals("brx")
                || opcode.equals("ret")
                || opcode.equals("exit")
                || opcode.equals("trap");
    }

    /** Whether control can fall through to the next instruction. */
    public boolean fallsThrough() {
        if (guard != null) return true;
        return !(opcode.equals("bra")
                || opcode.equals("brx")
                || opcode.equals("ret")
                || opcode.equals("exit")
                || opcode.equals("trap"));
    }

    /** Full opcode with modifiers, e.g. {@code cvt.rzi.u32.f32}. */
    public String mnemonic() {
        StringBuilder sb = new StringBuilder(opcode);
        for (String m : modifiers) sb.append('.').append(m);
        return sb.toString();
    }

    /** The instruction as it appears in the PTX (whitespace normalized), e.g. {@code div.full.f32 %f3, %f1, %f2;}. */
    public String text() {
        if (text != null) return text;
        return canonicalText();
    }

    /** The instruction rebuilt from the model (registers and immediates as the model holds them). */
    public String canonicalText() {
        StringBuilder sb = new StringBuilder();
        if (guard != null)
            sb.append('@').append(guardNegated ? "!" : "").append(guard).append(' ');
        sb.append(mnemonic());
        for (int i = 0; i < operands.size(); i++) {
            sb.append(i == 0 ? " " : ", ").append(operands.get(i));
        }
        return sb.append(';').toString();
    }

    @Override
    public String toString() {
        return index + ": " + text();
    }
}
