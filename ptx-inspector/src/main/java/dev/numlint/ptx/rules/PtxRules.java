package dev.numlint.ptx.rules;

import dev.numlint.model.Confidence;
import dev.numlint.ptx.model.DebugLoc;
import dev.numlint.ptx.model.DefUse;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Loop;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.model.PtxFunction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The PTX-layer rules NL001, NL002, NL003, NL004, NL006, NL007, NL008 and NL009 over one function.
 *
 * <p>Library code: the CUDA math library is inlined into the kernel and is full of fma, ex2.approx.ftz,
 * rcp.approx.ftz and div.approx.ftz instructions that are parts of accurate routines (expf is 2 ulp). They are told
 * apart from the programmer's own operations by (1) the source line (.loc) when it can be read: a division rule
 * needs a '/' or a division intrinsic on the line, NL003 needs a '*' and no explicit fma call; (2) the .ftz
 * convention: outside -ftz/fast-math code, user arithmetic never carries .ftz, so an {@code .approx.ftz}
 * instruction in a function without other .ftz instructions is a library building block; (3) the instruction
 * pattern (ex2.approx fed by a plain multiply by log2(e) is __expf; fed by the fma range reduction it is expf).
 */
public final class PtxRules {
    /** Options and source access for one run. */
    public record Settings(int nl004MinTripCount, boolean fastMathBuild, Function<DebugLoc, String> sourceLine) {
    }

    private static final float LOG2E = 1.4426950408889634f;
    private static final float LOG2_10 = 3.321928094887362f;
    private static final float LN2 = 0.6931471805599453f;
    private static final float LOG10_2 = 0.30102999566398120f;

    private final PtxFunction fn;
    private final Settings settings;
    private final List<PtxHit> hits = new ArrayList<>();
    private final boolean ftzMode;
    private DefUse du;

    private PtxRules(PtxFunction fn, Settings settings) {
        this.fn = fn;
        this.settings = settings;
        boolean f = false;
        for (Instruction in : fn.instructions()) {
            if (in.ftz() && !in.approx()) {
                f = true;
                break;
            }
        }
        this.ftzMode = f;
    }

    /** Runs every rule over {@code fn}; {@code enabled} filters rule ids. */
    public static List<PtxHit> check(PtxFunction fn, Settings settings, java.util.function.Predicate<String> enabled) {
        PtxRules r = new PtxRules(fn, settings);
        if (fn.isDeclarationOnly()) return List.of();
        for (Instruction in : fn.instructions()) {
            String op = in.opcode();
            switch (op) {
                case "cvt" -> {
                    if (enabled.test("NL001")) r.nl001(in);
                    if (enabled.test("NL008")) r.nl008(in);
                }
                case "div", "rcp" -> {
                    if (enabled.test("NL002")) r.nl002(in);
                }
                case "fma", "mad" -> {
                    if (enabled.test("NL003")) r.nl003Fma(in);
                }
                case "add", "sub" -> {
                    if (enabled.test("NL003")) r.nl003MulAdd(in);
                }
                case "sin", "cos", "ex2", "lg2", "sqrt", "rsqrt", "tanh" -> {
                    if (enabled.test("NL006")) r.nl006(in);
                }
                case "atom", "red" -> {
                    if (enabled.test("NL009")) r.nl009(in);
                }
                default -> {
                }
            }
        }
        if (enabled.test("NL004")) r.nl004();
        if (enabled.test("NL007")) r.nl007();
        return r.hits;
    }

    private DefUse du() {
        if (du == null) du = fn.defUse();
        return du;
    }

    private String src(Instruction in) {
        return in.loc() == null ? null : settings.sourceLine().apply(in.loc());
    }

    private boolean libraryInternal(Instruction in) {
        return in.approx() && in.ftz() && !ftzMode;
    }

    private void hit(String rule, Instruction at, String msg, Confidence c, List<Instruction> rel, String shape) {
        hits.add(new PtxHit(rule, fn, at, msg, c, rel, shape));
    }

    private static boolean isF(String t) {
        return "f32".equals(t) || "f64".equals(t);
    }

    private static boolean isAnyFloat(String t) {
        return t != null && (t.equals("f32") || t.equals("f64") || t.startsWith("f16") || t.startsWith("bf16"));
    }

    // ------------------------------------------------------------------------------------------------ NL001

    private void nl001(Instruction in) {
        if (in.types().size() < 2) return;
        String dst = in.types().get(0);
        String srcT = in.types().get(1);
        int bits = switch (dst) {
            case "u8" -> 8;
            case "u16" -> 16;
            case "u32" -> 32;
            case "u64" -> 64;
            default -> 0;
        };
        if (bits == 0 || !isAnyFloat(srcT)) return;
        String line = src(in);
        if (SourceText.hasConversionIntrinsic(line)) return;
        double max = bits == 64 ? 1.8446744073709552E19 : Math.pow(2, bits) - 1;
        rangeBudget = 256;
        double[] r = range(in.index(), in.operand(1), 0);
        if (r[0] >= 0 && r[1] <= max) return;
        String guard = r[0] >= 0 ? " (only the lower bound is guarded)" : r[1] <= max ? " (only the upper bound is guarded)" : "";
        hit("NL001", in, "`" + in.text() + "` converts a " + srcT + " to " + dst + " without a range guard" + guard
                + ": the GPU's cvt saturates out-of-range values (-69.235f becomes 0) while x86 code wraps them "
                + "((unsigned short)-69.235f is 65467); clamp the value or use an explicit __float2uint_rn-style "
                + "conversion", line == null ? Confidence.MEDIUM : Confidence.HIGH, List.of(), in.mnemonic());
    }

    /** Definitions the range analysis of one conversion may still visit (bounds the work on deep chains). */
    private int rangeBudget;

    /** Value range of a float operand through max/min/sat/abs/selp/mov/cvt definitions: {lo, hi}. */
    private double[] range(int at, Operand o, int depth) {
        double inf = Double.POSITIVE_INFINITY;
        if (o instanceof Operand.FloatImm f) return new double[] {f.value(), f.value()};
        if (o instanceof Operand.IntImm i) return new double[] {i.value(), i.value()};
        if (!(o instanceof Operand.Reg r) || depth > 10 || --rangeBudget < 0) return new double[] {-inf, inf};
        int[] defs = du().reachingDefs(at, r.name());
        if (defs.length == 0) return new double[] {-inf, inf};
        double lo = inf, hi = -inf;
        for (int d : defs) {
            double[] x = rangeOfDef(fn.instruction(d), depth + 1);
            lo = Math.min(lo, x[0]);
            hi = Math.max(hi, x[1]);
        }
        return new double[] {lo, hi};
    }

    private double[] rangeOfDef(Instruction d, int depth) {
        double inf = Double.POSITIVE_INFINITY;
        double[] full = {-inf, inf};
        double[] out;
        switch (d.opcode()) {
            case "max" -> {
                double[] a = range(d.index(), d.operand(1), depth), b = range(d.index(), d.operand(2), depth);
                out = new double[] {Math.max(a[0], b[0]), Math.max(a[1], b[1])};
            }
            case "min" -> {
                double[] a = range(d.index(), d.operand(1), depth), b = range(d.index(), d.operand(2), depth);
                out = new double[] {Math.min(a[0], b[0]), Math.min(a[1], b[1])};
            }
            case "mov" -> out = range(d.index(), d.operand(1), depth);
            case "mul" -> out = scale(range(d.index(), d.operand(1), depth), range(d.index(), d.operand(2), depth));
            case "add", "sub" -> {
                double[] a = range(d.index(), d.operand(1), depth), b = range(d.index(), d.operand(2), depth);
                out = d.opcode().equals("add") ? new double[] {a[0] + b[0], a[1] + b[1]}
                        : new double[] {a[0] - b[1], a[1] - b[0]};
                if (Double.isNaN(out[0]) || Double.isNaN(out[1])) out = full;
            }
            case "fma", "mad" -> {
                double[] p = scale(range(d.index(), d.operand(1), depth), range(d.index(), d.operand(2), depth));
                double[] c = range(d.index(), d.operand(3), depth);
                out = new double[] {p[0] + c[0], p[1] + c[1]};
                if (Double.isNaN(out[0]) || Double.isNaN(out[1])) out = full;
            }
            case "selp" -> {
                double[] a = range(d.index(), d.operand(1), depth), b = range(d.index(), d.operand(2), depth);
                out = new double[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])};
            }
            case "abs" -> {
                double[] a = range(d.index(), d.operand(1), depth);
                out = new double[] {0, Math.max(Math.abs(a[0]), Math.abs(a[1]))};
            }
            case "cvt" -> {
                String s = d.sourceType();
                out = switch (s == null ? "" : s) {
                    case "u8" -> new double[] {0, 255};
                    case "u16" -> new double[] {0, 65535};
                    case "s8" -> new double[] {-128, 127};
                    case "s16" -> new double[] {-32768, 32767};
                    case "u32" -> new double[] {0, 4294967295.0};
                    case "u64" -> new double[] {0, 1.8446744073709552E19};
                    case "s32" -> new double[] {-2147483648.0, 2147483647.0};
                    case "s64" -> new double[] {-9.223372036854776E18, 9.223372036854776E18};
                    case "f32", "f64" -> {
                        double[] a = range(d.index(), d.operand(1), depth);
                        // float-to-float rounding to an integral value (floor/ceil/trunc) moves by less than 1
                        yield d.rounding() != null && d.rounding().isInteger() ? new double[] {a[0] - 1, a[1] + 1} : a;
                    }
                    default -> full;
                };
            }
            default -> out = full;
        }
        if (d.sat() && d.isFloat()) out = new double[] {Math.max(0, out[0]), Math.min(1, out[1])};
        return out;
    }

    /** Interval product; unbounded when either side is unbounded. */
    private static double[] scale(double[] a, double[] b) {
        double inf = Double.POSITIVE_INFINITY;
        if (Double.isInfinite(a[0]) || Double.isInfinite(a[1]) || Double.isInfinite(b[0]) || Double.isInfinite(b[1])) {
            return new double[] {-inf, inf};
        }
        double p1 = a[0] * b[0], p2 = a[0] * b[1], p3 = a[1] * b[0], p4 = a[1] * b[1];
        return new double[] {Math.min(Math.min(p1, p2), Math.min(p3, p4)), Math.max(Math.max(p1, p2), Math.max(p3, p4))};
    }

    // ------------------------------------------------------------------------------------------------ NL002

    private void nl002(Instruction in) {
        String t = in.type();
        boolean div = in.opcode().equals("div");
        boolean flagged;
        if (div) flagged = (in.approx() || in.full()) && "f32".equals(t);
        else flagged = in.approx() && ("f32".equals(t) || ("f64".equals(t) && in.ftz()));
        if (!flagged) return;
        String line = src(in);
        if (libraryInternal(in) && "f32".equals(t)) return;
        if (line != null) {
            if (!SourceText.hasDivision(line) && !SourceText.calls(line, "__frcp_rn", "__drcp_rn")) return;
        } else if ("f64".equals(t) && refinedByFma(in)) {
            return;
        }
        String what = in.full() ? "div.full.f32 is a full-range approximation with up to 2 ulp error"
                : div ? "div.approx.f32 has up to 2 ulp error and returns 0 for divisors above 2^126"
                : in.mnemonic() + " is an approximate reciprocal (not correctly rounded)";
        String cause = ftzMode || settings.fastMathBuild() ? " (fast-math / -prec-div=false build)"
                : in.full() ? " (-prec-div=false)" : " (__fdividef or -prec-div=false)";
        hit("NL002", in, "`" + in.text() + "`: " + what + cause + "; the CPU's IEEE division rounds correctly, so "
                + "results differ (use __fdiv_rn or build with -prec-div=true)",
                line == null ? Confidence.MEDIUM : Confidence.HIGH, List.of(), in.mnemonic());
    }

    /** A library reciprocal refined by Newton iterations (its result feeds fma.rn). */
    private boolean refinedByFma(Instruction in) {
        for (int u : du().users(in.index())) {
            Instruction x = fn.instruction(u);
            if (x.opcode().equals("neg") || (x.opcode().equals("fma") && x.rounding() != null)) return true;
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------------ NL003

    private void nl003Fma(Instruction in) {
        String t = in.type();
        if (!isF(t)) return;
        if (in.rounding() != null && in.rounding() != Instruction.Rounding.RN) return; // __fmaf_rz & co
        if (in.operand(3) instanceof Operand.FloatImm z && z.value() == 0) return; // a*b+0 rounds like a*b
        String line = src(in);
        Confidence c;
        if (line != null) {
            if (SourceText.hasExplicitFma(line) || !SourceText.hasMultiply(line)) return;
            c = Confidence.HIGH;
        } else {
            for (int k = 1; k <= 3; k++) {
                if (constantOperand(in, in.operand(k), 0)) return; // polynomial of a library routine
            }
            c = Confidence.LOW;
        }
        boolean legacyMad = in.opcode().equals("mad");
        hit("NL003", in, "`" + in.text() + "` is a fused multiply-add with no explicit fma in the source: "
                + (legacyMad ? "mad." + t + " " : "nvcc contracted a*b+c (default -fmad=true) ")
                + "rounds once where the CPU rounds the product and the sum separately, so results differ "
                + "(write __fmul_rn/__fadd_rn or fmaf explicitly, or build with -fmad=false)", c, List.of(),
                in.mnemonic());
    }

    private boolean constantOperand(Instruction at, Operand o, int depth) {
        if (o instanceof Operand.FloatImm || o instanceof Operand.IntImm) return true;
        if (!(o instanceof Operand.Reg r) || depth > 3) return false;
        int[] defs = du().reachingDefs(at.index(), r.name());
        if (defs.length == 0) return false;
        for (int d : defs) {
            Instruction x = fn.instruction(d);
            if (x.opcode().equals("mov") && constantOperand(x, x.operand(1), depth + 1)) continue;
            if (x.opcode().equals("selp") && constantOperand(x, x.operand(1), depth + 1)
                    && constantOperand(x, x.operand(2), depth + 1)) continue;
            return false;
        }
        return true;
    }

    private void nl003MulAdd(Instruction add) {
        if (!isF(add.type()) || add.rounding() != null) return;
        for (int k = 1; k <= 2; k++) {
            if (!(add.operand(k) instanceof Operand.Reg r)) continue;
            int d = du().uniqueDef(add.index(), r.name());
            if (d < 0) continue;
            Instruction mul = fn.instruction(d);
            if (!mul.opcode().equals("mul") || mul.rounding() != null || !add.type().equals(mul.type())) continue;
            String mline = src(mul);
            if (mline != null && !SourceText.hasMultiply(mline)) continue;
            if (mline == null && (constantOperand(mul, mul.operand(1), 0) || constantOperand(mul, mul.operand(2), 0))
                    && src(add) == null) {
                continue;
            }
            hit("NL003", add, "`" + mul.text() + "` feeds `" + add.text() + "` and neither carries a rounding "
                    + "modifier: ptxas fuses them into one FFMA (one rounding instead of two), so the result differs "
                    + "from the CPU's separate multiply and add (use __fmul_rn/__fadd_rn to keep them apart)",
                    mline == null ? Confidence.MEDIUM : Confidence.HIGH, List.of(mul), "mul+" + add.mnemonic());
            return;
        }
    }

    // ------------------------------------------------------------------------------------------------ NL004

    private void nl004() {
        List<Loop> loops = fn.loops();
        if (loops.isEmpty()) return;
        int min = settings.nl004MinTripCount();
        for (Instruction in : fn.instructions()) {
            String op = in.opcode();
            boolean acc = op.equals("add") || op.equals("sub") || op.equals("fma") || op.equals("mad");
            if (!acc || !isF(in.type()) || in.defs().isEmpty()) continue;
            if (integralStep(in)) continue; // a float loop counter (i = i + 1) is exact below 2^24
            // enclosing loops, innermost first
            List<Loop> enclosing = new ArrayList<>();
            for (Loop l : loops) if (l.contains(in.block())) enclosing.add(l);
            if (enclosing.isEmpty()) continue;
            enclosing.sort((a, b) -> Integer.compare(a.body().cardinality(), b.body().cardinality()));
            for (Loop l : enclosing) {
                Set<Integer> cycle = new HashSet<>();
                if (!carriedAround(in, l.body(), cycle)) continue;
                if (l.tripCountKnown() && l.tripCount() < min) break;
                if (compensated(in) || cycle.stream().anyMatch(x -> compensated(fn.instruction(x)))) break;
                String trip = l.tripCountKnown() ? (l.tripCountBound() ? "at most " : "") + l.tripCount() + " iterations"
                        : "an unknown trip count";
                String reg = in.defs().get(0);
                hit("NL004", in, "`" + in.text() + "` accumulates " + reg + " serially around the loop at PTX line "
                        + fn.instruction(fn.blocks().get(l.header()).first()).ptxLine() + " (" + trip + "): the "
                        + "rounding error grows with the number of terms and depends on the summation order, so "
                        + "serial CPU code and a parallel GPU reduction give different results",
                        Confidence.HIGH, List.of(), in.mnemonic() + "-loop");
                break;
            }
        }
    }

    private static boolean integralStep(Instruction in) {
        if (!in.opcode().equals("add") && !in.opcode().equals("sub")) return false;
        for (int k = 1; k <= 2; k++) {
            if (in.operand(k) instanceof Operand.FloatImm f) {
                double v = f.value();
                if (v == Math.rint(v) && Math.abs(v) <= 16777216) return true;
            }
        }
        return false;
    }

    /** The value defined by {@code in} flows (through float add/sub/fma-addend/mov/selp) back into {@code in}. */
    private boolean carriedAround(Instruction start, BitSet body, Set<Integer> seen) {
        ArrayDeque<Integer> work = new ArrayDeque<>();
        work.add(start.index());
        while (!work.isEmpty()) {
            int cur = work.poll();
            Instruction ci = fn.instruction(cur);
            List<String> curDefs = ci.defs();
            for (int u : du().users(cur)) {
                Instruction ui = fn.instruction(u);
                if (!body.get(ui.block())) continue;
                if (u == start.index()) {
                    if (accumulatorOperand(start, curDefs)) return true;
                    continue;
                }
                String op = ui.opcode();
                boolean pass = (op.equals("add") || op.equals("sub") || op.equals("mov") || op.equals("selp")
                        || ((op.equals("fma") || op.equals("mad")) && usesAt(ui, 3, curDefs)))
                        && isF(ui.type());
                if (pass && seen.add(u)) work.add(u);
            }
        }
        return false;
    }

    private static boolean accumulatorOperand(Instruction acc, List<String> regs) {
        if (acc.opcode().equals("fma") || acc.opcode().equals("mad")) return usesAt(acc, 3, regs);
        return usesAt(acc, 1, regs) || usesAt(acc, 2, regs);
    }

    private static boolean usesAt(Instruction in, int k, List<String> regs) {
        return in.operand(k) instanceof Operand.Reg r && regs.contains(r.name());
    }

    /** Kahan/compensated summation: the new sum is subtracted from/with the old one ((t - sum) - y). */
    private boolean compensated(Instruction add) {
        if (!add.opcode().equals("add") && !add.opcode().equals("sub")) return false;
        Set<String> inputs = new HashSet<>();
        for (int k = 1; k <= 2; k++) if (add.operand(k) instanceof Operand.Reg r) inputs.add(r.name());
        for (int u : du().users(add.index())) {
            Instruction s = fn.instruction(u);
            if (!s.opcode().equals("sub")) continue;
            for (int k = 1; k <= 2; k++) {
                if (s.operand(k) instanceof Operand.Reg r && inputs.contains(r.name())) return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------------ NL006

    private void nl006(Instruction in) {
        if (!in.approx()) return;
        String t = in.type();
        if (!"f32".equals(t) && !(t != null && t.startsWith("f16")) && !(t != null && t.startsWith("bf16"))) return;
        if (libraryInternal(in)) return;
        String op = in.opcode();
        String line = src(in);
        String why;
        switch (op) {
            case "ex2" -> {
                Instruction feed = defOf(in, 1);
                boolean fast = feed != null && feed.opcode().equals("mul")
                        && (hasConst(feed, LOG2E) || hasConst(feed, LOG2_10));
                if (!fast && SourceText.calls(line, "__expf", "__exp10f", "__powf")) fast = true;
                if (!fast) return;
                why = "__expf/__exp10f-style fast exponential (ex2.approx of x*log2(e)): its error grows with |x|";
            }
            case "lg2" -> {
                boolean fast = false;
                for (int u : du().users(in.index())) {
                    Instruction x = fn.instruction(u);
                    if (x.opcode().equals("mul") && (hasConst(x, LN2) || hasConst(x, LOG10_2))) fast = true;
                }
                if (SourceText.calls(line, "__logf", "__log2f", "__log10f", "__powf")) fast = true;
                if ((ftzMode || settings.fastMathBuild()) && SourceText.calls(line, "logf", "log2f", "log10f", "powf",
                        "log", "log2", "log10", "pow")) fast = true;
                if (!fast) return;
                why = "fast logarithm (lg2.approx): absolute rather than relative error near 1";
            }
            case "sin", "cos" -> why = "__sinf/__cosf-style fast " + op + " (" + op + ".approx): error grows "
                    + "quickly outside [-pi, pi]";
            case "sqrt" -> why = "approximate square root (-prec-sqrt=false or fast math) instead of the correctly "
                    + "rounded sqrt.rn";
            case "rsqrt" -> why = "approximate reciprocal square root (rsqrt.approx, not correctly rounded)";
            case "tanh" -> why = "hardware tanh approximation (tanh.approx, about 2^-11 relative error)";
            default -> {
                return;
            }
        }
        hit("NL006", in, "`" + in.text() + "`: " + why + "; the CPU math library returns different values",
                line == null ? Confidence.MEDIUM : Confidence.HIGH, List.of(), in.mnemonic());
    }

    private Instruction defOf(Instruction in, int k) {
        if (!(in.operand(k) instanceof Operand.Reg r)) return null;
        int d = du().uniqueDef(in.index(), r.name());
        return d < 0 ? null : fn.instruction(d);
    }

    private boolean hasConst(Instruction in, float value) {
        for (int k = 1; k < in.operands().size(); k++) {
            Operand o = in.operand(k);
            if (o instanceof Operand.FloatImm f && Math.abs(f.floatValue() - value) <= Math.ulp(value) * 2) return true;
            if (o instanceof Operand.Reg) {
                Instruction d = defOf(in, k);
                if (d != null && d.opcode().equals("mov") && d.operand(1) instanceof Operand.FloatImm f
                        && Math.abs(f.floatValue() - value) <= Math.ulp(value) * 2) return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------------ NL007

    private void nl007() {
        if (!ftzMode) return;
        Instruction first = null;
        int count = 0;
        for (Instruction in : fn.instructions()) {
            if (in.ftz()) {
                count++;
                if (first == null) first = in;
            }
        }
        if (first == null) return;
        hit("NL007", first, count + " instruction" + (count == 1 ? "" : "s") + " in this function flush subnormal "
                + "inputs and results to zero (.ftz, from -ftz=true or --use_fast_math), the first `" + first.text()
                + "`: values below 2^-126 become 0 and gradual underflow is lost", Confidence.HIGH, List.of(), "ftz");
    }

    // ------------------------------------------------------------------------------------------------ NL008

    private void nl008(Instruction in) {
        if (in.types().size() < 2 || !"f64".equals(in.types().get(0)) || !"f32".equals(in.types().get(1))) return;
        // forward through f64 arithmetic to a cvt back to f32
        ArrayDeque<Integer> work = new ArrayDeque<>();
        Set<Integer> seen = new HashSet<>();
        work.add(in.index());
        Instruction firstArith = null;
        int steps = 0;
        while (!work.isEmpty() && steps++ < 200) {
            int cur = work.poll();
            for (int u : du().users(cur)) {
                Instruction x = fn.instruction(u);
                String op = x.opcode();
                if (op.equals("cvt") && x.types().size() == 2 && "f32".equals(x.types().get(0))
                        && "f64".equals(x.types().get(1))) {
                    if (firstArith != null) {
                        String line = src(in);
                        hit("NL008", in, "`" + in.text() + "` promotes a float to double for `"
                                + firstArith.text() + "` and `" + x.text() + "` rounds the result back to float: the "
                                + "expression is evaluated in double (an unsuffixed literal or a double function), "
                                + "slower on the GPU and rounded twice", line == null ? Confidence.MEDIUM
                                : Confidence.HIGH, List.of(firstArith, x), "cvt.f64.f32>" + firstArith.mnemonic());
                        return;
                    }
                    continue;
                }
                if (!"f64".equals(x.type())) continue;
                boolean arith = op.equals("add") || op.equals("sub") || op.equals("mul") || op.equals("div")
                        || op.equals("fma") || op.equals("mad") || op.equals("sqrt") || op.equals("rcp");
                boolean pass = arith || op.equals("mov") || op.equals("neg") || op.equals("abs") || op.equals("selp")
                        || op.equals("min") || op.equals("max");
                if (!pass || !seen.add(u)) continue;
                if (arith && firstArith == null) firstArith = x;
                work.add(u);
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ NL009

    private void nl009(Instruction in) {
        if (!in.has("add")) return;
        String t = in.type();
        if (!isAnyFloat(t)) return;
        hit("NL009", in, "`" + in.text() + "` is a floating-point atomic add: threads add in an order that changes "
                + "from run to run and float addition is not associative, so the sum is not reproducible",
                Confidence.HIGH, List.of(), in.mnemonic());
    }
}
