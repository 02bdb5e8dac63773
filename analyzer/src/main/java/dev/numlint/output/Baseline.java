package dev.numlint.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.rules.RuleCatalog;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results of an earlier numlint run (its SARIF file), to compare a scan against. Results are matched by their
 * {@code numlint/v1} partial fingerprint, which does not depend on line numbers: a finding whose fingerprint is in
 * the baseline is {@code unchanged} (or {@code updated} when its message or level changed), one that is not is
 * {@code new}, and a baseline result that the scan no longer reports is {@code absent} (fixed). Results the
 * baseline itself marked absent are fixed already and not carried forward.
 */
public final class Baseline {
    /** SARIF {@code result.baselineState}. */
    public enum State {
        NEW("new"),
        UNCHANGED("unchanged"),
        UPDATED("updated"),
        ABSENT("absent");

        private final String id;

        State(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }
    }

    /** A baseline that is not a readable numlint SARIF file; the message is one line naming the file. */
    public static final class InvalidBaselineException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidBaselineException(Path file, String reason) {
            super("baseline '" + file + "' is not a readable numlint SARIF file: " + oneLine(reason));
        }
    }

    private final Path file;
    /** Baseline results by fingerprint, in file order. */
    private final Map<String, Finding> results;
    /** The lowest level the baseline holds (its run left out results below, --sarif-min-level), or null: all. */
    private final Level minLevel;

    private Baseline(Path file, Map<String, Finding> results, Level minLevel) {
        this.file = file;
        this.results = results;
        this.minLevel = minLevel;
    }

    /** The lowest level of result the baseline holds, or null when it holds every level. */
    public Level minLevel() {
        return minLevel;
    }

    public Path file() {
        return file;
    }

    /** The baseline's results (absent ones left out), in file order. */
    public List<Finding> results() {
        return List.copyOf(results.values());
    }

    /** Reads a SARIF file written by numlint. */
    public static Baseline load(Path file) {
        JsonNode root;
        try {
            if (!Files.isRegularFile(file)) {
                throw new InvalidBaselineException(file, Files.exists(file) ? "not a regular file" : "no such file");
            }
            root = new ObjectMapper().readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new InvalidBaselineException(file, "not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidBaselineException(file, e.toString());
        }
        if (root == null || !root.isObject() || !root.path("runs").isArray()) {
            throw new InvalidBaselineException(file, "no SARIF 'runs' array");
        }
        if (!"2.1.0".equals(root.path("version").asText())) {
            throw new InvalidBaselineException(
                    file, "SARIF version '" + root.path("version").asText() + "', expected 2.1.0");
        }
        Map<String, Finding> results = new LinkedHashMap<>();
        Level minLevel = null;
        int numlintRuns = 0;
        for (JsonNode run : root.path("runs")) {
            String tool = run.path("tool").path("driver").path("name").asText();
            if (!RuleCatalog.TOOL_NAME.equals(tool)) {
                continue;
            }
            numlintRuns++;
            Level runMin =
                    switch (run.path("properties")
                            .path(SarifReport.MIN_LEVEL_PROPERTY)
                            .asText("")) {
                        case "error" -> Level.ERROR;
                        case "warning" -> Level.WARNING;
                        default -> null;
                    };
            if (runMin != null && (minLevel == null || minLevel.atLeast(runMin))) {
                minLevel = runMin; // several runs: the least complete one decides
            }
            JsonNode rs = run.path("results");
            if (!rs.isArray() && !rs.isMissingNode() && !rs.isNull()) {
                throw new InvalidBaselineException(file, "'results' is not an array");
            }
            int i = 0;
            for (JsonNode r : rs) {
                i++;
                if ("absent".equals(r.path("baselineState").asText())) {
                    continue;
                }
                Finding f = finding(file, r, i);
                results.putIfAbsent(f.fingerprint(), f);
            }
        }
        if (numlintRuns == 0) {
            throw new InvalidBaselineException(file, "no run of the tool '" + RuleCatalog.TOOL_NAME + "'");
        }
        return new Baseline(file, Collections.unmodifiableMap(results), minLevel);
    }

    private static Finding finding(Path file, JsonNode r, int index) {
        String fp =
                r.path("partialFingerprints").path(SarifReport.FINGERPRINT_KEY).asText(null);
        if (fp == null || fp.isEmpty()) {
            throw new InvalidBaselineException(
                    file, "result " + index + " has no '" + SarifReport.FINGERPRINT_KEY + "' partial fingerprint");
        }
        String ruleId = r.path("ruleId").asText(null);
        if (ruleId == null) {
            throw new InvalidBaselineException(file, "result " + index + " has no ruleId");
        }
        Level level;
        String lv = r.path("level").asText("");
        switch (lv) {
            case "error" -> level = Level.ERROR;
            case "warning" -> level = Level.WARNING;
            case "note", "none" -> level = Level.NOTE;
            default -> level = RuleCatalog.get().has(ruleId)
                    ? RuleCatalog.get().rule(ruleId).level()
                    : Level.WARNING;
        }
        Layer layer = Layer.CUDA_SOURCE;
        String layerId = r.path("properties").path("layer").asText("");
        for (Layer l : Layer.values()) {
            if (l.id().equals(layerId)) {
                layer = l;
            }
        }
        JsonNode phys = r.path("locations").path(0).path("physicalLocation");
        JsonNode region = phys.path("region");
        Location loc = new Location(
                path(phys.path("artifactLocation")),
                region.path("startLine").asInt(1),
                region.path("startColumn").asInt(0),
                region.path("endLine").asInt(0),
                region.path("endColumn").asInt(0));
        String message = r.path("message").path("text").asText("");
        if (r.path("relatedLocations").isArray() && !r.path("relatedLocations").isEmpty()) {
            message = plainMessage(message);
        }
        Finding.Builder b = Finding.builder(ruleId)
                .level(level)
                .location(loc)
                .message(message)
                .layer(layer)
                .fingerprint(fp);
        String fn = r.path("properties").path("function").asText(null);
        if (fn != null) {
            b.function(fn);
        }
        return b.build();
    }

    /** The embedded links SARIF appends to a message with related locations: " (see [text](1), [text](2))". */
    private static final java.util.regex.Pattern LINKS = java.util.regex.Pattern.compile(
            " \\(see \\[(?:[^\\]\\\\]|\\\\.)*\\]\\(\\d+\\)(?:, \\[(?:[^\\]\\\\]|\\\\.)*\\]\\(\\d+\\))*\\)$");

    /**
     * The finding's own message, as the scan compares it, from a SARIF message with embedded links: {@link
     * SarifReport} escapes the message's '\\', '[' and ']' and appends the links; both are undone. A message without
     * that suffix is returned as it is.
     */
    static String plainMessage(String sarifText) {
        java.util.regex.Matcher m = LINKS.matcher(sarifText);
        if (!m.find()) {
            return sarifText;
        }
        String escaped = sarifText.substring(0, m.start());
        StringBuilder sb = new StringBuilder(escaped.length());
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            if (c == '\\' && i + 1 < escaped.length()) {
                c = escaped.charAt(++i);
            }
            sb.append(c);
        }
        return sb.toString();
    }

    /** The artifact's path as numlint writes it: relative to %SRCROOT% (decoded), or absolute for file: URIs. */
    private static String path(JsonNode artifact) {
        String uri = artifact.path("uri").asText("");
        if (uri.isEmpty()) {
            return "(unknown)";
        }
        try {
            URI u = new URI(uri);
            if ("file".equals(u.getScheme())) {
                return Path.of(u).toString();
            }
            return u.getPath() != null ? u.getPath() : uri;
        } catch (Exception e) {
            return uri;
        }
    }

    /** Compares a scan's findings (fingerprinted) with this baseline. */
    public Comparison compare(List<Finding> findings) {
        Map<String, State> states = new HashMap<>();
        Map<String, Finding> remaining = new LinkedHashMap<>(results);
        java.util.Set<String> notCompared = new java.util.HashSet<>();
        for (Finding f : findings) {
            if (f.fingerprint() == null) {
                continue;
            }
            Finding old = remaining.remove(f.fingerprint());
            if (old == null && minLevel != null && !f.level().atLeast(minLevel)) {
                // the baseline left this level out: whether the finding is new it cannot say
                notCompared.add(f.fingerprint());
            } else if (old == null) {
                states.putIfAbsent(f.fingerprint(), State.NEW);
            } else if (old.level() == f.level() && old.message().equals(f.message())) {
                states.put(f.fingerprint(), State.UNCHANGED);
            } else {
                states.put(f.fingerprint(), State.UPDATED);
            }
        }
        return new Comparison(file, states, List.copyOf(remaining.values()), findings, notCompared, minLevel);
    }

    /**
     * The outcome of a comparison.
     *
     * @param file   the baseline file
     * @param states the state of each current finding, by fingerprint (findings without one are new)
     * @param absent the baseline results no longer found (fixed), with their old location and message
     * @param notCompared fingerprints of findings below the baseline's minimum level that it does not hold: they
     *                    are new as far as the gate goes, but not counted as new in the summary
     * @param minLevel    the baseline's minimum level, or null
     */
    public record Comparison(
            Path file,
            Map<String, State> states,
            List<Finding> absent,
            List<Finding> current,
            java.util.Set<String> notCompared,
            Level minLevel) {
        public Comparison {
            states = Map.copyOf(states);
            absent = List.copyOf(absent);
            current = List.copyOf(current);
            notCompared = java.util.Set.copyOf(notCompared);
        }

        public Comparison(Path file, Map<String, State> states, List<Finding> absent, List<Finding> current) {
            this(file, states, absent, current, java.util.Set.of(), null);
        }

        /** Findings below the baseline's minimum level that it does not hold (not compared). */
        public int notComparedCount() {
            return (int) current.stream()
                    .filter(f -> f.fingerprint() != null && notCompared.contains(f.fingerprint()))
                    .count();
        }

        public State state(Finding f) {
            if (f.fingerprint() == null) {
                return State.NEW;
            }
            return states.getOrDefault(f.fingerprint(), State.NEW);
        }

        /** Whether a new, unsuppressed finding is at least as severe as {@code threshold} (null: never). */
        public boolean failsAt(Level threshold) {
            return threshold != null
                    && current.stream()
                            .anyMatch(f -> !f.suppressed()
                                    && state(f) == State.NEW
                                    && f.level().atLeast(threshold));
        }

        /** How many current findings (suppressed ones included) are in {@code s}; for ABSENT the fixed ones. */
        public int count(State s) {
            if (s == State.ABSENT) {
                return absent.size();
            }
            return (int) current.stream()
                    .filter(f -> state(f) == s
                            && (s != State.NEW || f.fingerprint() == null || !notCompared.contains(f.fingerprint())))
                    .count();
        }

        /** "3 new, 10 unchanged, 1 updated, 2 fixed (absent)". */
        public String summary() {
            int below = notComparedCount();
            return count(State.NEW) + " new, " + count(State.UNCHANGED) + " unchanged, " + count(State.UPDATED)
                    + " updated, " + count(State.ABSENT) + " fixed (absent)"
                    + (below == 0
                            ? ""
                            : "; " + below + " below " + minLevel.id() + " not compared (the baseline holds "
                                    + minLevel.id() + " and above)");
        }
    }

    static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        String t = s.replaceAll("\\s*\\R\\s*", " ").strip();
        return t.length() > 300 ? t.substring(0, 300) + "..." : t;
    }
}
