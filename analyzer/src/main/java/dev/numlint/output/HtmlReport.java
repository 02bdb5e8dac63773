package dev.numlint.output;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Impact;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.Notification;
import dev.numlint.output.HtmlModel.*;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.scan.ScanResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The audit report: one self-contained HTML file (styles, script and SVG charts inline; a Content-Security-Policy
 * that forbids every network load and every script but the report's own). It records what was scanned and with
 * what (tool version, rule-set and configuration hashes, roots, build contexts, git commit and dirty state, date),
 * summarizes the findings (by rule and impact, directory, baseline state, validation verdict, ULP), lists every
 * finding with its evidence, impact, verdict, fingerprint, baseline state and suppression, and the files that were
 * not analyzed. Filters by rule, level, state and directory work offline; their state is kept in the URL fragment
 * ({@code #rule=NL003&level=warning}) so a filtered view can be linked.
 *
 * <p>This class builds the report's model; the markup is the template {@code html/report.mustache} (with the partials
 * {@code chart.mustache} and {@code validation.mustache}), the style sheet and script are {@code html/report.css} and {@code html/report.js}, all
 * resources beside this class. The template engine HTML-escapes every value, so nothing taken from the scanned tree
 * reaches the page unescaped; characters HTML does not allow (C0 controls but tab and newline) are replaced first.
 */
public final class HtmlReport {
    private static final String CATALOG_BASE = "/dev/numlint/rules/";
    private static final String HTML_BASE = "html/";
    /** Source lines shown around a finding. */
    private static final int CONTEXT = 2;

    private static final int MAX_SNIPPET_LINES = 14;
    private static final long MAX_SOURCE_BYTES = 16L * 1024 * 1024;

    /** The compiled template; values are HTML-escaped, a null value prints nothing, a missing name fails. */
    private static final Template TEMPLATE = Mustache.compiler()
            .withLoader(name -> new InputStreamReader(asset(name + ".mustache"), StandardCharsets.UTF_8))
            .withFormatter(HtmlReport::format)
            .nullValue("")
            .emptyStringIsFalse(true)
            .zeroIsFalse(true)
            .compile(new InputStreamReader(asset("report.mustache"), StandardCharsets.UTF_8));

    /** The report's own style sheet and script (the script's hash is the Content-Security-Policy's). */
    private static final String CSS = assetText("report.css");

    private static final String SCRIPT = assetText("report.js");

    private final ScanResult r;
    private final ReportOptions o;
    private final Map<String, Optional<List<String>>> sources = new HashMap<>();
    private final RuleCatalog catalog = RuleCatalog.get();
    private Optional<GitInfo> git;
    private Optional<GitBlame> blamer;

    private HtmlReport(ScanResult r, ReportOptions o) {
        this.r = r;
        this.o = o;
    }

    public static void write(ScanResult r, ReportOptions o, Writer w) throws IOException {
        w.write(render(r, o));
        w.flush();
    }

    /** The whole document. */
    public static String render(ScanResult r, ReportOptions o) {
        return TEMPLATE.execute(new HtmlReport(r, o).model());
    }

    // ------------------------------------------------------------------------------------------------ the model

    private Map<String, Object> model() {
        Map<String, Object> m = new HashMap<>();
        m.put("version", RuleCatalog.toolVersion());
        m.put("css", CSS);
        m.put("script", SCRIPT);
        m.put("scriptHash", Base64.getEncoder().encodeToString(sha256(SCRIPT.getBytes(StandardCharsets.UTF_8))));
        m.put("meta", meta());
        m.put("buildContexts", HtmlModel.buildContexts(r));
        summary(m);
        findings(m);
        m.put("notices", notices());
        return m;
    }

    // ------------------------------------------------------------------------------------------------ header

    private List<Meta> meta() {
        List<Meta> rows = new ArrayList<>();
        rows.add(Meta.of("Tool", "numlint " + RuleCatalog.toolVersion()));
        rows.add(Meta.of(
                "Rule set",
                "sha256:" + ruleSetHash() + " (" + catalog.all().size() + " rules: catalog and rule documents)"));
        if (o.configFile() != null) {
            String h;
            try {
                h = "sha256:" + hex(sha256(Files.readAllBytes(o.configFile())));
            } catch (IOException | RuntimeException e) {
                h = "not readable: " + e.getMessage();
            }
            rows.add(Meta.of("Configuration", display(o.configFile()) + ", " + h));
        } else {
            rows.add(Meta.of("Configuration", "none (built-in defaults: every rule enabled at its catalog level)"));
        }
        List<String> roots = new ArrayList<>();
        for (Path p : o.paths()) {
            roots.add(p.toString());
        }
        rows.add(new Meta(
                "Scanned paths", null, roots.isEmpty() ? List.of(r.root().toString()) : roots, null, null));
        rows.add(Meta.of("Report root", r.root() + " (finding paths are relative to it)"));
        rows.add(Meta.of("Date", date()));
        rows.add(gitRow());
        Summary s = Summary.of(r);
        rows.add(Meta.of(
                "Files",
                s.filesAnalyzed() + " analyzed, " + s.filesNotAnalyzed() + " not analyzed"
                        + (s.executionSuccessful() ? "" : "; an analyzer failed (execution not successful)")));
        if (o.baseline() != null) {
            rows.add(Meta.of(
                    "Baseline", o.baseline().file() + ": " + o.baseline().summary()));
        }
        for (String line : r.buildContext(null).summary()) {
            if (line.startsWith("compilation database: ")) {
                rows.add(Meta.of("Compilation database", line.substring("compilation database: ".length())));
            }
        }
        String layer = CompilerLayer.line(r);
        if (layer != null) {
            rows.add(Meta.of("Compiler layer", layer));
        }
        String types = CompilerLayer.undefinedTypes(r);
        if (types != null) rows.add(Meta.of("Undefined types", types));
        if (o.failOn() != null) {
            rows.add(new Meta("Acceptance", null, List.of(), null, gate()));
        }
        return rows;
    }

    /** The acceptance criterion (--fail-on, new findings only with a baseline) and whether the scan met it. */
    private Gate gate() {
        Level threshold =
                switch (o.failOn()) {
                    case "error" -> Level.ERROR;
                    case "warning" -> Level.WARNING;
                    case "note" -> Level.NOTE;
                    default -> null;
                };
        String criterion = threshold == null
                ? "none (--fail-on none: the scan never fails)"
                : "no unsuppressed " + (o.baseline() != null ? "new " : "") + "finding at level " + threshold.id()
                        + (threshold == Level.NOTE ? "" : " or above") + " (--fail-on " + threshold.id() + ")";
        boolean fails = o.baseline() != null ? o.baseline().failsAt(threshold) : r.failsAt(threshold);
        return fails ? new Gate(criterion, "gate-fail", "not met") : new Gate(criterion, "gate-pass", "met");
    }

    private dev.numlint.spi.TrustBoundary boundary;

    /** The scan's trust boundary: the real paths of the scanned PATHs (the root when none was given). */
    private dev.numlint.spi.TrustBoundary boundary() {
        if (boundary == null) {
            boundary = dev.numlint.spi.TrustBoundary.of(o.paths().isEmpty() ? List.of(r.root()) : o.paths());
        }
        return boundary;
    }

    /** The git checkout of the first scanned path, read once. */
    private Optional<GitInfo> git() {
        if (git == null) {
            Path start = o.paths().isEmpty() ? r.root() : o.paths().get(0);
            if (!Files.isDirectory(start)) {
                start = start.toAbsolutePath().getParent();
            }
            git = start == null ? Optional.empty() : GitInfo.find(start);
        }
        return git;
    }

    /** Who wrote a suppression and when (blame read in process, git never run), or why that is not available. */
    private String blame(Location l) {
        if (git().isEmpty()) {
            return "not available: not a git checkout";
        }
        if (blamer == null) {
            blamer = GitBlame.of(git().get());
        }
        if (blamer.isEmpty()) {
            return git().get().commit() == null
                    ? "not available: no commit"
                            + (git().get().note() == null
                                    ? ""
                                    : " (" + git().get().note() + ")")
                    : "not available: the git directory was not read";
        }
        Path p = Path.of(l.file());
        Path file = p.isAbsolute() ? p : r.root().resolve(p);
        // git is asked only about files of the scanned tree (never .git/..., never through a link out of it)
        if (boundary().readable(file) == null) {
            return "not available: not a file of the scanned tree";
        }
        return blamer.get().whoAndWhen(file, l.startLine());
    }

    private Meta gitRow() {
        Optional<GitInfo> g = git();
        if (g.isEmpty()) {
            return Meta.of("Git", "not a git checkout");
        }
        GitInfo gi = g.get();
        String describe = gi.describe() + (gi.note() == null ? "" : " (" + gi.note() + ")");
        GitView v = new GitView(
                describe,
                gi.workTree().toString(),
                gi.modified(),
                Math.max(0, gi.modifiedCount() - gi.modified().size()));
        return new Meta("Git", null, List.of(), v, null);
    }

    /** The report date (UTC); SOURCE_DATE_EPOCH, when set, gives reproducible reports. */
    private static String date() {
        Instant t = Instant.now();
        String epoch = System.getenv("SOURCE_DATE_EPOCH");
        if (epoch != null && epoch.matches("\\d{1,12}")) {
            t = Instant.ofEpochSecond(Long.parseLong(epoch));
        }
        return DateTimeFormatter.ISO_INSTANT.format(
                t.atOffset(ZoneOffset.UTC).withNano(0).toInstant());
    }

    /** SHA-256 over the rule catalog and every rule document, in catalog order. */
    public static String ruleSetHash() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(resource(CATALOG_BASE + "catalog.yml"));
            for (Rule rule : RuleCatalog.get().all()) {
                md.update(("\n" + rule.id() + "\n").getBytes(StandardCharsets.UTF_8));
                // the author's document (the same bytes before the documents became the pages of docs/rules/)
                md.update(RuleCatalog.documentSource(rule.id(), rule.name()).getBytes(StandardCharsets.UTF_8));
            }
            return hex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the rule documents", e);
        }
    }

    private static byte[] resource(String name) {
        try (InputStream in = RuleCatalog.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + name, e);
        }
    }

    // ------------------------------------------------------------------------------------------------ summary

    private void summary(Map<String, Object> m) {
        List<Finding> all = r.findings();
        long open = all.stream().filter(f -> !f.suppressed()).count();
        List<Count> cards = new ArrayList<>();
        cards.add(new Count("findings", all.size()));
        cards.add(new Count("open", open));
        cards.add(new Count("suppressed", all.size() - open));
        for (Level l : Level.values()) {
            cards.add(new Count(
                    l.id() + " (open)",
                    all.stream().filter(f -> !f.suppressed() && f.level() == l).count()));
        }
        if (o.baseline() != null) {
            for (Baseline.State st : Baseline.State.values()) {
                cards.add(new Count(st.id(), o.baseline().count(st)));
            }
        }
        cards.add(new Count("files analyzed", r.filesAnalyzed()));
        cards.add(new Count("files not analyzed", r.filesNotAnalyzed()));
        m.put("cards", cards);
        byRule(m);
        byDirectory(m);
        m.put("baselinePanel", o.baseline() == null ? null : byBaseline());
        m.put("validationPanel", validation());
        m.put("validationSection", HtmlValidation.of(r.findings()));
    }

    private static String impactOf(Finding f) {
        return f.impact() == null ? "unclassified" : f.impact().kind().id();
    }

    private void byRule(Map<String, Object> model) {
        List<String> kinds = new ArrayList<>();
        for (Impact.Kind k : Impact.Kind.values()) {
            // exact findings are not reported; should one reach the report, it gets a column (totals stay whole)
            if (k != Impact.Kind.EXACT
                    || r.findings().stream().anyMatch(f -> impactOf(f).equals(k.id()))) {
                kinds.add(k.id());
            }
        }
        kinds.add("unclassified");
        Map<String, Map<String, Integer>> counts = new TreeMap<>();
        Map<String, Integer> suppressed = new TreeMap<>();
        for (Finding f : r.findings()) {
            counts.computeIfAbsent(f.ruleId(), k -> new LinkedHashMap<>()).merge(impactOf(f), 1, Integer::sum);
            if (f.suppressed()) {
                suppressed.merge(f.ruleId(), 1, Integer::sum);
            }
        }
        List<RuleRow> rows = new ArrayList<>();
        List<Bar> bars = new ArrayList<>();
        counts.forEach((id, m) -> {
            Rule rule = catalog.has(id) ? catalog.rule(id) : null;
            List<String> cells = new ArrayList<>();
            int total = 0;
            for (String k : kinds) {
                int n = m.getOrDefault(k, 0);
                total += n;
                cells.add(n == 0 ? "" : String.valueOf(n));
            }
            rows.add(new RuleRow(
                    rule == null ? id : rule.name() + ": " + rule.summary(),
                    id,
                    rule == null ? "" : rule.level().id(),
                    cells,
                    total,
                    suppressed.getOrDefault(id, 0)));
            bars.add(new Bar(id, total, "b-rule"));
        });
        Map<String, Integer> byImpact = new LinkedHashMap<>();
        for (String k : kinds) {
            byImpact.put(k, 0);
        }
        r.findings().forEach(f -> byImpact.merge(impactOf(f), 1, Integer::sum));
        List<Bar> ib = new ArrayList<>();
        byImpact.forEach((k, n) -> ib.add(new Bar(k, n, "b-" + k)));
        model.put("impactKinds", kinds);
        model.put("ruleRows", rows);
        model.put("ruleChart", HtmlModel.chart("Findings by rule", bars));
        model.put("impactChart", HtmlModel.chart("Findings by impact", ib));
    }

    private void byDirectory(Map<String, Object> model) {
        Map<String, int[]> counts = new TreeMap<>();
        for (Finding f : r.findings()) {
            int[] c = counts.computeIfAbsent(dir(f.location().file()), k -> new int[2]);
            c[0]++;
            if (f.suppressed()) {
                c[1]++;
            }
        }
        List<DirRow> rows = new ArrayList<>();
        List<Bar> bars = new ArrayList<>();
        counts.forEach((d, c) -> {
            rows.add(new DirRow(d, c[0], c[1]));
            bars.add(new Bar(d, c[0], "b-dir"));
        });
        model.put("dirRows", rows);
        model.put("dirChart", HtmlModel.chart("Findings by directory", bars));
    }

    private BaselinePanel byBaseline() {
        List<Count> rows = new ArrayList<>();
        List<Bar> bars = new ArrayList<>();
        for (Baseline.State st : Baseline.State.values()) {
            int n = o.baseline().count(st);
            rows.add(new Count(st.id() + (st == Baseline.State.ABSENT ? " (fixed)" : ""), n));
            bars.add(new Bar(st.id(), n, "b-" + st.id()));
        }
        return new BaselinePanel(
                o.baseline().file().toString(), rows, HtmlModel.chart("Findings by baseline state", bars));
    }

    private ValidationPanel validation() {
        Map<String, Integer> verdicts = new TreeMap<>();
        int validated = 0;
        String[] buckets = {"0", "1", "2-3", "4-15", "16-255", "256-65535", ">=65536"};
        int[] ulp = new int[buckets.length];
        boolean anyUlp = false;
        for (Finding f : r.findings()) {
            dev.numlint.model.FindingVerdict v = f.verdict();
            if (v == null) {
                continue;
            }
            validated++;
            verdicts.merge(HtmlModel.verdictText(v), 1, Integer::sum);
            if (v.elementsCompared() > 0) {
                ulp[ulpBucket(v.maxUlp())]++;
                anyUlp = true;
            }
        }
        if (validated == 0) {
            return null;
        }
        List<Count> rows = new ArrayList<>();
        List<Bar> bars = new ArrayList<>();
        verdicts.forEach((k, n) -> {
            rows.add(new Count(k, n));
            bars.add(new Bar(k, n, "b-" + k.replaceAll("[^a-z-]", "")));
        });
        Chart ulpChart = null;
        if (anyUlp) {
            List<Bar> ub = new ArrayList<>();
            for (int i = 0; i < buckets.length; i++) {
                ub.add(new Bar(buckets[i] + " ulp", ulp[i], "b-ulp"));
            }
            ulpChart = HtmlModel.chart("Largest ULP difference per validated finding", ub);
        }
        return new ValidationPanel(
                rows, r.findings().size() - validated, HtmlModel.chart("Validation verdicts", bars), ulpChart);
    }

    static int ulpBucket(long u) {
        if (u <= 0) {
            return 0;
        }
        if (u == 1) {
            return 1;
        }
        if (u <= 3) {
            return 2;
        }
        if (u <= 15) {
            return 3;
        }
        if (u <= 255) {
            return 4;
        }
        return u <= 65535 ? 5 : 6;
    }

    // ------------------------------------------------------------------------------------------------ findings

    private void findings(Map<String, Object> m) {
        List<Finding> current = new ArrayList<>(r.findings());
        List<Finding> absent = o.baseline() == null ? List.of() : o.baseline().absent();
        TreeSet<String> rules = new TreeSet<>();
        TreeSet<String> dirs = new TreeSet<>();
        for (Finding f : current) {
            rules.add(f.ruleId());
            addDirs(dirs, dir(f.location().file()));
        }
        for (Finding f : absent) {
            rules.add(f.ruleId());
            addDirs(dirs, dir(f.location().file()));
        }
        List<String> states = new ArrayList<>(List.of("open", "suppressed"));
        if (o.baseline() != null) {
            for (Baseline.State st : Baseline.State.values()) {
                states.add(st.id());
            }
        }
        m.put(
                "filters",
                List.of(
                        new Filter("rule", "Rule", List.copyOf(rules)),
                        new Filter("level", "Level", List.of("error", "warning", "note")),
                        new Filter("state", "State", states),
                        new Filter("dir", "Directory", List.copyOf(dirs))));
        List<Row> rows = new ArrayList<>();
        for (Finding f : current) {
            rows.add(row(
                    rows.size() + 1,
                    f,
                    o.baseline() == null ? null : o.baseline().state(f)));
        }
        for (Finding f : absent) {
            rows.add(row(rows.size() + 1, f, Baseline.State.ABSENT));
        }
        m.put("listed", rows.size());
        m.put("findingCount", current.size());
        m.put("fixedCount", absent.size());
        m.put("findingRows", rows);
    }

    /**
     * The directories of a location's text, each with its '/': the report lets a location wrap after a '/' only,
     * never inside its {@code file:line:col}.
     */
    static List<String> locationDirs(String location) {
        String t = location.replace('\\', '/');
        List<String> dirs = new ArrayList<>();
        for (int from = 0, i = t.indexOf('/'); i >= 0; from = i + 1, i = t.indexOf('/', from)) {
            dirs.add(location.substring(from, i + 1));
        }
        return dirs;
    }

    private static void addDirs(TreeSet<String> dirs, String d) {
        dirs.add(d);
        for (int i = d.indexOf('/'); i > 0; i = d.indexOf('/', i + 1)) {
            dirs.add(d.substring(0, i));
        }
    }

    private Row row(int n, Finding f, Baseline.State state) {
        Location l = f.location();
        boolean absent = state == Baseline.State.ABSENT;
        String status = absent ? "" : f.suppressed() ? "suppressed" : "open";
        Rule rule = catalog.has(f.ruleId()) ? catalog.rule(f.ruleId()) : null;
        Impact im = f.impact();
        List<EvidenceView> evidence = new ArrayList<>();
        for (Evidence e : f.evidence()) {
            evidence.add(new EvidenceView(
                    e.kind(),
                    e.text(),
                    e.location() == null ? null : e.location().shortText()));
        }
        List<RelatedView> related = new ArrayList<>();
        f.related().forEach(rl -> related.add(new RelatedView(rl.location().shortText(), rl.message())));
        SuppressionView suppression = null;
        if (f.suppressed()) {
            Location at = f.suppression().location();
            suppression = new SuppressionView(
                    f.suppression().kind(),
                    f.suppression().justification() == null
                            ? "(no justification)"
                            : f.suppression().justification(),
                    at == null ? null : at.shortText(),
                    at == null ? "not available: no suppression location" : blame(at));
        }
        return new Row(
                n,
                f.level().id(),
                f.suppressed(),
                absent,
                (status + (state == null ? "" : " " + state.id())).strip(),
                dir(l.file()),
                f.ruleId(),
                rule == null ? f.ruleId() : rule.name() + ": " + rule.summary(),
                locationDirs(l.shortText()),
                l.shortText().substring(l.shortText().replace('\\', '/').lastIndexOf('/') + 1),
                f.function(),
                f.message(),
                im == null
                        ? null
                        : new ImpactView(
                                im.kind().id(),
                                im.consequence(),
                                im.sink() == null ? null : im.sink().shortText(),
                                im.errorBound()),
                HtmlModel.validationView(f.verdict()),
                status,
                state == null ? null : state.id(),
                code(f),
                evidence,
                related,
                f.confidence().id(),
                f.layer().id(),
                f.fingerprint() == null ? "none" : f.fingerprint(),
                suppression,
                rule == null ? null : f.ruleId() + " " + rule.name() + ": " + rule.summary());
    }

    /** Numbered source lines around the finding, or the source evidence, or null. */
    private Code code(Finding f) {
        Location l = f.location();
        Optional<List<String>> lines = sources.computeIfAbsent(l.file(), this::readSource);
        if (lines.isPresent() && l.startLine() <= lines.get().size()) {
            List<String> ls = lines.get();
            int from = Math.max(1, l.startLine() - CONTEXT);
            int to = Math.min(ls.size(), Math.max(l.endLine(), l.startLine()) + CONTEXT);
            to = Math.min(to, from + MAX_SNIPPET_LINES - 1);
            List<CodeLine> numbered = new ArrayList<>();
            for (int i = from; i <= to; i++) {
                String text = ls.get(i - 1);
                if (text.length() > 400) {
                    text = text.substring(0, 400) + "\u2026";
                }
                numbered.add(new CodeLine(i, i >= l.startLine() && i <= l.endLine(), text));
            }
            return new Code(numbered, null);
        }
        for (Evidence e : f.evidence()) {
            if ("source".equals(e.kind())) {
                return new Code(List.of(), e.text());
            }
        }
        return null;
    }

    /** The lines of a scanned file, read only when the scan's trust boundary lets it be read. */
    private Optional<List<String>> readSource(String file) {
        try {
            Path p = Path.of(file);
            Path abs =
                    (p.isAbsolute() ? p : r.root().resolve(p)).toAbsolutePath().normalize();
            // the scan's trust boundary: a regular file whose real path lies inside a scanned PATH, never through a
            // link out of it, never in .git or /proc
            Path real = boundary().readable(abs);
            if (real == null || Files.size(real) > MAX_SOURCE_BYTES) {
                return Optional.empty();
            }
            byte[] bytes = Files.readAllBytes(real);
            String text;
            try {
                text = StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(bytes))
                        .toString();
            } catch (CharacterCodingException e) {
                text = new String(bytes, StandardCharsets.ISO_8859_1);
            }
            return Optional.of(List.of(text.split("\r\n|\r|\n", -1)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    // ------------------------------------------------------------------------------------------------ notifications

    private Notices notices() {
        List<Notification> ns = new ArrayList<>(r.notifications());
        if (ns.isEmpty()) {
            return null;
        }
        ns.sort((a, b) -> Boolean.compare(b.notAnalyzed(), a.notAnalyzed()));
        long notAnalyzed = ns.stream().filter(Notification::notAnalyzed).count();
        List<NoticeRow> rows = new ArrayList<>();
        for (Notification n : ns) {
            rows.add(new NoticeRow(
                    n.notAnalyzed() ? "na" : "note",
                    n.file() == null ? "(scan)" : n.file() + (n.line() > 0 ? ":" + n.line() : ""),
                    n.notAnalyzed() ? "not analyzed" : n.level().id(),
                    n.id(),
                    n.message()));
        }
        return new Notices(notAnalyzed, ns.size() - notAnalyzed, rows);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** The directory part of a report path ("." for files at the root). */
    static String dir(String file) {
        String f = file.replace('\\', '/');
        int i = f.lastIndexOf('/');
        return i <= 0 ? "." : f.substring(0, i);
    }

    private String display(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        return abs.startsWith(r.root()) ? r.root().relativize(abs).toString() : abs.toString();
    }

    /**
     * A value as the template prints it (before the engine escapes it): characters that HTML does not allow in a
     * document (C0 controls but tab and newline) become U+FFFD.
     */
    private static String format(Object value) {
        String s = String.valueOf(value);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\n' && c != '\t') {
                return s.replaceAll("[\\x00-\\x08\\x0b-\\x1f]", "\uFFFD");
            }
        }
        return s;
    }

    private static InputStream asset(String name) {
        InputStream in = HtmlReport.class.getResourceAsStream(HTML_BASE + name);
        if (in == null) {
            throw new IllegalStateException(HTML_BASE + name + " missing from the classpath");
        }
        return in;
    }

    private static String assetText(String name) {
        try (InputStream in = asset(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + HTML_BASE + name, e);
        }
    }

    static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
