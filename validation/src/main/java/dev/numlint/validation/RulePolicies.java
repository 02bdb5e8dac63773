package dev.numlint.validation;

import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RulePolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What validation asks of the rules' policies (catalog.yml {@code policy:}): which rule a variant isolates, which
 * rule the x86 host comparison speaks for, which inputs exercise a rule. Validation names variants and input
 * distributions, never rules.
 */
final class RulePolicies {
    private RulePolicies() {}

    /** The rule whose policy names {@code variant} as the nvcc variant that isolates it, or null. */
    static String ruleOfVariant(String variant) {
        return first(p -> variant.equals(p.validationVariant()));
    }

    /** The nvcc flag that builds the rule's isolating variant ({@code -fmad=false}), or null. */
    static String flagOf(String rule) {
        return rule == null ? null : RuleCatalog.get().policy(rule).validationFlag();
    }

    /** The rule whose policy names {@code rewrite} as the PTX rewrite that isolates it ({@code unfuse-fma}), or null. */
    static String ruleOfPtxVariant(String rewrite) {
        return first(p -> rewrite.equals(p.validationPtxVariant()));
    }

    /** The rule the x86 host build's differences are attributed to (a conversion that wraps on x86), or null. */
    static String hostComparisonRule() {
        return first(RulePolicy::hostComparison);
    }

    /** Whether a rule found in the kernel ({@code hits}) asks for the input distribution {@code name}. */
    static boolean wantsInputs(Map<String, ?> hits, String name) {
        for (String rule : hits.keySet()) {
            if (RuleCatalog.get().policy(rule).validationInputs().contains(name)) {
                return true;
            }
        }
        return false;
    }

    /** The rules whose policy names an nvcc variant, in their validation order. */
    static List<String> nvccVariantRules() {
        return ordered(p -> p.validationVariant() != null && p.validationFlag() != null);
    }

    /** The rules whose policy names a PTX rewrite, in their validation order. */
    static List<String> ptxVariantRules() {
        return ordered(p -> p.validationPtxVariant() != null);
    }

    /** The rules whose hazards, all on, make the as-built PTX a fast-math build ({@code validation-ptx-fast-math}). */
    static List<String> ptxFastMathRules() {
        return RuleCatalog.get().rulesWhere(RulePolicy::validationPtxFastMath);
    }

    static RulePolicy policy(String rule) {
        return RuleCatalog.get().policy(rule);
    }

    private static List<String> ordered(java.util.function.Predicate<RulePolicy> which) {
        List<String> ids = new ArrayList<>(RuleCatalog.get().rulesWhere(which));
        ids.sort(Comparator.comparingInt(id -> policy(id).validationOrder()));
        return ids;
    }

    private static String first(java.util.function.Predicate<RulePolicy> which) {
        var ids = RuleCatalog.get().rulesWhere(which);
        return ids.isEmpty() ? null : ids.get(0);
    }
}
