package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.rules.PtxHit;
import java.util.List;
import java.util.function.Consumer;

/** NL007 in PTX: once per function whose own arithmetic flushes subnormals (.ftz from -ftz=true/fast math). */
@AutoService(PtxCheck.class)
public final class FlushToZero implements PtxCheck {
    @Override
    public String ruleId() {
        return "NL007";
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        if (!facts.ftzMode()) {
            return;
        }
        Instruction first = null;
        int count = 0;
        for (Instruction in : facts.function().instructions()) {
            if (in.ftz()) {
                count++;
                if (first == null) {
                    first = in;
                }
            }
        }
        if (first == null) {
            return;
        }
        out.accept(new PtxHit(
                ruleId(),
                facts.function(),
                first,
                PtxMessages.message(
                        ruleId(), "ptx-ftz", "count", count, "s", count == 1 ? "" : "s", "instr", first.text()),
                Confidence.HIGH,
                List.of(),
                "ftz"));
    }
}
