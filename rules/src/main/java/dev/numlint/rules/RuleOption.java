package dev.numlint.rules;

/**
 * A tunable option of a rule, settable in {@code .numlint.yml} under {@code rules.NLxxx.options}.
 *
 * @param name         kebab-case option name
 * @param type         "int", "bool" or "string"
 * @param defaultValue default as text
 * @param description  what it changes
 * @param min          smallest allowed value of an int option (inclusive), or null for no bound
 * @param max          largest allowed value of an int option (inclusive), or null for no bound
 */
public record RuleOption(String name, String type, String defaultValue, String description, Long min, Long max) {
    /** An option without a declared range. */
    public RuleOption(String name, String type, String defaultValue, String description) {
        this(name, type, defaultValue, description, null, null);
    }

    /** The declared range as text, e.g. "at least 0" or "0 to 100"; empty when there is none. */
    public String rangeText() {
        if (min != null && max != null) {
            return min + " to " + max;
        }
        if (min != null) {
            return "at least " + min;
        }
        return max != null ? "at most " + max : "";
    }

    /** Whether an int value lies in the declared range. */
    public boolean inRange(long v) {
        return (min == null || v >= min) && (max == null || v <= max);
    }
}
