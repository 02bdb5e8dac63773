package dev.numlint.output;

import dev.numlint.model.Layer;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RuleOption;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Generates docs/rules/ from the catalog: one {@code <ID>-<name>.md} per rule (a header table with id, name,
 * default level, category, CWE, layers and options, then the rule's markdown) and a README.md index. The files are
 * committed; a test compares them with this generator's output.
 */
public final class DocsGenerator {
    public static final String REGENERATE = "./numlint docs --output docs/rules --bibliography docs/bibliography.md";
    private static final String BANNER = "<!-- Generated from the rule catalog (rules/src/main/resources/dev/numlint/"
            + "rules/) by `" + REGENERATE + "`. Do not edit. -->\n";

    private DocsGenerator() {}

    /** File name to content, index last. */
    public static Map<String, String> generate(RuleCatalog catalog) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Rule r : catalog.all()) {
            out.put(fileName(r), ruleDoc(r));
        }
        out.put("README.md", index(catalog));
        return out;
    }

    public static String fileName(Rule r) {
        return r.id() + "-" + r.name() + ".md";
    }

    /**
     * Writes the files into {@code dir} (created when missing) and deletes rule pages there that the catalog no
     * longer has; returns how many files were written.
     */
    public static int write(RuleCatalog catalog, Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, String> docs = generate(catalog);
        try (var old = Files.list(dir)) {
            for (Path p : (Iterable<Path>) old::iterator) {
                String n = p.getFileName().toString();
                if (n.matches("NL\\d{3}-.*\\.md") && !docs.containsKey(n)) {
                    Files.delete(p);
                }
            }
        }
        for (Map.Entry<String, String> e : docs.entrySet()) {
            Files.writeString(dir.resolve(e.getKey()), e.getValue(), StandardCharsets.UTF_8);
        }
        return docs.size();
    }

    static String ruleDoc(Rule r) {
        String body = r.markdown().replace("\r\n", "\n").strip();
        String title = "# " + r.id() + " " + r.name();
        if (body.startsWith("# ")) {
            int nl = body.indexOf('\n');
            title = nl < 0 ? body : body.substring(0, nl);
            body = nl < 0 ? "" : body.substring(nl + 1).strip();
        }
        StringBuilder sb = new StringBuilder(BANNER);
        sb.append(title).append("\n\n");
        sb.append("| | |\n|---|---|\n");
        sb.append("| Id | `").append(r.id()).append("` |\n");
        sb.append("| Name | `").append(r.name()).append("` |\n");
        sb.append("| Default level | ").append(r.level().id()).append(" |\n");
        sb.append("| Category | ").append(r.category()).append(" |\n");
        sb.append("| CWE | ")
                .append(
                        r.cwe().isEmpty()
                                ? "none"
                                : r.cwe().stream()
                                        .map(c -> "[CWE-" + c + "](https://cwe.mitre.org/data/definitions/" + c
                                                + ".html)")
                                        .collect(Collectors.joining(", ")))
                .append(" |\n");
        sb.append("| Layers | ")
                .append(r.layers().stream().map(Layer::id).collect(Collectors.joining(", ")))
                .append(" |\n");
        sb.append("| Options | ")
                .append(
                        r.options().isEmpty()
                                ? "none"
                                : r.options().stream()
                                        .map(DocsGenerator::option)
                                        .collect(Collectors.joining("<br>")))
                .append(" |\n");
        sb.append("\n").append(r.summary()).append("\n");
        if (!body.isEmpty()) {
            sb.append("\n").append(body).append("\n");
        }
        return sb.toString();
    }

    private static String option(RuleOption o) {
        return "`" + o.name() + "` (" + o.type() + (o.rangeText().isEmpty() ? "" : ", " + o.rangeText())
                + ", default " + o.defaultValue() + "): "
                + o.description().replace("|", "\\|").replace("\n", " ").strip();
    }

    static String index(RuleCatalog catalog) {
        StringBuilder sb = new StringBuilder(BANNER);
        sb.append("# numlint rules\n\n");
        sb.append("| Id | Name | Default level | Category | Layers | Summary |\n");
        sb.append("|---|---|---|---|---|---|\n");
        for (Rule r : catalog.all()) {
            sb.append("| ")
                    .append(r.id())
                    .append(" | [")
                    .append(r.name())
                    .append("](")
                    .append(fileName(r))
                    .append(") | ")
                    .append(r.level().id())
                    .append(" | ")
                    .append(r.category())
                    .append(" | ")
                    .append(r.layers().stream().map(Layer::id).collect(Collectors.joining(", ")))
                    .append(" | ")
                    .append(r.summary().replace("|", "\\|"))
                    .append(" |\n");
        }
        sb.append("\nConfigure rules in `.numlint.yml` (see the top-level README); suppress a single finding with\n"
                + "`// numlint: ignore NL003 -- reason`.\n");
        sb.append("\n## SpotBugs bug patterns\n\n")
                .append("The SpotBugs plugin (spotbugs-plugin/README.md) reports the java-bytecode rules as these bug ")
                .append(
                        "patterns; SpotBugs' SARIF names its results by the pattern and links here (`README.md#<pattern>`).\n\n")
                .append("| Bug pattern | Rule |\n|---|---|\n");
        for (Rule r : catalog.all()) {
            if (r.appliesTo(Layer.JAVA_BYTECODE)) {
                // an explicit anchor with the pattern's exact (upper-case) name: heading anchors are lower-cased
                sb.append("| <a id=\"")
                        .append(r.bugPattern())
                        .append("\"></a>`")
                        .append(r.bugPattern())
                        .append("` | [")
                        .append(r.id())
                        .append(' ')
                        .append(r.name())
                        .append("](")
                        .append(fileName(r))
                        .append(") |\n");
            }
        }
        return sb.toString();
    }
}
