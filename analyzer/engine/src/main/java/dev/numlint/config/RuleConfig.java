package dev.numlint.config;

import dev.numlint.model.Level;
import java.util.Map;

/**
 * What {@code .numlint.yml} says about one rule.
 *
 * @param enabled configured on/off, or null when not configured
 * @param level   configured level, or null when not configured
 * @param options configured option values as text (validated against the rule's option types)
 */
public record RuleConfig(Boolean enabled, Level level, Map<String, String> options) {
    public RuleConfig {
        options = options == null ? Map.of() : Map.copyOf(options);
    }
}
