package dev.numlint.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RuleOption;
import dev.numlint.spi.ScanContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The project configuration, {@code .numlint.yml}:
 *
 * <pre>
 * rules:
 *   NL003: {enabled: false}
 *   NL004: {level: note, options: {min-trip-count: 32}}
 * exclude: ["third_party/**", "*.generated.cu"]
 * max-file-size: 16777216                      # every layer
 * max-file-size-by-layer: {ptx: 67108864}      # per layer: build-flags, cuda-source, ptx, java-source
 * fail-on-input-problems: false
 * bundled-code: note                           # or report: findings in libraries the tree bundles
 * </pre>
 *
 * Parsing is strict: unknown keys, rule ids and options and values of the wrong type are errors that name the key
 * and the allowed values, so a typo never silently turns a rule back on.
 */
public final class NumlintConfig {
    public static final String FILE_NAME = ".numlint.yml";
    public static final long DEFAULT_MAX_FILE_SIZE = 16L * 1024 * 1024;
    private static final List<String> TOP_KEYS = List.of(
            "rules",
            "exclude",
            "max-file-size",
            "max-file-size-by-layer",
            "fail-on-input-problems",
            "include-extensions",
            "bundled-code");
    /** The layers whose front ends read files, i.e. those {@code max-file-size-by-layer} can name. */
    public static final List<Layer> FILE_LAYERS =
            List.of(Layer.BUILD_FLAGS, Layer.CUDA_SOURCE, Layer.PTX, Layer.JAVA_SOURCE);

    private static final List<String> RULE_KEYS = List.of("enabled", "level", "options");

    private final String source;
    private final Map<String, RuleConfig> rules;
    private final List<String> exclude;
    private final Map<Layer, Long> maxFileSizes;
    private final long maxFileSize;
    /** Extensions of included files the CUDA front end analyzes; null: its default list. */
    private List<String> includeExtensions;
    /** {@code bundled-code}: note or report; null: not set. */
    private String bundledCode;

    private final Boolean failOnInputProblems;

    private NumlintConfig(
            String source,
            Map<String, RuleConfig> rules,
            List<String> exclude,
            long maxFileSize,
            Map<Layer, Long> maxFileSizes,
            Boolean failOnInputProblems) {
        this.maxFileSize = maxFileSize;
        this.source = source;
        this.rules = rules;
        this.exclude = exclude;
        this.maxFileSizes = maxFileSizes;
        this.failOnInputProblems = failOnInputProblems;
    }

    /** No configuration file: catalog defaults. */
    public static NumlintConfig defaults() {
        return new NumlintConfig(null, Map.of(), List.of(), DEFAULT_MAX_FILE_SIZE, defaultSizes(), null);
    }

    /** The documented default max-file-size of each layer. */
    public static Map<Layer, Long> defaultSizes() {
        Map<Layer, Long> m = new EnumMap<>(Layer.class);
        for (Layer l : FILE_LAYERS) {
            m.put(l, ScanContext.defaultMaxFileSize(l));
        }
        return m;
    }

    /** Reads and validates a configuration file. */
    public static NumlintConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read the configuration: " + e);
        }
        return parse(text, file.toString());
    }

    /** Parses configuration text; {@code source} names it in error messages. */
    public static NumlintConfig parse(String text, String source) {
        JsonNode root;
        try {
            // a key given twice would silently win over the first: an error, like any other ambiguity
            YAMLFactory yaml = new YAMLFactory();
            yaml.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            root = new ObjectMapper(yaml).readTree(text);
        } catch (JsonProcessingException e) {
            String where =
                    e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
            String msg = e.getOriginalMessage();
            java.util.regex.Matcher dup =
                    java.util.regex.Pattern.compile("^Duplicate field '(.*)'").matcher(msg);
            if (dup.find()) {
                throw new ConfigException(source + where + ": duplicate key '" + dup.group(1)
                        + "' (each key may appear once per mapping)");
            }
            throw new ConfigException(source + ": not valid YAML" + where + ": " + msg);
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return new NumlintConfig(source, Map.of(), List.of(), DEFAULT_MAX_FILE_SIZE, defaultSizes(), null);
        }
        if (!root.isObject()) {
            throw new ConfigException(
                    source + ": the configuration must be a mapping with the keys " + String.join(", ", TOP_KEYS));
        }
        Map<String, RuleConfig> rules = new LinkedHashMap<>();
        List<String> exclude = new ArrayList<>();
        Long maxFileSize = null;
        Map<Layer, Long> byLayer = new EnumMap<>(Layer.class);
        Boolean failOnInputProblems = null;
        List<String> includeExtensions = null;
        String bundledCode = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode v = e.getValue();
            switch (key) {
                case "rules" -> rules.putAll(parseRules(source, v));
                case "exclude" -> {
                    if (!v.isArray()) {
                        throw error(source, "exclude", "must be a list of glob patterns, e.g. [\"third_party/**\"]");
                    }
                    if (v.size() > dev.numlint.util.Glob.MAX_COUNT) {
                        throw error(
                                source,
                                "exclude",
                                "has " + v.size() + " patterns, more than the limit of "
                                        + dev.numlint.util.Glob.MAX_COUNT);
                    }
                    for (JsonNode g : v) {
                        if (!g.isTextual() || g.asText().isBlank()) {
                            throw error(source, "exclude", "must be a list of glob patterns (strings), got " + g);
                        }
                        try {
                            new dev.numlint.util.Glob(g.asText());
                        } catch (IllegalArgumentException ex) {
                            throw error(source, "exclude", ex.getMessage());
                        }
                        exclude.add(g.asText());
                    }
                }
                case "max-file-size" -> maxFileSize = bytes(source, "max-file-size", v);
                case "max-file-size-by-layer" -> {
                    String layers = FILE_LAYERS.stream().map(Layer::id).collect(Collectors.joining(", "));
                    if (!v.isObject()) {
                        throw error(source, key, "must be a mapping from layer (" + layers + ") to bytes");
                    }
                    for (Iterator<Map.Entry<String, JsonNode>> li = v.fields(); li.hasNext(); ) {
                        Map.Entry<String, JsonNode> le = li.next();
                        Layer layer = FILE_LAYERS.stream()
                                .filter(l -> l.id().equals(le.getKey()))
                                .findFirst()
                                .orElseThrow(() -> error(
                                        source, key + "." + le.getKey(), "unknown layer (allowed: " + layers + ")"));
                        byLayer.put(layer, bytes(source, key + "." + le.getKey(), le.getValue()));
                    }
                }
                case "fail-on-input-problems" -> {
                    if (!v.isBoolean()) {
                        throw error(source, key, "must be true or false, got " + v);
                    }
                    failOnInputProblems = v.asBoolean();
                }
                case "include-extensions" -> {
                    if (!v.isArray()) {
                        throw error(
                                source,
                                "include-extensions",
                                "must be a list of file extensions, e.g. [hcu, inl, tpp]");
                    }
                    includeExtensions = new ArrayList<>();
                    for (JsonNode x : v) {
                        if (!x.isTextual() || !x.asText().strip().matches("\\.?[A-Za-z0-9_+-]{1,16}")) {
                            throw error(
                                    source,
                                    "include-extensions",
                                    "must be a list of file extensions (like hcu " + "or .inl), got " + x);
                        }
                        includeExtensions.add(x.asText().strip());
                    }
                }
                case "bundled-code" -> {
                    if (!v.isTextual() || !List.of("note", "report").contains(v.asText())) {
                        throw error(source, key, "must be note or report, got " + v);
                    }
                    bundledCode = v.asText();
                }
                default -> throw error(source, key, "unknown key (allowed: " + String.join(", ", TOP_KEYS) + ")");
            }
        }
        Map<Layer, Long> sizes = defaultSizes();
        for (Layer l : FILE_LAYERS) {
            Long v = byLayer.containsKey(l) ? byLayer.get(l) : maxFileSize;
            if (v != null) {
                sizes.put(l, v);
            }
        }
        NumlintConfig c = new NumlintConfig(
                source,
                Map.copyOf(rules),
                List.copyOf(exclude),
                maxFileSize == null ? DEFAULT_MAX_FILE_SIZE : maxFileSize,
                sizes,
                failOnInputProblems);
        c.includeExtensions = includeExtensions == null ? null : List.copyOf(includeExtensions);
        c.bundledCode = bundledCode;
        return c;
    }

    /** {@code bundled-code}: note (the default) or report, or null when the file does not set it. */
    public String bundledCode() {
        return bundledCode;
    }

    /** {@code include-extensions}: extensions of included files to analyze, or null for the default list. */
    public List<String> includeExtensions() {
        return includeExtensions;
    }

    private static long bytes(String source, String key, JsonNode v) {
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() <= 0) {
            throw error(source, key, "must be a positive number of bytes, got " + v);
        }
        return v.asLong();
    }

    private static Map<String, RuleConfig> parseRules(String source, JsonNode v) {
        RuleCatalog catalog = RuleCatalog.get();
        if (v.isNull()) {
            return Map.of();
        }
        if (!v.isObject()) {
            throw error(source, "rules", "must be a mapping from rule id to settings, e.g. NL003: {enabled: false}");
        }
        Map<String, RuleConfig> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String id = e.getKey();
            String path = "rules." + id;
            if (!catalog.has(id)) {
                throw error(source, path, "unknown rule id (allowed: " + String.join(", ", catalog.ids()) + ")");
            }
            Rule rule = catalog.rule(id);
            JsonNode s = e.getValue();
            if (s.isNull()) {
                continue;
            }
            if (!s.isObject()) {
                throw error(source, path, "must be a mapping with the keys " + String.join(", ", RULE_KEYS));
            }
            Boolean enabled = null;
            Level level = null;
            Map<String, String> options = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> fi = s.fields(); fi.hasNext(); ) {
                Map.Entry<String, JsonNode> f = fi.next();
                String fpath = path + "." + f.getKey();
                JsonNode fv = f.getValue();
                switch (f.getKey()) {
                    case "enabled" -> {
                        if (!fv.isBoolean()) {
                            throw error(source, fpath, "must be true or false, got " + fv);
                        }
                        enabled = fv.asBoolean();
                    }
                    case "level" -> {
                        if (!fv.isTextual()) {
                            throw error(source, fpath, "must be one of error, warning, note; got " + fv);
                        }
                        try {
                            level = Level.parse(fv.asText());
                        } catch (IllegalArgumentException ex) {
                            throw error(
                                    source, fpath, "must be one of error, warning, note; got '" + fv.asText() + "'");
                        }
                    }
                    case "options" -> options.putAll(parseOptions(source, fpath, rule, fv));
                    default -> throw error(
                            source, fpath, "unknown key (allowed: " + String.join(", ", RULE_KEYS) + ")");
                }
            }
            out.put(id, new RuleConfig(enabled, level, options));
        }
        return out;
    }

    private static Map<String, String> parseOptions(String source, String path, Rule rule, JsonNode v) {
        String allowed = rule.options().isEmpty()
                ? "none: " + rule.id() + " has no options"
                : rule.options().stream()
                        .map(o -> o.name() + " (" + o.type() + ")")
                        .collect(Collectors.joining(", "));
        if (!v.isObject()) {
            throw error(source, path, "must be a mapping from option name to value (allowed: " + allowed + ")");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String opath = path + "." + e.getKey();
            RuleOption o = rule.option(e.getKey());
            if (o == null) {
                throw error(source, opath, "unknown option (allowed: " + allowed + ")");
            }
            JsonNode ov = e.getValue();
            String value =
                    switch (o.type()) {
                        case "int" -> {
                            String range = o.rangeText();
                            if (!ov.isIntegralNumber() || !ov.canConvertToInt()) {
                                throw error(
                                        source,
                                        opath,
                                        "must be an integer" + (range.isEmpty() ? "" : ", " + range) + "; got " + ov);
                            }
                            if (!o.inRange(ov.asLong())) {
                                throw error(source, opath, "must be " + range + "; got " + ov);
                            }
                            yield Integer.toString(ov.asInt());
                        }
                        case "bool" -> {
                            if (!ov.isBoolean()) {
                                throw error(source, opath, "must be true or false, got " + ov);
                            }
                            yield Boolean.toString(ov.asBoolean());
                        }
                        default -> {
                            if (!ov.isValueNode() || ov.isNull()) {
                                throw error(source, opath, "must be a string, got " + ov);
                            }
                            yield ov.asText();
                        }
                    };
            out.put(o.name(), value);
        }
        return out;
    }

    private static ConfigException error(String source, String key, String what) {
        return new ConfigException((source == null ? "" : source + ": ") + "'" + key + "': " + what);
    }

    /** The file the configuration came from, or null for defaults. */
    public String source() {
        return source;
    }

    public Map<String, RuleConfig> rules() {
        return rules;
    }

    public List<String> exclude() {
        return exclude;
    }

    /** {@code max-file-size}: the limit of every layer that {@code max-file-size-by-layer} does not set. */
    public long maxFileSize() {
        return maxFileSize;
    }

    /** max-file-size of each layer that reads files: the per-layer key, else max-file-size, else the default. */
    public Map<Layer, Long> maxFileSizes() {
        return Map.copyOf(maxFileSizes);
    }

    /** {@code fail-on-input-problems}, or null when the file does not set it. */
    public Boolean failOnInputProblems() {
        return failOnInputProblems;
    }

    /** The effective rule settings: catalog defaults overlaid with this configuration. */
    public ConfiguredRuleSettings ruleSettings() {
        return new ConfiguredRuleSettings(RuleCatalog.get(), rules);
    }
}
