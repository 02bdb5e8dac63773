package dev.numlint.model;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a hazard's value decides: the consequence that makes a finding worth a reviewer's attention.
 *
 * <p>A one-ulp difference between CPU and GPU is harmless when the value is only stored; it moves a pixel when the
 * value is truncated to an index, flips a decision when it reaches a branch, and grows with the trip count of an
 * accumulation. Checks follow a hazard's value through def-use to what it reaches and classify it here; the scan
 * turns the kind into the finding's level ({@link #level}).
 *
 * @param kind        the classification
 * @param consequence short text for the message, e.g. "truncated to a pixel index at line 9" (may be null)
 * @param sink        where the value is consumed: the cast, index, branch or reduction (may be null)
 * @param errorBound  an error bound when one could be computed, e.g. "n*2^-24 relative" (may be null)
 * @param reach       for an amplified impact, the gravest discrete outcome the value reaches ({@link Reach}); for a
 *                    cancellation, what the cancelled value then decides (null: nothing, it is stored or returned); null
 *                    when the producer does not tell (then nothing may assume it only decides a comparison)
 */
public record Impact(Kind kind, String consequence, Location sink, String errorBound, Reach reach) {

    /** The consequence classes of issue-tracker terminology, most to least severe. */
    public enum Kind {
        /** Reaches a float-to-integer conversion or rounding, an index or address, a branch, or a reduction. */
        AMPLIFIED,
        /** Feeds a subtraction of nearly equal quantities (difference of products). */
        CANCELLATION,
        /** An accumulation whose error bound grows with an unknown or large trip count. */
        GROWING,
        /** Only stored or returned: CPU and GPU differ by at most a few ulp. */
        BOUNDED,
        /** Provably exact: not a hazard at all, never reported. */
        EXACT;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind parse(String s) {
            return valueOf(s.toUpperCase(Locale.ROOT));
        }
    }

    /**
     * What an amplified value reaches, gravest first: an integer it is converted or rounded to (a pixel, a bin, a
     * count), an index or address, or only a decision (a comparison or a branch condition). A one-ulp change moves an
     * integer or an index wherever the value sits near a step; a decision flips only where the value sits within that
     * ulp of what it is compared with.
     */
    public enum Reach {
        /** Converted or rounded to an integer. */
        CONVERSION,
        /** Used in an index or address computation. */
        INDEX,
        /** Only compared or tested in a condition: no integer or index is made of it. */
        DECISION;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Impact {
        Objects.requireNonNull(kind, "kind");
    }

    public Impact(Kind kind, String consequence, Location sink, String errorBound) {
        this(kind, consequence, sink, errorBound, null);
    }

    public static Impact of(Kind kind, String consequence) {
        return new Impact(kind, consequence, null, null);
    }

    public static Impact amplified(String consequence, Location sink) {
        return new Impact(Kind.AMPLIFIED, consequence, sink, null);
    }

    public static Impact bounded(String consequence) {
        return new Impact(Kind.BOUNDED, consequence, null, null);
    }

    public Impact withErrorBound(String bound) {
        return new Impact(kind, consequence, sink, bound, reach);
    }

    public Impact withReach(Reach v) {
        return new Impact(kind, consequence, sink, errorBound, v);
    }

    /**
     * Whether this impact is graver than {@code other} (null: none): a cancellation that decides something (its
     * {@link #reach}) before an amplified value, a more severe kind, or the same amplified kind
     * reaching an integer or an index where {@code other} reaches only a decision.
     */
    public boolean graverThan(Impact other) {
        if (other == null) return true;
        // a cancelled value that decides something flips beyond a tie: graver than a value that only reaches it
        if (kind == Kind.CANCELLATION && reach != null && other.kind == Kind.AMPLIFIED) return true;
        if (other.kind == Kind.CANCELLATION && other.reach != null && kind == Kind.AMPLIFIED) return false;
        if (kind != other.kind) return kind.compareTo(other.kind) < 0;
        return kind == Kind.AMPLIFIED
                && other.reach == Reach.DECISION
                && (reach == Reach.CONVERSION || reach == Reach.INDEX);
    }

    /**
     * The level of a finding with this impact when the rule's (catalog or configured) level is {@code ceiling}:
     * amplified, cancellation and growing findings keep the ceiling, bounded ones become notes; exact ones are not
     * reported at all ({@code null}).
     */
    public Level level(Level ceiling) {
        return switch (kind) {
            case AMPLIFIED, CANCELLATION, GROWING -> ceiling;
            case BOUNDED -> Level.NOTE;
            case EXACT -> null;
        };
    }

    /**
     * The level of a finding with this impact for a rule whose hazard is a rounding or a few ulp ({@code tieOnly}: the
     * reaches where it changes an outcome only at a tie, {@link dev.numlint.rules.RulePolicy#tieOnly}): an amplified
     * value reaching only those is a note (a reach not known counts as one of them only when all three are), a
     * cancellation is a warning only when the cancelled value decides something (its {@link #reach}), since a
     * difference that is only stored carries an error no larger than an ulp of its products. Otherwise as
     * {@link #level(Level)}.
     */
    public Level level(Level ceiling, Set<Reach> tieOnly) {
        if (tieOnly == null || tieOnly.isEmpty()) return level(ceiling);
        return switch (kind) {
            case AMPLIFIED -> (reach == null ? tieOnly.size() == Reach.values().length : tieOnly.contains(reach))
                    ? Level.NOTE
                    : ceiling;
            case CANCELLATION -> reach == null ? Level.NOTE : ceiling;
            default -> level(ceiling);
        };
    }

    /**
     * Whether {@link #level(Level, java.util.Set)} makes this impact a note because what it decides changes only at a
     * tie: an amplified value whose reach is tie-only (a cancellation only stored is a note for another reason: its
     * error is an ulp of its products).
     */
    public boolean onlyAtTie(Set<Reach> tieOnly) {
        return kind == Kind.AMPLIFIED
                && level(Level.WARNING) == Level.WARNING
                && level(Level.WARNING, tieOnly) == Level.NOTE;
    }

    /** The machine-readable form put under {@code properties.impact} in SARIF and JSON. */
    public Map<String, Object> toProperties() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", kind.id());
        if (consequence != null) {
            m.put("consequence", consequence);
        }
        if (sink != null) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("file", sink.file());
            s.put("line", sink.startLine());
            if (sink.startColumn() > 0) {
                s.put("column", sink.startColumn());
            }
            m.put("sink", s);
        }
        if (errorBound != null) {
            m.put("errorBound", errorBound);
        }
        if (reach != null) {
            m.put("reach", reach.id());
        }
        return m;
    }
}
