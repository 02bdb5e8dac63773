package dev.numlint.output;

import com.contrastsecurity.sarif.ArtifactLocation;
import com.contrastsecurity.sarif.Invocation;
import com.contrastsecurity.sarif.Message;
import com.contrastsecurity.sarif.MultiformatMessageString;
import com.contrastsecurity.sarif.OriginalUriBaseIds;
import com.contrastsecurity.sarif.PartialFingerprints;
import com.contrastsecurity.sarif.PhysicalLocation;
import com.contrastsecurity.sarif.PropertyBag;
import com.contrastsecurity.sarif.Region;
import com.contrastsecurity.sarif.ReportingConfiguration;
import com.contrastsecurity.sarif.ReportingDescriptor;
import com.contrastsecurity.sarif.ReportingDescriptorReference;
import com.contrastsecurity.sarif.Result;
import com.contrastsecurity.sarif.Run;
import com.contrastsecurity.sarif.RunAutomationDetails;
import com.contrastsecurity.sarif.SarifSchema210;
import com.contrastsecurity.sarif.Suppression;
import com.contrastsecurity.sarif.Tool;
import com.contrastsecurity.sarif.ToolComponent;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.model.RelatedLocation;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.scan.ScanResult;
import java.io.IOException;
import java.io.Writer;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SARIF 2.1.0 output, built from the java-sarif POJOs and written with Jackson. Deterministic and free of
 * machine-specific values: no timestamps, no host names, and no absolute path of the checkout (artifact URIs are
 * relative to {@code %SRCROOT%}, which is described but has no {@code uri}: GitHub and other consumers resolve it
 * to the checkout). Every catalog rule is listed in {@code tool.driver.rules} (catalog order, so {@code ruleIndex}
 * is the catalog index).
 *
 * <p>Related locations carry the evidence and launch sites; the message links them with SARIF embedded links
 * ({@code [text](1)}) so that viewers show them. Locations outside the scanned tree (toolkit and system headers)
 * and pseudo-files such as the command line ({@code --nvcc-flags}) are never written as artifacts: they become
 * related locations without a physical location whose message says what they are, without the path.
 */
public final class SarifReport {
    public static final String SRCROOT = "%SRCROOT%";
    public static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
    public static final String FINGERPRINT_KEY = "numlint/v1";
    /** Run property naming the lowest level whose results the run holds (--sarif-min-level). */
    static final String MIN_LEVEL_PROPERTY = "sarifMinLevel";

    /** Id of the notification that says results were left out to stay within {@link Limits}. */
    public static final String LIMIT_NOTIFICATION = "sarif-limit";

    /**
     * Limits of one SARIF run. {@link #GITHUB}: GitHub code scanning rejects runs with more than 25,000 results or
     * 1,000 (related) locations per result, and files over 10 MB gzipped.
     *
     * @param maxResults   results per run
     * @param maxLocations related locations per result
     * @param maxGzipBytes size of the gzipped SARIF file
     */
    public record Limits(int maxResults, int maxLocations, long maxGzipBytes) {
        public static final Limits GITHUB = new Limits(25_000, 1_000, 10L * 1000 * 1000);
    }

    private SarifReport() {}

    /** Drops properties with empty or null values instead of the POJOs' default-value rule, which would drop
     * {@code level: "warning"} (its schema default) and so lose a configured level. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private abstract static class NonEmpty {}

    public static void write(ScanResult r, Writer out) throws IOException {
        write(r, ReportOptions.defaults(), out);
    }

    /** SARIF with baseline states, suppressed results kept or left out, and the automation category of {@code o}. */
    public static void write(ScanResult r, ReportOptions o, Writer out) throws IOException {
        // property bags are hash maps in the POJOs: sort their keys so the output is byte-stable
        ObjectMapper mapper = JsonReport.mapper()
                .configure(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
                .addMixIn(Result.class, NonEmpty.class)
                .addMixIn(ReportingConfiguration.class, NonEmpty.class)
                .addMixIn(com.contrastsecurity.sarif.Notification.class, NonEmpty.class);
        mapper.writer(JsonReport.printer()).writeValue(out, build(r, o));
        out.write("\n");
        out.flush();
    }

    /**
     * {@code r} trimmed to the limits of one SARIF run: when it has more results than {@code limits.maxResults()} or
     * its SARIF would be larger gzipped than {@code limits.maxGzipBytes()}, the most important results stay (errors
     * before warnings before notes, unsuppressed before suppressed, then the usual order) and a
     * {@link #LIMIT_NOTIFICATION} notification says how many were left out and how to see them all. The kept
     * findings stay in the report's order. Related locations per result are capped in {@link #build}.
     */
    public static ScanResult fitToLimits(ScanResult r, Limits limits) {
        List<Finding> all = r.findings();
        int keep = Math.min(all.size(), limits.maxResults());
        if (keep == all.size() && gzipSize(r) <= limits.maxGzipBytes()) {
            return r;
        }
        Integer[] byImportance = new Integer[all.size()];
        for (int i = 0; i < byImportance.length; i++) {
            byImportance[i] = i;
        }
        java.util.Arrays.sort(
                byImportance,
                java.util.Comparator.comparing((Integer i) -> all.get(i).suppressed())
                        .thenComparing(i -> -severity(all.get(i).level()))
                        .thenComparingInt(i -> i));
        // the run without results (rule metadata, notifications) is a fixed part; results share the rest
        long fixed = gzipSize(keep(r, byImportance, 0, limits));
        for (int attempt = 0; attempt < 12; attempt++) {
            ScanResult fitted = keep(r, byImportance, keep, limits);
            long size = gzipSize(fitted);
            if (size <= limits.maxGzipBytes() || keep == 0) {
                return fitted;
            }
            double share = (double) Math.max(0, limits.maxGzipBytes() - fixed) / Math.max(1, size - fixed);
            keep = (int) Math.max(0, Math.min(keep - 1, (long) (keep * share * 0.97)));
        }
        return keep(r, byImportance, 0, limits);
    }

    private static int severity(Level l) {
        return switch (l) {
            case ERROR -> 3;
            case WARNING -> 2;
            case NOTE -> 1;
        };
    }

    private static ScanResult keep(ScanResult r, Integer[] byImportance, int keep, Limits limits) {
        boolean[] kept = new boolean[byImportance.length];
        for (int i = 0; i < keep; i++) {
            kept[byImportance[i]] = true;
        }
        List<Finding> findings = new ArrayList<>(keep);
        for (int i = 0; i < kept.length; i++) {
            if (kept[i]) {
                findings.add(r.findings().get(i));
            }
        }
        int left = r.findings().size() - keep;
        List<Notification> notes = new ArrayList<>(r.notifications());
        notes.add(
                0,
                new Notification(
                        null,
                        0,
                        Level.WARNING,
                        LIMIT_NOTIFICATION,
                        "the SARIF report holds " + keep
                                + " of " + r.findings().size() + " results; " + left
                                + " left out to stay within GitHub code "
                                + "scanning's limits (" + limits.maxResults() + " results per run, "
                                + limits.maxGzipBytes() / 1_000_000
                                + " MB gzipped): errors were kept before warnings before notes, unsuppressed before suppressed. "
                                + "--format json reports every finding; --exclude or disabling rules in .numlint.yml narrows the scan"));
        return new ScanResult(
                r.root(),
                List.copyOf(findings),
                List.copyOf(notes),
                r.filesAnalyzed(),
                r.filesNotAnalyzed(),
                r.executionSuccessful(),
                r.buildContexts());
    }

    /** Bytes of the gzipped SARIF of {@code r}. */
    static long gzipSize(ScanResult r) {
        long[] n = {0};
        java.io.OutputStream count = new java.io.OutputStream() {
            @Override
            public void write(int b) {
                n[0]++;
            }

            @Override
            public void write(byte[] b, int off, int len) {
                n[0] += len;
            }
        };
        try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(count, 1 << 16);
                Writer w = new java.io.OutputStreamWriter(gz, java.nio.charset.StandardCharsets.UTF_8)) {
            write(r, w);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return n[0];
    }

    public static SarifSchema210 build(ScanResult r) {
        return build(r, ReportOptions.defaults());
    }

    public static SarifSchema210 build(ScanResult r, ReportOptions o) {
        RuleCatalog catalog = RuleCatalog.get();
        ToolComponent driver = new ToolComponent()
                .withName(RuleCatalog.TOOL_NAME)
                .withVersion(RuleCatalog.toolVersion())
                .withSemanticVersion(RuleCatalog.toolVersion())
                .withInformationUri(URI.create(RuleCatalog.INFORMATION_URI));
        Set<ReportingDescriptor> rules = new LinkedHashSet<>();
        for (Rule rule : catalog.all()) {
            rules.add(descriptor(rule));
        }
        driver.setRules(rules);

        List<Result> results = new ArrayList<>();
        int omitted = 0;
        int belowLevel = 0;
        for (Finding f : r.findings()) {
            if (o.omitSuppressed() && f.suppressed()) {
                omitted++;
                continue;
            }
            if (o.sarifMinLevel() != null && !f.level().atLeast(o.sarifMinLevel())) {
                belowLevel++;
                continue;
            }
            Result res = result(f, catalog);
            if (o.baseline() != null) {
                res.setBaselineState(baselineState(o.baseline().state(f)));
            }
            results.add(res);
        }
        if (o.baseline() != null) {
            // fixed since the baseline: reported as absent with their old location and message
            for (Finding f : o.baseline().absent()) {
                if (o.sarifMinLevel() != null && !f.level().atLeast(o.sarifMinLevel())) {
                    continue;
                }
                Result res = result(f, catalog);
                res.setBaselineState(Result.BaselineState.ABSENT);
                results.add(res);
            }
        }

        List<com.contrastsecurity.sarif.Notification> notes = new ArrayList<>();
        for (Notification n : r.notifications()) {
            notes.add(notification(n));
        }
        Invocation invocation = new Invocation()
                .withExecutionSuccessful(r.executionSuccessful())
                .withToolExecutionNotifications(notes);
        List<String> contexts = r.buildContext(null).summary();
        if (!contexts.isEmpty()) { // the build context each directory's files were analyzed with
            PropertyBag bag = new PropertyBag();
            bag.setAdditionalProperty("buildContexts", contexts);
            invocation.setProperties(bag);
        }

        OriginalUriBaseIds bases = new OriginalUriBaseIds();
        bases.setAdditionalProperty(
                SRCROOT,
                new ArtifactLocation()
                        .withDescription(
                                new Message()
                                        .withText(
                                                "The directory the scan's paths are relative to (the checkout when numlint runs at its top).")));

        Run run = new Run()
                .withTool(new Tool().withDriver(driver))
                .withOriginalUriBaseIds(bases)
                .withInvocations(List.of(invocation))
                .withColumnKind(Run.ColumnKind.UTF_16_CODE_UNITS)
                .withAutomationDetails(new RunAutomationDetails().withId(o.category() + "/"))
                .withResults(results);
        if (o.omitSuppressed() || o.sarifMinLevel() != null) {
            PropertyBag runProps = new PropertyBag();
            if (o.omitSuppressed()) {
                runProps.setAdditionalProperty("suppressedResultsOmitted", omitted);
            }
            if (o.sarifMinLevel() != null) {
                // what a baseline made from this file holds: results below the level were left out
                runProps.setAdditionalProperty(
                        MIN_LEVEL_PROPERTY, o.sarifMinLevel().id());
                runProps.setAdditionalProperty("resultsBelowMinLevelOmitted", belowLevel);
            }
            run.setProperties(runProps);
        }
        return new SarifSchema210()
                .with$schema(URI.create(SCHEMA))
                .withVersion(SarifSchema210.Version._2_1_0)
                .withRuns(List.of(run));
    }

    static ReportingDescriptor descriptor(Rule rule) {
        PropertyBag props = new PropertyBag();
        Set<String> tags = new LinkedHashSet<>();
        tags.add("numerical");
        tags.add(rule.category());
        for (int cwe : rule.cwe()) {
            tags.add("external/cwe/cwe-" + cwe);
        }
        props.setTags(tags);
        props.setAdditionalProperty("precision", rule.level() == Level.ERROR ? "high" : "medium");
        props.setAdditionalProperty("problem.severity", problemSeverity(rule.level()));
        List<String> layers = new ArrayList<>();
        rule.layers().forEach(l -> layers.add(l.id()));
        props.setAdditionalProperty("layers", layers);
        return new ReportingDescriptor()
                .withId(rule.id())
                .withName(rule.name())
                .withShortDescription(new MultiformatMessageString().withText(rule.summary()))
                .withFullDescription(new MultiformatMessageString().withText(rule.description()))
                .withHelp(
                        new MultiformatMessageString().withText(rule.markdown()).withMarkdown(rule.markdown()))
                .withHelpUri(URI.create(rule.helpUri()))
                .withDefaultConfiguration(new ReportingConfiguration()
                        .withEnabled(null)
                        .withRank(null)
                        .withLevel(configLevel(rule.level())))
                .withProperties(props);
    }

    private static Result result(Finding f, RuleCatalog catalog) {
        Result res = new Result()
                .withRuleId(f.ruleId())
                .withRuleIndex(catalog.indexOf(f.ruleId()))
                .withKind(null)
                .withRank(validationRank(f))
                .withLevel(resultLevel(f.level()))
                .withMessage(new Message().withText(messageText(f)))
                .withLocations(List.of(location(f.location(), null, null)));
        List<Related> rel = relatedWritten(f);
        Set<com.contrastsecurity.sarif.Location> related = new LinkedHashSet<>();
        int id = 1;
        for (Related x : rel) {
            if (x.location() != null) {
                related.add(location(x.location(), id, x.message()));
            } else {
                related.add(new com.contrastsecurity.sarif.Location()
                        .withId(id)
                        .withMessage(new Message().withText(x.message())));
            }
            id++;
        }
        res.setRelatedLocations(related);
        if (f.fingerprint() != null) {
            PartialFingerprints fp = new PartialFingerprints();
            fp.setAdditionalProperty(FINGERPRINT_KEY, f.fingerprint());
            res.setPartialFingerprints(fp);
        }
        if (f.suppressed()) {
            Suppression s = new Suppression()
                    .withKind(
                            "external".equals(f.suppression().kind())
                                    ? Suppression.Kind.EXTERNAL
                                    : Suppression.Kind.IN_SOURCE)
                    .withJustification(f.suppression().justification());
            if (f.suppression().location() != null) {
                s.setLocation(location(f.suppression().location(), null, null));
            }
            res.setSuppressions(new LinkedHashSet<>(List.of(s)));
        }
        PropertyBag props = new PropertyBag();
        props.setAdditionalProperty("layer", f.layer().id());
        props.setAdditionalProperty("confidence", f.confidence().id());
        if (f.function() != null) {
            props.setAdditionalProperty("function", f.function());
        }
        if (!f.evidence().isEmpty()) {
            List<Map<String, Object>> ev = new ArrayList<>();
            for (Evidence e : f.evidence()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("kind", e.kind());
                m.put("text", e.text());
                if (e.location() != null) {
                    m.put("location", e.location().shortText());
                }
                ev.add(m);
            }
            props.setAdditionalProperty("evidence", ev);
        }
        Object extra = JsonReport.canonical(f.properties());
        ((Map<?, ?>) extra).forEach((k, v) -> props.setAdditionalProperty(String.valueOf(k), v));
        int omitted = relatedOf(f).size() - rel.size();
        if (omitted > 0) {
            props.setAdditionalProperty("relatedLocationsOmitted", omitted);
        }
        res.setProperties(props);
        return res;
    }

    /** One related location: a place in the scanned tree, or (location null) a description of one outside it. */
    record Related(Location location, String message, String linkText) {}

    /** The related locations a result carries: {@link #relatedOf}, capped at GitHub's limit per result. */
    private static List<Related> relatedWritten(Finding f) {
        List<Related> rel = relatedOf(f);
        return rel.size() > Limits.GITHUB.maxLocations() ? rel.subList(0, Limits.GITHUB.maxLocations()) : rel;
    }

    /**
     * A result's {@code message.text}: the finding's message, and when it has related locations with a place, SARIF
     * embedded links to them ("... (see [text](1), [text](2))"), with the message's own '\\', '[' and ']' escaped.
     * The baseline compares a finding's text with a baseline result's through this one function.
     */
    static String messageText(Finding f) {
        List<String> links = new ArrayList<>();
        int id = 1;
        for (Related x : relatedWritten(f)) {
            if (x.location() != null) {
                links.add("[" + linkText(x.linkText()) + "](" + id + ")");
            }
            id++;
        }
        return links.isEmpty() ? f.message() : escapeBrackets(f.message()) + " (see " + String.join(", ", links) + ")";
    }

    /**
     * The evidence locations and related locations of a finding, in order, without duplicates (same region: the
     * messages are joined) and without the finding's own region; places outside the scanned tree and the command
     * line are described in text only.
     */
    static List<Related> relatedOf(Finding f) {
        Map<String, Related> out = new LinkedHashMap<>();
        Location primary = f.location();
        for (Evidence e : f.evidence()) {
            if (e.location() != null) {
                add(
                        out,
                        primary,
                        e.location(),
                        e.kind() + ": " + e.text(),
                        e.kind() + ": " + e.text().strip());
            }
        }
        for (RelatedLocation rl : f.related()) {
            add(out, primary, rl.location(), rl.message(), rl.message());
        }
        return new ArrayList<>(out.values());
    }

    private static void add(Map<String, Related> out, Location primary, Location l, String message, String link) {
        String file = l.file();
        String key = file + '\u0000' + l.startLine() + '\u0000' + l.startColumn();
        if (file.startsWith("-") || outsideTree(file)) {
            // a flag from the command line (--nvcc-flags) or a place outside the scanned tree (a toolkit header):
            // no artifact to point at, and no path of the machine in the report
            String where = file.startsWith("-")
                    ? "command line (" + file + ")"
                    : "in a file outside the scanned tree" + (l.startLine() > 0 ? ", line " + l.startLine() : "");
            Related have = out.get(key);
            if (have == null) {
                out.put(key, new Related(null, where + ": " + message, link));
            } else if (!have.message().contains(message)) {
                out.put(key, new Related(null, have.message() + "; " + message, have.linkText()));
            }
            return;
        }
        if (file.equals(primary.file())
                && l.startLine() == primary.startLine()
                && l.startColumn() == primary.startColumn()
                && l.endLine() == primary.endLine()
                && l.endColumn() == primary.endColumn()) {
            return;
        }
        Related have = out.get(key);
        if (have == null) {
            out.put(key, new Related(l, message, link));
        } else if (!have.message().equals(message) && !have.message().contains(message)) {
            out.put(key, new Related(have.location(), have.message() + "; " + message, have.linkText()));
        }
    }

    /** Absolute (outside the scan root) or escaping it with '..'. */
    static boolean outsideTree(String file) {
        return Path.of(file).isAbsolute() || file.startsWith("../") || file.equals("..") || file.contains("/../");
    }

    private static String linkText(String s) {
        String t = s.length() > 60 ? s.substring(0, 57) + "..." : s;
        return escapeBrackets(t);
    }

    /** Escapes '\\', '[' and ']' so that a plain-text SARIF message with embedded links reads literally. */
    static String escapeBrackets(String s) {
        return s.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]");
    }

    /**
     * SARIF rank (0-100, higher is more important) of a validated finding: a divergence measured by running the
     * kernel ranks high, one not observed on the inputs tried ranks low; unvalidated findings have no rank.
     */
    static Double validationRank(Finding f) {
        if (f.verdict() == null || f.verdict().verdict() == null) {
            return null;
        }
        return switch (f.verdict().verdict()) {
            case CONFIRMED -> 95.0;
            case NOT_OBSERVED -> 30.0;
            default -> null;
        };
    }

    private static com.contrastsecurity.sarif.Notification notification(Notification n) {
        com.contrastsecurity.sarif.Notification sn = new com.contrastsecurity.sarif.Notification()
                .withLevel(
                        switch (n.level()) {
                            case ERROR -> com.contrastsecurity.sarif.Notification.Level.ERROR;
                            case WARNING -> com.contrastsecurity.sarif.Notification.Level.WARNING;
                            case NOTE -> com.contrastsecurity.sarif.Notification.Level.NOTE;
                        })
                .withMessage(new Message().withText(n.message()))
                .withDescriptor(new ReportingDescriptorReference().withId(n.id()));
        if (n.file() != null && !outsideTree(n.file())) {
            Location l = n.line() > 0 ? Location.line(n.file(), n.line()) : null;
            com.contrastsecurity.sarif.Location loc = new com.contrastsecurity.sarif.Location()
                    .withPhysicalLocation(new PhysicalLocation()
                            .withArtifactLocation(artifact(n.file()))
                            .withRegion(l == null ? null : new Region().withStartLine(l.startLine())));
            sn.setLocations(new LinkedHashSet<>(List.of(loc)));
        }
        return sn;
    }

    static com.contrastsecurity.sarif.Location location(Location l, Integer id, String message) {
        Region region = new Region().withStartLine(l.startLine());
        if (l.startColumn() > 0) {
            region.setStartColumn(l.startColumn());
        }
        region.setEndLine(l.endLine());
        if (l.endColumn() > 0 && (l.endLine() > l.startLine() || l.endColumn() > l.startColumn())) {
            region.setEndColumn(l.endColumn());
        }
        com.contrastsecurity.sarif.Location loc = new com.contrastsecurity.sarif.Location()
                .withPhysicalLocation(new PhysicalLocation()
                        .withArtifactLocation(artifact(l.file()))
                        .withRegion(region));
        if (id != null) {
            loc.setId(id);
        }
        if (message != null) {
            loc.setMessage(new Message().withText(message));
        }
        return loc;
    }

    static ArtifactLocation artifact(String file) {
        Path p = Path.of(file);
        if (p.isAbsolute()) {
            return new ArtifactLocation().withUri(p.toUri().toASCIIString());
        }
        // a relative path whose first segment holds a colon ("a:b.cu", a legal file name) reads as a scheme: RFC 3986
        // writes it "./a:b.cu"
        int slash = file.indexOf('/');
        String path = file.substring(0, slash < 0 ? file.length() : slash).contains(":") ? "./" + file : file;
        try {
            return new ArtifactLocation()
                    .withUri(new URI(null, null, path, null).toASCIIString())
                    .withUriBaseId(SRCROOT);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("cannot express " + file + " as a URI", e);
        }
    }

    static String rootUri(Path root) {
        String u = root.toAbsolutePath().normalize().toUri().toASCIIString();
        return u.endsWith("/") ? u : u + "/";
    }

    private static Result.BaselineState baselineState(Baseline.State s) {
        return switch (s) {
            case NEW -> Result.BaselineState.NEW;
            case UNCHANGED -> Result.BaselineState.UNCHANGED;
            case UPDATED -> Result.BaselineState.UPDATED;
            case ABSENT -> Result.BaselineState.ABSENT;
        };
    }

    private static Result.Level resultLevel(Level l) {
        return switch (l) {
            case ERROR -> Result.Level.ERROR;
            case WARNING -> Result.Level.WARNING;
            case NOTE -> Result.Level.NOTE;
        };
    }

    private static ReportingConfiguration.Level configLevel(Level l) {
        return switch (l) {
            case ERROR -> ReportingConfiguration.Level.ERROR;
            case WARNING -> ReportingConfiguration.Level.WARNING;
            case NOTE -> ReportingConfiguration.Level.NOTE;
        };
    }

    private static String problemSeverity(Level l) {
        return switch (l) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case NOTE -> "recommendation";
        };
    }
}
