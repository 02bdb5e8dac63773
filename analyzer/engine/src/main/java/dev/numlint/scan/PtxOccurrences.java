package dev.numlint.scan;

import dev.numlint.model.Finding;
import dev.numlint.model.Impact;
import dev.numlint.model.RelatedLocation;
import dev.numlint.rules.RuleCatalog;
import java.util.HashSet;
import java.util.Set;

/**
 * Occurrences of one written operation that the PTX layer reports more than once ({@link LayerMerge}): one header line
 * inlined into kernels of several units' PTX, or one position seen in two PTX builds, joined into one finding.
 */
final class PtxOccurrences {
    private PtxOccurrences() {}

    /**
     * The hazard a PTX finding names at its written position, without the consequence its own caller gives the value
     * (the catalog's {@code ptx-consequence} tail): the same for every kernel that inlines the line.
     */
    static String writtenHazard(Finding f) {
        String h = f.identity().hazard() != null ? f.identity().hazard() : f.message();
        Impact i = f.impact();
        if (i != null && i.consequence() != null) {
            String tail = RuleCatalog.get().phrase("ptx-consequence", "message", "", "consequence", i.consequence());
            if (!tail.isEmpty() && h.endsWith(tail)) h = h.substring(0, h.length() - tail.length());
        }
        return h;
    }

    /**
     * Two PTX findings of one written operation (one header line inlined into kernels of two units, or one position
     * seen in two PTX builds) as one: the graver is shown (its level, then its impact), the other's call sites and
     * consequences become related locations and its instructions evidence, and the kernels are counted
     * ({@code instances}). Where the two levels differ, the weaker one's call sites say so.
     */
    static Finding sameWrittenOperation(Finding a, Finding b) {
        boolean bGraver = b.level().ordinal() < a.level().ordinal()
                || b.level() == a.level()
                        && b.impact() != null
                        && (a.impact() == null
                                || b.impact().kind().compareTo(a.impact().kind()) < 0);
        Finding shown = bGraver ? b : a;
        Finding other = bGraver ? a : b;
        Finding.Builder m = shown.toBuilder();
        Set<Object> have = new HashSet<>(shown.evidence());
        have.addAll(shown.related());
        for (RelatedLocation r : shown.related()) have.add(r.location());
        String weaker =
                other.level() == shown.level() ? "" : " (" + other.level().id() + " there)";
        for (RelatedLocation r : other.related()) {
            if (have.contains(r.location())) continue;
            joinAsRelated(m, have, new RelatedLocation(r.location(), r.message() + weaker), other);
            have.add(r.location());
        }
        other.evidence().stream().filter(have::add).forEach(m::evidence);
        adoptCode(m, other);
        int instances = count(shown) + count(other);
        if (instances > 1) m.property("instances", instances);
        return m.build();
    }

    private static int count(Finding f) {
        return f.properties().get("instances") instanceof Number n ? n.intValue() : 1;
    }

    /**
     * {@code f} joins the finding {@code b} builds: {@code also} becomes a related location and {@code f}'s PTX
     * instructions its evidence, each once ({@code have}: what the finding already holds).
     */
    static void joinAsRelated(Finding.Builder b, Set<Object> have, RelatedLocation also, Finding f) {
        if (have.add(also)) {
            b.related(also);
        }
        f.evidence().stream()
                .filter(e -> "ptx".equals(e.kind()))
                .filter(have::add)
                .forEach(b::evidence);
    }

    /**
     * The finding {@code b} builds takes the written code of {@code from}, whose evidence it absorbs, when it states
     * none of its own (a PTX finding without a source line joins one with it).
     */
    static void adoptCode(Finding.Builder b, Finding from) {
        if (b.identity().code().isEmpty() && !from.identity().code().isEmpty()) {
            b.identity(b.identity().withCode(from.identity().code()));
        }
    }
}
