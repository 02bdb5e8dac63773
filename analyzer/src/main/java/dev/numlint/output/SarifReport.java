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
 * SARIF 2.1.0 output, built from the java-sarif POJOs and written with Jackson. Deterministic: no timestamps, no
 * host names; the only machine-specific value is the absolute root in {@code originalUriBaseIds}. Every catalog
 * rule is listed in {@code tool.driver.rules} (catalog order, so {@code ruleIndex} is the catalog index).
 */
public final class SarifReport {
    public static final String SRCROOT = "%SRCROOT%";
    public static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
    public static final String FINGERPRINT_KEY = "numlint/v1";

    private SarifReport() {
    }

    /** Drops properties with empty or null values instead of the POJOs' default-value rule, which would drop
     * {@code level: "warning"} (its schema default) and so lose a configured level. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private abstract static class NonEmpty {
    }

    public static void write(ScanResult r, Writer out) throws IOException {
        // property bags are hash maps in the POJOs: sort their keys so the output is byte-stable
        ObjectMapper mapper = JsonReport.mapper()
                .configure(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
                .addMixIn(Result.class, NonEmpty.class)
                .addMixIn(ReportingConfiguration.class, NonEmpty.class)
                .addMixIn(com.contrastsecurity.sarif.Notification.class, NonEmpty.class);
        mapper.writer(JsonReport.printer()).writeValue(out, build(r));
        out.write("\n");
        out.flush();
    }

    public static SarifSchema210 build(ScanResult r) {
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
        for (Finding f : r.findings()) {
            results.add(result(f, catalog));
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
        bases.setAdditionalProperty(SRCROOT, new ArtifactLocation().withUri(rootUri(r.root())));

        Run run = new Run()
                .withTool(new Tool().withDriver(driver))
                .withOriginalUriBaseIds(bases)
                .withInvocations(List.of(invocation))
                .withColumnKind(Run.ColumnKind.UTF_16_CODE_UNITS)
                .withResults(results);
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
                .withHelp(new MultiformatMessageString().withText(rule.markdown()).withMarkdown(rule.markdown()))
                .withHelpUri(URI.create(rule.helpUri()))
                .withDefaultConfiguration(new ReportingConfiguration().withEnabled(null).withRank(null)
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
                .withMessage(new Message().withText(f.message()))
                .withLocations(List.of(location(f.location(), null, null)));
        Set<com.contrastsecurity.sarif.Location> related = new LinkedHashSet<>();
        int id = 1;
        for (Evidence e : f.evidence()) {
            if (e.location() != null) {
                related.add(location(e.location(), id++, e.kind() + ": " + e.text()));
            }
        }
        for (RelatedLocation rl : f.related()) {
            related.add(location(rl.location(), id++, rl.message()));
        }
        res.setRelatedLocations(related);
        if (f.fingerprint() != null) {
            PartialFingerprints fp = new PartialFingerprints();
            fp.setAdditionalProperty(FINGERPRINT_KEY, f.fingerprint());
            res.setPartialFingerprints(fp);
        }
        if (f.suppressed()) {
            Suppression s = new Suppression()
                    .withKind("external".equals(f.suppression().kind()) ? Suppression.Kind.EXTERNAL
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
        res.setProperties(props);
        return res;
    }

    /**
     * SARIF rank (0-100, higher is more important) of a validated finding: a divergence measured by running the
     * kernel ranks high, one not observed on the inputs tried ranks low; unvalidated findings have no rank.
     */
    static Double validationRank(Finding f) {
        if (f.properties().get("validation") instanceof Map<?, ?> v) {
            Object verdict = v.get("verdict");
            if ("confirmed".equals(verdict)) {
                return 95.0;
            }
            if ("not-observed".equals(verdict)) {
                return 30.0;
            }
        }
        return null;
    }

    private static com.contrastsecurity.sarif.Notification notification(Notification n) {
        com.contrastsecurity.sarif.Notification sn = new com.contrastsecurity.sarif.Notification()
                .withLevel(switch (n.level()) {
                    case ERROR -> com.contrastsecurity.sarif.Notification.Level.ERROR;
                    case WARNING -> com.contrastsecurity.sarif.Notification.Level.WARNING;
                    case NOTE -> com.contrastsecurity.sarif.Notification.Level.NOTE;
                })
                .withMessage(new Message().withText(n.message()))
                .withDescriptor(new ReportingDescriptorReference().withId(n.id()));
        if (n.file() != null) {
            Location l = n.line() > 0 ? Location.line(n.file(), n.line()) : null;
            com.contrastsecurity.sarif.Location loc = new com.contrastsecurity.sarif.Location()
                    .withPhysicalLocation(new PhysicalLocation().withArtifactLocation(artifact(n.file()))
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
                .withPhysicalLocation(new PhysicalLocation().withArtifactLocation(artifact(l.file())).withRegion(region));
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
        try {
            return new ArtifactLocation().withUri(new URI(null, null, file, null).toASCIIString())
                    .withUriBaseId(SRCROOT);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("cannot express " + file + " as a URI", e);
        }
    }

    static String rootUri(Path root) {
        String u = root.toAbsolutePath().normalize().toUri().toASCIIString();
        return u.endsWith("/") ? u : u + "/";
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
