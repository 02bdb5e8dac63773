package dev.numlint.rules;

/**
 * A tunable option of a rule, settable in {@code .numlint.yml} under {@code rules.NLxxx.options}.
 *
 * @param name         kebab-case option name
 * @param type         "int", "bool" or "string"
 * @param defaultValue default as text
 * @param description  what it changes
 */
public record RuleOption(String name, String type, String defaultValue, String description) {
}
