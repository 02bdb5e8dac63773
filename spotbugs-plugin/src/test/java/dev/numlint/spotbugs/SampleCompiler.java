package dev.numlint.spotbugs;

import edu.umd.cs.findbugs.IFindBugsEngine;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import edu.umd.cs.findbugs.config.UserPreferences;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles the sample sources with javac for a given --release into a directory, with debug information. */
final class SampleCompiler {
    /**
     * The Java samples shared with the source analyzer's fixtures (one copy, used by both layers): the source test
     * reads them with the other analyzer fixtures, this test compiles them.
     */
    static final Path SAMPLES = Path.of("../analyzer/src/test/resources/fixtures/java/shared");

    private SampleCompiler() {}

    /**
     * Engine customization for the harness: the detectors SpotBugs enables by default (the harness enables every
     * detector, including hidden debugging ones), as a user's build would run them.
     */
    static void defaultDetectors(IFindBugsEngine engine) {
        UserPreferences prefs = UserPreferences.createDefaultUserPreferences();
        prefs.getFilterSettings().clearAllCategories();
        engine.setUserPreferences(prefs);
    }

    static Path annotationsJar() {
        try {
            return Path.of(SuppressFBWarnings.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Compiles every .java file under {@code sources} and returns the class files written to {@code out}. */
    static List<Path> compile(Path sources, int release, Path out) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no system Java compiler: run the tests on a JDK");
        }
        List<File> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(sources)) {
            s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> files.add(p.toFile()));
        }
        Files.createDirectories(out);
        StringWriter diagnostics = new StringWriter();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, null)) {
            List<String> options = List.of(
                    "--release",
                    Integer.toString(release),
                    "-g",
                    "-nowarn",
                    "-Xlint:-options",
                    "-d",
                    out.toString(),
                    "-cp",
                    annotationsJar().toString());
            Boolean ok = javac.getTask(diagnostics, fm, null, options, null, fm.getJavaFileObjectsFromFiles(files))
                    .call();
            if (!Boolean.TRUE.equals(ok)) {
                throw new IllegalStateException("samples do not compile for release " + release + ":\n" + diagnostics);
            }
        }
        try (Stream<Path> s = Files.walk(out)) {
            return s.filter(p -> p.toString().endsWith(".class")).sorted().toList();
        }
    }
}
