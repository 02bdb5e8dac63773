package dev.numlint.flags.checks;

import dev.numlint.model.Level;

/**
 * A hazardous flag setting to report: the rule, the flag entry it is written at and the one-line message.
 * {@code level} null means the rule's configured level. {@code finiteMath}: the hazard is that the flag lets the
 * host compiler assume no NaN or infinity ({@code -ffinite-math-only}, part of {@code -ffast-math}), so the tests of
 * the code it compiles for them ({@code isnan}, {@code isfinite}, {@code isinf}) may fold away: the report names one.
 * {@code hostRounding}: the flag changes how host code rounds (a reciprocal for a division, a fused multiply-add, a
 * less accurate math routine); what that changes lies in the code, where the source layers judge each site, so the
 * flag's own finding is a warning only where the scan shows a consequence of the flag itself (a test for NaN or
 * infinity that finite math folds away), else a note (session 70: reviewers judged 37 of 39 such flag findings of
 * sessions 66 to 70 deliberate or tolerant; the two actionable were a folded {@code isfinite} and a PUBLIC
 * {@code -march=native}).
 */
public record FlagHazard(
        String ruleId, Level level, FlagEntry entry, String message, boolean finiteMath, boolean hostRounding) {
    public FlagHazard(String ruleId, Level level, FlagEntry entry, String message) {
        this(ruleId, level, entry, message, false, false);
    }

    /** The same hazard judged by the host code's tests for NaN or infinity. */
    public FlagHazard withFiniteMath() {
        return new FlagHazard(ruleId, level, entry, message, true, hostRounding);
    }

    /** The same hazard, a change of host code's rounding whose consequences lie at the sites ({@link #hostRounding}). */
    public FlagHazard withHostRounding() {
        return new FlagHazard(ruleId, level, entry, message, finiteMath, true);
    }
}
