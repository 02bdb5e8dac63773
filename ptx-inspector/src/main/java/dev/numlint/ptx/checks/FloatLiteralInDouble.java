package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
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
 * purpose and have 8 or more digits).
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
                Confidence confidence = facts.sourceLine(in) == null ? Confidence.MEDIUM : Confidence.HIGH;
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
        BigDecimal decimal = new BigDecimal(Float.toString(f)).stripTrailingZeros();
        if (decimal.precision() >= 8 || decimal.compareTo(new BigDecimal(v)) == 0) return null;
        return decimal.toPlainString();
    }
}
