package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.ptx.facts.Consequences;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.rules.PtxHit;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL009 in PTX: {@code atom.add}/{@code red.add} on a float type. The shape names the accumulation target (the
 * kernel parameter or shared/global variable the address is computed from), so two atomics on one line into
 * different arrays are two findings and copies into the same target on one line are one; the scan then merges all of
 * one kernel's into one finding (one decision: to sum with atomics).
 */
@AutoService(PtxCheck.class)
public final class FloatAtomic implements PtxCheck {
    @Override
    public String ruleId() {
        return "NL009";
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        for (Instruction in : facts.function().instructions()) {
            String op = in.opcode();
            if (!(op.equals("atom") || op.equals("red")) || !in.has("add") || !PtxFacts.isAnyFloat(in.type())) {
                continue;
            }
            String target = target(facts, in);
            out.accept(new PtxHit(
                    ruleId(),
                    facts.function(),
                    in,
                    PtxMessages.message(ruleId(), "ptx-atomic", "instr", in.text(), "target", target),
                    Confidence.HIGH,
                    List.of(),
                    in.mnemonic() + "@" + target,
                    "f64".equals(in.type())
                            // double: the order moves the sum by about n*2^-53 of its terms (as the source layer)
                            ? new Consequence(Impact.Kind.BOUNDED, Consequences.phrase("ptx-use-atomic"), null)
                            : new Consequence(Impact.Kind.AMPLIFIED, Consequences.phrase("ptx-use-atomic"), null),
                    List.of(),
                    // every floating atomic sum of one kernel is one choice, merged with the source layer's
                    dev.numlint.knowledge.NumericFacts.atomicSumDecision("f64".equals(in.type()))));
        }
    }

    /** The parameter or variable the address derives from, e.g. "param total", "shared sums", or "memory". */
    static String target(PtxFacts facts, Instruction in) {
        Operand addr = in.opcode().equals("red") ? in.operand(0) : in.operand(1);
        Operand base = addr instanceof Operand.Address a ? a.base() : addr;
        for (int depth = 0; depth < 12 && base != null; depth++) {
            if (base instanceof Operand.Symbol s) {
                return "variable " + s.name();
            }
            if (!(base instanceof Operand.Reg r)) {
                break;
            }
            Instruction at = in;
            int d = facts.defUse().uniqueDef(at.index(), r.name());
            if (d < 0) {
                break;
            }
            Instruction x = facts.function().instruction(d);
            switch (x.opcode()) {
                case "ld" -> {
                    if ("param".equals(x.space())
                            && x.operand(1) instanceof Operand.Address a
                            && a.base() instanceof Operand.Symbol s) {
                        return "parameter " + shortParam(s.name());
                    }
                    return "memory";
                }
                case "cvta", "mov", "add", "sub", "mad", "shl", "cvt" -> {
                    Operand next = null;
                    for (int k = 1; k < x.operands().size(); k++) {
                        Operand o = x.operand(k);
                        if (o instanceof Operand.Symbol
                                || (o instanceof Operand.Reg q
                                        && "u64".equals(facts.function().registerType(q.name())))
                                || (o instanceof Operand.Reg && k == 1)) {
                            next = o;
                            break;
                        }
                    }
                    base = next;
                    in = x;
                }
                default -> {
                    return "memory";
                }
            }
        }
        return "memory";
    }

    private static String shortParam(String p) {
        int i = p.lastIndexOf("_param_");
        return i >= 0 ? "#" + p.substring(i + "_param_".length()) : p;
    }
}
