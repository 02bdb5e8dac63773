package dev.numlint.validation.report;

import com.fasterxml.jackson.annotation.JsonValue;

/** Outcome of validating a kernel or a finding. */
public enum Verdict {
    /** The hazard changed at least one output element on the inputs tried. */
    CONFIRMED("confirmed"),
    /** Every output element was identical on the inputs tried. */
    NOT_OBSERVED("not-observed"),
    /** The kernel could not be executed (reason says why). */
    NOT_RUNNABLE("not-runnable");

    private final String text;

    Verdict(String text) {
        this.text = text;
    }

    @JsonValue
    public String text() {
        return text;
    }
}
