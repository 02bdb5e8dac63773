package dev.numlint.output;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.model.RelatedLocation;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.scan.ScanResult;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * numlint's own JSON: {@code {"tool", "provenance", "findings", "notifications", "summary"}}, deterministic but for
 * {@code provenance.date} (fixed by {@code SOURCE_DATE_EPOCH}). Columns that are
 * not known are left out ({@code column}, {@code endColumn} absent), never 0. JSON always holds every finding.
 */
public final class JsonReport {
    private JsonReport() {}

    public static void write(ScanResult r, Writer out) throws IOException {
        write(r, ReportOptions.defaults(), out);
    }

    /**
     * With a baseline, every finding carries {@code baselineState} and a top-level {@code baseline} object gives the
     * counts and the fixed (absent) results. Suppressed findings are always kept.
     */
    public static void write(ScanResult r, ReportOptions o, Writer out) throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        Map<String, Object> tool = new LinkedHashMap<>();
        tool.put("name", RuleCatalog.TOOL_NAME);
        tool.put("version", RuleCatalog.toolVersion());
        doc.put("tool", tool);
        doc.put("provenance", provenance(r, o));
        List<Object> findings = new ArrayList<>();
        for (Finding f : r.findings()) {
            Map<String, Object> m = finding(f);
            if (o.baseline() != null) {
                m.put("baselineState", o.baseline().state(f).id());
            }
            findings.add(m);
        }
        doc.put("findings", findings);
        if (o.baseline() != null) {
            Baseline.Comparison c = o.baseline();
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("file", c.file().toString());
            for (Baseline.State st : Baseline.State.values()) {
                b.put(st.id(), c.count(st));
            }
            List<Object> absent = new ArrayList<>();
            for (Finding f : c.absent()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("ruleId", f.ruleId());
                m.put("level", f.level().id());
                m.put("file", f.location().file());
                m.put("line", f.location().startLine());
                m.put("message", f.message());
                m.put("fingerprint", f.fingerprint());
                m.put("baselineState", Baseline.State.ABSENT.id());
                absent.add(m);
            }
            b.put("absentFindings", absent);
            doc.put("baseline", b);
        }
        List<Object> notes = new ArrayList<>();
        for (Notification n : r.notifications()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("file", n.file());
            m.put("line", n.line());
            m.put("level", n.level().id());
            m.put("id", n.id());
            m.put("message", n.message());
            m.put("notAnalyzed", n.notAnalyzed());
            notes.add(m);
        }
        doc.put("notifications", notes);
        List<String> contexts = r.buildContext(null).summary();
        if (!contexts.isEmpty()) {
            doc.put("buildContexts", contexts); // the build context each directory's files were analyzed with
        }
        Summary s = Summary.of(r);
        Map<String, Object> sum = new LinkedHashMap<>();
        sum.put("findings", s.findings());
        sum.put("suppressed", s.suppressed());
        Map<String, Object> byRule = new LinkedHashMap<>();
        for (Summary.RuleCount c : s.byRule().values()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", c.name());
            m.put("count", c.count());
            m.put("suppressed", c.suppressed());
            byRule.put(c.id(), m);
        }
        sum.put("byRule", byRule);
        sum.put("filesAnalyzed", s.filesAnalyzed());
        sum.put("filesNotAnalyzed", s.filesNotAnalyzed());
        sum.put("executionSuccessful", s.executionSuccessful());
        doc.put("summary", sum);
        mapper().writer(printer()).writeValue(out, doc);
        out.write("\n");
        out.flush();
    }

    private static Map<String, Object> finding(Finding f) {
        Map<String, Object> m = new LinkedHashMap<>();
        Location l = f.location();
        m.put("ruleId", f.ruleId());
        m.put("level", f.level().id());
        m.put("file", l.file());
        region(m, l);
        m.put("message", f.message());
        m.put("layer", f.layer().id());
        m.put("confidence", f.confidence().id());
        m.put("function", f.function());
        m.put("fingerprint", f.fingerprint());
        List<Object> ev = new ArrayList<>();
        for (Evidence e : f.evidence()) {
            Map<String, Object> em = new LinkedHashMap<>();
            em.put("kind", e.kind());
            em.put("text", e.text());
            if (e.location() != null) {
                em.put("location", location(e.location()));
            }
            ev.add(em);
        }
        m.put("evidence", ev);
        List<Object> rel = new ArrayList<>();
        for (RelatedLocation r : f.related()) {
            Map<String, Object> rm = location(r.location());
            rm.put("message", r.message());
            rel.add(rm);
        }
        m.put("related", rel);
        m.put("suppressed", f.suppressed());
        m.put("justification", f.suppressed() ? f.suppression().justification() : null);
        m.put("properties", canonical(f.properties()));
        return m;
    }

    private static Map<String, Object> location(Location l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", l.file());
        region(m, l);
        return m;
    }

    /** Line, column, endLine, endColumn; an unknown column (0) is left out rather than written as 0. */
    private static void region(Map<String, Object> m, Location l) {
        m.put("line", l.startLine());
        if (l.startColumn() > 0) {
            m.put("column", l.startColumn());
        }
        m.put("endLine", l.endLine());
        if (l.endColumn() > 0 && (l.endLine() > l.startLine() || l.endColumn() > l.startColumn())) {
            m.put("endColumn", l.endColumn());
        }
    }

    /**
     * What was scanned and with what, as the HTML report's header says it: rule-set hash, configuration file and
     * hash, scanned paths, report root, date (UTC; {@code SOURCE_DATE_EPOCH} makes it reproducible) and the git
     * commit, branch and dirty state of the first scanned path (read from {@code .git} by {@link GitInfo}, git never
     * run).
     */
    static Map<String, Object> provenance(ScanResult r, ReportOptions o) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("ruleSet", "sha256:" + HtmlReport.ruleSetHash());
        Map<String, Object> config = new LinkedHashMap<>();
        if (o.configFile() != null) {
            config.put("file", o.configFile().toString());
            try {
                config.put(
                        "sha256",
                        java.util.HexFormat.of()
                                .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                                        .digest(java.nio.file.Files.readAllBytes(o.configFile()))));
            } catch (IOException | java.security.NoSuchAlgorithmException | RuntimeException e) {
                config.put("sha256", null);
                config.put("note", "not readable: " + e.getMessage());
            }
        } else {
            config.put("file", null);
            config.put("note", "none: built-in defaults");
        }
        p.put("configuration", config);
        List<String> paths = new ArrayList<>();
        for (java.nio.file.Path x : o.paths()) paths.add(x.toString());
        p.put("scannedPaths", paths.isEmpty() ? List.of(r.root().toString()) : paths);
        p.put("root", r.root().toString());
        p.put("date", date());
        Map<String, Object> git = new LinkedHashMap<>();
        java.nio.file.Path start = o.paths().isEmpty() ? r.root() : o.paths().get(0);
        if (!java.nio.file.Files.isDirectory(start))
            start = start.toAbsolutePath().getParent();
        java.util.Optional<GitInfo> g = start == null ? java.util.Optional.empty() : GitInfo.find(start);
        if (g.isPresent()) {
            git.put("commit", g.get().commit());
            git.put("branch", g.get().branch());
            git.put("dirty", g.get().dirty());
            git.put("note", g.get().note());
        } else {
            git.put("commit", null);
            git.put("note", "not a git checkout");
        }
        p.put("git", git);
        return p;
    }

    /** The report date (UTC, seconds); SOURCE_DATE_EPOCH, when set, gives reproducible reports. */
    static String date() {
        java.time.Instant t = java.time.Instant.now();
        String epoch = System.getenv("SOURCE_DATE_EPOCH");
        if (epoch != null && epoch.matches("\\d{1,12}")) t = java.time.Instant.ofEpochSecond(Long.parseLong(epoch));
        return java.time.format.DateTimeFormatter.ISO_INSTANT.format(
                t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    }

    static ObjectMapper mapper() {
        return new ObjectMapper()
                .configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false)
                .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);
    }

    /** Analyzer-supplied values with maps sorted by key (recursively), so output does not depend on map order. */
    static Object canonical(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> t = new java.util.TreeMap<>();
            m.forEach((k, x) -> t.put(String.valueOf(k), canonical(x)));
            return t;
        }
        if (v instanceof java.util.Collection<?> c) {
            List<Object> l = new ArrayList<>();
            c.forEach(x -> l.add(canonical(x)));
            return l;
        }
        return v;
    }

    /** Two-space indentation with '\n' line ends on every platform. */
    static DefaultPrettyPrinter printer() {
        DefaultIndenter indent = new DefaultIndenter("  ", "\n");
        return new DefaultPrettyPrinter().withObjectIndenter(indent).withArrayIndenter(indent);
    }
}
