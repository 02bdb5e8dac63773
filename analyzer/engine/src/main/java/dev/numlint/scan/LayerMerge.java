package dev.numlint.scan;

import dev.numlint.knowledge.WrittenCode;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.RelatedLocation;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RulePolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Merges what the CUDA-source and PTX layers found on one source line for one rule.
 *
 * <p>A source finding that PTX confirms absorbs the PTX finding's evidence and says so with the catalog's
 * {@code ptx-confirmed} marker ("(PTX confirms)") and the property {@code confirmedInPtx} — but only
 * when the PTX instruction is the programmer's own operation, never for an instruction of an inlined library
 * routine ({@code properties.libraryCode}), and for a contraction (NL003) only when the compiler formed the fma: a mul
 * feeding an add that ptxas only may fuse confirms nothing. Several hazards of one rule on one line stay separate (an
 * {@code __expf} and a {@code __cosf}): each PTX finding is matched to the source finding that names its operation.
 * The merged finding is as consequential as its most consequential evidence: it takes the more severe impact of the
 * two layers, and the PTX finding's level only with that graver impact or when the source finding states none (a
 * conversion the source proved in range, a quotient it saw only stored, keep their level when PTX confirms the
 * instruction), unless the source finding's impact is proven from the code's structure (property
 * {@code impactProven}, a constant step), except that a PTX "difference of products" does not overrule the source
 * layer's judgement of one component of a complex product or rotation (property {@code pairedComponent}) or of terms
 * whose signs cannot cancel (property {@code termsCannotCancel}): only an amplifying use the PTX layer followed raises
 * it), and except that a growing PTX sum does not overrule the source layer's
 * judgement of the same loop. The PTX layer's updates of an accumulator the source layer reports at another line of
 * the same function become related locations of the source finding. A PTX finding on a line that cannot hold its
 * rule's construct moves to where it is written ({@link #relocateConversions}), and one kernel's
 * reduced-precision choice (NL012) is one finding ({@link #oneDecision}). A source finding whose impact is exact (a
 * conversion whose operand the source proves in range) is no hazard: it absorbs the PTX finding of the same operation
 * like any source finding, keeps its impact (property {@code impactProven}), and the scan drops both after the merge. Within one layer, findings on one line with
 * the same message are duplicates (two analyzers, or one hazard reached twice) and collapse into the first; different
 * operations have different messages and stay apart.
 */
final class LayerMerge {
    private LayerMerge() {}

    static List<Finding> merge(List<Finding> input) {
        return merge(input, Map.of());
    }

    /** A grouping key: the parts joined by NUL, which no part holds (also {@link RepeatedCode}'s). */
    static String key(Object... parts) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) sb.append('\u0000');
            sb.append(parts[i]);
        }
        return sb.toString();
    }

    /**
     * {@link #merge(List)}, with the lines whose values the CUDA source layer proved random variates, by file
     * ({@link dev.numlint.spi.ScanContext#addRandomVariateLines}): a PTX contraction the source layer has no finding
     * for on such a line becomes a note ({@link #variate}).
     */
    static List<Finding> merge(List<Finding> input, Map<String, Set<Integer>> variateLines) {
        LineFacts lines = LineFacts.none();
        variateLines.forEach(lines::addVariates);
        return merge(input, lines);
    }

    /**
     * {@link #merge(List, Map)}, with what the PTX layer shows of the source lines ({@link LineFacts#narrowed}): a
     * source finding about double arithmetic on lines whose PTX holds no FP64 instruction becomes a note.
     */
    static List<Finding> merge(List<Finding> input, LineFacts lines) {
        Map<String, Set<Integer>> variateLines = lines.variates;
        List<Finding> sorted = lines.notEmitted(lines.narrowed(intoStatements(relocateConversions(input))));
        Map<String, List<Finding>> groups = new LinkedHashMap<>();
        for (Finding f : sorted) {
            String key = key(f.ruleId(), f.location().file(), f.location().startLine());
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
        }
        List<Finding> out = new ArrayList<>();
        for (List<Finding> g : groups.values()) {
            List<Finding> src = new ArrayList<>();
            List<Finding> ptx = new ArrayList<>();
            List<Finding> other = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            List<Finding> unique = new ArrayList<>();
            Map<String, Integer> ptxAt = new HashMap<>();
            for (Finding f : g) {
                if (f.layer() == Layer.PTX) {
                    // one hazard at one source position seen in two PTX builds (a checked-in .ptx and the one
                    // compiled from the .cu, with other flags: add.rn.f32 / add.rn.ftz.f32), or in the PTX of two
                    // units that inline one header's line into their kernels, is one finding (issue 26: report at the
                    // written line once), whatever each caller makes of the value
                    String k = f.location().startColumn() + "\u0000" + PtxOccurrences.writtenHazard(f);
                    Integer at = ptxAt.get(k);
                    if (at != null) {
                        Finding first = ptx.get(at);
                        Finding merged = PtxOccurrences.sameWrittenOperation(first, f);
                        ptx.set(at, merged);
                        unique.set(unique.indexOf(first), merged);
                        continue;
                    }
                    ptxAt.put(k, ptx.size());
                }
                if (seen.add(f.layer() + "\u0000" + f.message())) {
                    unique.add(f);
                    (f.layer() == Layer.CUDA_SOURCE ? src : f.layer() == Layer.PTX ? ptx : other).add(f);
                }
            }
            if (src.isEmpty() || ptx.isEmpty()) {
                for (Finding f : unique) {
                    out.add(src.isEmpty() ? variate(f, variateLines) : f);
                }
                continue;
            }
            List<List<Finding>> matched = new ArrayList<>();
            for (int i = 0; i < src.size(); i++) {
                matched.add(new ArrayList<>());
            }
            // a PTX finding that names no operation of the line goes to the line's first source finding that is a
            // hazard: a conversion the source proved in range (impact exact) absorbs the PTX finding only when it is
            // the line's one source finding of the rule, or when the PTX finding names its operation
            int first = 0;
            while (first < src.size() - 1 && exact(src.get(first))) {
                first++;
            }
            for (Finding p : ptx) {
                int best = first;
                if (src.size() > 1) {
                    for (int i = 0; i < src.size(); i++) {
                        if (sameOperation(src.get(i), p)) {
                            best = i;
                            break;
                        }
                    }
                }
                matched.get(best).add(p);
            }
            for (int i = 0; i < src.size(); i++) {
                out.add(absorb(src.get(i), matched.get(i)));
            }
            out.addAll(other);
        }
        return RepeatedCode.repeatedCopies(
                RepeatedCode.commonSubexpressions(oneOperationPerLine(oneDecision(sameAccumulator(out)))));
    }

    /** A finding whose impact is provably exact (dropped after the merge, with the PTX findings it absorbed). */
    private static boolean exact(Finding f) {
        return f.impact() != null && f.impact().kind() == Impact.Kind.EXACT;
    }

    /**
     * One finding per source line, rule and operation: the same intrinsic or cast written several times on one line
     * ({@code rv = float3(__fdividef(1.f, v.x), __fdividef(1.f, v.y), __fdividef(1.f, v.z))},
     * {@code make_uchar4((uchar)vec.x, (uchar)vec.y, ...)}) is one decision with one fix. The most severe of them
     * stays, with the others as related locations; different operations on one line (an {@code __expf} and a
     * {@code __cosf}) stay apart.
     */
    static List<Finding> oneOperationPerLine(List<Finding> in) {
        Map<String, Integer> first = new HashMap<>();
        Map<Integer, Integer> extra = new HashMap<>();
        List<Finding> out = new ArrayList<>();
        for (Finding f : in) {
            String op = f.identity().written();
            if (f.layer() == Layer.PTX || exact(f) || op == null) {
                out.add(f);
                continue;
            }
            // per decision too: a template's atomic add instantiated with float and with double is two sums (a
            // warning and a note), each with the other atomics of its precision in the function
            String key = key(
                    f.ruleId(),
                    f.layer(),
                    f.location().file(),
                    f.location().startLine(),
                    op,
                    String.valueOf(f.identity().decision()));
            Integer at = first.get(key);
            if (at == null) {
                first.put(key, out.size());
                out.add(f);
                continue;
            }
            Finding kept = out.get(at);
            Finding more = f;
            if (f.level().atLeast(kept.level()) && !kept.level().atLeast(f.level())) {
                kept = f;
                more = out.get(at);
            }
            String quote = "'" + more.identity().expression() + "'";
            // a build variant's finding of the operation (the float build's conversion of a double build's): said so
            Object variant = more.properties().get("buildVariant");
            String where = variant != null && !variant.equals(kept.properties().get("buildVariant"))
                    ? "the same operation in the build variant " + variant + ": "
                    : "the same operation on this line: ";
            out.set(at, kept.toBuilder().related(more.location(), where + quote).build());
            if (variant == null || variant.equals(kept.properties().get("buildVariant")))
                extra.merge(at, 1, Integer::sum);
        }
        // the kept finding says how many more of its operation the line holds (they are its related locations):
        // a reader of the message alone, or of a grep's list of casts, sees them counted
        for (Map.Entry<Integer, Integer> e : extra.entrySet()) {
            Finding k = out.get(e.getKey());
            out.set(
                    e.getKey(),
                    k.toBuilder()
                            .message(RuleCatalog.get()
                                    .phrase("same-line-operations", "message", k.message(), "count", e.getValue()))
                            .build());
        }
        return out;
    }

    /** How many lines below a PTX conversion's line the conversion it stands for may be written. */
    private static final int CONVERSION_SPAN = 4;

    /**
     * A PTX finding on a line inside a source finding of the same rule that spans several lines (an expression written
     * over several lines: nvcc's line table gives each instruction the line of its own operand) joins that finding:
     * one hazard of one written expression is one finding (issue 13), not one per line its instructions carry. Only a
     * line where the source layer has no finding of that rule of its own; the innermost containing finding wins; the
     * instruction's own line stays as a related location. The same holds below the expression, on a line of the
     * statement it is written in ({@link Identity#statementEnd}: {@code float x = x0 + a * b} and {@code + i * v;} on
     * the next line, whose fma the PTX layer reports there), for a rule whose policy merges by line, when the PTX
     * finding is of the source finding's operation ({@link #sameWrittenOperation}).
     */
    static List<Finding> intoStatements(List<Finding> in) {
        Map<String, List<Finding>> spanning = new HashMap<>();
        Set<String> sourceLines = new HashSet<>();
        for (Finding s : in) {
            if (s.layer() != Layer.CUDA_SOURCE) continue;
            Location l = s.location();
            sourceLines.add(key(s.ruleId(), l.file(), l.startLine()));
            if (statementEnd(s) > l.startLine()) {
                spanning.computeIfAbsent(key(s.ruleId(), l.file()), k -> new ArrayList<>())
                        .add(s);
            }
        }
        if (spanning.isEmpty()) return in;
        List<Finding> out = new ArrayList<>(in.size());
        for (Finding p : in) {
            Location at = p.location();
            List<Finding> around = spanning.get(key(p.ruleId(), at.file()));
            if (p.layer() != Layer.PTX
                    || around == null
                    || sourceLines.contains(key(p.ruleId(), at.file(), at.startLine()))) {
                out.add(p);
                continue;
            }
            Finding target = null;
            for (Finding s : around) {
                Location l = s.location();
                int end = at.startLine() <= l.endLine() ? l.endLine() : statementEnd(s);
                if (l.startLine() < at.startLine()
                        && at.startLine() <= end
                        && (at.startLine() <= l.endLine() || sameWrittenOperation(s, p))
                        && (target == null
                                || end - l.startLine()
                                        < statementEnd(target)
                                                - target.location().startLine())) {
                    target = s;
                }
            }
            if (target == null) {
                out.add(p);
                continue;
            }
            out.add(p.toBuilder()
                    .location(target.location())
                    .related(new RelatedLocation(
                            Location.line(at.file(), at.startLine()),
                            RuleCatalog.get().phrase("ptx-line-in-statement")))
                    .build());
        }
        return out;
    }

    /** The last line of the statement a source finding's code is written in, at least its location's end line. */
    private static int statementEnd(Finding s) {
        return Math.max(s.location().endLine(), s.identity().statementEnd());
    }

    /**
     * Whether a PTX finding at another line of a source finding's statement is of the same written operation: the
     * rule merges by line (a rule that keeps every site keeps this one too), the instruction is the programmer's own,
     * and either it computes an operation the source finding's code spells ({@code ex2} for {@code __expf}) or it
     * names none (an fma, a conversion) and the PTX layer found that its line can hold the rule's construct.
     */
    static boolean sameWrittenOperation(Finding src, Finding ptx) {
        if (policy(src).everySite() || ptx.identity().libraryCode()) {
            return false;
        }
        if (!ptx.identity().operations().isEmpty()) {
            return sameOperation(src, ptx);
        }
        Identity.Origin origin = ptx.identity().origin();
        return origin != null && Boolean.TRUE.equals(origin.lineHoldsOperation());
    }

    /**
     * A PTX finding whose line cannot hold the construct its rule's policy names ({@code relocate-ptx}: a conversion
     * the scheduler moved next to a branch, a double reciprocal hoisted to a loop header) stands for code written
     * elsewhere: it moves to the source finding of the rule a few lines below it (or below a call site it was inlined
     * at) or over a line its origin names (its value's use), else joins the PTX finding of the rule at such a line,
     * else says that its line is approximate (a note, unless the construct keeps its level).
     */
    static List<Finding> relocateConversions(List<Finding> in) {
        List<Finding> out = new ArrayList<>(in);
        Map<Finding, Finding> moved = new java.util.IdentityHashMap<>();
        Map<Integer, List<Finding>> joined = new HashMap<>();
        for (int i = 0; i < out.size(); i++) {
            Finding p = out.get(i);
            WrittenCode.Construct construct = p.layer() == Layer.PTX ? policy(p).relocatePtx() : null;
            Identity.Origin origin = p.identity().origin();
            if (construct == null || origin == null || !Boolean.FALSE.equals(origin.lineHoldsOperation())) {
                continue;
            }
            String file = p.location().file();
            List<Integer> anchors = new ArrayList<>();
            anchors.add(p.location().startLine());
            for (Location at : origin.inlinedAt()) {
                if (at.file().equals(file)) {
                    anchors.add(at.startLine());
                }
            }
            Finding target = null;
            int best = Integer.MAX_VALUE;
            for (int anchor : anchors) {
                for (Finding s : out) {
                    if (s == null
                            || s.layer() != Layer.CUDA_SOURCE
                            || !s.ruleId().equals(p.ruleId())
                            || !s.location().file().equals(file)) {
                        continue;
                    }
                    int d = s.location().startLine() - anchor;
                    if (d >= 0 && d <= CONVERSION_SPAN && d < best) {
                        best = d;
                        target = s;
                    }
                }
            }
            // the lines of the finding's other instructions below it (the loop body its hoisted code came from):
            // a source finding of the rule there, else a PTX finding of the rule at a line that holds its operation
            int ptxTarget = -1;
            for (Location c : target != null ? List.<Location>of() : origin.candidates()) {
                for (int j = 0; j < out.size() && target == null && ptxTarget < 0; j++) {
                    Finding s = out.get(j);
                    if (s == null
                            || !s.ruleId().equals(p.ruleId())
                            || !s.location().file().equals(file)
                            || c.startLine() < s.location().startLine()
                            || c.startLine()
                                    > Math.max(
                                            s.location().startLine(),
                                            s.location().endLine())) {
                        continue; // a finding at the candidate line or of a statement written over it
                    }
                    if (s.layer() == Layer.CUDA_SOURCE) {
                        target = s;
                    } else if (s.layer() == Layer.PTX
                            && s.identity().origin() != null
                            && Boolean.TRUE.equals(s.identity().origin().lineHoldsOperation())) {
                        ptxTarget = j;
                    }
                }
                if (target != null || ptxTarget >= 0) {
                    break;
                }
            }
            String kind = construct.id();
            RelatedLocation here = new RelatedLocation(
                    Location.line(file, p.location().startLine()),
                    RuleCatalog.get().phrase("ptx-line-moved-" + kind));
            if (ptxTarget >= 0) {
                // the same hazard the PTX layer reports where it is written: one finding, this line related
                joined.computeIfAbsent(ptxTarget, k -> new ArrayList<>()).add(p);
                out.set(i, null);
                continue;
            }
            Finding.Builder b = p.toBuilder();
            if (target == null) {
                b.message(RuleCatalog.get().phrase("ptx-line-approximate-" + kind, "message", p.message()));
                if (!construct.keepsLevel()) {
                    // no written operation of the rule near the line it is shown at: the source layer reports each
                    // one where it is written, so this one adds no site of its own; a note, whose related location
                    // names where it is probably written (its value's use below) or says why (the message's remark
                    // may not fit)
                    if (!origin.candidates().isEmpty()) {
                        b.related(origin.candidates().get(0), RuleCatalog.get().phrase("ptx-line-candidate"));
                    } else {
                        b.related(
                                Location.line(file, p.location().startLine()),
                                RuleCatalog.get().phrase("ptx-line-unplaced-" + kind));
                    }
                    if (p.level().atLeast(Level.WARNING)) {
                        b.level(Level.NOTE);
                    }
                }
                out.set(i, b.build());
                continue;
            }
            b.location(target.location());
            b.related(here);
            Finding q = b.build();
            out.set(i, q);
            moved.put(q, target);
        }
        for (Map.Entry<Integer, List<Finding>> e : joined.entrySet()) {
            Finding t = out.get(e.getKey());
            Finding.Builder b = t.toBuilder();
            Set<Object> have = new HashSet<>(t.evidence());
            have.addAll(t.related());
            for (Finding p : e.getValue()) {
                PtxOccurrences.joinAsRelated(
                        b,
                        have,
                        new RelatedLocation(
                                Location.line(p.location().file(), p.location().startLine()),
                                RuleCatalog.get()
                                        .phrase("ptx-line-moved-"
                                                + policy(p).relocatePtx().id())),
                        p);
            }
            out.set(e.getKey(), b.build());
        }
        out.removeIf(java.util.Objects::isNull);
        if (moved.isEmpty()) {
            return out;
        }
        // a moved finding follows the finding it joins, so that the order stays sorted
        List<Finding> ordered = new ArrayList<>();
        for (Finding f : out) {
            if (moved.containsKey(f)) {
                continue;
            }
            ordered.add(f);
            for (Map.Entry<Finding, Finding> e : moved.entrySet()) {
                if (e.getValue() == f) {
                    ordered.add(e.getKey());
                }
            }
        }
        return ordered;
    }

    /**
     * One kernel's choice of reduced precision (NL012: TF32 fragments, the {@code __float_to_tf32} conversions the
     * PTX layer sees, a math mode) is one decision: the findings of one function with one precision become one, the
     * source layer's first when there is one, the others its related locations. PTX conversions inside the wmma
     * library routines the source layer already reports do not stand alone.
     */
    static List<Finding> oneDecision(List<Finding> in) {
        Map<String, Integer> first = new HashMap<>();
        Map<String, Integer> firstSource = new HashMap<>();
        for (int i = 0; i < in.size(); i++) {
            String k = decision(in.get(i));
            if (k == null) {
                continue;
            }
            first.putIfAbsent(k, i);
            if (in.get(i).layer() == Layer.CUDA_SOURCE) {
                firstSource.putIfAbsent(k, i);
            }
        }
        if (first.isEmpty()) {
            return in;
        }
        Map<Integer, Finding.Builder> builders = new HashMap<>();
        Map<Integer, Set<Object>> seen = new HashMap<>();
        Set<Integer> absorbed = new HashSet<>();
        Map<Integer, java.util.TreeSet<Integer>> otherLines = new HashMap<>();
        for (int i = 0; i < in.size(); i++) {
            Finding f = in.get(i);
            String k = decision(f);
            if (k == null) {
                continue;
            }
            int keep = firstSource.getOrDefault(k, first.get(k));
            if (keep == i) {
                continue;
            }
            Finding kept = in.get(keep);
            Finding.Builder b = builders.computeIfAbsent(keep, x -> kept.toBuilder());
            Set<Object> have = seen.computeIfAbsent(keep, x -> {
                Set<Object> h = new HashSet<>(kept.evidence());
                h.addAll(kept.related());
                return h;
            });
            PtxOccurrences.joinAsRelated(
                    b,
                    have,
                    new RelatedLocation(
                            f.location(),
                            RuleCatalog.get()
                                    .phrase(f.layer() == Layer.PTX ? "same-decision-ptx" : "same-decision-source")),
                    f);
            absorbed.add(i);
            if (f.location().file().equals(kept.location().file())
                    && f.location().startLine() != kept.location().startLine())
                otherLines
                        .computeIfAbsent(keep, x -> new java.util.TreeSet<>())
                        .add(f.location().startLine());
        }
        // the text report shows no related locations: the message names the other lines of the choice
        otherLines.forEach((keep, lines) -> {
            Finding.Builder b = builders.get(keep);
            List<String> shown = lines.stream().limit(3).map(String::valueOf).toList();
            String at = (lines.size() == 1 ? "line " : "lines ")
                    + String.join(", ", shown)
                    + (lines.size() > 3 ? " and " + (lines.size() - 3) + " more" : "");
            b.message(b.message() + RuleCatalog.get().phrase("same-decision-lines", "lines", at));
        });
        List<Finding> out = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            if (absorbed.contains(i)) {
                continue;
            }
            Finding.Builder b = builders.get(i);
            out.add(b == null ? in.get(i) : b.build());
        }
        return out;
    }

    /**
     * The decision a finding belongs to (its producer's {@link Identity#decision}: NL012's reduced format of a
     * kernel's tensor-core data) with its rule, file and function; null for findings of no decision. A math-mode call
     * is a setting of its own, made at its line: its producer states no decision.
     */
    private static String decision(Finding f) {
        if (f.identity().decision() == null
                || f.function() == null
                || f.suppressed()
                || (f.layer() != Layer.CUDA_SOURCE && f.layer() != Layer.PTX)) {
            return null;
        }
        return key(f.ruleId(), f.location().file(), f.function(), f.identity().decision());
    }

    /** How far apart (in lines) two updates of one accumulator in one function may lie to be merged. */
    private static final int ACCUMULATOR_SPAN = 40;

    /**
     * A PTX accumulation (NL004) at another line than the source layer's finding for the same accumulator (the
     * variable updated in several branches of one loop: {@code sum += ...} at three lines) is not a second hazard:
     * it joins the source finding as a related location, which keeps the source layer's judgement and level.
     */
    static List<Finding> sameAccumulator(List<Finding> in) {
        List<Finding> out = new ArrayList<>(in);
        for (int i = 0; i < out.size(); i++) {
            Finding p = out.get(i);
            if (p.layer() != Layer.PTX || !policy(p).mergeAccumulators()) {
                continue;
            }
            String var = p.identity().accumulator();
            if (var == null) {
                continue;
            }
            int target = -1;
            int distance = Integer.MAX_VALUE;
            for (int j = 0; j < out.size(); j++) {
                Finding s = out.get(j);
                if (s.layer() != Layer.CUDA_SOURCE
                        || !s.ruleId().equals(p.ruleId())
                        || !s.location().file().equals(p.location().file())
                        || !var.equals(s.identity().accumulator())) {
                    continue;
                }
                int d = Math.abs(s.location().startLine() - p.location().startLine());
                boolean sameFunction = s.function() != null && s.function().equals(p.function());
                if (d <= ACCUMULATOR_SPAN && (sameFunction || d <= ACCUMULATOR_SPAN / 2) && d < distance) {
                    target = j;
                    distance = d;
                }
            }
            if (target < 0) {
                continue;
            }
            Finding s = out.get(target);
            Finding.Builder b = s.toBuilder();
            Set<Object> have = new HashSet<>(s.evidence());
            have.addAll(s.related());
            Location at = Location.line(p.location().file(), p.location().startLine());
            PtxOccurrences.joinAsRelated(
                    b, have, new RelatedLocation(at, RuleCatalog.get().phrase("ptx-also-accumulated")), p);
            out.set(target, b.build());
            out.remove(i);
            i--;
        }
        return out;
    }

    /**
     * A PTX contraction (NL003) whose value the PTX layer followed to a decision, on a line whose values the source
     * layer proved random variates and where it reports nothing of the rule: the decision is made on a random
     * variate, and one ulp of it is another draw of the same distribution, as for the source layer's own sites
     * (cuda/checks/Consequences). It becomes a note with a bounded impact and the property {@code randomVariate}.
     * Only the amplified impact gives way: a cancellation is the expression's own error, a growing sum is not
     * one ulp, and approximate operations, conversions and atomics (other rules) are reported as they are.
     */
    static Finding variate(Finding f, Map<String, Set<Integer>> variateLines) {
        if (f.layer() != Layer.PTX
                || !policy(f).randomVariateNote()
                || f.impact() == null
                || f.impact().kind() != Impact.Kind.AMPLIFIED) {
            return f;
        }
        Set<Integer> lines = variateLines.get(f.location().file());
        if (lines == null || !lines.contains(f.location().startLine())) {
            return f;
        }
        String consequence = RuleCatalog.get().phrase("ptx-use-random-variate");
        String then = RuleCatalog.get()
                .phrase(
                        "ptx-consequence",
                        "message",
                        "",
                        "consequence",
                        f.impact().consequence());
        String message = f.message().endsWith(then)
                ? f.message().substring(0, f.message().length() - then.length())
                : f.message();
        String stated = RuleCatalog.get().phrase("ptx-variate", "message", message, "consequence", consequence);
        return f.toBuilder()
                .level(Level.NOTE)
                .impact(new Impact(Impact.Kind.BOUNDED, consequence, null, null))
                // the consequence is in the impact too: a message it would make too long goes without it
                .message(stated.length() <= dev.numlint.rules.Quote.MESSAGE ? stated : message)
                .property("randomVariate", true)
                .build();
    }

    private static Finding absorb(Finding src, List<Finding> ptx) {
        if (ptx.isEmpty()) {
            return src;
        }
        Finding.Builder b = src.toBuilder();
        Set<Object> have = new HashSet<>(src.evidence());
        have.addAll(src.related());
        boolean confirmed = false;
        Impact impact = src.impact();
        Level level = src.level();
        // the source proved the impact from the code's structure (a constant step): PTX confirms, never raises it
        boolean proven = src.identity().judgement() == Identity.Judgement.PROVEN;
        // one component of a complex product or rotation, terms whose signs cannot cancel, or a difference kept in
        // double that decides nothing: a PTX "difference of products" is no news, a decision is
        boolean paired = src.identity().judgement() == Identity.Judgement.PAIRED_COMPONENT
                || src.identity().judgement() == Identity.Judgement.TERMS_CANNOT_CANCEL
                || src.identity().judgement() == Identity.Judgement.IN_DOUBLE;
        Finding raisedBy = null;
        for (Finding p : ptx) {
            p.evidence().stream().filter(have::add).forEach(b::evidence);
            PtxOccurrences.adoptCode(b, p);
            p.related().stream().filter(have::add).forEach(b::related);
            confirmed |= confirms(src, p);
            if (proven) {
                continue;
            }
            if (paired && p.impact() != null && p.impact().kind() == Impact.Kind.CANCELLATION) {
                continue;
            }
            if (ContinuousRoundings.provenAt(src, p.impact())) {
                // the source proved that rounding continuous (an interpolation's index and weight, a periodic wrap)
                // though the value also goes elsewhere: the PTX layer's integral value there is no news
                continue;
            }
            if (p.impact() != null && p.impact().kind() == Impact.Kind.GROWING && src.impact() != null) {
                // a growing sum is no news: the source layer judged the same loop (its trip count, whether one
                // thread sums it in a serial CPU loop's order), and its level stands
                continue;
            }
            // a graver kind, or an integer or index the PTX layer followed the value to where the source layer saw
            // only a comparison
            boolean graver = p.impact() != null && p.impact().graverThan(impact);
            if (graver) {
                impact = p.impact();
                raisedBy = p;
            }
            // the level follows the consequence: a PTX finding raises it only with a graver impact than the source
            // layer judged (a decision the source did not follow), never for the bare instruction it confirms (a
            // conversion the source proved in range, a quotient only stored stay notes)
            if ((graver || src.impact() == null) && p.level().atLeast(level)) {
                level = p.level();
            }
        }
        if (impact != null && impact.kind() == Impact.Kind.AMPLIFIED && impact.reach() == null) {
            // the source layer lost the value in a call it does not follow; the PTX layer followed it through the
            // inlined call: what it reached there is the reach
            for (Finding p : ptx) {
                if (!p.identity().libraryCode()
                        && p.impact() != null
                        && p.impact().kind() == Impact.Kind.AMPLIFIED
                        && p.impact().reach() != null) {
                    impact = impact.withReach(p.impact().reach());
                    break;
                }
            }
        }
        String message = src.message();
        if (impact != src.impact()) {
            b.impact(impact);
            // the source layer saw the value only stored or returned (a struct member, a local it lost track of),
            // the PTX layer followed it to a decision: the message states the consequence the level stands for
            message = withConsequence(message, src.identity().consequence(), impact);
        }
        b.level(level);
        if (level.atLeast(Level.WARNING) && src.properties().containsKey("onlyAtTie")) {
            // the PTX layer followed the value past the tie to a graver outcome: the source's note reason is gone
            b.removeProperty("onlyAtTie");
        }
        if (raisedBy != null
                && raisedBy.identity().judgement() == Identity.Judgement.DOUBLE_ROUNDING
                && (src.identity().judgement() == null || src.identity().judgement() == Identity.Judgement.IN_DOUBLE)) {
            // the PTX layer followed the value to what it decides and judged that in double: a comparison it reaches
            // after other terms were added to it (the source layer saw it only stored, or deciding nothing) flips
            // only at a tie, which the front end's review says (cuda/OnlyComparisons)
            b.identity(b.identity().withJudgement(Identity.Judgement.DOUBLE_ROUNDING));
        }
        if (confirmed) {
            String marker = RuleCatalog.get().phrase("ptx-confirmed");
            if (!message.endsWith(" " + marker)) {
                message = message + " " + marker;
            }
            b.property("confirmedInPtx", true);
        }
        if (!message.equals(src.message())) {
            b.message(message);
        }
        return b.build();
    }

    /**
     * The PTX finding shows the hazard the source finding names: the programmer's own instruction (not a step of an
     * inlined library routine) and, for a contraction (NL003), an fma or mad the compiler really formed; a mul
     * feeding an add that ptxas only may fuse shows no contraction yet.
     */
    static boolean confirms(Finding src, Finding ptx) {
        if (ptx.identity().libraryCode()) {
            return false;
        }
        return policy(src).confirmedBy(ptx.identity().instruction());
    }

    /**
     * {@code message} with {@code stated}, the consequence without a decision its producer wrote
     * ({@link dev.numlint.model.Identity#consequence}), replaced by the consequence of {@code impact}.
     */
    static String withConsequence(String message, String stated, Impact impact) {
        if (stated == null
                || impact == null
                || impact.consequence() == null
                || impact.consequence().isBlank()) {
            return message;
        }
        int at = message.indexOf(stated);
        if (at < 0) {
            return message; // a later stage rewrote it
        }
        return message.substring(0, at) + impact.consequence() + message.substring(at + stated.length());
    }

    /** The PTX instruction computes an operation the source finding's expression spells (ex2 for __expf). */
    private static boolean sameOperation(Finding src, Finding ptx) {
        return !java.util.Collections.disjoint(
                src.identity().operations(), ptx.identity().operations());
    }

    /** The rule's policy (catalog): how its layers merge. */
    private static RulePolicy policy(Finding f) {
        return RuleCatalog.get().policy(f.ruleId());
    }
}
