package dev.numlint.flags.checks;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL007 in build flags: nvcc {@code --use_fast_math} (implies {@code -ftz=true} unless {@code -ftz=false} is given
 * anywhere) and {@code -ftz=true}; host {@code -ffast-math}/{@code -Ofast} and
 * {@code -funsafe-math-optimizations}, whose link step adds crtfastmath.o (FTZ/DAZ for the whole process).
 */
@AutoService(BuildFlagCheck.class)
public final class FlushToZeroFlags implements BuildFlagCheck {
    @Override
    public String ruleId() {
        return "NL007";
    }

    @Override
    public void check(FlagFacts facts, Consumer<FlagHazard> out) {
        List<FlagEntry> es = facts.entries();
        for (int i = 0; i < es.size(); i++) {
            FlagEntry e = es.get(i);
            String key = null;
            if (FlagFacts.fastMath(e)) {
                if (!facts.cancelledBy(i, true, "ftz", "false")) key = "flags-fast-math-ftz";
            } else if (FlagFacts.device(e, "ftz")) {
                if (FlagFacts.isTrue(e.value()) && !facts.cancelledBy(i, false, "ftz", "false")) key = "flags-ftz";
            } else if (e.target() != FlagTarget.DEVICE
                    && (facts.hostFastMath(i) || e.name().equals("funsafe-math-optimizations"))) {
                key = "flags-crtfastmath";
            }
            if (key != null) {
                out.accept(FlagFacts.hazard(ruleId(), key, e));
            }
        }
    }
}
