package dev.numlint.rules;

import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import java.util.List;

/**
 * One entry of the rule catalog. Everything user-visible about a rule (CLI listing, SARIF rule metadata, SpotBugs
 * messages, generated docs) is derived from this record.
 *
 * @param id           stable id, NL001..NL011
 * @param name         kebab-case name
 * @param level        default level
 * @param category     category (conversion, division, contraction, accumulation, precision, math, ...)
 * @param cwe          CWE ids without prefix (e.g. 681), possibly empty
 * @param summary      one-line summary
 * @param description  full description (a paragraph)
 * @param layers       layers the rule is implemented in
 * @param options      rule options
 * @param markdown     the full markdown document (docs/rules/ID-name.md is generated from it)
 */
public record Rule(String id, String name, Level level, String category, List<Integer> cwe, String summary,
                   String description, List<Layer> layers, List<RuleOption> options, String markdown) {

    /** Upper-case pattern type used by the SpotBugs plugin, e.g. NL001_FLOAT_TO_UNSIGNED_CONVERSION. */
    public String bugPattern() {
        return id + "_" + name.toUpperCase(java.util.Locale.ROOT).replace('-', '_');
    }

    /** Relative path of the generated markdown document. */
    public String docPath() {
        return "docs/rules/" + id + "-" + name + ".md";
    }

    public String helpUri() {
        return RuleCatalog.INFORMATION_URI + "/blob/main/" + docPath();
    }

    public boolean appliesTo(Layer layer) {
        return layers.contains(layer);
    }

    public RuleOption option(String optionName) {
        return options.stream().filter(o -> o.name().equals(optionName)).findFirst().orElse(null);
    }
}
