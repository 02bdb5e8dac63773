package dev.numlint.scan;

import dev.numlint.model.Finding;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.RelatedLocation;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
 * The merged finding is as consequential as its most consequential evidence: it takes the more severe impact and
 * level of the two layers, unless the source finding's impact is proven from the code's structure (property
 * {@code impactProven}, a constant step), except that a PTX "difference of products" does not overrule the source
 * layer's judgement of one component of a complex product or rotation (property {@code pairedComponent}: only an
 * amplifying use the PTX layer followed raises it), and except that a growing PTX sum does not overrule the source layer's
 * judgement of the same loop. The PTX layer's updates of an accumulator the source layer reports at another line of
 * the same function become related locations of the source finding. Within one layer, findings on one line with the
 * same message are duplicates (two
 * analyzers, or one hazard reached twice) and collapse into the first; different operations have different
 * messages and stay apart.
 */
final class LayerMerge {
    /** PTX opcodes and the source spellings that produce them. */
    private static final Map<String, List<String>> OPERATIONS = Map.of(
            "ex2", List.of("exp", "pow"),
            "lg2", List.of("log", "pow"),
            "sin", List.of("sin"),
            "cos", List.of("cos"),
            "div", List.of("/", "div"),
            "rcp", List.of("rcp", "/"),
            "sqrt", List.of("sqrt"),
            "rsqrt", List.of("rsqrt"),
            "tanh", List.of("tanh"));

    /** A quoted PTX instruction in a message. */
    private static final java.util.regex.Pattern QUOTED = java.util.regex.Pattern.compile("`[^`]*`");

    private LayerMerge() {}

    static List<Finding> merge(List<Finding> sorted) {
        Map<String, List<Finding>> groups = new LinkedHashMap<>();
        for (Finding f : sorted) {
            String key = f.ruleId()
                    + '\u0000'
                    + f.location().file()
                    + '\u0000'
                    + f.location().startLine();
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
                    // compiled from the .cu, with other flags: add.rn.f32 / add.rn.ftz.f32) is one finding
                    String k = f.location().startColumn() + "\u0000"
                            + QUOTED.matcher(f.message()).replaceAll("``");
                    Integer at = ptxAt.get(k);
                    if (at != null) {
                        Finding first = ptx.get(at);
                        Finding.Builder b = first.toBuilder();
                        Set<Object> have = new HashSet<>(first.evidence());
                        f.evidence().stream().filter(have::add).forEach(b::evidence);
                        Finding merged = b.build();
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
                out.addAll(unique);
                continue;
            }
            List<List<Finding>> matched = new ArrayList<>();
            for (int i = 0; i < src.size(); i++) {
                matched.add(new ArrayList<>());
            }
            for (Finding p : ptx) {
                int best = 0;
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
        return sameAccumulator(out);
    }

    /** How far apart (in lines) two updates of one accumulator in one function may lie to be merged. */
    private static final int ACCUMULATOR_SPAN = 40;

    /** The variable a compound update adds to: {@code s += t}, {@code s -= t}, {@code s = s + t}. */
    private static final java.util.regex.Pattern UPDATE =
            java.util.regex.Pattern.compile("^\\s*([A-Za-z_][\\w.]*(?:\\[[^\\]]*\\])?)\\s*(?:[+-]=|=\\s*\\1\\s*[+-])");

    /**
     * A PTX accumulation (NL004) at another line than the source layer's finding for the same accumulator (the
     * variable updated in several branches of one loop: {@code sum += ...} at three lines) is not a second hazard:
     * it joins the source finding as a related location, which keeps the source layer's judgement and level.
     */
    static List<Finding> sameAccumulator(List<Finding> in) {
        List<Finding> out = new ArrayList<>(in);
        for (int i = 0; i < out.size(); i++) {
            Finding p = out.get(i);
            if (p.layer() != Layer.PTX || !p.ruleId().equals("NL004")) {
                continue;
            }
            String var = accumulator(p);
            if (var == null) {
                continue;
            }
            int target = -1;
            int distance = Integer.MAX_VALUE;
            for (int j = 0; j < out.size(); j++) {
                Finding s = out.get(j);
                if (s.layer() != Layer.CUDA_SOURCE
                        || !s.ruleId().equals("NL004")
                        || !s.location().file().equals(p.location().file())
                        || !var.equals(accumulator(s))) {
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
            RelatedLocation also = new RelatedLocation(at, RuleCatalog.get().phrase("ptx-also-accumulated"));
            if (have.add(also)) {
                b.related(also);
            }
            p.evidence().stream()
                    .filter(e -> "ptx".equals(e.kind()))
                    .filter(have::add)
                    .forEach(b::evidence);
            out.set(target, b.build());
            out.remove(i);
            i--;
        }
        return out;
    }

    /** The accumulated variable of an NL004 finding, from the update as written (its source evidence). */
    private static String accumulator(Finding f) {
        for (var e : f.evidence()) {
            if ("source".equals(e.kind()) && e.text() != null) {
                java.util.regex.Matcher m = UPDATE.matcher(e.text());
                if (m.find()) {
                    return m.group(1);
                }
            }
        }
        return null;
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
        boolean proven = Boolean.TRUE.equals(src.properties().get("impactProven"));
        // one component of a complex product or rotation: a PTX "difference of products" is no news, a decision is
        boolean paired = Boolean.TRUE.equals(src.properties().get("pairedComponent"));
        for (Finding p : ptx) {
            p.evidence().stream().filter(have::add).forEach(b::evidence);
            p.related().stream().filter(have::add).forEach(b::related);
            confirmed |= confirms(src, p);
            if (proven) {
                continue;
            }
            if (paired && p.impact() != null && p.impact().kind() == Impact.Kind.CANCELLATION) {
                continue;
            }
            if (p.impact() != null && p.impact().kind() == Impact.Kind.GROWING && src.impact() != null) {
                // a growing sum is no news: the source layer judged the same loop (its trip count, whether one
                // thread sums it in a serial CPU loop's order), and its level stands
                continue;
            }
            if (p.impact() != null && (impact == null || p.impact().kind().compareTo(impact.kind()) < 0)) {
                impact = p.impact();
            }
            if (p.level().atLeast(level)) {
                level = p.level();
            }
        }
        String message = src.message();
        if (impact != src.impact()) {
            b.impact(impact);
            // the source layer saw the value only stored or returned (a struct member, a local it lost track of),
            // the PTX layer followed it to a decision: the message states the consequence the level stands for
            message = withConsequence(message, impact);
        }
        b.level(level);
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
        if (Boolean.TRUE.equals(ptx.properties().get("libraryCode"))) {
            return false;
        }
        if (src.ruleId().equals("NL003")) {
            Object instr = ptx.properties().get("ptxInstruction");
            String opcode = instr == null ? "" : instr.toString().strip().split("[.\\s]", 2)[0];
            return opcode.equals("fma") || opcode.equals("mad");
        }
        return true;
    }

    /** The source layer's low-impact consequences (catalog phrases), as patterns to find them in a message. */
    private static final List<java.util.regex.Pattern> BOUNDED_PHRASES = boundedPhrases();

    private static List<java.util.regex.Pattern> boundedPhrases() {
        List<java.util.regex.Pattern> out = new ArrayList<>();
        for (String key : List.of("use-stored", "use-returned", "use-none", "use-colour-channel", "use-complex-pair")) {
            String t = RuleCatalog.get().phrase(key, "line", "\u0000");
            String re = java.util.regex.Pattern.quote(t).replace("\u0000", "\\E\\d+\\Q");
            out.add(java.util.regex.Pattern.compile(re));
        }
        return out;
    }

    /** {@code message} with its low-impact consequence replaced by the consequence of {@code impact}. */
    static String withConsequence(String message, Impact impact) {
        if (impact == null
                || impact.consequence() == null
                || impact.consequence().isBlank()) {
            return message;
        }
        for (java.util.regex.Pattern p : BOUNDED_PHRASES) {
            java.util.regex.Matcher m = p.matcher(message);
            if (m.find()) {
                return message.substring(0, m.start()) + impact.consequence() + message.substring(m.end());
            }
        }
        return message;
    }

    /** The PTX instruction is the operation the source finding names (ex2.approx for __expf, cos for __cosf). */
    private static boolean sameOperation(Finding src, Finding ptx) {
        Object instr = ptx.properties().get("ptxInstruction");
        if (instr == null) {
            return false;
        }
        String opcode = instr.toString().strip().split("[.\\s]", 2)[0];
        List<String> names = OPERATIONS.get(opcode);
        if (names == null) {
            return false;
        }
        // the expression as written (the source evidence; the message quotes it shortened), else the message
        String expr = src.evidence().stream()
                .filter(e -> "source".equals(e.kind()))
                .map(e -> e.text())
                .findFirst()
                .orElse(src.message())
                .toLowerCase(Locale.ROOT);
        for (String n : names) {
            if (expr.contains(n)) {
                return true;
            }
        }
        return false;
    }
}
