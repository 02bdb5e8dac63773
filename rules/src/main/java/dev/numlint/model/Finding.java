package dev.numlint.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One numerical hazard found in the code. Immutable; use {@link #builder(String)} or {@link #toBuilder()}.
 *
 * @param ruleId         stable rule id, e.g. NL003
 * @param level          effective level (catalog default unless configured otherwise)
 * @param location       primary location: where the programmer should look
 * @param message        specific message: names the expression or instruction and the concrete consequence
 * @param layer          which representation the finding was made in
 * @param evidence       source snippet, PTX instruction, flag and where it was set
 * @param related        related locations (PTX instruction, flag, launch site)
 * @param confidence     how sure the analyzer is
 * @param function       enclosing function or kernel name, or null
 * @param fingerprintKey a text that identifies the hazard independently of its line (normalized snippet,
 *                       instruction shape); the scan turns it into {@link #fingerprint}
 * @param fingerprint    stable fingerprint assigned by the scan (null before)
 * @param suppression    set when the finding is suppressed; suppressed findings are still reported
 * @param properties     extra facts for machine consumers (e.g. "confirmedInPtx": true, "validation": {...})
 * @param impact         what the hazard's value decides (null when the check did not classify it); the scan
 *                       derives the level from it and it appears as {@code properties.impact}
 * @param identity       what the finding is about, typed (operation, accumulator, decision, PTX origin), set by its
 *                       producer; the scan merges layers by it. Not written to reports
 * @param verdict        what validation measured for the finding (its kernel's run), or null when it was not
 *                       validated; it appears as {@code properties.validation}
 */
public record Finding(
        String ruleId,
        Level level,
        Location location,
        String message,
        Layer layer,
        List<Evidence> evidence,
        List<RelatedLocation> related,
        Confidence confidence,
        String function,
        String fingerprintKey,
        String fingerprint,
        Suppression suppression,
        Map<String, Object> properties,
        Impact impact,
        Identity identity,
        FindingVerdict verdict) {

    /**
     * The property of a finding whose hazard is in the code nvcc emits for the GPU only (its {@code -fmad}, its
     * fast-math flags), set by the CUDA source layer: the scan makes it a note where the PTX shows that nvcc emitted no
     * code for its function.
     */
    public static final String DEVICE_CODE = "deviceCode";

    /**
     * The property of a CUDA source finding whose value is rounded at these lines of its file only where the rounding
     * is continuous (an interpolation's index and weight, a periodic wrap), a list of line numbers: the PTX layer's
     * "rounded to an integral value" at one of them does not raise the finding.
     */
    public static final String CONTINUOUS_ROUNDINGS = "continuousRoundings";

    public Finding {
        Objects.requireNonNull(ruleId, "ruleId");
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(layer, "layer");
        evidence = List.copyOf(evidence == null ? List.of() : evidence);
        related = List.copyOf(related == null ? List.of() : related);
        confidence = confidence == null ? Confidence.HIGH : confidence;
        properties = properties == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        identity = identity == null ? Identity.NONE : identity;
    }

    public boolean suppressed() {
        return suppression != null;
    }

    public static Builder builder(String ruleId) {
        return new Builder().ruleId(ruleId);
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.ruleId = ruleId;
        b.level = level;
        b.location = location;
        b.message = message;
        b.layer = layer;
        b.evidence.addAll(evidence);
        b.related.addAll(related);
        b.confidence = confidence;
        b.function = function;
        b.fingerprintKey = fingerprintKey;
        b.fingerprint = fingerprint;
        b.suppression = suppression;
        b.properties.putAll(properties);
        b.impact = impact;
        b.identity = identity;
        b.verdict = verdict;
        return b;
    }

    /** Builder; {@code level} defaults to the catalog's default level when built through {@link dev.numlint.spi.FindingSink}. */
    public static final class Builder {
        private String ruleId;
        private Level level;
        private Location location;
        private String message;
        private Layer layer;
        private final List<Evidence> evidence = new ArrayList<>();
        private final List<RelatedLocation> related = new ArrayList<>();
        private Confidence confidence = Confidence.HIGH;
        private String function;
        private String fingerprintKey;
        private String fingerprint;
        private Suppression suppression;
        private final Map<String, Object> properties = new LinkedHashMap<>();
        private Impact impact;
        private Identity identity = Identity.NONE;
        private FindingVerdict verdict;

        public Builder ruleId(String v) {
            ruleId = v;
            return this;
        }

        public Builder level(Level v) {
            level = v;
            return this;
        }

        public Builder location(Location v) {
            location = v;
            return this;
        }

        /** The location set so far, or null. */
        public Location location() {
            return location;
        }

        public Builder message(String v) {
            message = v;
            return this;
        }

        /** The message set so far, or null. */
        public String message() {
            return message;
        }

        public Builder layer(Layer v) {
            layer = v;
            return this;
        }

        public Builder evidence(Evidence v) {
            evidence.add(v);
            return this;
        }

        /** Removes the evidence given so far (another occurrence of the hazard becomes the one shown). */
        public Builder clearEvidence() {
            evidence.clear();
            return this;
        }

        public Builder related(RelatedLocation v) {
            related.add(v);
            return this;
        }

        public Builder related(Location l, String msg) {
            related.add(new RelatedLocation(l, msg));
            return this;
        }

        public Builder confidence(Confidence v) {
            confidence = v;
            return this;
        }

        public Builder function(String v) {
            function = v;
            return this;
        }

        public Builder fingerprintKey(String v) {
            fingerprintKey = v;
            return this;
        }

        public Builder fingerprint(String v) {
            fingerprint = v;
            return this;
        }

        public Builder suppression(Suppression v) {
            suppression = v;
            return this;
        }

        public Builder property(String k, Object v) {
            properties.put(k, v);
            return this;
        }

        public Builder removeProperty(String k) {
            properties.remove(k);
            return this;
        }
        /**
         * Sets the impact: the scan derives the level from it ({@link Impact#level}), it is written as
         * {@code properties.impact}, and its sink becomes a related location.
         */
        public Builder impact(Impact v) {
            impact = v;
            if (v != null) {
                properties.put("impact", v.toProperties());
            } else {
                properties.remove("impact");
            }
            return this;
        }

        public Impact impact() {
            return impact;
        }

        /** Sets the typed identity (null: none). */
        public Builder identity(Identity v) {
            identity = v == null ? Identity.NONE : v;
            return this;
        }

        public Identity identity() {
            return identity;
        }

        /** Sets what validation measured (null: not validated); it is written as {@code properties.validation}. */
        public Builder verdict(FindingVerdict v) {
            verdict = v;
            if (v != null) {
                properties.put("validation", v.toProperties());
            } else {
                properties.remove("validation");
            }
            return this;
        }

        public String ruleId() {
            return ruleId;
        }

        public Level level() {
            return level;
        }

        public Finding build() {
            if (impact != null
                    && impact.sink() != null
                    && related.stream().noneMatch(r -> r.location().equals(impact.sink()))) {
                related.add(new RelatedLocation(
                        impact.sink(), impact.consequence() != null ? impact.consequence() : "the value is used here"));
            }
            return new Finding(
                    ruleId,
                    level,
                    location,
                    message,
                    layer,
                    evidence,
                    related,
                    confidence,
                    function,
                    fingerprintKey,
                    fingerprint,
                    suppression,
                    properties,
                    impact,
                    identity,
                    verdict);
        }
    }
}
