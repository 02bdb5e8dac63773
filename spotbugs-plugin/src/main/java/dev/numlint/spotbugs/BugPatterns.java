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

    private BugPatterns() {}

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

    /**
     * The priority of a finding of {@code ruleId} with the given impact (amplified, cancellation, growing, bounded;
     * see dev.numlint.model.Impact): bounded findings are low priority (3), hidden at SpotBugs' default threshold;
     * the others keep the rule's priority.
     */
    public static int priority(String ruleId, String impact) {
        return "bounded".equals(impact) ? 3 : priority(ruleId);
    }

    /**
     * The catalog message {@code key} of {@code ruleId} (generated into the table from catalog.yml) with its
     * {@code {placeholders}} filled from name, value pairs.
     */
    public static String message(String ruleId, String key, Object... args) {
        String t = TABLE.getProperty(ruleId + ".message." + key);
        if (t == null) {
            throw new IllegalArgumentException("rule " + ruleId + " has no message '" + key + "' in this plugin");
        }
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < t.length()) {
            int open = t.indexOf('{', i);
            int close = open < 0 ? -1 : t.indexOf('}', open);
            if (open < 0 || close < 0) {
                sb.append(t, i, t.length());
                break;
            }
            sb.append(t, i, open);
            String name = t.substring(open + 1, close);
            Object value = null;
            boolean found = false;
            for (int k = 0; k + 1 < args.length; k += 2) {
                if (name.equals(args[k])) {
                    value = args[k + 1];
                    found = true;
                }
            }
            if (!found) {
                throw new IllegalArgumentException("message " + ruleId + "." + key + " needs '" + name + "'");
            }
            sb.append(value);
            i = close + 1;
        }
        return sb.toString();
    }

    /** The plugin's version, as the build wrote it. */
    public static String pluginVersion() {
        return TABLE.getProperty("plugin.version", "(unknown version)");
    }

    /** The rule ids the plugin's detectors report, in catalog order. */
    public static java.util.List<String> rules() {
        return java.util.List.of(TABLE.getProperty("plugin.rules", "").split(","));
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
