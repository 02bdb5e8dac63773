package dev.numlint.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The rule catalog: the single source of truth for rule ids, names, levels, descriptions and documentation.
 * Loaded from {@code catalog.yml} and each rule's page (docs/rules/, carried in the jar under {@code docs/}; the
 * author's part of it, {@link RuleDocument#source}).
 */
public final class RuleCatalog {
    public static final String TOOL_NAME = "numlint";
    public static final String INFORMATION_URI = "https://github.com/numlint/numlint";
    /**
     * The generated index of the rules (docs/rules/README.md). SpotBugs links every bug pattern of a plugin to one
     * page, {@code <BugsUrl>#<pattern type>} (its SARIF helpUri too): the index holds an anchor per pattern type.
     */
    public static final String RULES_INDEX_URI = INFORMATION_URI + "/blob/main/docs/rules/README.md";

    private static final String BASE = "/dev/numlint/rules/";

    private static volatile RuleCatalog instance;

    private final Map<String, Rule> rules;
    private final Map<String, String> phrases;
    private final Map<String, RulePolicy> policies;

    private RuleCatalog(Map<String, Rule> rules, Map<String, String> phrases, Map<String, RulePolicy> policies) {
        this.policies = policies;
        this.rules = rules;
        this.phrases = phrases;
    }

    /** The catalog shipped with numlint. */
    public static RuleCatalog get() {
        RuleCatalog c = instance;
        if (c == null) {
            synchronized (RuleCatalog.class) {
                c = instance;
                if (c == null) {
                    c = load();
                    instance = c;
                }
            }
        }
        return c;
    }

    /** The version of numlint, from the jar manifest or the build's filtered resource. */
    public static String toolVersion() {
        try (InputStream in = RuleCatalog.class.getResourceAsStream(BASE + "version.txt")) {
            if (in != null) {
                String v = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
                if (!v.isEmpty() && !v.startsWith("$")) {
                    return v;
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return "0.0.0-dev";
    }

    private static RuleCatalog load() {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        try (InputStream in = RuleCatalog.class.getResourceAsStream(BASE + "catalog.yml")) {
            if (in == null) {
                throw new IllegalStateException("catalog.yml missing from the classpath");
            }
            JsonNode root = yaml.readTree(in);
            Map<String, Rule> map = new LinkedHashMap<>();
            Map<String, RulePolicy> policies = new LinkedHashMap<>();
            for (JsonNode n : root.get("rules")) {
                String id = text(n, "id");
                policies.put(id, RulePolicy.parse(id, n.get("policy")));
                String name = text(n, "name");
                List<Integer> cwe = new ArrayList<>();
                if (n.has("cwe")) {
                    n.get("cwe").forEach(c -> cwe.add(c.asInt()));
                }
                List<Layer> layers = new ArrayList<>();
                n.get("layers").forEach(l -> layers.add(Layer.parse(l.asText())));
                List<RuleOption> options = new ArrayList<>();
                if (n.has("options")) {
                    for (JsonNode o : n.get("options")) {
                        options.add(new RuleOption(
                                text(o, "name"),
                                text(o, "type"),
                                text(o, "default"),
                                text(o, "description"),
                                o.has("min") ? o.get("min").asLong() : null,
                                o.has("max") ? o.get("max").asLong() : null));
                    }
                }
                Map<String, String> messages = new LinkedHashMap<>();
                if (n.has("messages")) {
                    n.get("messages")
                            .fields()
                            .forEachRemaining(
                                    e -> messages.put(e.getKey(), e.getValue().asText()));
                }
                String md = readDoc(id, name);
                Rule r = new Rule(
                        id,
                        name,
                        Level.parse(text(n, "level")),
                        text(n, "category"),
                        List.copyOf(cwe),
                        text(n, "summary").trim(),
                        text(n, "description").trim(),
                        List.copyOf(layers),
                        List.copyOf(options),
                        md,
                        messages);
                if (map.put(id, r) != null) {
                    throw new IllegalStateException("duplicate rule id " + id);
                }
            }
            Map<String, String> phrases = new LinkedHashMap<>();
            JsonNode ph = root.get("phrases");
            if (ph != null) {
                ph.fields()
                        .forEachRemaining(
                                e -> phrases.put(e.getKey(), e.getValue().asText()));
            }
            return new RuleCatalog(
                    java.util.Collections.unmodifiableMap(map),
                    Map.copyOf(phrases),
                    java.util.Collections.unmodifiableMap(policies));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the rule catalog", e);
        }
    }

    private static String readDoc(String id, String name) throws IOException {
        return Bibliography.withReferences(documentSource(id, name));
    }

    /**
     * The document the author of rule {@code id} wrote: its page, docs/rules/ID-name.md, without the generated
     * header and references ({@link RuleDocument#source}).
     */
    public static String documentSource(String id, String name) throws IOException {
        String file = RuleDocument.fileName(id, name);
        try (InputStream in = RuleCatalog.class.getResourceAsStream(BASE + "docs/" + file)) {
            if (in == null) {
                throw new IllegalStateException("rule page docs/rules/" + file + " missing from the rules jar");
            }
            // the works the document cites by "Author year" get their full reference under "References"
            return RuleDocument.source(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new IllegalStateException("catalog entry " + n.path("id").asText("?") + " lacks '" + field + "'");
        }
        return v.asText();
    }

    public Collection<Rule> all() {
        return rules.values();
    }

    public List<String> ids() {
        return List.copyOf(rules.keySet());
    }

    public boolean has(String id) {
        return rules.containsKey(id);
    }

    public Rule rule(String id) {
        Rule r = rules.get(id);
        if (r == null) {
            throw new NoSuchElementException("unknown rule id " + id);
        }
        return r;
    }

    /**
     * The shared message fragment {@code key} of the catalog's {@code phrases:} (the consequence of a hazard in this
     * case, the PTX confirmation marker, a flag's origin), with its {@code {placeholders}} filled from {@code args}
     * (name, value pairs). Unknown keys and unfilled placeholders are bugs and throw.
     */
    public String phrase(String key, Object... args) {
        String template = phrases.get(key);
        if (template == null) {
            throw new IllegalArgumentException("the catalog has no phrase '" + key + "'");
        }
        return Rule.fill(template, "phrase " + key, args);
    }

    /**
     * The phrase {@code key} that continues a finding's {@code message} ({@code "{message}; ..."}), with {@code args}
     * for its other placeholders: the message is shortened ({@link Quote#fit}) so that the phrase keeps its whole
     * room within {@link Quote#MESSAGE}.
     */
    public String remark(String key, String message, Object... args) {
        Object[] a = new Object[args.length + 2];
        a[0] = "message";
        a[1] = "";
        System.arraycopy(args, 0, a, 2, args.length);
        int room = Quote.MESSAGE - phrase(key, a).length();
        a[1] = Quote.fit(message, room);
        return phrase(key, a);
    }

    /** The keys of the catalog's shared message fragments. */
    public java.util.Set<String> phraseKeys() {
        return phrases.keySet();
    }

    /** The rule's policy (its catalog entry's {@code policy:}; {@link RulePolicy#DEFAULT} for an unknown id). */
    public RulePolicy policy(String id) {
        return policies.getOrDefault(id, RulePolicy.DEFAULT);
    }

    /** The ids of the rules whose policy satisfies {@code which}, in catalog order. */
    public List<String> rulesWhere(java.util.function.Predicate<RulePolicy> which) {
        List<String> out = new ArrayList<>();
        policies.forEach((id, p) -> {
            if (which.test(p)) {
                out.add(id);
            }
        });
        return out;
    }

    /** Index of the rule in catalog order (SARIF ruleIndex). */
    public int indexOf(String id) {
        int i = 0;
        for (String k : rules.keySet()) {
            if (k.equals(id)) {
                return i;
            }
            i++;
        }
        return -1;
    }
}
