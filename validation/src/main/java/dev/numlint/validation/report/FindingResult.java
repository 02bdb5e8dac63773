package dev.numlint.validation.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** The verdict for one hazard found in a kernel (a rule with its first PTX evidence). */
@JsonPropertyOrder({"rule", "line", "evidence", "verdict", "elementsDiffering"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class FindingResult {
    public String rule;
    public Integer line;
    public String evidence;
    public Verdict verdict;
    public Long elementsDiffering;

    public FindingResult() {}
}
