package dev.numlint.ptx.facts;

import dev.numlint.ptx.model.DebugLoc;
import dev.numlint.ptx.model.DefUse;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.SourcePos;
import java.util.function.Function;

/**
 * What the PTX front end knows about one function, computed once and shared by every PTX check: def-use, loops
 * (through the function), value ranges, the consequence of a value (what it decides), whether an instruction is
 * user code or a building block of an inlined library routine, and the CUDA source line of an instruction.
 *
 * <p>Library code: the CUDA math library is inlined into the kernel and is full of fma, ex2.approx.ftz,
 * rcp.approx.ftz and div.approx.ftz instructions that are parts of accurate routines (expf is 2 ulp). They are told
 * apart from the programmer's own operations by the source line (.loc) when it can be read, by the .ftz convention
 * (outside -ftz/fast-math code user arithmetic never carries .ftz, so an {@code .approx.ftz} instruction in such a
 * function is a library building block) and by the instruction pattern (constant polynomial coefficients).
 */
public final class PtxFacts {
    /**
     * The shortest loop that is a long accumulation for {@code rules} (a scan's configuration; null: the catalog's
     * default): the option the catalog's policy names ({@code ptx-trip-count-option}) of the rule that declares it. The
     * scan's PTX layer and validation, which runs the PTX checks on its builds, both read it here.
     */
    public static int minTripCount(dev.numlint.spi.RuleSettings rules) {
        dev.numlint.rules.RuleCatalog c = dev.numlint.rules.RuleCatalog.get();
        for (String id : c.rulesWhere(p -> p.ptxTripCountOption() != null)) {
            String option = c.policy(id).ptxTripCountOption();
            return rules != null
                    ? rules.intOption(id, option)
                    : Integer.parseInt(c.rule(id).option(option).defaultValue());
        }
        throw new IllegalStateException("no rule of the catalog states ptx-trip-count-option");
    }

    /**
     * Options and source access for one run.
     *
     * @param nl004MinTripCount loops with a known trip count below this are not long accumulations
     * @param fastMathBuild     the build context says --use_fast_math (or -ftz=true): .ftz is the user's own
     * @param sourceLine        the CUDA source line of a debug location, or null when it cannot be read
     * @param writtenPos        where a debug location's operation is written in user code (the innermost position
     *                          outside toolkit headers), or null
     * @param noContraction     the module was compiled without contraction (-fmad=false, see {@link
     *                          #builtWithoutContraction}): every fma in it is an explicit fmaf
     * @param divisionBuild     the project's build context makes float division approximate (-prec-div=false or
     *                          --use_fast_math): a {@code div.approx/div.full} that no intrinsic asked for is its choice
     * @param sqrtBuild         the project's build context makes float square roots approximate (-prec-sqrt=false or
     *                          --use_fast_math)
     */
    public record Settings(
            int nl004MinTripCount,
            boolean fastMathBuild,
            Function<DebugLoc, String> sourceLine,
            Function<DebugLoc, SourcePos> writtenPos,
            boolean noContraction,
            boolean divisionBuild,
            boolean sqrtBuild) {
        public Settings(
                int nl004MinTripCount,
                boolean fastMathBuild,
                Function<DebugLoc, String> sourceLine,
                Function<DebugLoc, SourcePos> writtenPos,
                boolean noContraction) {
            this(nl004MinTripCount, fastMathBuild, sourceLine, writtenPos, noContraction, fastMathBuild, fastMathBuild);
        }

        public Settings(int nl004MinTripCount, boolean fastMathBuild, Function<DebugLoc, String> sourceLine) {
            this(nl004MinTripCount, fastMathBuild, sourceLine, DebugLoc::pos, false);
        }

        public Settings(
                int nl004MinTripCount,
                boolean fastMathBuild,
                Function<DebugLoc, String> sourceLine,
                Function<DebugLoc, SourcePos> writtenPos) {
            this(nl004MinTripCount, fastMathBuild, sourceLine, writtenPos, false);
        }
    }

    /**
     * Whether the PTX was compiled with {@code -fmad=false}: nvcc then writes every float multiply, add and subtract
     * with an explicit {@code .rn} (so that ptxas may not fuse them either), while a default build writes them
     * without a rounding modifier (only the {@code __fmul_rn}-style intrinsics carry one). Measured with nvcc 13.0:
     * {@code y = a * x + y} gives {@code mul.rn.f32} and {@code add.rn.f32} under -fmad=false and one
     * {@code fma.rn.f32} by default. True when the module has such instructions and all of them carry a rounding
     * modifier; false when one has none or when there is none to tell (a module of fma alone).
     */
    public static boolean builtWithoutContraction(Iterable<PtxFunction> functions) {
        boolean rounded = false;
        for (PtxFunction f : functions) {
            for (Instruction in : f.instructions()) {
                String op = in.opcode();
                if (!(op.equals("mul") || op.equals("add") || op.equals("sub")) || !isF(in.type())) {
                    continue;
                }
                if (in.rounding() == null) {
                    return false;
                }
                rounded = true;
            }
        }
        return rounded;
    }

    private final PtxFunction fn;
    private final Settings settings;
    private final boolean ftzMode;
    private DefUse du;
    private ValueRanges ranges;
    private Consequences consequences;

    public PtxFacts(PtxFunction fn, Settings settings) {
        this.fn = fn;
        this.settings = settings;
        boolean f = settings.fastMathBuild();
        for (Instruction in : fn.instructions()) {
            if (f) {
                break;
            }
            if (in.ftz() && !in.approx()) {
                f = true;
            }
        }
        this.ftzMode = f;
    }

    public PtxFunction function() {
        return fn;
    }

    public Settings settings() {
        return settings;
    }

    /** Subnormals are flushed in this function's own arithmetic (a .ftz add/mul/..., or a fast-math build). */
    public boolean ftzMode() {
        return ftzMode;
    }

    public synchronized DefUse defUse() {
        if (du == null) {
            du = fn.defUse();
        }
        return du;
    }

    public synchronized ValueRanges ranges() {
        if (ranges == null) {
            ranges = new ValueRanges(this);
        }
        return ranges;
    }

    public synchronized Consequences consequences() {
        if (consequences == null) {
            consequences = new Consequences(this);
        }
        return consequences;
    }

    /** The CUDA source line the instruction was compiled from (innermost user code), or null. */
    public String sourceLine(Instruction in) {
        return in.loc() == null ? null : settings.sourceLine().apply(in.loc());
    }

    /** Where the instruction's operation is written in user code (outside toolkit headers), or null. */
    public SourcePos writtenPos(Instruction in) {
        return in.loc() == null || in.loc().pos().line() <= 0
                ? null
                : settings.writtenPos().apply(in.loc());
    }

    /** An approximate .ftz instruction in a function whose own arithmetic does not flush: a library building block. */
    public boolean libraryInternal(Instruction in) {
        return in.approx() && in.ftz() && !ftzMode;
    }

    /** The instruction that defines operand {@code k} of {@code in} when it has exactly one reaching definition. */
    public Instruction defOf(Instruction in, int k) {
        if (!(in.operand(k) instanceof Operand.Reg r)) {
            return null;
        }
        int d = defUse().uniqueDef(in.index(), r.name());
        return d < 0 ? null : fn.instruction(d);
    }

    /** The most definitions {@link #narrowedFromDouble} visits. */
    private static final int NARROWED_BUDGET = 256;

    /**
     * Whether operand {@code k} of {@code in} is computed, on {@code in}'s own source line, from a double narrowed to
     * float ({@code cvt.rn.f32.f64}): the float code of a routine called on double arguments ({@code powf(p / pk,
     * e)} with double {@code p}, {@code pk}, {@code e}; libdevice's instructions take the calling line). Definitions
     * on other lines end the search, except on a line that calls the same math routine: nvcc shares the steps of
     * two calls on one value ({@code powf(p / pk, a)} and {@code powf(p / pk, b)} on consecutive lines share the log).
     */
    public boolean narrowedFromDouble(Instruction in, int k) {
        if (in.loc() == null || !(in.operand(k) instanceof Operand.Reg)) {
            return false;
        }
        int line = in.loc().pos().line();
        int file = in.loc().pos().fileIndex();
        java.util.Set<String> routines = dev.numlint.ptx.rules.SourceText.mathLibraryCalls(sourceLine(in));
        java.util.ArrayDeque<int[]> work = new java.util.ArrayDeque<>(); // {instruction, register's operand index}
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        work.add(new int[] {in.index(), k});
        int budget = NARROWED_BUDGET;
        while (!work.isEmpty() && budget-- > 0) {
            int[] w = work.poll();
            Instruction x = fn.instruction(w[0]);
            if (!(x.operand(w[1]) instanceof Operand.Reg r)) {
                continue;
            }
            for (int d : defUse().reachingDefs(x.index(), r.name())) {
                Instruction def = fn.instruction(d);
                if (!seen.add(d) || def.loc() == null) {
                    continue;
                }
                if ((def.loc().pos().line() != line || def.loc().pos().fileIndex() != file)
                        && java.util.Collections.disjoint(
                                routines, dev.numlint.ptx.rules.SourceText.mathLibraryCalls(sourceLine(def)))) {
                    continue; // another line's code, unless it calls the same routine, whose steps nvcc shares
                }
                if (def.opcode().equals("cvt")
                        && def.types().size() == 2
                        && "f32".equals(def.types().get(0))
                        && "f64".equals(def.types().get(1))) {
                    return true;
                }
                for (int j = 1; j < def.operands().size(); j++) {
                    work.add(new int[] {d, j});
                }
            }
        }
        return false;
    }

    /**
     * Whether every value {@code in} reads is computed on its own source line, none loaded: no load, parameter or
     * value of another line reaches it directly. On a line that calls an exact library routine ({@code fmodf}) such
     * an instruction is one of the routine's steps (libdevice's code carries the calling line); the programmer's own
     * arithmetic on the line reads the loaded or earlier values it is written with.
     */
    public boolean computedOnItsLine(Instruction in) {
        if (in.loc() == null) {
            return false;
        }
        for (int k = 1; k < in.operands().size(); k++) {
            if (!(in.operand(k) instanceof Operand.Reg r)) {
                continue;
            }
            int[] defs = defUse().reachingDefs(in.index(), r.name());
            if (defs.length == 0) {
                return false; // a parameter register
            }
            for (int d : defs) {
                Instruction def = fn.instruction(d);
                if (def.loc() == null
                        || def.opcode().startsWith("ld")
                        || def.loc().pos().line() != in.loc().pos().line()
                        || def.loc().pos().fileIndex() != in.loc().pos().fileIndex()) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether a float-to-integer conversion converts the truncated quotient of an exact remainder routine inlined on
     * its line: libdevice's {@code remainderf} and {@code remquof} estimate |x|/|y| with an approximate division (or,
     * in their reduction loop, an fma rounded toward zero), truncate it ({@code cvt.rzi.f32.f32}), correct it by one
     * or two and convert it ({@code cvt.rzi.u32.f32}) for the quotient's parity and remquof's quotient bits; the
     * quotient is below 2^24 on every path. Every value reaching the operand must be, on the same line, such a
     * truncation of such an estimate (a division of two absolute values, or an fma rounded toward zero), itself plus or
     * minus a constant, or a selection or copy of these. C code gives no such chain: a cast truncates the value it is
     * written on, a division in C rounds to nearest ({@code div.rn}; under fast math it divides what is written).
     */
    public boolean truncatedRoutineQuotient(Instruction cvt) {
        if (cvt.loc() == null) {
            return false;
        }
        java.util.ArrayDeque<int[]> work = new java.util.ArrayDeque<>();
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        work.add(new int[] {cvt.index(), 1});
        boolean truncation = false;
        while (!work.isEmpty()) {
            int[] w = work.poll();
            Instruction at = fn.instruction(w[0]);
            if (!(at.operand(w[1]) instanceof Operand.Reg r)) {
                return false;
            }
            int[] defs = defUse().reachingDefs(at.index(), r.name());
            if (defs.length == 0 || seen.size() > 64) {
                return false;
            }
            for (int d : defs) {
                Instruction def = fn.instruction(d);
                if (!seen.add(d)) {
                    continue;
                }
                if (!sameLine(def, cvt)) {
                    return false;
                }
                switch (def.opcode()) {
                    case "cvt" -> {
                        if (def.rounding() != Instruction.Rounding.RZI
                                || def.types().size() != 2
                                || !def.types().get(0).equals(def.types().get(1))
                                || !quotientEstimate(def, cvt)) {
                            return false;
                        }
                        truncation = true;
                    }
                    case "add", "sub" -> {
                        boolean c1 = constantOperand(def, def.operand(1));
                        boolean c2 = constantOperand(def, def.operand(2));
                        if (c1 == c2) {
                            return false;
                        }
                        work.add(new int[] {d, c1 ? 2 : 1});
                    }
                    case "selp" -> {
                        work.add(new int[] {d, 1});
                        work.add(new int[] {d, 2});
                    }
                    case "mov" -> work.add(new int[] {d, 1});
                    default -> {
                        return false;
                    }
                }
            }
        }
        return truncation;
    }

    /** Every value the truncation {@code trunc} reads is an approximate quotient or an fma rounded toward zero. */
    private boolean quotientEstimate(Instruction trunc, Instruction cvt) {
        if (!(trunc.operand(1) instanceof Operand.Reg r)) {
            return false;
        }
        int[] defs = defUse().reachingDefs(trunc.index(), r.name());
        if (defs.length == 0) {
            return false;
        }
        for (int d : defs) {
            Instruction def = fn.instruction(d);
            // |x| / |y| (under fast math a written division is div.approx too, of the values it is written with)
            boolean estimate = def.opcode().equals("div") && def.approx() && ofMagnitudes(def)
                    || def.opcode().equals("fma") && def.rounding() == Instruction.Rounding.RZ;
            if (!estimate || !sameLine(def, cvt)) {
                return false;
            }
        }
        return true;
    }

    /** Every register the instruction reads holds an absolute value ({@code abs}) on every path. */
    private boolean ofMagnitudes(Instruction in) {
        for (int k = 1; k < in.operands().size(); k++) {
            if (!(in.operand(k) instanceof Operand.Reg r)) {
                return false;
            }
            int[] defs = defUse().reachingDefs(in.index(), r.name());
            if (defs.length == 0) {
                return false;
            }
            for (int d : defs) {
                if (!fn.instruction(d).opcode().equals("abs")) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean sameLine(Instruction a, Instruction b) {
        return a.loc() != null
                && b.loc() != null
                && a.loc().pos().line() == b.loc().pos().line()
                && a.loc().pos().fileIndex() == b.loc().pos().fileIndex();
    }

    /** The operand is a constant: an immediate, or a register holding one through mov/selp of constants. */
    public boolean constantOperand(Instruction at, Operand o) {
        return constantOperand(at, o, 0);
    }

    private boolean constantOperand(Instruction at, Operand o, int depth) {
        if (o instanceof Operand.FloatImm || o instanceof Operand.IntImm) {
            return true;
        }
        if (!(o instanceof Operand.Reg r) || depth > 3) {
            return false;
        }
        int[] defs = defUse().reachingDefs(at.index(), r.name());
        if (defs.length == 0) {
            return false;
        }
        for (int d : defs) {
            Instruction x = fn.instruction(d);
            if (x.opcode().equals("mov") && constantOperand(x, x.operand(1), depth + 1)) {
                continue;
            }
            if (x.opcode().equals("selp")
                    && constantOperand(x, x.operand(1), depth + 1)
                    && constantOperand(x, x.operand(2), depth + 1)) {
                continue;
            }
            return false;
        }
        return true;
    }

    /** The constant value of an operand (immediate or through mov), or NaN when it is not a known constant. */
    public double constantValue(Instruction at, Operand o) {
        if (o instanceof Operand.FloatImm f) {
            return f.value();
        }
        if (o instanceof Operand.IntImm i) {
            return i.value();
        }
        if (o instanceof Operand.Reg r) {
            int d = defUse().uniqueDef(at.index(), r.name());
            if (d >= 0) {
                Instruction x = fn.instruction(d);
                if (x.opcode().equals("mov") && !(x.operand(1) instanceof Operand.Reg)) {
                    return constantValue(x, x.operand(1));
                }
            }
        }
        return Double.NaN;
    }

    /** Multiplying by this constant is exact: zero, or a power of two (with either sign). */
    public static boolean exactScale(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return false;
        }
        if (v == 0) {
            return true;
        }
        double a = Math.abs(v);
        return a == Math.scalb(1.0, Math.getExponent(a));
    }

    /** The instruction uses a float constant within 2 ulp of {@code value} (directly or through a mov). */
    public boolean hasConst(Instruction in, float value) {
        for (int k = 1; k < in.operands().size(); k++) {
            Operand o = in.operand(k);
            if (o instanceof Operand.FloatImm f && Math.abs(f.floatValue() - value) <= Math.ulp(value) * 2) {
                return true;
            }
            if (o instanceof Operand.Reg) {
                Instruction d = defOf(in, k);
                if (d != null
                        && d.opcode().equals("mov")
                        && d.operand(1) instanceof Operand.FloatImm f
                        && Math.abs(f.floatValue() - value) <= Math.ulp(value) * 2) {
                    return true;
                }
            }
        }
        return false;
    }

    public static boolean isF(String t) {
        return "f32".equals(t) || "f64".equals(t);
    }

    public static boolean isAnyFloat(String t) {
        return t != null && (t.equals("f32") || t.equals("f64") || t.startsWith("f16") || t.startsWith("bf16"));
    }

    public static boolean isInteger(String t) {
        return t != null && (t.startsWith("s") || t.startsWith("u")) && !t.equals("ue8m0");
    }
}
