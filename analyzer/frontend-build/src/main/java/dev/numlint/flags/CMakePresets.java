package dev.numlint.flags;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The cache variables of a configure preset in CMakePresets.json / CMakeUserPresets.json (next to the top-level
 * CMakeLists.txt), with those of the presets it {@code inherits} (the preset's own values win, then its parents in
 * the order listed). {@code ${sourceDir}} and {@code ${presetName}} in values are replaced; other macros stay.
 */
final class CMakePresets {
    static final long MAX_BYTES = 4L << 20;

    record Result(Map<String, String> values, String error) {}

    private CMakePresets() {}

    static Result cacheVariables(Path dir, String name, Predicate<Path> inTree) {
        Map<String, JsonNode> presets = new LinkedHashMap<>();
        ObjectMapper json = JsonMapper.builder().build();
        json.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(64)
                        .maxStringLength(1 << 20)
                        .build());
        for (String f : List.of("CMakePresets.json", "CMakeUserPresets.json")) {
            Path p = dir.resolve(f);
            if (!Files.isRegularFile(p) || !inTree.test(p)) continue;
            try {
                if (Files.size(p) > MAX_BYTES) return new Result(Map.of(), f + " is larger than 4 MiB");
                JsonNode root = json.readTree(p.toFile());
                JsonNode list = root == null ? null : root.get("configurePresets");
                if (list == null || !list.isArray()) continue;
                for (JsonNode n : list) {
                    JsonNode nm = n.get("name");
                    if (nm != null && nm.isTextual()) presets.putIfAbsent(nm.asText(), n);
                }
            } catch (IOException | RuntimeException e) {
                return new Result(
                        Map.of(),
                        f + " is not valid JSON ("
                                + e.getMessage().lines().findFirst().orElse("") + ")");
            }
        }
        if (presets.isEmpty())
            return new Result(Map.of(), "no CMakePresets.json with configure presets in " + dir.getFileName());
        if (!presets.containsKey(name)) {
            return new Result(
                    Map.of(),
                    "no configure preset named '" + name + "' (there are: " + String.join(", ", presets.keySet())
                            + ")");
        }
        Map<String, String> out = new LinkedHashMap<>();
        collect(presets, name, out, new HashSet<>(), dir, name);
        return new Result(out, null);
    }

    /** Parents first, so the preset's own values are put last and win. */
    private static void collect(
            Map<String, JsonNode> presets,
            String name,
            Map<String, String> out,
            Set<String> seen,
            Path dir,
            String top) {
        JsonNode p = presets.get(name);
        if (p == null || !seen.add(name) || seen.size() > 64) return;
        JsonNode inh = p.get("inherits");
        List<String> parents = new ArrayList<>();
        if (inh != null && inh.isTextual()) parents.add(inh.asText());
        if (inh != null && inh.isArray()) inh.forEach(x -> parents.add(x.asText()));
        for (int i = parents.size() - 1; i >= 0; i--) collect(presets, parents.get(i), out, seen, dir, top);
        JsonNode cv = p.get("cacheVariables");
        if (cv != null && cv.isObject()) {
            cv.fields().forEachRemaining(e -> {
                JsonNode v = e.getValue();
                String s = v.isObject()
                        ? (v.get("value") == null ? null : v.get("value").asText())
                        : v.isBoolean() ? (v.asBoolean() ? "TRUE" : "FALSE") : v.isNull() ? null : v.asText();
                if (s == null) {
                    out.remove(e.getKey());
                } else {
                    out.put(
                            e.getKey(),
                            s.replace("${sourceDir}", dir.toString()).replace("${presetName}", top));
                }
            });
        }
    }
}
