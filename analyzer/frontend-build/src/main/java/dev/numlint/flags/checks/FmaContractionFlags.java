package dev.numlint.flags.checks;

import com.google.auto.service.AutoService;
import dev.numlint.knowledge.HostContraction;
import dev.numlint.model.BuildContext;
import dev.numlint.model.Level;
import java.util.List;
import java.util.function.Consumer;

/**
 * NL003 in build flags: an explicit nvcc {@code -fmad=true} (at level note: it is nvcc's default), and host
 * {@code -march=} values with FMA or {@code -mfma} without {@code -ffp-contract=off} (GCC contracts a*b+c by
 * default), unless a later {@code -march=} without FMA or {@code -mno-fma} undoes it. With a C standard in ISO mode
 * ({@code -std=c99}) and GCC (or no compiler named), a note: GCC's default there is {@code -ffp-contract=off}.
 */
@AutoService(BuildFlagCheck.class)
public final class FmaContractionFlags implements BuildFlagCheck {
    @Override
    public String ruleId() {
        return "NL003";
    }

    @Override
    public void check(FlagFacts facts, Consumer<FlagHazard> out) {
        List<FlagEntry> es = facts.entries();
        for (int i = 0; i < es.size(); i++) {
            FlagEntry e = es.get(i);
            String v = e.value();
            if (FlagFacts.device(e, "fmad")) {
                if (FlagFacts.isTrue(v) && !facts.cancelledBy(i, false, "fmad", "false")) {
                    out.accept(new FlagHazard(
                            ruleId(), Level.NOTE, e, FlagFacts.message(ruleId(), "flags-fmad", "flag", e.flag())));
                }
                continue;
            }
            if (e.target() == FlagTarget.DEVICE) continue;
            boolean fma;
            if (e.name().equals("march") && v != null) {
                fma = BuildContext.archHasFma(v)
                        && !facts.cancelled(
                                i,
                                false,
                                o -> o.name().equals("march")
                                        && !BuildContext.archHasFma(o.value() == null ? "" : o.value()));
            } else {
                fma = e.name().equals("mfma")
                        && !facts.cancelled(i, false, o -> o.name().equals("mno-fma"));
            }
            if (fma && !facts.cancelled(i, true, o -> o.name().equals("ffp-contract") && "off".equals(o.value()))) {
                if (isoC(facts, i)) {
                    // gcc -std=c99 -march=native: FMA instructions, but GCC's default for ISO C is
                    // -ffp-contract=off, so no a*b+c is fused (HostContraction): a note that says why
                    out.accept(new FlagHazard(
                            ruleId(),
                            Level.NOTE,
                            e,
                            FlagFacts.message(
                                    ruleId(),
                                    "flags-host-fma-iso-c",
                                    "flag",
                                    e.flag(),
                                    "where",
                                    e.target().where(),
                                    "machine",
                                    "native".equals(v) ? " where the CPU has it" : "",
                                    "std",
                                    facts.hostStd())));
                    continue;
                }
                out.accept(new FlagHazard(
                                ruleId(),
                                null,
                                e,
                                FlagFacts.message(
                                        ruleId(),
                                        "flags-host-fma",
                                        "flag",
                                        e.flag(),
                                        "where",
                                        e.target().where(),
                                        "machine",
                                        "native".equals(v) ? " where the CPU has it" : ""))
                        .withHostRounding());
            }
        }
    }

    /**
     * Whether the host compiler of these flags compiles C in an ISO mode without turning contraction on: GCC's default
     * is then {@code -ffp-contract=off} ({@link HostContraction}). An explicit {@code -ffp-contract=} other than off,
     * {@code -ffast-math} or {@code -Ofast} among the flags turns it on.
     */
    private static boolean isoC(FlagFacts facts, int idx) {
        FlagEntry e = facts.entries().get(idx);
        if (e.target() != FlagTarget.HOST || !HostContraction.offByDefault(facts.hostCompiler(), facts.hostStd()))
            return false;
        if (facts.cancelled(idx, true, o -> o.name().equals("ffp-contract") && !"off".equals(o.value()))) return false;
        for (int j = 0; j < facts.entries().size(); j++) {
            if (facts.entries().get(j).target() == FlagTarget.HOST && facts.hostFastMath(j)) return false;
        }
        return true;
    }
}
