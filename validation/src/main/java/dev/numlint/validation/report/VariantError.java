package dev.numlint.validation.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/** Error of one build variant's outputs against the high-precision reference. */
@JsonPropertyOrder({"variant", "flags", "maxAbsError", "maxRelError", "meanAbsError", "elementsDifferingFromAsBuilt", "reason"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class VariantError {
    public String variant;
    public List<String> flags;
    public Double maxAbsError;
    public Double maxRelError;
    public Double meanAbsError;
    public Long elementsDifferingFromAsBuilt;
    /** Set when the variant could not be built or run. */
    public String reason;

    public VariantError() {}
}
