package dev.numlint.validation.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** Bit-for-bit comparison of the GPU's and the CPU interpreter's outputs of one build variant. */
@JsonPropertyOrder({"variant", "elementsCompared", "elementsDiffering", "firstDifference", "note"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class Agreement {
    public String variant;
    public long elementsCompared;
    public long elementsDiffering;
    /** The first differing element: input set, parameter, index and both values (with their bit patterns). */
    public String firstDifference;

    public String note;

    public Agreement() {}

    public Agreement(String variant) {
        this.variant = variant;
    }
}
