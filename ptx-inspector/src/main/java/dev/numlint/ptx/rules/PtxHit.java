package dev.numlint.ptx.rules;

import dev.numlint.model.Confidence;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.PtxFunction;
import java.util.List;

/**
 * A hazard found in PTX, before it is mapped to a source location: the rule, the function, the instruction the
 * finding is reported at, a specific message, further instructions that explain it (e.g. the mul feeding an add),
 * and a shape used for the fingerprint.
 */
public record PtxHit(String ruleId, PtxFunction function, Instruction at, String message, Confidence confidence,
                     List<Instruction> related, String shape) {
}
