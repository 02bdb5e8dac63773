package dev.numlint.spotbugs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.testing.InlineExpectations;
import dev.numlint.testing.InlineExpectations.Hit;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * End-to-end tests on the packaged plugin jar (failsafe, after package):
 * <ul>
 * <li>the stock spotbugs-maven-plugin runs on a sample Maven project that declares the numlint plugin under
 * {@code <plugins>}; the jar is installed into a separate local repository under target/ (the shared ~/.m2 is only
 * read, as a file:// remote, so the nested build works offline once the spotbugs-maven-plugin was fetched);</li>
 * <li>the SpotBugs command line ({@code FindBugs2 -textui -pluginList jar}) on the same sample's classes.</li>
 * </ul>
 * Both compare the bug instances of SpotBugs' XML output with the sample's inline expectations exactly.
 */
class SpotBugsEndToEndIT {
    private static final Path PROJECT_TEMPLATE = Path.of("src/it/spotbugs-maven-project");
    private static Path pluginJar;

    @BeforeAll
    static void pluginJarWasPackaged() {
        pluginJar = Path.of(System.getProperty("numlint.pluginJar", "target/numlint-spotbugs-plugin.jar"));
        assertThat(pluginJar).as("run by failsafe after package").isRegularFile();
    }

    @Test
    void spotbugsMavenPluginLoadsTheNumlintPlugin() throws Exception {
        String version = System.getProperty("numlint.projectVersion");
        Path work = Path.of("target/e2e-maven");
        Path project = work.resolve("project");
        deleteRecursively(project);
        copyTemplate(
                PROJECT_TEMPLATE,
                project,
                Map.of(
                        "@numlint.version@", version,
                        "@spotbugs.version@", System.getProperty("numlint.spotbugsVersion"),
                        "@spotbugs.maven.plugin.version@", System.getProperty("numlint.spotbugsMavenPluginVersion")));

        // install the packaged jar into a local repository of the nested build (never into the shared ~/.m2)
        Path repo = work.resolve("repo").toAbsolutePath();
        Path dir = repo.resolve("dev/numlint/numlint-spotbugs-plugin/" + version);
        Files.createDirectories(dir);
        Files.copy(
                pluginJar,
                dir.resolve("numlint-spotbugs-plugin-" + version + ".jar"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(
                dir.resolve("numlint-spotbugs-plugin-" + version + ".pom"),
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
                  <groupId>dev.numlint</groupId><artifactId>numlint-spotbugs-plugin</artifactId><version>%s</version>
                </project>
                """
                        .formatted(version),
                StandardCharsets.UTF_8);

        // remote repositories of the nested build: the user's local repository as a file:// remote first (so the
        // test runs offline once the artifacts were fetched), then Maven Central
        Path home = Path.of(System.getProperty(
                        "numlint.localRepository", System.getProperty("user.home") + "/.m2/repository"))
                .toAbsolutePath();
        Path settings = work.resolve("settings.xml");
        Files.writeString(
                settings,
                """
                <settings>
                  <profiles><profile><id>home</id>
                    <repositories><repository><id>home</id><url>%1$s</url>
                      <snapshots><enabled>false</enabled></snapshots><releases><checksumPolicy>ignore</checksumPolicy></releases></repository></repositories>
                    <pluginRepositories><pluginRepository><id>home</id><url>%1$s</url>
                      <snapshots><enabled>false</enabled></snapshots><releases><checksumPolicy>ignore</checksumPolicy></releases></pluginRepository></pluginRepositories>
                  </profile></profiles>
                  <activeProfiles><activeProfile>home</activeProfile></activeProfiles>
                </settings>
                """
                        .formatted(home.toUri()),
                StandardCharsets.UTF_8);

        List<String> cmd = new ArrayList<>(List.of(
                mvn(),
                "-B",
                "-s",
                settings.toAbsolutePath().toString(),
                "-Dmaven.repo.local=" + repo,
                "compile",
                "spotbugs:spotbugs"));
        Path log = work.resolve("build.log");
        int rc = run(cmd, project, log, 300);
        assertThat(rc)
                .as("nested Maven build; log: " + log.toAbsolutePath() + "\n" + tail(log))
                .isZero();

        assertThat(Files.readString(log))
                .as("the plugin reports itself in the build log")
                .contains("numlint SpotBugs plugin " + version + " loaded");
        Path xml = project.resolve("target/spotbugsXml.xml");
        assertThat(xml).as("SpotBugs XML report\n" + tail(log)).isRegularFile();
        assertMatchesExpectations(xml, project.resolve("src/main/java"));
    }

    @Test
    void spotbugsCommandLineWithPluginList() throws Exception {
        Path work = Path.of("target/e2e-cli");
        deleteRecursively(work);
        Path classes = work.resolve("classes");
        List<Path> compiled = SampleCompiler.compile(PROJECT_TEMPLATE.resolve("src/main/java"), 8, classes);
        assertThat(compiled).isNotEmpty();

        Path xml = work.resolve("spotbugs.xml");
        List<String> cmd = List.of(
                java(),
                "-cp",
                spotbugsClasspath(),
                "edu.umd.cs.findbugs.FindBugs2",
                "-effort:max",
                "-low",
                "-pluginList",
                pluginJar.toAbsolutePath().toString(),
                "-xml:withMessages",
                "-output",
                xml.toAbsolutePath().toString(),
                classes.toAbsolutePath().toString());
        Path log = work.resolve("spotbugs.log");
        int rc = run(cmd, work, log, 180);
        assertThat(rc).as("SpotBugs CLI\n" + tail(log)).isZero();
        assertMatchesExpectations(xml, PROJECT_TEMPLATE.resolve("src/main/java"));
        // the plugin says that SpotBugs loaded it (issue 30: loaded nowhere, nothing said)
        assertThat(Files.readString(log))
                .contains("numlint SpotBugs plugin " + System.getProperty("numlint.projectVersion")
                        + " loaded: rules NL001");
        assertThat(Files.readString(xml)).contains("<LongMessage>(char) D2I of a double value without a range guard");
    }

    /** Compares the primary source lines of the numlint bug instances with the sources' inline expectations. */
    private static void assertMatchesExpectations(Path xml, Path sources) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        NodeList bugs = doc.getElementsByTagName("BugInstance");
        List<Hit> actual = new ArrayList<>();
        for (int i = 0; i < bugs.getLength(); i++) {
            Element b = (Element) bugs.item(i);
            if (!b.getAttribute("type").startsWith("NL")) {
                continue;
            }
            Element line = null;
            for (Node n = b.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getTagName().equals("SourceLine")) {
                    line = e;
                    break;
                }
            }
            assertThat(line).as("source line of " + b.getAttribute("type")).isNotNull();
            actual.add(new Hit(
                    line.getAttribute("sourcepath"),
                    Integer.parseInt(line.getAttribute("start")),
                    b.getAttribute("abbrev")));
            assertThat(b.getAttribute("category")).isEqualTo("NUMLINT");
        }
        InlineExpectations exp = InlineExpectations.read(sources);
        assertThat(exp.expected()).hasSizeGreaterThanOrEqualTo(5);
        assertThat(exp.compare(actual))
                .as("findings in " + xml + " vs inline expectations")
                .isEmpty();
        assertThat(new TreeSet<>(actual)).hasSameSizeAs(actual);
    }

    private static String mvn() {
        String home = System.getProperty("numlint.mavenHome");
        boolean windows =
                System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("win");
        if (home != null && !home.isBlank() && !home.startsWith("$")) {
            Path p = Path.of(home, "bin", windows ? "mvn.cmd" : "mvn");
            if (Files.isRegularFile(p)) {
                return p.toString();
            }
        }
        return windows ? "mvn.cmd" : "mvn";
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** SpotBugs and its dependencies from the test class path, without this module's own classes. */
    private static String spotbugsClasspath() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path target = Path.of("target").toAbsolutePath();
        List<String> keep = new ArrayList<>();
        for (String e : cp.split(File.pathSeparator)) {
            if (!e.isBlank() && !Path.of(e).toAbsolutePath().startsWith(target)) {
                keep.add(e);
            }
        }
        String joined = String.join(File.pathSeparator, keep);
        assertThat(joined).contains("spotbugs-" + System.getProperty("numlint.spotbugsVersion", "4.9.8") + ".jar");
        return joined;
    }

    private static int run(List<String> cmd, Path dir, Path log, int timeoutSeconds)
            throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out after " + timeoutSeconds + " s: " + cmd + "\n" + tail(log));
        }
        return p.exitValue();
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void copyTemplate(Path from, Path to, Map<String, String> tokens) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    String text = Files.readString(p, StandardCharsets.UTF_8);
                    for (Map.Entry<String, String> t : tokens.entrySet()) {
                        text = text.replace(t.getKey(), t.getValue());
                    }
                    Files.writeString(dest, text, StandardCharsets.UTF_8);
                }
            }
        }
    }

    private static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path x : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.delete(x);
            }
        }
    }
}
