package dev.numlint.model;

import java.util.Locale;

/** How sure the analyzer is that the finding is real (e.g. LOW when types were guessed without a classpath). */
public enum Confidence {
    HIGH,
    MEDIUM,
    LOW;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
