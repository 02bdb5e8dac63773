package dev.numlint.flags.checks;

import dev.numlint.model.Level;

/**
 * A hazardous flag setting to report: the rule, the flag entry it is written at and the one-line message.
 * {@code level} null means the rule's configured level. {@code finiteMath}: the hazard is that the flag lets the
 * host compiler assume no NaN or infinity ({@code -ffinite-math-only}, part of {@code -ffast-math}), so the tests of
 * the code it compiles for them ({@code isnan}, {@code isfinite}, {@code isinf}) may fold away: the report names one.
 */
public record FlagHazard(String ruleId, Level level, FlagEntry entry, String message, boolean finiteMath) {
    public FlagHazard(String ruleId, Level level, FlagEntry entry, String message) {
        this(ruleId, level, entry, message, false);
    }

    /** The same hazard judged by the host code's tests for NaN or infinity. */
    public FlagHazard withFiniteMath() {
        return new FlagHazard(ruleId, level, entry, message, true);
    }
}
