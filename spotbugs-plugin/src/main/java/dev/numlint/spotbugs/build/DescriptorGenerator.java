package dev.numlint.spotbugs.build;

import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RuleOption;
import dev.numlint.spotbugs.BugPatterns;
import dev.numlint.spotbugs.ReportsRules;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes the SpotBugs plugin descriptors (findbugs.xml, messages.xml, bugrank.txt) and the run-time rule table
 * (dev/numlint/spotbugs/bug-patterns.properties) from the rule catalog. Runs at build time (process-classes) with
 * the output directory as its first argument and the project version as its second; the files are never edited by
 * hand.
 *
 * <p>Only rules whose catalog layers include java-bytecode get bug patterns. The build fails when a detector claims
 * a rule that is not in that layer, or when a java-bytecode rule has no detector.
 */
public final class DescriptorGenerator {
    public static final String PLUGIN_ID = "dev.numlint.spotbugs";
    public static final String CATEGORY = "NUMLINT";

    /** Package of the detectors: every class in it annotated with {@link ReportsRules} is a detector. */
    static final String DETECTOR_PACKAGE = "dev/numlint/spotbugs/";
    /** Package of the shared rule knowledge (rules module) that the plugin jar carries a copy of. */
    static final String KNOWLEDGE_PACKAGE = "dev/numlint/knowledge/";

    private DescriptorGenerator() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: DescriptorGenerator <output-dir> [version]");
        }
        Path out = Path.of(args[0]);
        String version = args.length > 1 ? args[1] : RuleCatalog.toolVersion();
        Map<String, String> files = generate(RuleCatalog.get(), version, detectors(out));
        copyKnowledge(out);
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path p = out.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
        }
        // silent on success, like every other build step: `mvn -q` output stays empty
    }

    /** The rules that get SpotBugs bug patterns: those implemented on the java-bytecode layer. */
    static List<Rule> bytecodeRules(RuleCatalog catalog) {
        List<Rule> r = new ArrayList<>();
        for (Rule rule : catalog.all()) {
            if (rule.appliesTo(Layer.JAVA_BYTECODE)) {
                r.add(rule);
            }
        }
        return r;
    }

    /**
     * The detectors of the plugin: the classes compiled into {@code classes} under {@link #DETECTOR_PACKAGE} (not in
     * sub-packages) that carry {@link ReportsRules}, in class-name order. Derived, never listed by hand.
     */
    static List<Class<?>> detectors(Path classes) throws IOException {
        List<Class<?>> found = new ArrayList<>();
        Path dir = classes.resolve(DETECTOR_PACKAGE);
        List<String> names = new ArrayList<>();
        try (var s = Files.list(dir)) {
            s.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".class") && !n.contains("$"))
                    .sorted()
                    .forEach(names::add);
        }
        for (String n : names) {
            String cls = DETECTOR_PACKAGE.replace('/', '.') + n.substring(0, n.length() - ".class".length());
            try {
                Class<?> c = Class.forName(cls, false, DescriptorGenerator.class.getClassLoader());
                if (c.isAnnotationPresent(ReportsRules.class)) {
                    found.add(c);
                }
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalStateException("cannot load compiled class " + cls + ": " + e, e);
            }
        }
        if (found.isEmpty()) {
            throw new IllegalStateException("no class annotated with @ReportsRules under " + dir);
        }
        return found;
    }

    /**
     * Copies the rules module's {@code dev.numlint.knowledge} classes (pure tables without dependencies) into the
     * plugin's classes, so that the plugin jar, which SpotBugs loads alone, carries them.
     */
    static void copyKnowledge(Path out) throws IOException {
        Path src;
        try {
            // located through a class of the rules module that is not copied: a knowledge class would be found in
            // the plugin's own classes once an earlier build copied it there, and new knowledge classes never would
            src = Path.of(RuleCatalog.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        Path target = out.resolve(KNOWLEDGE_PACKAGE);
        Files.createDirectories(target);
        if (Files.isDirectory(src)) {
            try (var s = Files.list(src.resolve(KNOWLEDGE_PACKAGE))) {
                for (Path p : (Iterable<Path>) s.filter(x -> x.toString().endsWith(".class"))::iterator) {
                    Files.copy(
                            p,
                            target.resolve(p.getFileName().toString()),
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } else {
            try (var jar = new java.util.jar.JarFile(src.toFile())) {
                for (var e : java.util.Collections.list(jar.entries())) {
                    String n = e.getName();
                    if (n.startsWith(KNOWLEDGE_PACKAGE)
                            && n.endsWith(".class")
                            && n.indexOf('/', KNOWLEDGE_PACKAGE.length()) < 0) {
                        try (var in = jar.getInputStream(e)) {
                            Files.copy(
                                    in,
                                    target.resolve(n.substring(KNOWLEDGE_PACKAGE.length())),
                                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                        }
                    }
                }
            }
        }
    }

    /** Generated file contents keyed by path relative to the output directory. */
    static Map<String, String> generate(RuleCatalog catalog, String version, List<Class<?>> detectors) {
        List<Rule> rules = bytecodeRules(catalog);
        Set<String> ids = new TreeSet<>();
        rules.forEach(r -> ids.add(r.id()));
        Set<String> covered = new TreeSet<>();
        for (Class<?> d : detectors) {
            ReportsRules rr = d.getAnnotation(ReportsRules.class);
            if (rr == null) {
                throw new IllegalStateException(d.getName() + " lacks @ReportsRules");
            }
            for (String id : rr.value()) {
                if (!ids.contains(id)) {
                    throw new IllegalStateException(d.getName() + " reports " + id
                            + ", which the catalog does not list on the java-bytecode layer");
                }
                covered.add(id);
            }
        }
        if (!covered.equals(ids)) {
            Set<String> missing = new TreeSet<>(ids);
            missing.removeAll(covered);
            throw new IllegalStateException("java-bytecode rules without a detector: " + missing);
        }
        Map<String, String> files = new LinkedHashMap<>();
        files.put("findbugs.xml", findbugsXml(catalog, rules, version, detectors));
        files.put("messages.xml", messagesXml(catalog, rules, detectors));
        files.put("bugrank.txt", bugRanks(rules));
        files.put("dev/numlint/spotbugs/" + BugPatterns.RESOURCE, patternTable(rules, version));
        return files;
    }

    static int priority(Level level) {
        return switch (level) {
            case ERROR -> 1;
            case WARNING -> 2;
            case NOTE -> 3;
        };
    }

    /** Absolute pattern rank; SpotBugs adds 0/2/5 for high/normal/low priority (1 = scariest, 20 = of concern). */
    static int patternRank(Level level) {
        return switch (level) {
            case ERROR -> 5;
            case WARNING -> 10;
            case NOTE -> 14;
        };
    }

    private static String reports(Class<?> detector, RuleCatalog catalog) {
        List<String> types = new ArrayList<>();
        for (String id : detector.getAnnotation(ReportsRules.class).value()) {
            types.add(catalog.rule(id).bugPattern());
        }
        return String.join(",", types);
    }

    private static String findbugsXml(RuleCatalog catalog, List<Rule> rules, String version, List<Class<?>> detectors) {
        StringBuilder sb = new StringBuilder();
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append("<!-- GENERATED from the numlint rule catalog by ")
                .append(DescriptorGenerator.class.getName())
                .append(". Do not edit. -->\n");
        sb.append("<FindbugsPlugin xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"")
                .append(" xsi:noNamespaceSchemaLocation=\"findbugsplugin.xsd\"")
                .append(" pluginid=\"")
                .append(PLUGIN_ID)
                .append('"')
                .append(" version=\"")
                .append(attr(version))
                .append('"')
                .append(" provider=\"")
                .append(RuleCatalog.TOOL_NAME)
                .append('"')
                .append(" website=\"")
                .append(attr(RuleCatalog.INFORMATION_URI))
                .append('"')
                .append(" defaultenabled=\"true\">\n");
        for (Class<?> d : detectors) {
            sb.append("  <Detector class=\"")
                    .append(d.getName())
                    .append("\" speed=\"")
                    .append(d.getAnnotation(ReportsRules.class).speed())
                    .append("\" reports=\"")
                    .append(reports(d, catalog))
                    .append("\"/>\n");
        }
        sb.append("  <BugCategory category=\"").append(CATEGORY).append("\"/>\n");
        for (Rule r : rules) {
            sb.append("  <BugCode abbrev=\"")
                    .append(r.id())
                    .append('"')
                    .append(cwe(r))
                    .append("/>\n");
        }
        for (Rule r : rules) {
            sb.append("  <BugPattern abbrev=\"")
                    .append(r.id())
                    .append("\" type=\"")
                    .append(r.bugPattern())
                    .append("\" category=\"")
                    .append(CATEGORY)
                    .append('"')
                    .append(cwe(r))
                    .append("/>\n");
        }
        sb.append("</FindbugsPlugin>\n");
        return sb.toString();
    }

    private static String cwe(Rule r) {
        return r.cwe().isEmpty() ? "" : " cweid=\"" + r.cwe().get(0) + "\"";
    }

    private static String messagesXml(RuleCatalog catalog, List<Rule> rules, List<Class<?>> detectors) {
        StringBuilder sb = new StringBuilder();
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append("<!-- GENERATED from the numlint rule catalog by ")
                .append(DescriptorGenerator.class.getName())
                .append(". Do not edit. -->\n");
        sb.append("<MessageCollection xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"")
                .append(" xsi:noNamespaceSchemaLocation=\"messagecollection.xsd\">\n");
        sb.append("  <Plugin>\n    <ShortDescription>numlint: numerical hazards between CPU and GPU results")
                .append("</ShortDescription>\n    <Details>")
                .append(cdata(pluginDetails(rules)))
                .append("</Details>\n    <BugsUrl>")
                // SpotBugs links each pattern to <BugsUrl>#<type> (the GUI, and SARIF's helpUri): the rules index
                // holds an anchor for every pattern type (Rule.bugPatternHelpUri)
                .append(text(RuleCatalog.RULES_INDEX_URI))
                .append("</BugsUrl>\n  </Plugin>\n");
        sb.append("  <BugCategory category=\"")
                .append(CATEGORY)
                .append("\">\n")
                .append("    <Description>Numerical hazards (numlint)</Description>\n")
                .append("    <Abbreviation>N</Abbreviation>\n")
                .append("    <Details>Floating-point code whose results differ between the CPU and a GPU port, or ")
                .append("between runs: unsafe float to integer conversions, serial accumulation, extended precision, ")
                .append("math-library divergence. Reported by the numlint plugin.</Details>\n")
                .append("  </BugCategory>\n");
        for (Class<?> d : detectors) {
            StringBuilder det = new StringBuilder("<p>Reports numlint rules:</p>\n<ul>\n");
            for (String id : d.getAnnotation(ReportsRules.class).value()) {
                Rule r = catalog.rule(id);
                det.append("<li><b>")
                        .append(r.bugPattern())
                        .append("</b>: ")
                        .append(Markdown.escape(r.summary()))
                        .append("</li>\n");
            }
            det.append("</ul>\n");
            sb.append("  <Detector class=\"")
                    .append(d.getName())
                    .append("\">\n    <Details>")
                    .append(cdata(det.toString()))
                    .append("</Details>\n  </Detector>\n");
        }
        for (Rule r : rules) {
            sb.append("  <BugPattern type=\"").append(r.bugPattern()).append("\">\n");
            sb.append("    <ShortDescription>")
                    .append(text(r.id() + ": " + stripDot(r.summary())))
                    .append("</ShortDescription>\n");
            // {1} is the method, {2} the detector's specific message. No rule id here: SpotBugs prefixes the bug
            // code itself where it prints a bug (BugInstance.getMessage: "NL004: ..."), and the XML report carries
            // the type; an id here printed "NL004: NL004: ..." on SpotBugs' command line (issue 30)
            sb.append("    <LongDescription>").append(text("{2} in {1}")).append("</LongDescription>\n");
            sb.append("    <Details>").append(cdata(details(r))).append("</Details>\n");
            sb.append("  </BugPattern>\n");
        }
        for (Rule r : rules) {
            sb.append("  <BugCode abbrev=\"")
                    .append(r.id())
                    .append("\">")
                    .append(text(r.id() + " " + r.name()))
                    .append("</BugCode>\n");
        }
        sb.append("</MessageCollection>\n");
        return sb.toString();
    }

    private static String pluginDetails(List<Rule> rules) {
        StringBuilder sb = new StringBuilder();
        sb.append("<p>numlint finds the causes of numerical differences between CPU code and its GPU port in Java ")
                .append("bytecode. Rules:</p>\n<ul>\n");
        for (Rule r : rules) {
            sb.append("<li><a href=\"")
                    .append(Markdown.escape(r.helpUri()))
                    .append("\">")
                    .append(r.id())
                    .append(' ')
                    .append(r.name())
                    .append("</a>: ")
                    .append(Markdown.escape(r.summary()))
                    .append("</li>\n");
        }
        sb.append("</ul>\n");
        return sb.toString();
    }

    static String details(Rule r) {
        StringBuilder sb = new StringBuilder();
        sb.append("<p><b>")
                .append(r.id())
                .append(' ')
                .append(r.name())
                .append("</b> (numlint level ")
                .append(r.level().id())
                .append(", category ")
                .append(Markdown.escape(r.category()));
        if (!r.cwe().isEmpty()) {
            sb.append(", CWE-").append(r.cwe().get(0));
        }
        sb.append(")</p>\n");
        sb.append("<p>").append(Markdown.escape(r.description())).append("</p>\n");
        String doc = documentBody(r);
        if (!doc.isBlank()) {
            sb.append(Markdown.toHtml(doc, 2));
        }
        for (RuleOption o : r.options()) {
            sb.append("<p>Option <code>")
                    .append(Markdown.escape(o.name()))
                    .append("</code> (default ")
                    .append(Markdown.escape(o.defaultValue()))
                    .append("): ")
                    .append(Markdown.escape(o.description()))
                    .append(" Set it for SpotBugs with the JVM system property <code>numlint.")
                    .append(r.id())
                    .append('.')
                    .append(Markdown.escape(o.name()))
                    .append("</code>.</p>\n");
        }
        sb.append("<p>Suppress with <code>@SuppressFBWarnings(value = \"")
                .append(r.id())
                .append("\", justification = \"...\")</code> (the rule id, the full pattern <code>")
                .append(r.bugPattern())
                .append("</code> or the category <code>")
                .append(CATEGORY)
                .append("</code>). <code>@SuppressWarnings(\"numlint:")
                .append(r.id())
                .append("\")</code> is not in class files and only works with the numlint source analyzer.</p>\n");
        sb.append("<p>Documentation: <a href=\"")
                .append(Markdown.escape(r.helpUri()))
                .append("\">")
                .append(Markdown.escape(r.helpUri()))
                .append("</a></p>\n");
        return sb.toString();
    }

    /** The markdown document without its title heading (the bug details have their own) and without placeholders. */
    private static String documentBody(Rule r) {
        StringBuilder sb = new StringBuilder();
        boolean titleDropped = false;
        for (String line : r.markdown().replace("\r\n", "\n").split("\n", -1)) {
            if (!titleDropped && line.startsWith("# ")) {
                titleDropped = true;
                continue;
            }
            if (line.trim().equals("TODO-DOC")) {
                continue;
            }
            sb.append(line).append('\n');
        }
        return sb.toString().strip();
    }

    private static String bugRanks(List<Rule> rules) {
        StringBuilder sb = new StringBuilder();
        // absolute fallback for the category (the core ranker knows only its own categories)
        sb.append("12 Category ").append(CATEGORY).append('\n');
        for (Rule r : rules) {
            sb.append(patternRank(r.level()))
                    .append(" BugPattern ")
                    .append(r.bugPattern())
                    .append('\n');
        }
        return sb.toString();
    }

    private static String patternTable(List<Rule> rules, String version) {
        StringBuilder sb = new StringBuilder();
        sb.append("# GENERATED from the numlint rule catalog by ")
                .append(DescriptorGenerator.class.getName())
                .append(". Do not edit.\n");
        // what the plugin says of itself when SpotBugs loads it (PluginNotice)
        sb.append("plugin.version=").append(propertyValue(version)).append('\n');
        sb.append("plugin.rules=")
                .append(String.join(",", rules.stream().map(Rule::id).toList()))
                .append('\n');
        for (Rule r : rules) {
            sb.append(r.id()).append(".type=").append(r.bugPattern()).append('\n');
            sb.append(r.id()).append(".priority=").append(priority(r.level())).append('\n');
            for (RuleOption o : r.options()) {
                sb.append(r.id())
                        .append(".option.")
                        .append(o.name())
                        .append('=')
                        .append(o.defaultValue())
                        .append('\n');
            }
            // the Java message templates (keys java-...), filled in by the detectors at run time
            for (Map.Entry<String, String> m : new java.util.TreeMap<>(r.messages()).entrySet()) {
                if (m.getKey().startsWith("java-")) {
                    sb.append(r.id())
                            .append(".message.")
                            .append(m.getKey())
                            .append('=')
                            .append(propertyValue(m.getValue()))
                            .append('\n');
                }
            }
        }
        return sb.toString();
    }

    /** A value escaped for java.util.Properties (backslashes, line breaks, non-ASCII as \\uXXXX). */
    static String propertyValue(String v) {
        StringBuilder sb = new StringBuilder();
        for (char c : v.toCharArray()) {
            if (c == '\\') sb.append("\\\\");
            else if (c == '\n') sb.append("\\n");
            else if (c < 0x20 || c > 0x7e) sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
        }
        return sb.toString();
    }

    private static String stripDot(String s) {
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    private static String cdata(String s) {
        return "<![CDATA[\n" + s.replace("]]>", "]]]]><![CDATA[>") + "]]>";
    }

    private static String text(String s) {
        return Markdown.escape(s);
    }

    private static String attr(String s) {
        return Markdown.escape(s);
    }
}
