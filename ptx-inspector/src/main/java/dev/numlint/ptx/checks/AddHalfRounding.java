package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.ptx.rules.PtxMessage;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL013 in PTX: a truncating conversion to an integer ({@code cvt.rzi.s32.f32}, what a C cast compiles to) of a
 * value that an {@code add.f32/f64} of the constant 0.5 defines, or an {@code fma.rn}/{@code mad} whose addend is 0.5
 * (a contracted {@code a*b + 0.5f}): rounding by adding one half. The value ranges decide the level as at the source
 * layer: a value that can be negative rounds toward zero (a warning); a non-negative one is wrong by one only at
 * 0.49999997 and at odd values from 2^23 (a note, none when its range ends below 2^23, 2^52 in f64).
 */
@AutoService(PtxCheck.class)
public final class AddHalfRounding implements PtxCheck {
    @Override
    public String ruleId() {
        return "NL013";
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        for (Instruction in : facts.function().instructions()) {
            if (!in.opcode().equals("cvt")
                    || in.rounding() != Instruction.Rounding.RZI
                    || in.types().size() < 2
                    || !PtxFacts.isInteger(in.types().get(0))
                    || !PtxFacts.isF(in.types().get(1))) {
                continue;
            }
            Instruction sum = facts.defOf(in, 1);
            if (sum == null || !PtxFacts.isF(sum.type())) {
                continue;
            }
            boolean added = sum.opcode().equals("add") && (half(facts, sum, 1) || half(facts, sum, 2));
            boolean fused = (sum.opcode().equals("fma") || sum.opcode().equals("mad")) && half(facts, sum, 3);
            if (!added && !fused) {
                continue;
            }
            boolean f64 = in.types().get(1).equals("f64");
            double[] r = facts.ranges().range(in, in.operand(1));
            String line = facts.sourceLine(in);
            Confidence confidence = line == null ? Confidence.MEDIUM : Confidence.HIGH;
            if (r[0] >= 0) {
                // below 2^23 (2^52) only 0.49999997 rounds wrongly, 1 of 1,258,291,200 floats: not reported
                if (r[1] < (f64 ? 0x1p52 : 0x1p23)) {
                    continue;
                }
                PtxMessage msg = PtxMessages.message(
                        ruleId(),
                        "ptx-non-negative",
                        "instr",
                        in.text(),
                        "add",
                        sum.text(),
                        "example",
                        f64 ? "0.49999999999999994" : "0.49999997",
                        "odd",
                        f64 ? "4503599627370497.0" : "8388609.0",
                        "even",
                        f64 ? "4503599627370498" : "8388610");
                out.accept(new PtxHit(
                        ruleId(),
                        facts.function(),
                        in,
                        msg,
                        confidence,
                        List.of(sum),
                        in.mnemonic(),
                        new Consequence(
                                Impact.Kind.BOUNDED, "off by one at odd values from 2^23 and at 0.49999997", null)));
                continue;
            }
            PtxMessage msg = PtxMessages.message(ruleId(), "ptx-negative", "instr", in.text(), "add", sum.text());
            out.accept(new PtxHit(
                    ruleId(),
                    facts.function(),
                    in,
                    msg,
                    confidence,
                    List.of(sum),
                    in.mnemonic(),
                    new Consequence(Impact.Kind.AMPLIFIED, "rounded toward zero for negative values", null)));
        }
    }

    /** Operand {@code k} of {@code in} is the constant one half (an immediate, or a register a mov set to it). */
    private static boolean half(PtxFacts facts, Instruction in, int k) {
        return k < in.operands().size() && facts.constantValue(in, in.operand(k)) == 0.5;
    }
}
