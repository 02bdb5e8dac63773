package dev.numlint.validation;

import dev.numlint.validation.interp.Decoder;
import dev.numlint.validation.interp.PtxText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The builds of a kernel that validation compares: as-built, IEEE-strict and one per hazard switched off alone,
 * as nvcc flags for a .cu file or as PTX-level switches for PTX (the one list generated-input validation and the
 * replay of recordings use). Each single-switch build isolates the rule whose policy names it (catalog.yml).
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

    static final String[] STRICT_FLAGS = {"-fmad=false", "-prec-div=true", "-prec-sqrt=true", "-ftz=false"};

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

    /** Effective hazard settings of nvcc flags: {fmad, !precDiv, !precSqrt, ftz}. */
    static boolean[] hazards(List<String> flags) {
        boolean fmad = true, approxDiv = false, approxSqrt = false, ftz = false;
        for (String f : flags) {
            String x = f.replaceFirst("^--?", "");
            if (x.equals("use_fast_math") || x.equals("use-fast-math")) {
                fmad = true;
                approxDiv = true;
                approxSqrt = true;
                ftz = true;
            } else if (x.startsWith("fmad=")) fmad = x.endsWith("true");
            else if (x.startsWith("prec-div=")) approxDiv = x.endsWith("false");
            else if (x.startsWith("prec-sqrt=")) approxSqrt = x.endsWith("false");
            else if (x.startsWith("ftz=")) ftz = x.endsWith("true");
        }
        return new boolean[] {fmad, approxDiv, approxSqrt, ftz};
    }

    static List<Variant> cuVariants(List<String> asBuilt) {
        List<Variant> v = new ArrayList<>();
        v.add(new Variant("as-built", null, asBuilt, new Decoder.Options().contract(true)));
        List<String> strict = new ArrayList<>(asBuilt);
        for (String s : STRICT_FLAGS) strict = withFlag(strict, s);
        v.add(new Variant("strict", null, strict, new Decoder.Options().contract(true)));
        boolean[] h = hazards(asBuilt);
        // in the order of hazards(): each isolates the rule whose policy names it (catalog.yml)
        String[] single = {"fmad=false", "prec-div=true", "prec-sqrt=true", "ftz=false"};
        for (int i = 0; i < 4; i++) {
            String rule = RulePolicies.ruleOfVariant(single[i]);
            if (!h[i] || rule == null) continue;
            List<String> f = withFlag(asBuilt, RulePolicies.flagOf(rule));
            v.add(new Variant(single[i], rule, f, new Decoder.Options().contract(true)));
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
        v.add(new Variant(
                "strict",
                null,
                List.of("ptx:unfuse-fma", "ptx:div.rn", "ptx:sqrt.rn", "ptx:no-ftz"),
                new Decoder.Options()
                        .unfuseFma(true)
                        .exactDiv(true)
                        .exactSqrt(true)
                        .noFtz(true)));
        // each rewrite isolates the rule whose policy names it (catalog.yml), when the kernel has its findings
        String fma = RulePolicies.ruleOfPtxVariant("unfuse-fma");
        String div = RulePolicies.ruleOfPtxVariant("div.rn");
        String sqrt = RulePolicies.ruleOfPtxVariant("sqrt.rn");
        String ftz = RulePolicies.ruleOfPtxVariant("no-ftz");
        if (fma != null && hits.containsKey(fma))
            v.add(new Variant("unfuse-fma", fma, List.of("ptx:unfuse-fma"), new Decoder.Options().unfuseFma(true)));
        if (div != null && hits.containsKey(div))
            v.add(new Variant(
                    "div.rn",
                    div,
                    List.of("ptx:div.rn"),
                    new Decoder.Options().contract(true).exactDiv(true)));
        if (sqrt != null && hits.containsKey(sqrt))
            v.add(new Variant(
                    "sqrt.rn",
                    sqrt,
                    List.of("ptx:sqrt.rn"),
                    new Decoder.Options().contract(true).exactSqrt(true)));
        if (ftz != null && hits.containsKey(ftz))
            v.add(new Variant(
                    "no-ftz",
                    ftz,
                    List.of("ptx:no-ftz"),
                    new Decoder.Options().contract(true).noFtz(true)));
        return v;
    }
}
