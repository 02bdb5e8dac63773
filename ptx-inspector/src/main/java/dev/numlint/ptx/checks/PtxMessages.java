package dev.numlint.ptx.checks;

import dev.numlint.rules.RuleCatalog;

/** Message templates of the PTX layer: catalog keys {@code ptx-*} of each rule. */
final class PtxMessages {
    private PtxMessages() {}

    static String format(String ruleId, String key, Object... args) {
        return RuleCatalog.get().rule(ruleId).message(key, args);
    }
}
