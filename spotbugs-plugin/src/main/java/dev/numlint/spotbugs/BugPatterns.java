package dev.numlint.spotbugs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Rule id to SpotBugs bug pattern type and priority, read from {@code bug-patterns.properties}, which the build
 * generates from the rule catalog next to findbugs.xml. The plugin needs no catalog (and no YAML parser) at run
 * time.
 */
public final class BugPatterns {
    /** Resource written by the descriptor generator. */
    public static final String RESOURCE = "bug-patterns.properties";

    private static final Properties TABLE = load();

    private BugPatterns() {
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = BugPatterns.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " missing: the plugin jar was not built by its Maven build");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    /** The bug pattern type of a rule, e.g. NL001_FLOAT_TO_UNSIGNED_CONVERSION. */
    public static String type(String ruleId) {
        String t = TABLE.getProperty(ruleId + ".type");
        if (t == null) {
            throw new IllegalArgumentException("rule " + ruleId + " has no bug pattern in this plugin");
        }
        return t;
    }

    /** The SpotBugs priority that the rule's catalog level maps to (1 high, 2 normal, 3 low). */
    public static int priority(String ruleId) {
        return Integer.parseInt(TABLE.getProperty(ruleId + ".priority", "2"));
    }

    /** A rule option's catalog default, e.g. NL004 min-trip-count. */
    public static int intOption(String ruleId, String option, int fallback) {
        String v = TABLE.getProperty(ruleId + ".option." + option);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
