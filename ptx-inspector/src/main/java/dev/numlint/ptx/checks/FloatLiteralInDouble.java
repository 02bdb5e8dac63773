package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.knowledge.ToleranceUse;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.ptx.rules.PtxMessage;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * NL014 in PTX: an f64 instruction whose immediate operand is the double value of a short float literal: nvcc folds
 * {@code x * 0.1f} with a double {@code x} into {@code mul.f64 %fd2, %fd1, 0d3FB99999A0000000}, the float 0.1f
 * (0.100000001490116...), not the double 0.1 ({@code 0d3FB999999999999A}). Reported when the constant is a float
 * value whose shortest decimal has at most 7 significant digits and differs from it (what a programmer writes as a
 * float literal), and is neither a whole number nor a power of two (FLT_EPSILON, FLT_MIN, FLT_MAX name floats on
 * purpose and have 8 or more digits) nor another binary-round number of at most {@link #BINARY_ROUND_BITS}
 * significant bits ({@code 100*DBL_EPSILON}, {@code 0d3D19000000000000}: exact arithmetic on a power of two, while the
 * float of an inexact short decimal fills its 24 bits). A round constant ({@link ToleranceUse#round}: 1e-15, 0.01) used as a
 * tolerance is a note with a bounded consequence: the threshold of a {@code setp}, the bound of a {@code min}/{@code
 * max}, an addend whose sum becomes a divisor, a reciprocal or a square root, or one the source line writes in a
 * tolerance's place ({@link ToleranceUse#use}: {@code x / (h + 1e-10f)}, {@code h += kEpsilon} with a named
 * constant): its float rounding, 2^-24 relative, does not change what it guards.
 */
@AutoService(PtxCheck.class)
public final class FloatLiteralInDouble implements PtxCheck {
    private static final Set<String> OPCODES =
            Set.of("add", "sub", "mul", "div", "fma", "mad", "mov", "setp", "min", "max");

    @Override
    public String ruleId() {
        return "NL014";
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        for (Instruction in : facts.function().instructions()) {
            if (!OPCODES.contains(in.opcode()) || !in.types().contains("f64") || facts.libraryInternal(in)) continue;
            for (Operand o : in.operands()) {
                if (!(o instanceof Operand.FloatImm imm) || !imm.isDouble()) continue;
                String decimal = floatLiteral(imm.value());
                if (decimal == null) continue;
                BigDecimal exact = new BigDecimal(imm.value());
                Confidence confidence = facts.sourceLine(in) == null ? Confidence.MEDIUM : Confidence.HIGH;
                String use = ToleranceUse.round(decimal) ? tolerance(facts, in, imm.value()) : null;
                if (use != null) {
                    PtxMessage note = PtxMessages.message(
                            ruleId(),
                            "ptx-tolerance",
                            "instr",
                            in.text(),
                            "decimal",
                            new BigDecimal(decimal)
                                            .stripTrailingZeros()
                                            .toString()
                                            .toLowerCase(Locale.ROOT) + "f",
                            "use",
                            use);
                    Consequence bounded = new Consequence(
                            Impact.Kind.BOUNDED,
                            dev.numlint.rules.RuleCatalog.get().phrase("tolerance-rounding"),
                            null);
                    out.accept(new PtxHit(
                            ruleId(), facts.function(), in, note, confidence, List.of(), in.mnemonic(), bounded));
                    break;
                }
                PtxMessage msg = PtxMessages.message(
                        ruleId(),
                        "ptx-widened",
                        "instr",
                        in.text(),
                        "literal",
                        imm.toString(),
                        "value",
                        exact.round(new MathContext(15)).stripTrailingZeros().toPlainString(),
                        "decimal",
                        decimal,
                        "error",
                        String.format(
                                Locale.ROOT,
                                "%.1e",
                                exact.subtract(new BigDecimal(decimal)).abs().doubleValue()));
                out.accept(new PtxHit(ruleId(), facts.function(), in, msg, confidence, List.of(), in.mnemonic(), null));
                break;
            }
        }
    }

    /**
     * The float literal a double constant is the value of ({@code 0.1} for 0.100000001490116...), or null when the
     * constant is no float, a whole number, a power of two, or a float whose shortest decimal has 8 or more
     * significant digits or is exact.
     */
    static String floatLiteral(double v) {
        if (!Double.isFinite(v) || v == 0 || v == Math.rint(v)) return null;
        float f = (float) v;
        if ((double) f != v) return null;
        double a = Math.abs(v);
        if (a == Math.scalb(1.0, Math.getExponent(a))) return null;
        // a binary-round number (a small integer times a power of two: 100*DBL_EPSILON is 25*2^-50) comes from exact
        // arithmetic; the float of an inexact short decimal fills its significand (0.1f: 24 significant bits)
        if (significantBits(a) <= BINARY_ROUND_BITS) return null;
        BigDecimal decimal = new BigDecimal(Float.toString(f)).stripTrailingZeros();
        if (decimal.precision() >= 8 || decimal.compareTo(new BigDecimal(v)) == 0) return null;
        return decimal.toPlainString();
    }

    /** Significant bits up to which a constant is taken as binary-round, not as a rounded decimal. */
    static final int BINARY_ROUND_BITS = 12;

    /** The significant bits of a finite non-zero double's significand (1 for a power of two, 53 at most). */
    static int significantBits(double a) {
        long bits = Double.doubleToLongBits(a);
        int exp = (int) ((bits >>> 52) & 0x7ff);
        long m = bits & ((1L << 52) - 1);
        if (exp != 0) m |= 1L << 52;
        if (m == 0) return 0;
        return 64 - Long.numberOfLeadingZeros(m) - Long.numberOfTrailingZeros(m);
    }

    /** How many def-use steps an addend is followed to the divisor, reciprocal or square root it guards. */
    private static final int GUARD_STEPS = 24;

    /**
     * How the constant {@code value} of {@code in} is used as a tolerance, or null: a comparison's threshold (or a
     * product compared and used for nothing else), a min/max bound, an addend whose sum is a divisor, a reciprocal's or a square root's operand, or what the source
     * line writes in a tolerance's place (the literal itself, or a constant named as a tolerance).
     */
    static String tolerance(PtxFacts facts, Instruction in, double value) {
        String op = in.opcode();
        if (op.equals("setp")) return "a threshold in a comparison";
        if (op.equals("min") || op.equals("max")) return "a bound of " + op;
        if (op.equals("mov")) {
            // a constant moved to a register: a tolerance when every use is a comparison or a bound
            int[] users = facts.defUse().users(in.index());
            if (users.length == 0) return null;
            String first = null;
            for (int u : users) {
                String o = facts.function().instruction(u).opcode();
                String use = o.equals("setp")
                        ? "a threshold in a comparison"
                        : o.equals("min") || o.equals("max") ? "a bound of " + o : null;
                if (use == null) return null;
                if (first == null) first = use;
            }
            return first;
        }
        if (op.equals("mul")) {
            // a threshold scaled by a value, compared and used for nothing else (q > 0.001f * h, session 59 round A:
            // a smoothed-particle kernel's self-distance cut-off)
            int[] users = facts.defUse().users(in.index());
            boolean compared = users.length > 0;
            for (int u : users)
                compared &= facts.function().instruction(u).opcode().equals("setp");
            if (compared) return "a scaled threshold in a comparison";
        }
        String line = facts.sourceLine(in);
        if (line != null) {
            java.util.List<String> literals = ToleranceUse.floatLiterals(line, value);
            for (String lit : literals) {
                String use = ToleranceUse.use(line, lit);
                if (use != null) return use;
            }
            if (literals.isEmpty()) {
                for (String name : ToleranceUse.toleranceNames(line)) {
                    String use = ToleranceUse.use(line, name);
                    if (use != null) return use;
                }
            }
        }
        if (op.equals("add") || op.equals("sub")) return guarded(facts, in);
        return null;
    }

    /** The sum {@code in} computes reaches a divisor, a reciprocal or a square root through additions: a guard. */
    private static String guarded(PtxFacts facts, Instruction in) {
        java.util.ArrayDeque<Instruction> work = new java.util.ArrayDeque<>();
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        work.add(in);
        int steps = 0;
        while (!work.isEmpty() && steps++ < GUARD_STEPS) {
            Instruction cur = work.poll();
            for (int u : facts.defUse().users(cur.index())) {
                Instruction x = facts.function().instruction(u);
                if (!seen.add(u) || !"f64".equals(x.type())) continue;
                switch (x.opcode()) {
                    case "div" -> {
                        Instruction divisor = x.operands().size() > 2 ? facts.defOf(x, 2) : null;
                        if (divisor != null && divisor.index() == cur.index()) return "a guard in a denominator";
                    }
                    case "rcp" -> {
                        return "a guard in a denominator";
                    }
                    case "sqrt", "rsqrt" -> {
                        return "a guard under sqrt";
                    }
                    case "add", "sub", "mov", "abs", "neg" -> work.add(x);
                    default -> {}
                }
            }
        }
        return null;
    }
}
