package dev.numlint.spi;

/**
 * One rule at one layer: a small class named after what it checks (e.g. {@code UnguardedUnsignedCast}), with the
 * rule's logic and nothing else. Each front end defines the sub-interface its checks implement (it hands them the
 * facts it computed once per unit) and finds them with {@link Checks#load}; checks are registered with
 * {@code @AutoService(TheLayersCheckInterface.class)}, so every list of implemented rules (the analyzers'
 * {@link Analyzer#implementedRules()}, the SpotBugs descriptors, the consistency test, the docs) is derived from the
 * registration and never kept by hand.
 */
public interface RuleCheck {
    /** The catalog id of the rule this check implements, e.g. NL001. */
    String ruleId();
}
