package dev.numlint.config;

import dev.numlint.model.Level;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RuleOption;
import dev.numlint.spi.RuleSettings;
import java.util.Map;
import java.util.Optional;

/** {@link RuleSettings} from the catalog defaults overlaid with {@code .numlint.yml}. Immutable, thread-safe. */
public final class ConfiguredRuleSettings implements RuleSettings {
    private final RuleCatalog catalog;
    private final Map<String, RuleConfig> config;

    public ConfiguredRuleSettings(RuleCatalog catalog, Map<String, RuleConfig> config) {
        this.catalog = catalog;
        this.config = Map.copyOf(config);
    }

    /** Catalog defaults only. */
    public static ConfiguredRuleSettings defaults() {
        return new ConfiguredRuleSettings(RuleCatalog.get(), Map.of());
    }

    @Override
    public boolean enabled(String ruleId) {
        RuleConfig c = config.get(ruleId);
        return c == null || c.enabled() == null || c.enabled();
    }

    @Override
    public Level level(String ruleId) {
        return configuredLevel(ruleId).orElseGet(() -> catalog.rule(ruleId).level());
    }

    /** The level set in the configuration, which overrides any level an analyzer chose. */
    public Optional<Level> configuredLevel(String ruleId) {
        RuleConfig c = config.get(ruleId);
        return Optional.ofNullable(c == null ? null : c.level());
    }

    @Override
    public String option(String ruleId, String option) {
        Rule rule = catalog.rule(ruleId);
        RuleOption o = rule.option(option);
        if (o == null) {
            throw new IllegalArgumentException("rule " + ruleId + " has no option '" + option + "'");
        }
        RuleConfig c = config.get(ruleId);
        String v = c == null ? null : c.options().get(option);
        return v != null ? v : o.defaultValue();
    }
}
