package dev.numlint.model;

import com.fasterxml.jackson.annotation.JsonValue;

/** Outcome of validating a kernel or a finding. */
public enum Verdict {
    /** The hazard changed at least one output element on the inputs tried. */
    CONFIRMED("confirmed"),
    /** Every output element was identical on the inputs tried. */
    NOT_OBSERVED("not-observed"),
    /** The kernel could not be executed (reason says why). */
    NOT_RUNNABLE("not-runnable"),
    /**
     * The kernel ran, but on inputs known to be incomplete: a recorded launch whose as-built replay does not reproduce
     * the recorded outputs while state the host may have written (a {@code __constant__} table) was not recorded; the
     * comparison's figures are reported, but they do not speak for the real run (reason says why).
     */
    INCONCLUSIVE("inconclusive");

    private final String text;

    Verdict(String text) {
        this.text = text;
    }

    @JsonValue
    public String text() {
        return text;
    }
}
