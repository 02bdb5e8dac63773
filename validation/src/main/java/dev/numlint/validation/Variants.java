package dev.numlint.validation;

import dev.numlint.rules.RulePolicy;
import dev.numlint.validation.interp.Decoder;
import dev.numlint.validation.interp.PtxText;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The builds of a kernel that validation compares: as-built, IEEE-strict and one per hazard switched off alone,
 * as nvcc flags for a .cu file or as PTX-level switches for PTX (the one list generated-input validation and the
 * replay of recordings use). Each single-switch build isolates the rule whose policy names it (catalog.yml): its
 * nvcc flag, when its hazard is on, its PTX rewrite with the interpreter's options, and its place in the order. A new
 * variant is a catalog edit.
 */
public final class Variants {
    private Variants() {}

    /** A build of the file: nvcc flags for .cu, PTX-level switches for .ptx. */
    static final class Variant {
        final String name, rule;
        final List<String> flags;
        final Decoder.Options opts;
        PtxText.Module module;
        String ptx, error;

        Variant(String name, String rule, List<String> flags, Decoder.Options opts) {
            this.name = name;
            this.rule = rule;
            this.flags = flags;
            this.opts = opts;
        }
    }

    /** The strict build's flags: the flag of every rule's variant, in the variants' order (catalog.yml). */
    static final String[] STRICT_FLAGS =
            RulePolicies.nvccVariantRules().stream().map(RulePolicies::flagOf).toArray(String[]::new);

    /**
     * {@code flags} with {@code flag} ({@code -name=value}) in place of any earlier value of the same option: nvcc
     * takes the last one, and the build's label then shows the flags in effect ({@code -ftz=false}, not
     * {@code -ftz=true -ftz=false}).
     */
    static List<String> withFlag(List<String> flags, String flag) {
        String name = flag.substring(0, flag.indexOf('=') + 1).replaceFirst("^--?", "");
        List<String> out = new ArrayList<>();
        for (String f : flags) {
            if (!f.replaceFirst("^--?", "").startsWith(name)) out.add(f);
        }
        out.add(flag);
        return out;
    }

    /**
     * The rules whose hazard is on under nvcc {@code flags}: the effective value of the option the rule's variant flag
     * sets ({@code -fmad=false}: option {@code fmad}) differs from the flag's, where the last explicit value counts,
     * then {@code --use_fast_math} and nvcc's default as the rule's policy states ({@code validation-hazard-on}).
     */
    static Set<String> hazardsOn(List<String> flags) {
        Set<String> on = new LinkedHashSet<>();
        for (String rule : RulePolicies.nvccVariantRules()) {
            String flag = bare(RulePolicies.flagOf(rule));
            String option = flag.substring(0, flag.indexOf('=') + 1);
            List<String> hazardOn = RulePolicies.policy(rule).validationHazardOn();
            boolean hazard = hazardOn.contains("default");
            for (String f : flags) {
                String x = bare(f);
                if (x.equals("use_fast_math") || x.equals("use-fast-math")) {
                    hazard |= hazardOn.contains("use_fast_math");
                } else if (x.startsWith(option)) {
                    hazard = !x.equals(flag);
                }
            }
            if (hazard) on.add(rule);
        }
        return on;
    }

    /** Whether the as-built PTX is checked as a fast-math build: the hazards of the rules whose policy says so are on. */
    static boolean ptxFastMath(List<String> flags) {
        return hazardsOn(flags).containsAll(RulePolicies.ptxFastMathRules());
    }

    private static String bare(String flag) {
        return flag.replaceFirst("^--?", "");
    }

    static List<Variant> cuVariants(List<String> asBuilt) {
        List<Variant> v = new ArrayList<>();
        v.add(new Variant("as-built", null, asBuilt, new Decoder.Options().contract(true)));
        List<String> strict = new ArrayList<>(asBuilt);
        for (String s : STRICT_FLAGS) strict = withFlag(strict, s);
        v.add(new Variant("strict", null, strict, new Decoder.Options().contract(true)));
        Set<String> on = hazardsOn(asBuilt);
        // in the policies' order: each isolates the rule whose policy names it (catalog.yml)
        for (String rule : RulePolicies.nvccVariantRules()) {
            if (!on.contains(rule)) continue;
            List<String> f = withFlag(asBuilt, RulePolicies.flagOf(rule));
            v.add(new Variant(
                    RulePolicies.policy(rule).validationVariant(), rule, f, new Decoder.Options().contract(true)));
        }
        return v;
    }

    /**
     * The nvcc builds of a .cu unit whose as-built command has {@code asBuilt} flags: as-built, strict, and each
     * hazard's switch alone where the as-built command has the hazard on (the flags of each: the command with only
     * that flag changed). Replay's builds from the project's own compile command.
     */
    public static List<PtxVariant> nvccVariantsOf(List<String> asBuilt) {
        List<PtxVariant> out = new ArrayList<>();
        for (Variant v : cuVariants(asBuilt)) out.add(new PtxVariant(v.name, v.rule, v.flags, v.opts));
        return out;
    }

    /** A PTX-level build of a kernel: its name, the rule it isolates (null for as-built and strict), its switches. */
    public record PtxVariant(String name, String rule, List<String> flags, Decoder.Options opts) {}

    /**
     * The PTX-level builds of a kernel with the findings {@code hits}: as-built, strict, and one rewrite per rule whose
     * policy names it. The one list both the generated-input validation and the replay of recordings use.
     */
    public static List<PtxVariant> ptxVariantsOf(Map<String, KernelHazards.Hit> hits) {
        List<PtxVariant> out = new ArrayList<>();
        for (Variant v : ptxVariants(hits)) out.add(new PtxVariant(v.name, v.rule, v.flags, v.opts));
        return out;
    }

    static List<Variant> ptxVariants(Map<String, KernelHazards.Hit> hits) {
        List<Variant> v = new ArrayList<>();
        v.add(new Variant("as-built", null, List.of(), new Decoder.Options().contract(true)));
        // strict: every rewrite at once (an option is on when a rewrite sets it; contraction only when all keep it)
        List<String> strictFlags = new ArrayList<>();
        Set<String> strictOptions = new LinkedHashSet<>();
        boolean contract = true;
        for (String rule : RulePolicies.ptxVariantRules()) {
            RulePolicy p = RulePolicies.policy(rule);
            strictFlags.add("ptx:" + p.validationPtxVariant());
            strictOptions.addAll(p.validationPtxOptions());
            contract &= p.validationPtxOptions().contains("contract");
        }
        if (!contract) strictOptions.remove("contract");
        v.add(new Variant("strict", null, strictFlags, options(strictOptions)));
        // each rewrite isolates the rule whose policy names it (catalog.yml), when the kernel has its findings
        for (String rule : RulePolicies.ptxVariantRules()) {
            if (!hits.containsKey(rule)) continue;
            RulePolicy p = RulePolicies.policy(rule);
            v.add(new Variant(
                    p.validationPtxVariant(),
                    rule,
                    List.of("ptx:" + p.validationPtxVariant()),
                    options(p.validationPtxOptions())));
        }
        return v;
    }

    /** The interpreter's options a policy names ({@code validation-ptx-options}). */
    private static Decoder.Options options(java.util.Collection<String> names) {
        Decoder.Options o = new Decoder.Options();
        for (String n : names) o.option(n);
        return o;
    }
}
