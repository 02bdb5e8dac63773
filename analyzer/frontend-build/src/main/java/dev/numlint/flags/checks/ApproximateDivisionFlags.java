package dev.numlint.flags.checks;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL002 in build flags: nvcc {@code --use_fast_math} (implies {@code -prec-div=false} unless {@code -prec-div=true}
 * is given anywhere) and {@code -prec-div=false}; host {@code -ffast-math}/{@code -Ofast},
 * {@code -funsafe-math-optimizations}, {@code -freciprocal-math} and Intel's {@code -fp-model fast} (x/y as x*(1/y)).
 */
@AutoService(BuildFlagCheck.class)
public final class ApproximateDivisionFlags implements BuildFlagCheck {
    @Override
    public String ruleId() {
        return "NL002";
    }

    @Override
    public void check(FlagFacts facts, Consumer<FlagHazard> out) {
        List<FlagEntry> es = facts.entries();
        for (int i = 0; i < es.size(); i++) {
            FlagEntry e = es.get(i);
            String key = null;
            if (FlagFacts.fastMath(e)) {
                if (!facts.cancelledBy(i, true, "prec-div", "true")) key = "flags-fast-math-div";
            } else if (FlagFacts.device(e, "prec-div")) {
                if (FlagFacts.isFalse(e.value())
                        && !facts.cancelledBy(i, false, "prec-div", "true")
                        && !fastMathOnItsLine(facts, i)) {
                    key = "flags-prec-div";
                }
            } else if (e.target() != FlagTarget.DEVICE
                    && (facts.hostFastMath(i)
                            || facts.intelFastModel(i)
                            || e.name().equals("funsafe-math-optimizations")
                            || e.name().equals("freciprocal-math"))) {
                // a later -fno-unsafe-math-optimizations or -fno-reciprocal-math keeps x / y a division
                if (facts.intelFastModel(i) || !facts.reciprocalUndone(i)) key = "flags-host-reciprocal";
            }
            if (key != null) {
                FlagHazard h = FlagFacts.hazard(ruleId(), key, e);
                out.accept(e.target() == FlagTarget.DEVICE ? h : h.withHostRounding());
            }
        }
    }

    /**
     * Whether an uncancelled {@code --use_fast_math} is written on the line of entry {@code i} (a {@code -prec-div=false}):
     * the division is then div.approx, which that flag's finding says; one finding of the rule per line is kept, and
     * {@code -prec-div=false}'s div.full wording came first on gpufilter's {@code -prec-div=false -prec-sqrt=false
     * -use_fast_math} (session 82 round Q).
     */
    private static boolean fastMathOnItsLine(FlagFacts facts, int i) {
        List<FlagEntry> es = facts.entries();
        dev.numlint.model.Location at = es.get(i).loc();
        if (at == null) return false;
        for (int j = 0; j < es.size(); j++) {
            dev.numlint.model.Location l = es.get(j).loc();
            if (j != i
                    && l != null
                    && java.util.Objects.equals(l.file(), at.file())
                    && l.startLine() == at.startLine()
                    && FlagFacts.fastMath(es.get(j))
                    && !facts.cancelledBy(j, true, "prec-div", "true")) return true;
        }
        return false;
    }
}
