package dev.numlint.spi;

import dev.numlint.model.Level;

/** Effective rule configuration (catalog defaults overlaid with {@code .numlint.yml}). */
public interface RuleSettings {
    boolean enabled(String ruleId);

    Level level(String ruleId);

    /** Option value as text (configured or catalog default). */
    String option(String ruleId, String option);

    default int intOption(String ruleId, String option) {
        return Integer.parseInt(option(ruleId, option));
    }

    default boolean boolOption(String ruleId, String option) {
        return Boolean.parseBoolean(option(ruleId, option));
    }
}
