package dev.numlint.spi;

import dev.numlint.model.Layer;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/** Finds the registered {@link RuleCheck}s of one layer. */
public final class Checks {
    private Checks() {}

    /**
     * The checks registered for {@code type} (through {@code META-INF/services}, written by {@code @AutoService}),
     * in rule-id then class-name order. Fails fast when a check names a rule the catalog does not have or whose
     * catalog entry does not list {@code layer}: a registration that disagrees with the catalog is a bug.
     */
    public static <T extends RuleCheck> List<T> load(Class<T> type, Layer layer) {
        List<T> checks = new ArrayList<>();
        for (T c : ServiceLoader.load(type, type.getClassLoader())) {
            checks.add(c);
        }
        RuleCatalog catalog = RuleCatalog.get();
        for (T c : checks) {
            if (!catalog.has(c.ruleId())) {
                throw new IllegalStateException(
                        c.getClass().getName() + " checks " + c.ruleId() + ", which is not in the rule catalog");
            }
            if (!catalog.rule(c.ruleId()).appliesTo(layer)) {
                throw new IllegalStateException(c.getClass().getName() + " checks " + c.ruleId() + " at layer "
                        + layer.id() + ", but the catalog does not list that layer for the rule");
            }
        }
        checks.sort(Comparator.comparing((T c) -> c.ruleId())
                .thenComparing(c -> c.getClass().getName()));
        return List.copyOf(checks);
    }

    /** The rule ids of {@code checks}. */
    public static Set<String> ruleIds(List<? extends RuleCheck> checks) {
        Set<String> ids = new TreeSet<>();
        for (RuleCheck c : checks) {
            ids.add(c.ruleId());
        }
        return ids;
    }
}
