package dev.numlint.validation.report;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One single-switch variant: the rule it addresses, the variant name (e.g. "fmad=false", "host-x86") and how
 * many of the differing elements that switch alone removes (for host-x86: how many elements differ between the
 * GPU conversion and the x86 conversion).
 */
@JsonPropertyOrder({"rule", "variant", "elementsDiffering"})
public final class Attribution {
    public String rule;
    public String variant;
    public long elementsDiffering;

    public Attribution() {}

    public Attribution(String rule, String variant, long elementsDiffering) {
        this.rule = rule;
        this.variant = variant;
        this.elementsDiffering = elementsDiffering;
    }
}
