package dev.numlint.spotbugs;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one line by which the plugin reports itself in SpotBugs' output when SpotBugs loads its detectors, so that a
 * set-up where SpotBugs loads nothing of it (the jar declared under {@code <dependencies>} instead of the
 * spotbugs-maven-plugin's {@code <plugins>}, issue 30) is noticed by the line's absence. Written to standard error
 * (the text UI writes its bugs to standard output) once per JVM, by the first detector constructed;
 * {@code -Dnumlint.spotbugs.quiet=true} leaves it out.
 */
public final class PluginNotice {
    private static final AtomicBoolean ANNOUNCED = new AtomicBoolean();

    private PluginNotice() {}

    /** The line: the plugin, its version and the rules of its detectors, from the generated rule table. */
    public static String text() {
        return "numlint SpotBugs plugin " + BugPatterns.pluginVersion() + " loaded: rules "
                + String.join(", ", BugPatterns.rules()) + " (category NUMLINT)";
    }

    /** Called by every detector's constructor; prints {@link #text()} the first time in this JVM. */
    static void detectorLoaded() {
        detectorLoaded(System.err);
    }

    static void detectorLoaded(PrintStream out) {
        if (!Boolean.getBoolean("numlint.spotbugs.quiet") && ANNOUNCED.compareAndSet(false, true)) {
            out.println(text());
            out.flush();
        }
    }

    /** For tests: forget that the line was printed. */
    static void reset() {
        ANNOUNCED.set(false);
    }
}
