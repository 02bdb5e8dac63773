package dev.numlint.spotbugs.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.numlint.model.Layer;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.spotbugs.BugPatterns;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class DescriptorGeneratorTest {
    private static final RuleCatalog CATALOG = RuleCatalog.get();
    private static final String VERSION = "0.1.0-SNAPSHOT";

    @Test
    void theBuildWroteWhatTheGeneratorProducesFromTheCatalog() throws IOException {
        Map<String, String> files = DescriptorGenerator.generate(CATALOG, "${ignored}", detectors());
        Path classes = Path.of("target/classes");
        for (String name : files.keySet()) {
            String onDisk = Files.readString(classes.resolve(name), StandardCharsets.UTF_8);
            String fresh = files.get(name);
            // the version attribute is the only input besides the catalog
            assertThat(onDisk.replaceAll("version=\"[^\"]*\"", "version=\"V\"")
                            .replaceAll("plugin.version=.*", "plugin.version=V"))
                    .as(name + " is generated from the current catalog")
                    .isEqualTo(fresh.replaceAll("version=\"[^\"]*\"", "version=\"V\"")
                            .replaceAll("plugin.version=.*", "plugin.version=V"));
        }
    }

    /**
     * The plugin jar carries every class of the rules module's knowledge package (SpotBugs loads it alone): a new one
     * (ConcurrentFloatApis) was missing after an incremental build, and SpotBugs failed with NoClassDefFoundError.
     */
    @Test
    void theKnowledgeCopyHasEveryClassOfTheRulesModule(@org.junit.jupiter.api.io.TempDir Path out) throws Exception {
        DescriptorGenerator.copyKnowledge(out);
        Path rules = Path.of(RuleCatalog.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        List<String> expected = new ArrayList<>();
        if (Files.isDirectory(rules)) {
            try (var st = Files.list(rules.resolve("dev/numlint/knowledge"))) {
                st.forEach(f -> expected.add(f.getFileName().toString()));
            }
        } else {
            try (var jar = new java.util.jar.JarFile(rules.toFile())) {
                for (var e : java.util.Collections.list(jar.entries())) {
                    String n = e.getName();
                    if (n.startsWith("dev/numlint/knowledge/") && n.endsWith(".class") && n.indexOf('/', 22) < 0)
                        expected.add(n.substring(22));
                }
            }
        }
        assertThat(expected).contains("ConcurrentFloatApis.class");
        try (var st = Files.list(out.resolve("dev/numlint/knowledge"))) {
            assertThat(st.map(f -> f.getFileName().toString()).toList()).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void descriptorsValidateAgainstSpotBugsSchemas() throws Exception {
        Map<String, String> files = DescriptorGenerator.generate(CATALOG, VERSION, detectors());
        validate(files.get("findbugs.xml"), "/findbugsplugin.xsd");
        validate(files.get("messages.xml"), "/messagecollection.xsd");
    }

    private static void validate(String xml, String xsd) throws Exception {
        URL schema = edu.umd.cs.findbugs.Plugin.class.getResource(xsd);
        assertThat(schema).as(xsd + " in the SpotBugs jar").isNotNull();
        SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        f.newSchema(schema)
                .newValidator()
                .validate(new StreamSource(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void onlyJavaBytecodeRulesGetPatternsWithCatalogIdsAndCwes() throws Exception {
        Document fb = parse(
                DescriptorGenerator.generate(CATALOG, VERSION, detectors()).get("findbugs.xml"));
        NodeList patterns = fb.getElementsByTagName("BugPattern");
        List<String> types = new ArrayList<>();
        for (int i = 0; i < patterns.getLength(); i++) {
            Element p = (Element) patterns.item(i);
            String abbrev = p.getAttribute("abbrev");
            Rule r = CATALOG.rule(abbrev);
            assertThat(r.appliesTo(Layer.JAVA_BYTECODE)).isTrue();
            assertThat(p.getAttribute("type")).isEqualTo(r.bugPattern()).startsWith(r.id() + "_");
            assertThat(p.getAttribute("category")).isEqualTo("NUMLINT");
            assertThat(p.getAttribute("cweid")).isEqualTo(String.valueOf(r.cwe().get(0)));
            types.add(p.getAttribute("type"));
        }
        List<String> expected = CATALOG.all().stream()
                .filter(r -> r.appliesTo(Layer.JAVA_BYTECODE))
                .map(Rule::bugPattern)
                .toList();
        assertThat(types).containsExactlyElementsOf(expected);
        assertThat(types).contains("NL001_FLOAT_TO_UNSIGNED_CONVERSION").doesNotContain("NL003_FMA_CONTRACTION");
        // every pattern is reported by exactly one detector
        NodeList detectors = fb.getElementsByTagName("Detector");
        List<String> reported = new ArrayList<>();
        for (int i = 0; i < detectors.getLength(); i++) {
            reported.addAll(List.of(
                    ((Element) detectors.item(i)).getAttribute("reports").split(",")));
        }
        assertThat(reported).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void messagesCarryCatalogTextAndRanksFollowLevels() throws Exception {
        Map<String, String> files = DescriptorGenerator.generate(CATALOG, VERSION, detectors());
        Document msg = parse(files.get("messages.xml"));
        NodeList patterns = msg.getElementsByTagName("BugPattern");
        // one pattern per rule of the java-bytecode layer (six since NL009 got its Java layers)
        assertThat(patterns.getLength())
                .isEqualTo(DescriptorGenerator.bytecodeRules(CATALOG).size())
                .isEqualTo(6);
        for (int i = 0; i < patterns.getLength(); i++) {
            Element p = (Element) patterns.item(i);
            Rule r = CATALOG.rule(p.getAttribute("type").substring(0, 5));
            assertThat(text(p, "ShortDescription"))
                    .isEqualTo(r.id() + ": " + r.summary().replaceAll("\\.$", ""));
            assertThat(text(p, "LongDescription")).isEqualTo("{2} in {1}");
            assertThat(text(p, "Details"))
                    .contains(r.description().substring(0, 40))
                    .contains(r.helpUri())
                    .contains("@SuppressFBWarnings");
        }
        assertThat(files.get("bugrank.txt"))
                .contains("5 BugPattern NL001_FLOAT_TO_UNSIGNED_CONVERSION")
                .contains("14 BugPattern NL010_MATH_LIBRARY_DIVERGENCE")
                .contains("12 Category NUMLINT");
        assertThat(files.get("dev/numlint/spotbugs/" + BugPatterns.RESOURCE))
                .contains("NL001.priority=1")
                .contains("NL004.priority=2")
                .contains("NL010.priority=3")
                .contains("NL004.option.min-trip-count=16");
        // the run-time table the detectors read is the generated one
        assertThat(BugPatterns.type("NL011")).isEqualTo(CATALOG.rule("NL011").bugPattern());
        assertThat(BugPatterns.priority("NL001")).isEqualTo(1);
        assertThatThrownBy(() -> BugPatterns.type("NL003")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void markdownConversion() {
        String html = Markdown.toHtml(
                """
                # Title
                Some `code` and **bold** text,
                continued [link](https://example.org) and [bad](javascript:alert(1)).

                - one
                - two <b>

                1. first
                2. second

                | a | b |
                |---|---|
                | 1 | 2 |

                <script>x</script>

                ```c
                x = (unsigned short) f; // a < b
                ```
                """,
                2);
        assertThat(html)
                .isEqualTo(
                        """
                <h3>Title</h3>
                <p>Some <code>code</code> and <strong>bold</strong> text,
                continued <a rel="nofollow" href="https://example.org">link</a> and <a rel="nofollow" href="">bad</a>.</p>
                <ul>
                <li>one</li>
                <li>two &lt;b&gt;</li>
                </ul>
                <ol>
                <li>first</li>
                <li>second</li>
                </ol>
                <table>
                <thead>
                <tr>
                <th>a</th>
                <th>b</th>
                </tr>
                </thead>
                <tbody>
                <tr>
                <td>1</td>
                <td>2</td>
                </tr>
                </tbody>
                </table>
                <p>&lt;script&gt;x&lt;/script&gt;</p>
                <pre><code class="language-c">x = (unsigned short) f; // a &lt; b
                </code></pre>
                """);
    }

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static String text(Element e, String child) {
        return e.getElementsByTagName(child).item(0).getTextContent().trim();
    }

    /** The detectors as the build derives them: the compiled classes annotated with @ReportsRules. */
    static java.util.List<Class<?>> detectors() {
        try {
            return DescriptorGenerator.detectors(java.nio.file.Path.of("target/classes"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theDetectorListIsDerivedFromTheAnnotatedClasses() {
        assertThat(detectors())
                .extracting(Class::getSimpleName)
                .contains(
                        "FloatConversionDetector",
                        "FloatAccumulationDetector",
                        "ExtendedPrecisionDetector",
                        "MathLibraryDetector")
                .allMatch(n -> n.endsWith("Detector"));
    }

    @Test
    void theJavaMessageTemplatesTravelInThePatternTable() throws Exception {
        java.util.Properties p = new java.util.Properties();
        p.load(new java.io.StringReader(DescriptorGenerator.generate(CATALOG, VERSION, detectors())
                .get("dev/numlint/spotbugs/" + dev.numlint.spotbugs.BugPatterns.RESOURCE)));
        for (var r : DescriptorGenerator.bytecodeRules(CATALOG)) {
            for (var m : r.messages().entrySet()) {
                if (m.getKey().startsWith("java-")) {
                    assertThat(p.getProperty(r.id() + ".message." + m.getKey())).isEqualTo(m.getValue());
                }
            }
        }
    }
}
