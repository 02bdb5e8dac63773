package dev.numlint.flags.checks;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL004 in build flags: host {@code -fassociative-math} and {@code -funsafe-math-optimizations} (which turns it on),
 * unless a later {@code -fno-associative-math} or {@code -fno-unsafe-math-optimizations} turns it off. GCC and Clang
 * may then reassociate float sums, vectorized reductions among them: a sum's rounding depends on the compiler and its
 * vector width, not on the order the source writes (session 72 round C: a sinc resampler built with {@code -O3 -mavx2
 * -fassociative-math} had no finding, and its sums' notes said nothing reorders them). {@code -ffast-math} and {@code
 * -Ofast} reassociate too; they are reported by the rules of their other effects (NL002, NL006, NL007), whose pages
 * say so. A note for host code: each sum's consequence is judged where it is.
 */
@AutoService(BuildFlagCheck.class)
public final class ReassociationFlags implements BuildFlagCheck {
    @Override
    public String ruleId() {
        return "NL004";
    }

    @Override
    public void check(FlagFacts facts, Consumer<FlagHazard> out) {
        List<FlagEntry> es = facts.entries();
        for (int i = 0; i < es.size(); i++) {
            FlagEntry e = es.get(i);
            if (e.target() == FlagTarget.DEVICE) continue;
            boolean on = (e.name().equals("fassociative-math") || e.name().equals("funsafe-math-optimizations"))
                    && !facts.associativeUndone(i);
            if (on)
                out.accept(FlagFacts.hazard(ruleId(), "flags-reassociation", e).withHostRounding());
        }
    }
}
