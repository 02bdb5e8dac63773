package dev.numlint.flags.checks;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL007 in build flags: nvcc {@code --use_fast_math} (implies {@code -ftz=true} unless {@code -ftz=false} is given
 * anywhere) and {@code -ftz=true}; host {@code -ffast-math}/{@code -Ofast} and
 * {@code -funsafe-math-optimizations}, whose link step adds crtfastmath.o (FTZ/DAZ for the whole process): not where
 * the flag is a compile option only ({@link #compileOnly}).
 */
@AutoService(BuildFlagCheck.class)
public final class FlushToZeroFlags implements BuildFlagCheck {
    @Override
    public String ruleId() {
        return "NL007";
    }

    /**
     * Whether the flag reaches only compile commands: CMake's {@code add_compile_options} and {@code
     * target_compile_options} are not on the link line (CMake links with the language's {@code CMAKE_<LANG>_FLAGS}
     * and the link options), so GCC does not link crtfastmath.o for them (session 65 round B: a t-SNE library's
     * {@code target_compile_options(... -ffast-math)} was said to flush subnormals in the whole process).
     */
    static boolean compileOnly(FlagEntry e) {
        String via = e.origin() == null ? null : e.origin().via();
        return via != null && (via.startsWith("add_compile_options") || via.startsWith("target_compile_options"));
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
                    && (facts.hostFastMath(i) || e.name().equals("funsafe-math-optimizations"))
                    && !compileOnly(e)) {
                key = "flags-crtfastmath";
            }
            if (key != null) {
                out.accept(FlagFacts.hazard(ruleId(), key, e));
            }
        }
    }
}
