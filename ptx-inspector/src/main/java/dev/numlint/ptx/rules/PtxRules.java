package dev.numlint.ptx.rules;

import dev.numlint.model.Layer;
import dev.numlint.ptx.checks.PtxCheck;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.spi.Checks;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Runs the registered PTX checks ({@link PtxCheck}, one class per rule in {@code dev.numlint.ptx.checks}) over one
 * function: the facts are computed once and shared.
 */
public final class PtxRules {
    private static final List<PtxCheck> CHECKS = Checks.load(PtxCheck.class, Layer.PTX);

    private PtxRules() {}

    /** The rules implemented at the PTX layer, derived from the registered checks. */
    public static Set<String> implementedRules() {
        return Checks.ruleIds(CHECKS);
    }

    /** Runs every enabled check over {@code fn}. */
    public static List<PtxHit> check(PtxFunction fn, PtxFacts.Settings settings, Predicate<String> enabled) {
        if (fn.isDeclarationOnly()) {
            return List.of();
        }
        PtxFacts facts = new PtxFacts(fn, settings);
        List<PtxHit> hits = new ArrayList<>();
        for (PtxCheck c : CHECKS) {
            if (enabled.test(c.ruleId())) {
                c.check(facts, hits::add);
            }
        }
        hits.sort((a, b) -> Integer.compare(a.at().index(), b.at().index()));
        return hits;
    }
}
