package dev.numlint.output;

import com.contrastsecurity.sarif.ArtifactLocation;
import com.contrastsecurity.sarif.PhysicalLocation;
import com.contrastsecurity.sarif.PropertyBag;
import com.contrastsecurity.sarif.Region;
import com.contrastsecurity.sarif.Result;
import com.contrastsecurity.sarif.Run;
import com.contrastsecurity.sarif.SarifSchema210;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectReader;
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
    /** Each result's SARIF {@code message.text}, by fingerprint: what the comparison compares. */
    private final Map<String, String> texts;
    /** The lowest level the baseline holds (its run left out results below, --sarif-min-level), or null: all. */
    private final Level minLevel;

    private Baseline(Path file, Map<String, Finding> results, Map<String, String> texts, Level minLevel) {
        this.file = file;
        this.results = results;
        this.texts = texts;
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

    /** Reads a SARIF file written by numlint, with the SARIF model that {@link SarifReport} writes. */
    public static Baseline load(Path file) {
        SarifSchema210 sarif;
        try {
            if (!Files.isRegularFile(file)) {
                throw new InvalidBaselineException(file, Files.exists(file) ? "not a regular file" : "no such file");
            }
            sarif = READER.readValue(file.toFile());
        } catch (JsonParseException e) {
            throw new InvalidBaselineException(file, "not JSON: " + e.getOriginalMessage());
        } catch (JsonMappingException e) {
            String at = e.getPath().isEmpty() ? "" : e.getPath().get(0).getFieldName();
            throw new InvalidBaselineException(
                    file,
                    "version".equals(at)
                            ? "SARIF version '"
                                    + (e.getCause() == null ? "?" : e.getCause().getMessage()) + "', expected 2.1.0"
                            : "not SARIF 2.1.0 at " + path(e) + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidBaselineException(file, e.toString());
        }
        if (sarif == null || sarif.getRuns() == null) {
            throw new InvalidBaselineException(file, "no SARIF 'runs' array");
        }
        if (sarif.getVersion() != SarifSchema210.Version._2_1_0) {
            throw new InvalidBaselineException(file, "SARIF version '" + sarif.getVersion() + "', expected 2.1.0");
        }
        Map<String, Finding> results = new LinkedHashMap<>();
        Map<String, String> texts = new HashMap<>();
        Level minLevel = null;
        int numlintRuns = 0;
        for (Run run : sarif.getRuns()) {
            if (run == null
                    || run.getTool() == null
                    || run.getTool().getDriver() == null
                    || !RuleCatalog.TOOL_NAME.equals(run.getTool().getDriver().getName())) {
                continue;
            }
            numlintRuns++;
            Level runMin =
                    switch (String.valueOf(property(run.getProperties(), SarifReport.MIN_LEVEL_PROPERTY))) {
                        case "error" -> Level.ERROR;
                        case "warning" -> Level.WARNING;
                        default -> null;
                    };
            if (runMin != null && (minLevel == null || minLevel.atLeast(runMin))) {
                minLevel = runMin; // several runs: the least complete one decides
            }
            int i = 0;
            for (Result r : run.getResults() == null ? List.<Result>of() : run.getResults()) {
                i++;
                if (r == null || r.getBaselineState() == Result.BaselineState.ABSENT) {
                    continue;
                }
                Finding f = finding(file, r, i);
                if (results.putIfAbsent(f.fingerprint(), f) == null) {
                    texts.put(
                            f.fingerprint(),
                            r.getMessage() == null
                                    ? ""
                                    : String.valueOf(r.getMessage().getText()));
                }
            }
        }
        if (numlintRuns == 0) {
            throw new InvalidBaselineException(file, "no run of the tool '" + RuleCatalog.TOOL_NAME + "'");
        }
        return new Baseline(file, Collections.unmodifiableMap(results), texts, minLevel);
    }

    /** Reads SARIF 2.1.0 into the model; properties the model does not know (other tools' extensions) are skipped. */
    private static final ObjectReader READER = JsonReport.mapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .readerFor(SarifSchema210.class);

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            sb.append(ref.getFieldName() != null ? "/" + ref.getFieldName() : "/" + ref.getIndex());
        }
        return sb.length() == 0 ? "/" : sb.toString();
    }

    private static Object property(PropertyBag bag, String key) {
        return bag == null ? null : bag.getAdditionalProperties().get(key);
    }

    private static Finding finding(Path file, Result r, int index) {
        String fp = r.getPartialFingerprints() == null
                ? null
                : r.getPartialFingerprints().getAdditionalProperties().get(SarifReport.FINGERPRINT_KEY);
        if (fp == null || fp.isEmpty()) {
            throw new InvalidBaselineException(
                    file, "result " + index + " has no '" + SarifReport.FINGERPRINT_KEY + "' partial fingerprint");
        }
        String ruleId = r.getRuleId();
        if (ruleId == null) {
            throw new InvalidBaselineException(file, "result " + index + " has no ruleId");
        }
        // SARIF's level defaults to warning when a result leaves it out (the model applies the schema's default)
        Level level =
                switch (r.getLevel() == null ? Result.Level.WARNING : r.getLevel()) {
                    case ERROR -> Level.ERROR;
                    case NOTE, NONE -> Level.NOTE;
                    default -> Level.WARNING;
                };
        Layer layer = Layer.CUDA_SOURCE;
        Object layerId = property(r.getProperties(), "layer");
        for (Layer l : Layer.values()) {
            if (l.id().equals(layerId)) {
                layer = l;
            }
        }
        PhysicalLocation phys = r.getLocations() == null
                        || r.getLocations().isEmpty()
                        || r.getLocations().get(0) == null
                ? null
                : r.getLocations().get(0).getPhysicalLocation();
        Region region = phys == null || phys.getRegion() == null ? new Region() : phys.getRegion();
        Location loc = new Location(
                path(phys == null ? null : phys.getArtifactLocation()),
                orElse(region.getStartLine(), 1),
                orElse(region.getStartColumn(), 0),
                orElse(region.getEndLine(), 0),
                orElse(region.getEndColumn(), 0));
        String message = r.getMessage() == null || r.getMessage().getText() == null
                ? ""
                : r.getMessage().getText();
        if (r.getRelatedLocations() != null && !r.getRelatedLocations().isEmpty()) {
            message = plainMessage(message);
        }
        Finding.Builder b = Finding.builder(ruleId)
                .level(level)
                .location(loc)
                .message(message)
                .layer(layer)
                .fingerprint(fp);
        if (property(r.getProperties(), "function") instanceof String fn) {
            b.function(fn);
        }
        return b.build();
    }

    private static int orElse(Integer i, int otherwise) {
        return i == null ? otherwise : i;
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
    private static String path(ArtifactLocation artifact) {
        String uri = artifact == null || artifact.getUri() == null ? "" : artifact.getUri();
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
            } else if (old.level() == f.level() && texts.get(f.fingerprint()).equals(SarifReport.messageText(f))) {
                // the texts SARIF holds, both from SarifReport.messageText: a message with links to related
                // locations compares as written, links and escapes included
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
