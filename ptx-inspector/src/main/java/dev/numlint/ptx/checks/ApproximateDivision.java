package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.ptx.rules.SourceText;
import java.util.List;
import java.util.function.Consumer;

/** NL002: {@code div.approx/div.full.f32} and approximate reciprocals written by the user (not library steps). */
@AutoService(PtxCheck.class)
public final class ApproximateDivision implements PtxCheck {
    @Override
    public String ruleId() {
        return "NL002";
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        for (Instruction in : facts.function().instructions()) {
            String op = in.opcode();
            if (!op.equals("div") && !op.equals("rcp")) {
                continue;
            }
            String t = in.type();
            boolean div = op.equals("div");
            boolean flagged = div
                    ? (in.approx() || in.full()) && "f32".equals(t)
                    : in.approx() && ("f32".equals(t) || ("f64".equals(t) && in.ftz()));
            if (!flagged || (facts.libraryInternal(in) && "f32".equals(t))) {
                continue;
            }
            // a division by a constant power of two (div.approx.f32 %f9, %f7, %f8 after mov.f32 %f8, 0f40800000, or the
            // immediate itself): a * (1/b) is the exact quotient (FloatExactness.exactFloatDivisor)
            if (div && in.operands().size() == 3) {
                double b = facts.constantValue(in, in.operands().get(2));
                if (!Double.isNaN(b) && dev.numlint.knowledge.FloatExactness.exactFloatDivisor(b)) continue;
            }
            // a double reciprocal seed refined by Newton steps is a library routine's (atan, the double division's slow
            // path): no user code asks for an unrefined one (-prec-div and __fdividef are single precision)
            if ("f64".equals(t) && refinedByFma(facts, in)) {
                continue;
            }
            String line = facts.sourceLine(in);
            if (line != null) {
                if (!SourceText.hasDivision(line) && !SourceText.calls(line, "__frcp_rn", "__drcp_rn")) {
                    continue;
                }
                if (SourceText.callsExactRoutine(line) && facts.computedOnItsLine(in)) {
                    // fmodf's quotient estimate |x|/|y| (libdevice carries the calling line): the routine corrects
                    // it and its remainder is exact
                    continue;
                }
            }
            String what = PtxMessages.format(
                    ruleId(), in.full() ? "ptx-what-full" : div ? "ptx-what-approx" : "ptx-what-rcp");
            String cause = facts.ftzMode() || facts.settings().fastMathBuild()
                    ? "fast math"
                    : in.full() ? "-prec-div=false" : "__fdividef or -prec-div=false";
            Consequence c = facts.consequences().of(in);
            PtxHit hit = new PtxHit(
                    ruleId(),
                    facts.function(),
                    in,
                    PtxMessages.message(ruleId(), "ptx-div", "instr", in.text(), "what", what, "cause", cause),
                    line == null ? Confidence.MEDIUM : Confidence.HIGH,
                    List.of(),
                    in.mnemonic(),
                    c.kind() == Impact.Kind.BOUNDED ? null : c);
            // a float division the project's build made approximate, which no intrinsic on the line asked for
            boolean chosen =
                    "f32".equals(t) && facts.settings().divisionBuild() && !SourceText.writesApproximation(line);
            out.accept(chosen ? hit.withJudgement(Identity.Judgement.CHOSEN_APPROXIMATION) : hit);
        }
    }

    /** A library reciprocal refined by Newton iterations (its result feeds fma.rn or a negation). */
    private static boolean refinedByFma(PtxFacts facts, Instruction in) {
        for (int u : facts.defUse().users(in.index())) {
            Instruction x = facts.function().instruction(u);
            if (x.opcode().equals("neg") || (x.opcode().equals("fma") && x.rounding() != null)) {
                return true;
            }
        }
        return false;
    }
}
