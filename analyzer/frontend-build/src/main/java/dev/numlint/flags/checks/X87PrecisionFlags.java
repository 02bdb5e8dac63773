package dev.numlint.flags.checks;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL005 in build flags: {@code -m32} (GCC's 32-bit x86 default is {@code -mfpmath=387}) unless a later
 * {@code -m64} or an {@code -mfpmath=sse} anywhere undoes it, and {@code -mfpmath=387}/{@code both} unless a later
 * {@code -mfpmath=sse} does.
 */
@AutoService(BuildFlagCheck.class)
public final class X87PrecisionFlags implements BuildFlagCheck {
    @Override
    public String ruleId() {
        return "NL005";
    }

    @Override
    public void check(FlagFacts facts, Consumer<FlagHazard> out) {
        List<FlagEntry> es = facts.entries();
        for (int i = 0; i < es.size(); i++) {
            FlagEntry e = es.get(i);
            if (e.target() == FlagTarget.DEVICE) continue;
            String v = e.value();
            String key = null;
            if (e.name().equals("m32")) {
                if (!facts.cancelled(i, false, o -> o.name().equals("m64"))
                        && !facts.cancelled(i, true, o -> o.name().equals("mfpmath") && "sse".equals(o.value()))) {
                    key = "flags-m32";
                }
            } else if (e.name().equals("mfpmath") && v != null && (v.contains("387") || v.equals("both"))) {
                if (!facts.cancelled(i, false, o -> o.name().equals("mfpmath") && "sse".equals(o.value()))) {
                    key = "flags-x87";
                }
            }
            if (key != null) {
                out.accept(FlagFacts.hazard(ruleId(), key, e));
            }
        }
    }
}
