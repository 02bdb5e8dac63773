package dev.numlint.java;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/** What the Java front end needs to know about the project a source file belongs to (Maven layout). */
final class JavaProject {
    static final int DEFAULT_RELEASE = 17;
    /** pom.xml files larger than this are not read (a real one is a few tens of KB). */
    static final long MAX_POM_BYTES = 4L << 20;

    private JavaProject() {}

    /**
     * The nearest directory at or above the file's directory, and not above {@code root} (the scanned tree), that
     * holds a pom.xml or a Gradle build, or null.
     */
    static Path projectDir(Path file, Path root) {
        Path top = root == null ? null : root.toAbsolutePath().normalize();
        for (Path d = file.toAbsolutePath().normalize().getParent();
                d != null && (top == null || d.startsWith(top));
                d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("pom.xml"))
                    || Files.isRegularFile(d.resolve("build.gradle"))
                    || Files.isRegularFile(d.resolve("build.gradle.kts"))) return d;
        }
        return null;
    }

    /**
     * The Java release of a project and where it came from.
     *
     * @param release the release
     * @param known whether a build file stated it (false: {@link #DEFAULT_RELEASE} assumed)
     * @param missingParent {@code groupId:artifactId:version} of a parent POM that could not be read (outside the
     *     scanned tree and not in the local repository given), or null
     */
    record Release(int release, boolean known, String missingParent) {}

    /** Java release the project compiles for (maven.compiler.release/source, compiler plugin release/source). */
    static int release(Path projectDir) {
        return releaseOf(projectDir, null, null).release();
    }

    /**
     * Java release the project compiles for: from the effective POM (maven.compiler.release/source/target, the
     * compiler plugin's release/source/target, along the parent chain), else from a Gradle build
     * ({@code options.release}, toolchain {@code languageVersion}, {@code sourceCompatibility}), else the default.
     *
     * @param boundary what the scan may read (parent POMs by relativePath only inside it); null: no limit (tests)
     * @param mavenRepo the local Maven repository whose parent POMs may be read ({@code --maven-repo}), or null
     */
    static Release releaseOf(Path projectDir, dev.numlint.spi.TrustBoundary boundary, Path mavenRepo) {
        if (projectDir == null) return new Release(DEFAULT_RELEASE, false, null);
        Path pom = projectDir.resolve("pom.xml");
        if (!Files.isRegularFile(pom)) {
            Integer g = gradleRelease(projectDir, boundary);
            return g != null ? new Release(g, true, null) : new Release(DEFAULT_RELEASE, false, null);
        }
        Map<String, String> props = new HashMap<>();
        List<Element> chain = new ArrayList<>(); // the project, then its parents: the child's values win
        String missing = null;
        for (int level = 0; level < 8 && pom != null && Files.isRegularFile(pom); level++) {
            Element project = parse(pom);
            if (project == null) break;
            chain.add(project);
            Element properties = child(project, "properties");
            if (properties != null) {
                for (Element e : children(properties))
                    props.putIfAbsent(e.getTagName(), e.getTextContent().trim());
            }
            Path next = parentPom(pom, project, boundary);
            if (next == null) next = repositoryPom(child(project, "parent"), mavenRepo);
            if (next == null && child(project, "parent") != null) missing = coordinates(child(project, "parent"));
            pom = next;
        }
        for (Element project : chain) {
            Integer r = releaseIn(project, props);
            if (r != null) return new Release(r, true, null);
        }
        for (String k : new String[] {"maven.compiler.release", "maven.compiler.source", "maven.compiler.target"}) {
            Integer r = parseVersion(resolve(props.get(k), props));
            if (r != null) return new Release(r, true, null);
        }
        return new Release(DEFAULT_RELEASE, false, missing);
    }

    private static String coordinates(Element parent) {
        return text(parent, "groupId") + ":" + text(parent, "artifactId") + ":" + text(parent, "version");
    }

    /**
     * The parent's POM in the local repository {@code repo}/group/path/artifact/version/artifact-version.pom, when
     * {@code repo} is given, the coordinates are literal (no property), and the file's real path stays inside the
     * repository; null otherwise.
     */
    static Path repositoryPom(Element parent, Path repo) {
        if (parent == null || repo == null) return null;
        String g = text(parent, "groupId");
        String a = text(parent, "artifactId");
        String v = text(parent, "version");
        java.util.regex.Pattern plain = java.util.regex.Pattern.compile("[A-Za-z0-9_.\\-]+");
        if (g == null || a == null || v == null) return null;
        if (!plain.matcher(g).matches()
                || !plain.matcher(a).matches()
                || !plain.matcher(v).matches()) return null;
        if (a.contains("..") || v.contains("..") || g.contains("..")) return null;
        try {
            Path realRepo = repo.toRealPath();
            Path p = realRepo.resolve(g.replace('.', '/')).resolve(a).resolve(v).resolve(a + "-" + v + ".pom");
            if (!Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return null;
            Path real = p.toRealPath();
            return real.startsWith(realRepo) ? real : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Gradle build files longer than this are not read. */
    static final long MAX_GRADLE_BYTES = 1L << 20;

    private static final java.util.regex.Pattern GRADLE_RELEASE = java.util.regex.Pattern.compile(
            "(?:options\\.release(?:\\.set\\(|\\s*=\\s*)|languageVersion(?:\\.set\\(|\\s*=\\s*)"
                    + "JavaLanguageVersion\\.of\\(|(?:source|target)Compatibility\\s*=\\s*"
                    + "(?:JavaVersion\\.VERSION_|JavaVersion\\.toVersion\\()?)['\"]?(1[._]\\d+|\\d+)");

    /**
     * The release a Gradle build states in the project directory or the directories above it (a root build's
     * {@code allprojects}/{@code subprojects}), in the order toolchain, options.release, sourceCompatibility of the
     * nearest build that states one; null when none does. Only files inside {@code boundary} are read.
     */
    static Integer gradleRelease(Path projectDir, dev.numlint.spi.TrustBoundary boundary) {
        Path d = projectDir;
        for (int level = 0; level < 6 && d != null; level++, d = d.getParent()) {
            for (String name : new String[] {"build.gradle", "build.gradle.kts"}) {
                Path f = d.resolve(name);
                if (!Files.isRegularFile(f)) continue;
                if (boundary != null && boundary.readable(f) == null) return null;
                Integer r = gradleReleaseIn(f);
                if (r != null) return r;
            }
            if (Files.isRegularFile(d.resolve("settings.gradle"))
                    || Files.isRegularFile(d.resolve("settings.gradle.kts"))) break; // the build's root
        }
        return null;
    }

    static Integer gradleReleaseIn(Path f) {
        try {
            if (Files.size(f) > MAX_GRADLE_BYTES) return null;
            String text = stripComments(Files.readString(f, StandardCharsets.ISO_8859_1));
            Integer best = null;
            int bestRank = Integer.MAX_VALUE;
            java.util.regex.Matcher m = GRADLE_RELEASE.matcher(text);
            while (m.find()) {
                String all = m.group();
                int rank = all.startsWith("languageVersion") ? 0 : all.startsWith("options") ? 1 : 2;
                Integer r = parseVersion(m.group(1).replace('_', '.'));
                if (r != null && rank < bestRank) {
                    best = r;
                    bestRank = rank;
                }
            }
            return best;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Groovy/Kotlin comments removed (line and block), so a commented-out setting does not count. */
    private static String stripComments(String s) {
        return s.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("(?m)//[^\n]*", " ");
    }

    /**
     * Parses a pom.xml with the JDK's XML parser, hardened for files written by strangers: no DOCTYPE (so no
     * entity expansion, internal or external), no external schema or DTD access, no XInclude, and a size limit.
     * Returns the root element, or null when the file is too large or not well-formed XML (the Java front end then
     * uses the default release).
     */
    static Element parse(Path pom) {
        try {
            if (Files.size(pom) > MAX_POM_BYTES) return null;
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            f.setNamespaceAware(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(new org.xml.sax.helpers.DefaultHandler() {
                @Override
                public void fatalError(org.xml.sax.SAXParseException e) throws SAXException {
                    throw e; // nothing printed to stderr
                }
            });
            b.setEntityResolver((publicId, systemId) -> new InputSource(new java.io.StringReader("")));
            try (InputStream in = Files.newInputStream(pom)) {
                Document d = b.parse(in);
                return d.getDocumentElement();
            }
        } catch (IOException | ParserConfigurationException | SAXException | RuntimeException e) {
            return null;
        }
    }

    private static Element child(Element parent, String name) {
        for (Element e : children(parent)) {
            if (e.getTagName().equals(name)) return e;
        }
        return null;
    }

    private static List<Element> children(Element parent) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent == null ? null : parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) out.add(e);
        }
        return out;
    }

    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? null : e.getTextContent().trim();
    }

    private static Integer releaseIn(Element project, Map<String, String> props) {
        List<Element> pluginLists = new ArrayList<>();
        Element build = child(project, "build");
        if (build != null) {
            pluginLists.add(child(build, "plugins"));
            pluginLists.add(child(child(build, "pluginManagement"), "plugins"));
        }
        for (Element plugins : pluginLists) {
            for (Element plugin : children(plugins)) {
                if (!"maven-compiler-plugin".equals(text(plugin, "artifactId"))) continue;
                Element conf = child(plugin, "configuration");
                for (String tag : new String[] {"release", "source", "target"}) {
                    Integer r = parseVersion(resolve(text(conf, tag), props));
                    if (r != null) return r;
                }
            }
        }
        for (String k : new String[] {"maven.compiler.release", "maven.compiler.source", "maven.compiler.target"}) {
            Integer r = parseVersion(resolve(props.get(k), props));
            if (r != null) return r;
        }
        return null;
    }

    private static String resolve(String v, Map<String, String> props) {
        for (int i = 0; v != null && v.startsWith("${") && v.endsWith("}") && i < 5; i++) {
            v = props.get(v.substring(2, v.length() - 1));
        }
        return v;
    }

    static Integer parseVersion(String v) {
        if (v == null) return null;
        v = v.trim();
        if (v.startsWith("1.")) v = v.substring(2);
        try {
            int r = Integer.parseInt(v);
            return r >= 1 && r < 100 ? r : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Path parentPom(Path pom, Element project, dev.numlint.spi.TrustBoundary boundary) {
        Element parent = child(project, "parent");
        if (parent == null) return null;
        String rel = text(parent, "relativePath");
        if (rel == null) rel = "../pom.xml";
        if (rel.isEmpty()) return null;
        try {
            Path c = pom.getParent().resolve(rel).normalize();
            if (Files.isDirectory(c)) c = c.resolve("pom.xml");
            if (!Files.isRegularFile(c)) return null;
            return boundary == null || boundary.readable(c) != null ? c : null; // never outside the scanned tree
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The source folder of a file: its directory minus the package path (from the file's package line). */
    static Path sourceRoot(Path file) {
        Path dir = file.toAbsolutePath().normalize().getParent();
        String pkg = null;
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(16384);
            pkg = packageName(new String(head, StandardCharsets.ISO_8859_1));
        } catch (IOException | RuntimeException e) {
            return dir;
        }
        if (pkg == null || dir == null) return dir;
        String[] parts = pkg.split("\\.");
        Path d = dir;
        for (int i = parts.length - 1; i >= 0; i--) {
            if (d == null
                    || d.getFileName() == null
                    || !d.getFileName().toString().equals(parts[i])) return dir;
            d = d.getParent();
        }
        return d == null ? dir : d;
    }

    /** The name in the first {@code package a.b.c;} declaration outside comments (a linear scan), or null. */
    static String packageName(String text) {
        int n = text.length();
        int i = 0;
        boolean lineStart = true;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int e = text.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 2;
                continue;
            }
            if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                int e = text.indexOf('\n', i);
                i = e < 0 ? n : e;
                continue;
            }
            if (c == '\n') lineStart = true;
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (lineStart && text.startsWith("package", i) && i + 7 < n && Character.isWhitespace(text.charAt(i + 7))) {
                int j = i + 7;
                while (j < n && Character.isWhitespace(text.charAt(j))) j++;
                int s = j;
                while (j < n && (Character.isJavaIdentifierPart(text.charAt(j)) || text.charAt(j) == '.')) j++;
                int e = j;
                while (j < n && Character.isWhitespace(text.charAt(j))) j++;
                return e > s && j < n && text.charAt(j) == ';' ? text.substring(s, e) : null;
            }
            if (Character.isJavaIdentifierStart(c) || c == '@') {
                // annotations before the package line, or the first declaration: stop at import/class
                if (text.startsWith("import", i) || text.startsWith("class", i) || text.startsWith("public", i)) {
                    return null;
                }
            }
            lineStart = false;
            i++;
        }
        return null;
    }
}
