package dev.numlint.scan;

import dev.numlint.model.Finding;
import dev.numlint.model.RelatedLocation;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One finding per written code ({@link LayerMerge}'s last step): the same code written again in one function is one
 * hazard with one fix, whether copied by hand, expanded from one macro ({@link #repeatedCopies}) or written twice in
 * neighbouring statements on the same values, which the compiler computes once ({@link #commonSubexpressions}).
 * Copies are compared by the written code their producer states ({@code Identity.code}), never by message or
 * evidence text.
 */
final class RepeatedCode {
    private RepeatedCode() {}

    /** The fewest copies of one statement that make a run of copies: two identical lines are still two findings. */
    static final int MIN_COPIES = 3;

    /** The most lines between two neighbouring copies of a run (an unrolled iteration, the next macro use). */
    static final int COPY_GAP = 12;

    /**
     * One finding per copied code: the same statement written again and again within a few lines of one function (a
     * loop unrolled by hand, {@code if (xx + yy > 4) return i - 1; ... return i - 2; ...}, or one macro expanded at
     * consecutive uses, {@code GET_ONE_FIELD(cfg, nthread) GET_ONE_FIELD(cfg, tstart) ...}) has one fix and one
     * justification. A run of at least {@link #MIN_COPIES} findings of one rule and layer whose source text is the
     * same, each at most {@link #COPY_GAP} lines below the previous, becomes its most severe member (the first among
     * equals) with the others as related locations and the count in {@code properties.copies}. Copies are compared by
     * the written code their producer states ({@code Identity.code}: the code's tokens, so that layout and comments
     * do not matter but every token does); findings without a function or without code stay apart.
     * The uses of one macro whose body holds the whole hazard ({@code properties.macro}) are copies of one written
     * site at any distance within the function; rules whose policy keeps every site ({@code merge: every-site}: approximate
     * intrinsics and divisions, float-to-unsigned conversions, float atomics, issue 13) merge only those.
     */
    static List<Finding> repeatedCopies(List<Finding> in) {
        Map<String, List<Integer>> byCode = byKey(in, f -> {
            List<String> code = f.identity().code();
            String macro = f.identity().macro();
            if (f.function() == null
                    || code.isEmpty()
                    || RuleCatalog.get().policy(f.ruleId()).everySite() && macro == null) {
                return null;
            }
            return LayerMerge.key(
                    f.ruleId(),
                    f.layer(),
                    f.location().file(),
                    f.function(),
                    String.join("\u0001", code),
                    (macro == null ? "" : macro));
        });
        Map<Integer, Finding> replaced = new HashMap<>();
        Set<Integer> absorbed = new HashSet<>();
        for (List<Integer> group : byCode.values()) {
            if (group.size() < MIN_COPIES) {
                continue;
            }
            List<Integer> sorted = new ArrayList<>(group);
            sorted.sort(java.util.Comparator.comparingInt(
                            (Integer i) -> in.get(i).location().startLine())
                    .thenComparingInt(i -> i));
            List<Integer> run = new ArrayList<>();
            boolean macro = in.get(group.get(0)).identity().macro() != null;
            for (int i : sorted) {
                if (!run.isEmpty()
                        && !macro
                        && in.get(i).location().startLine()
                                        - in.get(run.get(run.size() - 1))
                                                .location()
                                                .startLine()
                                > COPY_GAP) {
                    mergeRun(in, run, replaced, absorbed);
                    run.clear();
                }
                run.add(i);
            }
            mergeRun(in, run, replaced, absorbed);
        }
        return rebuilt(in, replaced, absorbed);
    }

    private static void mergeRun(
            List<Finding> in, List<Integer> run, Map<Integer, Finding> replaced, Set<Integer> absorbed) {
        if (run.size() < MIN_COPIES) {
            return;
        }
        int kept = run.get(0);
        for (int i : run) {
            if (!in.get(kept).level().atLeast(in.get(i).level())) {
                kept = i;
            }
        }
        Finding k = in.get(kept);
        Finding.Builder b = k.toBuilder()
                .message(RuleCatalog.get().phrase("repeated-copies", "message", k.message(), "count", run.size() - 1))
                .property("copies", run.size());
        for (int i : run) {
            if (i == kept) {
                continue;
            }
            b.related(
                    new RelatedLocation(in.get(i).location(), RuleCatalog.get().phrase("repeated-copy")));
            absorbed.add(i);
        }
        replaced.put(kept, b.build());
    }

    /** How far below the end of the first statement the second may begin: the next line, nothing written between. */
    static final int COMMON_GAP = 1;

    /**
     * One finding per value computed once: two findings of a rule whose policy says so ({@code
     * merge-common-subexpressions}), of one layer, file and function, whose written code ({@code Identity.code}) is
     * the same and updates nothing ({@code Identity.accumulator}: {@code s += a*b} twice is two sums), in statements on
     * neighbouring lines ({@link #COMMON_GAP}: a statement between them may change an operand), with no macro: {@code x_lo = o + i*v - a; x_hi = o + i*v + b;} holds one
     * product and sum, which any compiler computes once (common-subexpression elimination), so one fma. The first is
     * reported, naming the other line (unless the message would grow too long: the related location names it), with
     * the graver level and impact of the two; the other is its related location. A run of {@link
     * #MIN_COPIES} or more is {@link #repeatedCopies}'s.
     */
    static List<Finding> commonSubexpressions(List<Finding> in) {
        Map<String, List<Integer>> byCode = byKey(in, f -> {
            List<String> code = f.identity().code();
            if (f.function() == null
                    || code.isEmpty()
                    || f.identity().accumulator() != null
                    || f.identity().macro() != null
                    || !RuleCatalog.get().policy(f.ruleId()).mergeCommonSubexpressions()) {
                return null;
            }
            return LayerMerge.key(
                    f.ruleId(),
                    f.layer(),
                    f.location().file(),
                    f.function(),
                    String.valueOf(f.identity().decision()),
                    String.join("\u0001", code));
        });
        Map<Integer, Finding> replaced = new HashMap<>();
        Set<Integer> absorbed = new HashSet<>();
        for (List<Integer> group : byCode.values()) {
            for (List<Integer> pair : pairs(in, group)) {
                merge(in, pair, replaced, absorbed);
            }
        }
        return rebuilt(in, replaced, absorbed);
    }

    /**
     * The members of {@code group} in clusters whose neighbours lie at most {@link #COPY_GAP} lines apart, those of
     * exactly two: a cluster of one stands alone, one of {@link #MIN_COPIES} or more is a run of copies
     * ({@link #repeatedCopies}). The same code in two statements of one launch configuration and again in another's,
     * further down the function ({@code ceil(n / threads) < cap ? ceil(n / threads) : cap} twice), is two pairs
     * (session 67 round C: an image denoiser's nine launch-size computations, 23 findings).
     */
    private static List<List<Integer>> pairs(List<Finding> in, List<Integer> group) {
        List<Integer> sorted = new ArrayList<>(group);
        sorted.sort(java.util.Comparator.comparingInt(i -> in.get(i).location().startLine()));
        List<List<Integer>> clusters = new ArrayList<>();
        List<Integer> cur = new ArrayList<>();
        for (int i : sorted) {
            if (!cur.isEmpty()
                    && in.get(i).location().startLine()
                                    - in.get(cur.get(cur.size() - 1)).location().startLine()
                            > COPY_GAP) {
                clusters.add(cur);
                cur = new ArrayList<>();
            }
            cur.add(i);
        }
        if (!cur.isEmpty()) clusters.add(cur);
        clusters.removeIf(c -> c.size() != 2);
        return clusters;
    }

    private static void merge(
            List<Finding> in, List<Integer> group, Map<Integer, Finding> replaced, Set<Integer> absorbed) {
        {
            int kept = group.get(0);
            int gone = group.get(1);
            if (in.get(gone).location().startLine() < in.get(kept).location().startLine()) {
                kept = group.get(1);
                gone = group.get(0);
            }
            Finding first = in.get(kept);
            Finding second = in.get(gone);
            int end = Math.max(first.location().endLine(), first.identity().statementEnd());
            if (second.location().startLine() == first.location().startLine()
                    || second.location().startLine() - end > COMMON_GAP) {
                return;
            }
            // at the first statement, as grave as the graver of the two (the second's value may decide more)
            Finding graver =
                    second.level().atLeast(first.level()) && !first.level().atLeast(second.level()) ? second : first;
            Finding.Builder fb = graver.toBuilder()
                    .location(first.location())
                    .related(new RelatedLocation(
                            second.location(), RuleCatalog.get().phrase("common-subexpression-copy")));
            String message = RuleCatalog.get()
                    .phrase(
                            "common-subexpression",
                            "message",
                            graver.message(),
                            "line",
                            second.location().startLine());
            if (message.length() <= dev.numlint.rules.Quote.MESSAGE) {
                fb.message(message);
            }
            replaced.put(kept, fb.build());
            absorbed.add(gone);
        }
    }

    /** The indexes of the findings by the key {@code key} gives them (null: the finding stays apart), in order. */
    private static Map<String, List<Integer>> byKey(
            List<Finding> in, java.util.function.Function<Finding, String> key) {
        Map<String, List<Integer>> by = new LinkedHashMap<>();
        for (int i = 0; i < in.size(); i++) {
            String k = key.apply(in.get(i));
            if (k != null) by.computeIfAbsent(k, x -> new ArrayList<>()).add(i);
        }
        return by;
    }

    /** {@code in} with each replaced finding in its place and the absorbed ones left out. */
    private static List<Finding> rebuilt(List<Finding> in, Map<Integer, Finding> replaced, Set<Integer> absorbed) {
        if (replaced.isEmpty()) {
            return in;
        }
        List<Finding> out = new ArrayList<>(in.size() - absorbed.size());
        for (int i = 0; i < in.size(); i++) {
            if (!absorbed.contains(i)) {
                out.add(replaced.getOrDefault(i, in.get(i)));
            }
        }
        return out;
    }
}
