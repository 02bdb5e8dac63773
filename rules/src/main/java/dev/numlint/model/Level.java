package dev.numlint.model;

import java.util.Locale;

/** Severity of a finding; the order is significant (ERROR is the most severe). */
public enum Level {
    ERROR,
    WARNING,
    NOTE;

    /** The lower-case name used in SARIF, the catalog, configuration and text output. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True when this level is at least as severe as {@code threshold}. */
    public boolean atLeast(Level threshold) {
        return ordinal() <= threshold.ordinal();
    }

    public static Level parse(String s) {
        for (Level l : values()) {
            if (l.id().equals(s)) {
                return l;
            }
        }
        throw new IllegalArgumentException("unknown level '" + s + "' (allowed: error, warning, note)");
    }
}
