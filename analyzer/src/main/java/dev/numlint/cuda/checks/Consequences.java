package dev.numlint.cuda.checks;

import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.Site;
import dev.numlint.cuda.facts.ValueUse;
import dev.numlint.model.Impact;
import java.util.List;

/**
 * The impact analysis shared by the CUDA source checks: what a hazard's value decides, from the
 * {@linkplain Site#uses() uses} the front end followed through def-use. A value that reaches an integer conversion,
 * a rounding, an index, a comparison, a branch, a min/max selection or an atomic reduction is <em>amplified</em> (a
 * one-ulp difference can change a discrete outcome); a product subtracted from another product is
 * <em>cancellation</em>; a value only stored, returned or passed on is <em>bounded</em>.
 */
final class Consequences {
    private Consequences() {}

    /** The longest expression text quoted in a message; longer ones are shortened with an ellipsis. */
    static final int QUOTE = 40;

    /** {@code text} shortened for a one-line message. */
    static String quote(String text) {
        String t = text.replaceAll("\\s+", " ").strip();
        if (t.endsWith(" ...")) t = t.substring(0, t.length() - 4);
        return t.length() <= QUOTE ? t : t.substring(0, QUOTE - 3) + "...";
    }

    /** {@code text} shortened further, for a sink quoted after the hazard's own expression. */
    static String shortQuote(String text) {
        String t = quote(text);
        return t.length() <= 24 ? t : t.substring(0, 21) + "...";
    }

    /** The impact of the value computed at {@code site}: amplified, cancellation or bounded. */
    static Impact of(Site site, CudaReport out) {
        List<ValueUse> uses = site.uses();
        ValueUse amplified = null;
        ValueUse conversion = null;
        ValueUse cancel = null;
        for (ValueUse u : uses) {
            if (u.kind() == ValueUse.Kind.INDEX && conversion != null) {
                return new Impact(
                        Impact.Kind.AMPLIFIED,
                        "truncated to an index at line " + u.line() + ": one ulp moves it one element",
                        out.location(u.line(), u.column()),
                        null);
            }
            if (u.kind() == ValueUse.Kind.INTEGER_CONVERSION && conversion == null) conversion = u;
            if (u.kind().amplifies() && amplified == null && !toleranceTest(u)) amplified = u;
            if (u.kind() == ValueUse.Kind.DIFFERENCE_OF_PRODUCTS && cancel == null) cancel = u;
        }
        if (amplified != null) {
            return new Impact(
                    Impact.Kind.AMPLIFIED,
                    amplifiedText(amplified),
                    out.location(amplified.line(), amplified.column()),
                    null);
        }
        if (cancel != null) {
            return new Impact(
                    Impact.Kind.CANCELLATION,
                    cancellationText(cancel.line()),
                    out.location(cancel.line(), cancel.column()),
                    null);
        }
        return new Impact(Impact.Kind.BOUNDED, boundedText(uses), null, null);
    }

    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile(
            "(?<![\\w.])(\\d+\\.?\\d*(?:[eE][-+]?\\d+)?|\\.\\d+(?:[eE][-+]?\\d+)?)[fFlL]?(?![\\w.])");

    /**
     * A comparison with a small tolerance ({@code err < 1e-5f}, {@code diff > 5e-4}): it is written to absorb
     * rounding differences, so a one-ulp change does not decide it.
     */
    static boolean toleranceTest(ValueUse u) {
        if (u.kind() != ValueUse.Kind.COMPARISON) return false;
        java.util.regex.Matcher m = NUMBER.matcher(u.text());
        while (m.find()) {
            try {
                double v = Double.parseDouble(m.group(1));
                if (v > 0 && v <= 1e-3) return true;
            } catch (NumberFormatException e) {
                // not a number after all
            }
        }
        return false;
    }

    /** The first comparison with a tolerance the value reaches, or null. */
    static ValueUse toleranceUse(Site site) {
        for (ValueUse u : site.uses()) if (toleranceTest(u)) return u;
        return null;
    }

    /** Whether the value reaches an integer conversion, a rounding, an index or an atomic (not only a comparison). */
    static boolean discrete(Site site) {
        for (ValueUse u : site.uses()) {
            switch (u.kind()) {
                case INTEGER_CONVERSION, ROUNDING, INDEX, ATOMIC -> {
                    return true;
                }
                default -> {}
            }
        }
        return false;
    }

    static String cancellationText(int line) {
        return "subtracted from another product at line " + line
                + ": cancellation can magnify a one-rounding difference";
    }

    static String amplifiedText(ValueUse u) {
        String at = " at line " + u.line();
        return switch (u.kind()) {
            case INTEGER_CONVERSION -> "converted to " + u.detail() + at + ": one ulp can change the integer";
            case ROUNDING -> "rounded by " + u.detail() + "()" + at + ": one ulp can change the integer";
            case INDEX -> "used in an index" + at + ": one ulp can select another element";
            case COMPARISON -> "compared" + at + " ('" + shortQuote(u.text()) + "'): one ulp can flip it";
            case BRANCH -> "decides a branch" + at + ": one ulp can flip the decision";
            case SELECTION -> "selected by " + u.detail() + "()" + at + ": one ulp can change the winner";
            case ATOMIC -> "added atomically" + at + " in a run-dependent order";
            default -> "used" + at;
        };
    }

    /** The consequence of a value that decides nothing: where it ends up. */
    static String boundedText(List<ValueUse> uses) {
        for (ValueUse u : uses) {
            if (u.kind() == ValueUse.Kind.STORE)
                return "only stored (line " + u.line() + "): results differ by a few ulp";
            if (u.kind() == ValueUse.Kind.RETURN)
                return "only returned (line " + u.line() + "): results differ by a few ulp";
        }
        return "it decides no index, branch or conversion: results differ by a few ulp";
    }
}
