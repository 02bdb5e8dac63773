package dev.numlint.output;

import dev.numlint.model.Layer;
import dev.numlint.rules.Bibliography;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RuleDocument;
import dev.numlint.rules.RuleOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Generates docs/rules/ from the catalog: in each rule's page {@code <ID>-<name>.md}, the header (a table with id,
 * name, default level, category, CWE, layers and options, and the summary) above the {@link RuleDocument#MARKER} and
 * the references below the author's document; and the README.md index, which lists no rule (the folder lists the
 * pages), so that a new rule touches no file but its own page. The files are committed; a test compares them with
 * this generator's output.
 */
public final class DocsGenerator {
    public static final String REGENERATE = "./numlint docs --output docs/rules --bibliography docs/bibliography.md";
    private static final String BANNER = "<!-- The header down to the next comment and the References section are "
            + "generated from the rule catalog (rules/src/main/resources/dev/numlint/rules/catalog.yml) by `"
            + REGENERATE + "`; edit the rule's document between them. -->\n";
    private static final String INDEX_BANNER = "<!-- Generated from the rule catalog (rules/src/main/resources/dev/"
            + "numlint/rules/) by `" + REGENERATE + "`. Do not edit. -->\n";

    private DocsGenerator() {}

    /** File name to content, index last, each page with the document the catalog carries. */
    public static Map<String, String> generate(RuleCatalog catalog) {
        return generate(catalog, Rule::markdown);
    }

    /** File name to content, index last, each page with the document {@code document} gives for its rule. */
    static Map<String, String> generate(RuleCatalog catalog, Function<Rule, String> document) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Rule r : catalog.all()) {
            out.put(fileName(r), ruleDoc(r, document.apply(r)));
        }
        out.put("README.md", index(catalog));
        return out;
    }

    public static String fileName(Rule r) {
        return RuleDocument.fileName(r.id(), r.name());
    }

    /**
     * Writes the files into {@code dir} (created when missing) and deletes rule pages there that the catalog no
     * longer has; returns how many files were written. A page that exists keeps its author's document (the page is
     * the document: the header and references are regenerated around it); a new page gets the catalog's.
     */
    public static int write(RuleCatalog catalog, Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, String> docs = generate(catalog, r -> {
            Path page = dir.resolve(fileName(r));
            if (!Files.isRegularFile(page)) {
                return r.markdown();
            }
            try {
                return Bibliography.withReferences(RuleDocument.source(Files.readString(page, StandardCharsets.UTF_8)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + page, e);
            }
        });
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
        return ruleDoc(r, r.markdown());
    }

    static String ruleDoc(Rule r, String document) {
        String body = document.replace("\r\n", "\n").strip();
        String title = "# " + r.id() + " " + r.name();
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
        sb.append("\n").append(RuleDocument.MARKER).append("\n");
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
        StringBuilder sb = new StringBuilder(INDEX_BANNER);
        sb.append("# numlint rules\n\n");
        // no row per rule: a new rule then touches only its own page here (issue 28: a rule on three layers in at most
        // 8 files); the pages' names are the rules' ids and names, and each page's header table has the rest
        sb.append(
                "One page per rule, `<ID>-<name>.md` in this folder (listed above), in id order; each page starts with\n"
                        + "the rule's default level, category, CWE, layers, options and summary. `numlint rules` prints the same\n"
                        + "list with each rule's level and summary, `numlint rules --format json` the whole catalog.\n");
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
