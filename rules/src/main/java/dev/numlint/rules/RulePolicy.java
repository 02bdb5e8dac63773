package dev.numlint.rules;

import com.fasterxml.jackson.databind.JsonNode;
import dev.numlint.model.Impact;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How the engine treats a rule's findings, declared with the rule in the catalog ({@code policy:} of catalog.yml):
 * how its layers merge, what PTX instruction confirms it, how its PTX findings are reported, and which validation
 * variant isolates it. The engine (scan, PTX glue, validation) asks the policy and holds no rule id; a new rule states
 * its policy in its catalog entry (the scaffold writes one; CatalogConsistencyTest requires it).
 *
 * @param declared            the catalog entry states a policy (false: the defaults below, for a rule without one)
 * @param everySite           merge: every written site stays a finding of its own, even repeated copies of one
 *                            statement (uses of one macro still merge)
 * @param confirmingOpcodes   merge: the PTX opcodes that confirm a source finding ({@code fma}, {@code mad} for a
 *                            contraction the compiler formed); empty: any PTX finding of the rule on the line
 * @param relocatePtx         merge: the construct the written line of the rule's PTX finding must hold
 *                            ({@code relocate-ptx: division}); a PTX finding at a line that cannot hold it moves to
 *                            the finding of the rule where its operation is written (a conversion the scheduler
 *                            moved next to a branch, a division or double reciprocal hoisted out of a loop) or says
 *                            that its line is approximate; null: PTX findings stay at their lines
 * @param mergeAccumulators   merge: a PTX finding updating the accumulator of a source finding at another line of
 *                            the same function joins it as a related location
 * @param randomVariateNote   merge: a PTX finding the source layer has nothing for, on a line whose values are random
 *                            variates, becomes a note when its impact is amplified
 * @param noFp64Note          merge: a source finding about double arithmetic on a line the PTX compiled with no FP64
 *                            instruction ({@link dev.numlint.spi.ScanContext#addCompiledLines}: the compiler narrowed
 *                            it to float) becomes a note that says so; lines without PTX code keep their finding
 * @param ptxCallIsHazard     PTX: the call of a header routine is the hazard (a conversion, an atomic, a tensor-core
 *                            operation): instructions inside toolkit headers are reported at the user's call site
 * @param ptxPerOperation     PTX: different operations on one line are different findings
 * @param ptxStatesConsequence PTX: the message states what the value decides after the check's own text
 * @param ptxTripCountOption  PTX: the rule option that gives the PTX layer its minimum trip count of a loop, or null
 * @param validationVariant   validation: the variant that isolates the rule ({@code fmad=false}), or null
 * @param validationFlag      validation: the nvcc flag that builds that variant ({@code -fmad=false}), or null
 * @param validationPtxVariant validation: the PTX rewrite that isolates the rule ({@code unfuse-fma}), or null
 * @param validationOrder     validation: the place of the rule's variants among the single-switch variants (nvcc and
 *                            PTX, ascending), or 0
 * @param validationHazardOn  validation: when the hazard the variant's flag switches off is on without an explicit
 *                            flag: {@code default} (nvcc's default, {@code -fmad=true}), {@code use_fast_math}
 * @param validationPtxOptions validation: the interpreter's options of the PTX rewrite ({@code contract},
 *                            {@code unfuse-fma}, {@code exact-div}, {@code exact-sqrt}, {@code no-ftz}); the strict
 *                            PTX variant sets every rewrite's options, contracting only when every rewrite does
 * @param validationPtxFastMath validation: the kernel's PTX is checked as a fast-math build when the hazards of all
 *                            rules stating this are on in the as-built flags
 * @param machineCodeCheck    validation: the rule's findings are checked in the SASS (an FFMA at the line)
 * @param sitesCiteFlags      build flags: the rule's other layers report each device operation a flag of the rule
 *                            makes approximate, citing the flag (a flag finding learns how many sites it affects)
 * @param hostComparison      validation: the rule's difference shows between the x86 host build and the GPU (a
 *                            conversion wraps on x86, saturates on the GPU): the host comparison is attributed to it
 * @param validationInputs    validation: input distributions that exercise the rule's hazard ({@code conversion},
 *                            {@code subnormal}), added when a kernel has a finding of the rule
 * @param mergeCommonSubexpressions merge: two findings of one function whose written code is the same, in statements
 *                            on neighbouring lines, and that update nothing, are one value the compiler computes
 *                            once (a common subexpression): one finding, at the first, the other related
 * @param groupByLoop         report: the findings of one function whose sums one loop carries
 *                            ({@link dev.numlint.model.Identity#sum}: the register accumulators of a blocked kernel),
 *                            of the same level and type, are one finding at the first sum's line that names them all
 * @param groupRuns           report: default-visible findings of one function, level and written operation on
 *                            neighbouring lines (the channels of a pixel converted one per line) are one finding at the
 *                            first one's line that names the others' lines (scan/RunGroups)
 * @param tieOnly             level: the rule's hazard moves a value by a rounding or a few ulp, so what it reaches in
 *                            these {@linkplain dev.numlint.model.Impact.Reach reaches} ({@code tie-only: [decision,
 *                            conversion, index]}) changes only where the exact value sits within those ulp of the
 *                            threshold or the integer step, a tie either side of which the program accepts: such a
 *                            finding is a note, and a cancellation is a warning only when the cancelled value decides
 *                            something ({@link dev.numlint.model.Impact#level(dev.numlint.model.Level, java.util.Set)});
 *                            empty: every amplified or cancelling impact keeps the rule's level
 */
public record RulePolicy(
        boolean declared,
        boolean everySite,
        List<String> confirmingOpcodes,
        dev.numlint.knowledge.WrittenCode.Construct relocatePtx,
        boolean mergeAccumulators,
        boolean randomVariateNote,
        boolean noFp64Note,
        boolean ptxCallIsHazard,
        boolean ptxPerOperation,
        boolean ptxStatesConsequence,
        String ptxTripCountOption,
        String validationVariant,
        String validationFlag,
        String validationPtxVariant,
        int validationOrder,
        List<String> validationHazardOn,
        List<String> validationPtxOptions,
        boolean validationPtxFastMath,
        boolean machineCodeCheck,
        boolean sitesCiteFlags,
        boolean hostComparison,
        List<String> validationInputs,
        boolean mergeCommonSubexpressions,
        boolean groupByLoop,
        boolean groupRuns,
        Set<Impact.Reach> tieOnly) {

    /** The policy of a rule whose catalog entry states none: merge by line, any PTX finding confirms. */
    public static final RulePolicy DEFAULT = new RulePolicy(
            false, false, List.of(), null, false, false, false, false, false, true, null, null, null, null, 0,
            List.of(), List.of(), false, false, false, false, List.of(), false, false, false, Set.of());

    public RulePolicy {
        confirmingOpcodes = List.copyOf(confirmingOpcodes);
        validationInputs = List.copyOf(validationInputs);
        validationHazardOn = List.copyOf(validationHazardOn);
        validationPtxOptions = List.copyOf(validationPtxOptions);
        tieOnly = Set.copyOf(tieOnly);
    }

    /** Whether a PTX instruction with {@code opcode} confirms a source finding of the rule. */
    public boolean confirmedBy(String opcode) {
        return confirmingOpcodes.isEmpty() || opcode != null && confirmingOpcodes.contains(opcode);
    }

    /** The keys a {@code policy:} entry may hold (anything else is a typo the catalog refuses). */
    static final List<String> KEYS = List.of(
            "merge",
            "confirmed-by",
            "relocate-ptx",
            "merge-accumulators",
            "random-variate-note",
            "no-fp64-note",
            "ptx-call-is-hazard",
            "ptx-per-operation",
            "ptx-states-consequence",
            "ptx-trip-count-option",
            "validation-variant",
            "validation-flag",
            "validation-ptx-variant",
            "validation-order",
            "validation-hazard-on",
            "validation-ptx-options",
            "validation-ptx-fast-math",
            "machine-code-check",
            "sites-cite-flags",
            "validation-host-comparison",
            "validation-inputs",
            "merge-common-subexpressions",
            "group-by-loop",
            "group-runs",
            "tie-only");

    /** The policy a catalog entry states ({@code node}: its {@code policy:} mapping; null: {@link #DEFAULT}). */
    static RulePolicy parse(String id, JsonNode node) {
        if (node == null || node.isNull()) {
            return DEFAULT;
        }
        node.fieldNames().forEachRemaining(k -> {
            if (!KEYS.contains(k)) {
                throw new IllegalStateException(
                        "rule " + id + ": unknown policy key '" + k + "' (known: " + KEYS + ")");
            }
        });
        String merge = node.path("merge").asText("line");
        if (!merge.equals("line") && !merge.equals("every-site")) {
            throw new IllegalStateException(
                    "rule " + id + ": policy merge must be 'line' or 'every-site', not '" + merge + "'");
        }
        return new RulePolicy(
                true,
                merge.equals("every-site"),
                list(node.get("confirmed-by")),
                construct(id, text(node, "relocate-ptx")),
                node.path("merge-accumulators").asBoolean(false),
                node.path("random-variate-note").asBoolean(false),
                node.path("no-fp64-note").asBoolean(false),
                node.path("ptx-call-is-hazard").asBoolean(false),
                node.path("ptx-per-operation").asBoolean(false),
                node.path("ptx-states-consequence").asBoolean(true),
                text(node, "ptx-trip-count-option"),
                text(node, "validation-variant"),
                text(node, "validation-flag"),
                text(node, "validation-ptx-variant"),
                node.path("validation-order").asInt(0),
                list(node.get("validation-hazard-on")),
                list(node.get("validation-ptx-options")),
                node.path("validation-ptx-fast-math").asBoolean(false),
                node.path("machine-code-check").asBoolean(false),
                node.path("sites-cite-flags").asBoolean(false),
                node.path("validation-host-comparison").asBoolean(false),
                list(node.get("validation-inputs")),
                node.path("merge-common-subexpressions").asBoolean(false),
                node.path("group-by-loop").asBoolean(false),
                node.path("group-runs").asBoolean(false),
                reaches(id, node.get("tie-only")));
    }

    private static Set<Impact.Reach> reaches(String id, JsonNode n) {
        Set<Impact.Reach> out = EnumSet.noneOf(Impact.Reach.class);
        for (String r : list(n)) {
            try {
                out.add(Impact.Reach.valueOf(r.toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(
                        "rule " + id + ": policy tie-only: unknown reach '" + r
                                + "' (known: decision, conversion, index)",
                        e);
            }
        }
        return out;
    }

    private static dev.numlint.knowledge.WrittenCode.Construct construct(String id, String name) {
        try {
            return dev.numlint.knowledge.WrittenCode.Construct.of(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("rule " + id + ": policy relocate-ptx: " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode n, String k) {
        JsonNode v = n.get(k);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static List<String> list(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n != null) {
            n.forEach(x -> out.add(x.asText()));
        }
        return out;
    }
}
