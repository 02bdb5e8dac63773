package dev.numlint.rules;

import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import java.util.List;
import java.util.Map;

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
 * @param markdown     the rule's document with its references (the author's part of docs/rules/ID-name.md)
 * @param messages     message templates by key ({@code {name}} placeholders), see {@link #message}
 */
public record Rule(
        String id,
        String name,
        Level level,
        String category,
        List<Integer> cwe,
        String summary,
        String description,
        List<Layer> layers,
        List<RuleOption> options,
        String markdown,
        Map<String, String> messages) {

    public Rule {
        messages = messages == null ? Map.of() : Map.copyOf(messages);
    }

    /**
     * The finding message {@code key} of this rule with its {@code {placeholders}} filled from {@code args} (name,
     * value pairs). Messages are one line: they name the expression or instruction and the consequence in this
     * case; the explanation lives in the rule document. Unknown keys and unfilled placeholders are bugs and throw.
     */
    public String message(String key, Object... args) {
        String template = messages.get(key);
        if (template == null) {
            throw new IllegalArgumentException("rule " + id + " has no message '" + key + "' in the catalog");
        }
        return fill(template, id + "." + key, args);
    }

    /**
     * {@code template} with its {@code {name}} placeholders filled from {@code args} (name, value pairs); {@code what}
     * names the template in the exception an unfilled placeholder throws.
     */
    static String fill(String template, String what, Object... args) {
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("message arguments must be name, value pairs");
        }
        Map<String, Object> values = new java.util.HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            values.put(String.valueOf(args[i]), args[i + 1]);
        }
        StringBuilder sb = new StringBuilder(template.length() + 32);
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            int close = c == '{' ? template.indexOf('}', i) : -1;
            if (close > i) {
                String name = template.substring(i + 1, close);
                if (!values.containsKey(name)) {
                    throw new IllegalArgumentException("message " + what + " needs '" + name + "'");
                }
                sb.append(values.get(name));
                i = close + 1;
            } else {
                sb.append(c);
                i++;
            }
        }
        return sb.toString();
    }

    /** Upper-case pattern type used by the SpotBugs plugin, e.g. NL001_FLOAT_TO_UNSIGNED_CONVERSION. */
    public String bugPattern() {
        return id + "_" + name.toUpperCase(java.util.Locale.ROOT).replace('-', '_');
    }

    /** Relative path of the rule's page (its document, with a header generated from the catalog). */
    public String docPath() {
        return "docs/rules/" + RuleDocument.fileName(id, name);
    }

    public String helpUri() {
        return RuleCatalog.INFORMATION_URI + "/blob/main/" + docPath();
    }

    /**
     * The help address SpotBugs gives this rule's bug pattern (its SARIF helpUri): the rules index with the pattern
     * type as anchor, which the generated index defines next to a link to {@link #helpUri()}.
     */
    public String bugPatternHelpUri() {
        return RuleCatalog.RULES_INDEX_URI + "#" + bugPattern();
    }

    public boolean appliesTo(Layer layer) {
        return layers.contains(layer);
    }

    public RuleOption option(String optionName) {
        return options.stream()
                .filter(o -> o.name().equals(optionName))
                .findFirst()
                .orElse(null);
    }
}
