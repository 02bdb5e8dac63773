package dev.numlint.flags.checks;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL006 in build flags: nvcc {@code --use_fast_math} (intrinsic math functions, approximate sqrtf),
 * {@code -prec-sqrt=false}, host {@code -ffast-math}/{@code -Ofast} (less accurate math forms, finite math) and
 * Intel's {@code -fp-model fast} (approximate math library routines).
 */
@AutoService(BuildFlagCheck.class)
public final class ApproximateMathFlags implements BuildFlagCheck {
    @Override
    public String ruleId() {
        return "NL006";
    }

    @Override
    public void check(FlagFacts facts, Consumer<FlagHazard> out) {
        List<FlagEntry> es = facts.entries();
        for (int i = 0; i < es.size(); i++) {
            FlagEntry e = es.get(i);
            String key = null;
            if (FlagFacts.fastMath(e)) {
                key = "flags-fast-math-func";
            } else if (FlagFacts.device(e, "prec-sqrt")) {
                if (FlagFacts.isFalse(e.value()) && !facts.cancelledBy(i, false, "prec-sqrt", "true")) {
                    key = "flags-prec-sqrt";
                }
            } else if (facts.hostFastMath(i)) {
                // a later -fno-unsafe-math-optimizations keeps the math accurate; -fno-finite-math-only keeps NaN
                boolean accurate = facts.unsafeMathUndone(i), nan = facts.finiteMathUndone(i);
                key = accurate && nan
                        ? null
                        : accurate
                                ? "flags-host-fast-math-finite-only"
                                : nan ? "flags-host-fast-math-nan-kept" : "flags-host-fast-math";
            } else if (facts.intelFastModel(i)) {
                key = "flags-intel-fast-model";
            }
            if (key != null) {
                FlagHazard h = FlagFacts.hazard(ruleId(), key, e);
                // -ffast-math implies -ffinite-math-only: the host code's NaN and infinity tests may fold away
                boolean finite = key.equals("flags-host-fast-math") || key.equals("flags-host-fast-math-finite-only");
                if (finite) h = h.withFiniteMath();
                out.accept(e.target() == FlagTarget.DEVICE ? h : h.withHostRounding());
            }
        }
    }
}
