package dev.numlint.java;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the Java front end needs to know about the project a source file belongs to (Maven layout). */
final class JavaProject {
    static final int DEFAULT_RELEASE = 17;
    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");
    private static final Pattern PROPERTY = Pattern.compile("<([\\w.\\-]+)>\\s*([^<]*?)\\s*</\\1>");
    private static final Pattern COMPILER_PLUGIN = Pattern.compile(
            "<artifactId>\\s*maven-compiler-plugin\\s*</artifactId>(.*?)</plugin>", Pattern.DOTALL);

    private JavaProject() {
    }

    /** The nearest directory at or above the file's directory that holds a pom.xml, or null. */
    static Path projectDir(Path file, Path root) {
        for (Path d = file.toAbsolutePath().normalize().getParent(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("pom.xml"))) return d;
        }
        return null;
    }

    /** Java release the project compiles for (maven.compiler.release/source, compiler plugin release/source). */
    static int release(Path projectDir) {
        if (projectDir == null) return DEFAULT_RELEASE;
        Map<String, String> props = new HashMap<>();
        Path pom = projectDir.resolve("pom.xml");
        for (int level = 0; level < 6 && pom != null && Files.isRegularFile(pom); level++) {
            String text = read(pom);
            if (text == null) break;
            String noComments = text.replaceAll("(?s)<!--.*?-->", "");
            Matcher pm = Pattern.compile("(?s)<properties>(.*?)</properties>").matcher(noComments);
            if (pm.find()) {
                Matcher m = PROPERTY.matcher(pm.group(1));
                while (m.find()) props.putIfAbsent(m.group(1), m.group(2));
            }
            Integer r = releaseIn(noComments, props);
            if (r != null) return r;
            pom = parentPom(pom, noComments);
        }
        for (String k : new String[] {"maven.compiler.release", "maven.compiler.source", "maven.compiler.target"}) {
            Integer r = parseVersion(resolve(props.get(k), props));
            if (r != null) return r;
        }
        return DEFAULT_RELEASE;
    }

    private static Integer releaseIn(String pom, Map<String, String> props) {
        Matcher c = COMPILER_PLUGIN.matcher(pom);
        while (c.find()) {
            for (String tag : new String[] {"release", "source", "target"}) {
                Matcher m = Pattern.compile("<" + tag + ">\\s*([^<]+?)\\s*</" + tag + ">").matcher(c.group(1));
                if (m.find()) {
                    Integer r = parseVersion(resolve(m.group(1), props));
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

    private static Path parentPom(Path pom, String text) {
        Matcher p = Pattern.compile("(?s)<parent>(.*?)</parent>").matcher(text);
        if (!p.find()) return null;
        Matcher rp = Pattern.compile("<relativePath>\\s*([^<]*?)\\s*</relativePath>").matcher(p.group(1));
        String rel = rp.find() ? rp.group(1) : "../pom.xml";
        if (rel.isEmpty()) return null;
        Path c = pom.getParent().resolve(rel).normalize();
        if (Files.isDirectory(c)) c = c.resolve("pom.xml");
        return Files.isRegularFile(c) ? c : null;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            try {
                return new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
            } catch (IOException e2) {
                return null;
            }
        }
    }

    /** The source folder of a file: its directory minus the package path (from the file's package line). */
    static Path sourceRoot(Path file) {
        Path dir = file.toAbsolutePath().normalize().getParent();
        String pkg = null;
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(16384);
            String text = new String(head, StandardCharsets.ISO_8859_1);
            text = text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
            Matcher m = PACKAGE.matcher(text);
            if (m.find()) pkg = m.group(1);
        } catch (IOException | RuntimeException e) {
            return dir;
        }
        if (pkg == null || dir == null) return dir;
        String[] parts = pkg.split("\\.");
        Path d = dir;
        for (int i = parts.length - 1; i >= 0; i--) {
            if (d == null || d.getFileName() == null || !d.getFileName().toString().equals(parts[i])) return dir;
            d = d.getParent();
        }
        return d == null ? dir : d;
    }
}
