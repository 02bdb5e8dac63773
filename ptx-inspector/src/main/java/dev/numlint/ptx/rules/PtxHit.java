package dev.numlint.ptx.rules;

import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.PtxFunction;
import java.util.List;

/**
 * A hazard found in PTX, before it is mapped to a source location: the rule, the function, the instruction the
 * finding is reported at, a one-line message (typed: its template and arguments), further instructions that explain it (e.g. the mul feeding an add),
 * a shape used for the fingerprint and to tell different operations on one line apart, and the consequence of the
 * hazard's value (null when the check does not classify it; the rule's level then applies), and further instructions
 * of the same hazard written elsewhere ({@code sites}: the other updates of one accumulator), reported as related
 * locations of the one finding. {@code decision} (may be null) names a choice the function makes once (NL012's reduced
 * format, {@code 2^-10}): the scan merges the findings of one decision in one function ({@link
 * dev.numlint.model.Identity#decision}). {@code judgement} (may be null) is the check's judgement of what the level
 * rests on ({@link dev.numlint.model.Identity#judgement}): an approximation the project's build chose.
 */
public record PtxHit(
        String ruleId,
        PtxFunction function,
        Instruction at,
        PtxMessage message,
        Confidence confidence,
        List<Instruction> related,
        String shape,
        Consequence consequence,
        List<Instruction> sites,
        String decision,
        dev.numlint.model.Identity.Judgement judgement) {

    public PtxHit {
        sites = sites == null ? List.of() : List.copyOf(sites);
    }

    public PtxHit(
            String ruleId,
            PtxFunction function,
            Instruction at,
            PtxMessage message,
            Confidence confidence,
            List<Instruction> related,
            String shape,
            Consequence consequence,
            List<Instruction> sites,
            String decision) {
        this(ruleId, function, at, message, confidence, related, shape, consequence, sites, decision, null);
    }

    /** This hit with the check's {@code judgement}. */
    public PtxHit withJudgement(dev.numlint.model.Identity.Judgement v) {
        return new PtxHit(ruleId, function, at, message, confidence, related, shape, consequence, sites, decision, v);
    }

    public PtxHit(
            String ruleId,
            PtxFunction function,
            Instruction at,
            PtxMessage message,
            Confidence confidence,
            List<Instruction> related,
            String shape,
            Consequence consequence,
            List<Instruction> sites) {
        this(ruleId, function, at, message, confidence, related, shape, consequence, sites, null);
    }

    public PtxHit(
            String ruleId,
            PtxFunction function,
            Instruction at,
            PtxMessage message,
            Confidence confidence,
            List<Instruction> related,
            String shape,
            Consequence consequence) {
        this(ruleId, function, at, message, confidence, related, shape, consequence, List.of());
    }

    public PtxHit(
            String ruleId,
            PtxFunction function,
            Instruction at,
            PtxMessage message,
            Confidence confidence,
            List<Instruction> related,
            String shape) {
        this(ruleId, function, at, message, confidence, related, shape, null, List.of());
    }

    /** The impact kind, or null. */
    public Impact.Kind impactKind() {
        return consequence == null ? null : consequence.kind();
    }
}
