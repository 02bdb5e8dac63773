package dev.numlint.flags.checks;

import dev.numlint.model.Level;

/**
 * A hazardous flag setting to report: the rule, the flag entry it is written at and the one-line message.
 * {@code level} null means the rule's configured level.
 */
public record FlagHazard(String ruleId, Level level, FlagEntry entry, String message) {}
