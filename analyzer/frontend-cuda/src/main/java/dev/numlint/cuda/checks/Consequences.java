package dev.numlint.cuda.checks;

import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FlagCitation;
import dev.numlint.cuda.facts.Site;
import dev.numlint.cuda.facts.ValueUse;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.Quote;
import dev.numlint.rules.RuleCatalog;
import java.util.List;

/**
 * The impact analysis shared by the CUDA source checks: what a hazard's value decides, from the
 * {@linkplain Site#uses() uses} the front end followed through def-use. A value that reaches an integer conversion,
 * a rounding, an index, a comparison or a branch is <em>amplified</em> (a one-ulp difference can change a discrete
 * outcome); a product subtracted from another product is <em>cancellation</em>; a value only stored, returned or
 * passed on, picked by a min/max of computed values (the winner flips only where both are within the ulp, so the
 * result moves by no more than the value), compared with the best candidate so far that the taken branch replaces
 * with it (a flip only at a near tie, where either candidate is as good), added atomically (one term of a sum: NL009 reports the sum's order), or
 * quantised into a stored sample (an 8- or 16-bit pixel or sample, a packed colour channel: at most one level), is
 * <em>bounded</em>. A decision on a random
 * quantity is <em>statistical</em> ({@link ValueUse#statistical()}): a comparison with a fresh random draw, or a
 * conversion, rounding, index or test of a random variate; a one-ulp change shifts the odds of the outcome by about
 * 2^-24 or is another draw of the same distribution, and Monte Carlo results are compared statistically anyway. A
 * value whose every amplifying use is statistical, and whose every other use receives it as (part of) a random
 * variate, is bounded, and the source proves it ({@link #proven}): what the PTX layer finds downstream of it (through
 * memory) is statistical too.
 */
final class Consequences {
    private Consequences() {}

    /** {@code text} shortened for a one-line message, as every layer quotes ({@link Quote#expression}). */
    static String quote(String text) {
        return Quote.expression(text);
    }

    /**
     * An explicit cast as a message quotes it: {@code how(operand)}, without a second pair of parentheses around an
     * operand that brings its own (Clang's text of {@code (unsigned)(x * 255.0f)} is the parenthesised operand).
     */
    static String cast(String how, String operand) {
        // a member conversion written after its object (Eigen's .cast<unsigned int>()): the object, then the call
        if (how.startsWith("."))
            return (enclosed(operand) || operand.matches("[A-Za-z_]\\w*((\\.|->)[A-Za-z_]\\w*)*")
                            ? operand
                            : "(" + operand + ")")
                    + how;
        // a C-style cast may precede a call as written ((unsigned)floor(x)); static_cast<T>(...) and T(...), a
        // functional cast, hold their operand in parentheses (session 67 round F: 'Tstd::sin(...' for T(std::sin(x)))
        boolean cStyle = how.endsWith(")");
        return how + (enclosed(operand) || cStyle && called(operand) ? operand : "(" + operand + ")");
    }

    /** Whether {@code s} is one call of a named function or macro: {@code CLAMP(ip[0])}, {@code std::floor(x)}. */
    static boolean called(String s) {
        int open = s == null ? -1 : s.indexOf('(');
        return open > 0
                && s.substring(0, open).strip().matches("[A-Za-z_]\\w*(::[A-Za-z_]\\w*)*")
                && enclosed(s.substring(open));
    }

    /** Whether {@code s} is one parenthesised expression: its first parenthesis closes at its end. */
    static boolean enclosed(String s) {
        if (s == null || s.length() < 2 || s.charAt(0) != '(' || s.charAt(s.length() - 1) != ')') return false;
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') depth++;
            else if (c == ')' && --depth == 0) return i == s.length() - 1;
        }
        return false;
    }

    /** {@code text} shortened further, for a sink quoted after the hazard's own expression. */
    static String shortQuote(String text) {
        return Quote.shorten(text, 20);
    }

    /** The catalog's shared message fragment {@code key} ({@code phrases:}) with its placeholders filled. */
    static String phrase(String key, Object... args) {
        return RuleCatalog.get().phrase(key, args);
    }

    /** The impact of the value computed at {@code site}: amplified, cancellation or bounded. */
    static Impact of(Site site, CudaReport out) {
        return of(site, out, true);
    }

    /**
     * The impact of the value computed at {@code site}. {@code variates}: whether a decision on a random variate is
     * statistical. It is for a one-ulp hazard (another draw of the same distribution); a serial sum's error grows
     * with its length (n ulp, a bias of the tally rather than another draw), so NL004 counts only comparisons with a
     * fresh draw as statistical.
     */
    static Impact of(Site site, CudaReport out, boolean variates) {
        List<ValueUse> uses = site.uses();
        // roundings proved continuous: the PTX layer's integral value there is no news, whatever else the value does
        List<Integer> continuous = new java.util.ArrayList<>();
        for (ValueUse u : uses)
            if (u.kind() == ValueUse.Kind.INTERPOLATION || u.kind() == ValueUse.Kind.PERIODIC_WRAP)
                continuous.add(u.line());
        out.continuousRoundings(site, continuous);
        ValueUse amplified = null;
        ValueUse conversion = null;
        // the first amplifying use that makes an integer: named before a comparison met earlier (the graver outcome)
        ValueUse integer = null;
        ValueUse cancel = null;
        ValueUse statistical = null;
        for (ValueUse u : uses) {
            if (variates ? u.statistical() : u.kind() == ValueUse.Kind.RANDOM_DRAW) {
                // decides a random draw, or is a random variate: no single outcome depends on the ulp
                if (statistical == null) statistical = u;
                continue;
            }
            if (fixedPoint(u)) {
                continue; // llrintf(f * 2^40): a fixed-point encoding magnifies nothing (ptx/facts/FixedPoints)
            }
            if (u.kind() == ValueUse.Kind.INDEX && conversion != null) {
                return new Impact(
                        Impact.Kind.AMPLIFIED,
                        phrase("use-index-after-conversion", "line", u.line()),
                        out.location(u.line(), u.column()),
                        null,
                        Impact.Reach.INDEX);
            }
            if (u.kind() == ValueUse.Kind.INTEGER_CONVERSION && conversion == null) conversion = u;
            // a sum's error grows with its length past any tolerance: only a small literal one absorbs it (see
            // toleranceTest); a one-ulp hazard's tolerance may be a named one
            boolean tolerance = variates ? toleranceTest(u) : literalTolerance(u);
            if (u.kind().amplifies() && amplified == null && !tolerance) amplified = u;
            if ((u.kind() == ValueUse.Kind.INTEGER_CONVERSION || u.kind() == ValueUse.Kind.ROUNDING)
                    && integer == null) {
                integer = u;
            }
            if (u.kind() == ValueUse.Kind.DIFFERENCE_OF_PRODUCTS && cancel == null) cancel = u;
        }
        if (integer != null) amplified = integer;
        if (amplified != null) {
            return new Impact(
                    Impact.Kind.AMPLIFIED,
                    amplifiedText(amplified),
                    out.location(amplified.line(), amplified.column()),
                    null,
                    reach(uses, variates));
        }
        if (cancel != null) {
            return new Impact(
                    Impact.Kind.CANCELLATION,
                    cancellationText(cancel.line()),
                    out.location(cancel.line(), cancel.column()),
                    null);
        }
        if (statistical != null) {
            return new Impact(
                    Impact.Kind.BOUNDED,
                    statisticalText(statistical),
                    out.location(statistical.line(), statistical.column()),
                    null);
        }
        if (variates && proven(site)) {
            return new Impact(Impact.Kind.BOUNDED, phrase("use-random-variate-here"), null, null);
        }
        String where = boundedText(uses);
        out.consequenceWithoutDecision(site, where);
        // the rounding the source proved continuous (an interpolation's index, a periodic wrap): the PTX layer's
        // "rounded to an integral value" at that line is the same rounding and does not raise it (LayerMerge)
        for (ValueUse u : uses) {
            if (u.kind() == ValueUse.Kind.INTERPOLATION
                    || u.kind() == ValueUse.Kind.TESTED_INTERPOLATION
                    || u.kind() == ValueUse.Kind.PERIODIC_WRAP)
                return new Impact(Impact.Kind.BOUNDED, where, out.location(u.line(), u.column()), null);
        }
        return new Impact(Impact.Kind.BOUNDED, where, null, null);
    }

    /**
     * The gravest discrete outcome among {@code uses} that amplify ({@link #of}): an integer, an index, else only a
     * decision. A value passed to a function numlint does not follow may reach anything there: not known (null).
     */
    private static Impact.Reach reach(List<ValueUse> uses, boolean variates) {
        Impact.Reach r = Impact.Reach.DECISION;
        for (ValueUse u : uses) {
            if (variates ? u.statistical() : u.kind() == ValueUse.Kind.RANDOM_DRAW) continue;
            switch (u.kind()) {
                case INTEGER_CONVERSION, ROUNDING -> {
                    return Impact.Reach.CONVERSION;
                }
                case INDEX -> r = Impact.Reach.INDEX;
                case CALL -> {
                    if (r == Impact.Reach.DECISION) r = null;
                }
                default -> {
                    // a comparison, a branch, or a continuous use
                }
            }
        }
        return r;
    }

    /**
     * Whether the impact of {@code site} is bounded because every use that could amplify it decides a random outcome
     * only statistically: the source proves it from the code, so a PTX finding on the line confirms the hazard but
     * does not raise the level back (LayerMerge, property {@code impactProven}).
     */
    static boolean proven(Site site) {
        List<ValueUse> uses = site.uses();
        if (uses.isEmpty()) return site.randomVariate();
        for (ValueUse u : uses) {
            if (u.statistical()) continue;
            if (u.kind().amplifies() && !toleranceTest(u)
                    || u.kind() == ValueUse.Kind.ATOMIC
                    || u.kind() == ValueUse.Kind.DIFFERENCE_OF_PRODUCTS) {
                return false;
            }
            // stored, returned or passed on: what the PTX layer follows on from there must be random too (a
            // deterministic copy of the value could decide something the source layer does not see)
            if (!u.randomVariate() && !site.randomVariate()) return false;
        }
        return true;
    }

    /**
     * Whether the value is bounded because a rounding or comparison it reaches is continuous: the rounding indexes a
     * linear interpolation whose weight moves with it ({@link ValueUse.Kind#INTERPOLATION}), the comparison selects
     * between the values it compares (a clamp, a running min/max: {@link ValueUse.Kind#SELECTION}), keeps the best
     * candidate, guards only terms that carry the value as a factor ({@link ValueUse.Kind#ZERO_TERM}) or clamps it to
     * the table entry its interpolation gives at the bound ({@link ValueUse.Kind#END_CLAMP}) or decides between two
     * sides that agree where it flips ({@link ValueUse.Kind#AGREEING_SIDES}); and every
     * use the source layer saw is continuous: none amplifies, none cancels, none passes it to a function (whose code
     * the PTX layer may follow into a decision the source layer did not see). The source proves it from the code: the PTX layer's "rounded to an integral value" or "compared in a condition" at that rounding
     * or comparison does not raise it (LayerMerge, property {@code impactProven}).
     */
    static boolean continuous(Site site) {
        boolean interpolation = false;
        for (ValueUse u : site.uses()) {
            if (u.kind() == ValueUse.Kind.INTERPOLATION
                    || u.kind() == ValueUse.Kind.TESTED_INTERPOLATION
                    || u.kind() == ValueUse.Kind.PERIODIC_WRAP
                    || u.kind() == ValueUse.Kind.NEGLIGIBLE_CUTOFF
                    || u.kind() == ValueUse.Kind.SELECTION
                    || u.kind() == ValueUse.Kind.ZERO_TERM
                    || u.kind() == ValueUse.Kind.END_CLAMP
                    || u.kind() == ValueUse.Kind.AGREEING_SIDES
                    || u.kind() == ValueUse.Kind.BEST_CANDIDATE) interpolation = true;
            else if (u.kind().amplifies() && !toleranceTest(u)
                    || u.kind() == ValueUse.Kind.DIFFERENCE_OF_PRODUCTS
                    || u.kind() == ValueUse.Kind.CALL) return false;
        }
        return interpolation;
    }

    /**
     * Whether the value is bounded because the tests against 0 it reaches cannot flip (a front end proved their sign
     * class independent of its rounding, {@link Site#testsOfFixedSign}) and no other use amplifies, cancels or passes
     * it to a function. The source proves it from the code: the PTX layer's "compared in a condition" at such a test
     * does not raise it (LayerMerge, property {@code impactProven}).
     */
    static boolean fixedSign(Site site) {
        if (!site.testsOfFixedSign()) return false;
        for (ValueUse u : site.uses()) {
            if (u.kind().amplifies() && !toleranceTest(u)
                    || u.kind() == ValueUse.Kind.DIFFERENCE_OF_PRODUCTS
                    || u.kind() == ValueUse.Kind.CALL) return false;
        }
        return true;
    }

    /**
     * Whether the value is bounded because every comparison that could decide something is a tolerance test ({@link
     * #toleranceTest}) and no other use amplifies, cancels or passes it to a function. The source proves it from the
     * code: the PTX layer's "compared in a condition" at that test does not raise it (LayerMerge, property
     * {@code impactProven}).
     */
    static boolean tolerant(Site site) {
        return tolerant(site, true);
    }

    /** {@link #tolerant(Site)}; {@code named}: whether a named tolerance counts (not for a sum: {@link #of}). */
    static boolean tolerant(Site site, boolean named) {
        boolean tolerance = false;
        for (ValueUse u : site.uses()) {
            if (named ? toleranceTest(u) : literalTolerance(u)) tolerance = true;
            else if (u.kind().amplifies()
                    || u.kind() == ValueUse.Kind.DIFFERENCE_OF_PRODUCTS
                    || u.kind() == ValueUse.Kind.CALL) return false;
        }
        return tolerance;
    }

    /**
     * Reports through {@link CudaReport#reportProven} when the impact is proven statistical ({@link #proven}),
     * continuous, of fixed sign or only tested against a tolerance, through {@link CudaReport#report} otherwise.
     */
    static void report(
            CudaReport out,
            String rule,
            String function,
            Site site,
            String message,
            Confidence confidence,
            Impact impact,
            FlagCitation flag) {
        report(out, rule, function, site, message, confidence, impact, flag, false);
    }

    /**
     * {@link #report}; {@code chosen}: the hazard is an approximation a flag of the project's build chose ({@link
     * CudaReport#reportChosen}), reported so unless its bounded impact is proven.
     */
    static void report(
            CudaReport out,
            String rule,
            String function,
            Site site,
            String message,
            Confidence confidence,
            Impact impact,
            FlagCitation flag,
            boolean chosen) {
        if (provenBounded(site, impact)) {
            out.reportProven(rule, function, site, message, confidence, impact, flag);
        } else if (chosen) {
            out.reportChosen(rule, function, site, message, confidence, impact, flag);
        } else {
            out.report(rule, function, site, message, confidence, impact, flag);
        }
    }

    /**
     * Whether {@code impact} is bounded and the code proves it (statistical, continuous, of fixed sign or only tested
     * against a tolerance): {@link #report} reports it through {@link CudaReport#reportProven}.
     */
    static boolean provenBounded(Site site, Impact impact) {
        return impact != null
                && impact.kind() == Impact.Kind.BOUNDED
                && (proven(site) || continuous(site) || fixedSign(site) || tolerant(site));
    }

    /** The consequence of a value that only decides random outcomes statistically. */
    static String statisticalText(ValueUse u) {
        return u.kind() == ValueUse.Kind.RANDOM_DRAW
                ? phrase("use-random-draw", "line", u.line())
                : phrase("use-random-variate", "line", u.line());
    }

    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile(
            "(?<![\\w.])(\\d+\\.?\\d*(?:[eE][-+]?\\d+)?|\\.\\d+(?:[eE][-+]?\\d+)?)[fFlL]?(?![\\w.])");

    private static final java.util.regex.Pattern IDENTIFIER = java.util.regex.Pattern.compile("[A-Za-z_]\\w*");

    /** A 64-bit integer type or a rounding to one (llrintf, __float2ll_rn; long is 64 bits on the targets CUDA has). */
    private static final java.util.regex.Pattern WIDE_INTEGER = java.util.regex.Pattern.compile(
            "(unsigned\\s+)?long(\\s+long)?(\\s+int)?|u?int64_t|size_t|ll(rint|round)f?|l(rint|round)f?"
                    + "|__(float|double)2u?ll_r[nzud]");
    /** A shift that makes a power of two: {@code (1ll << 40)}, {@code 1LL<<32}. */
    private static final java.util.regex.Pattern SHIFT =
            java.util.regex.Pattern.compile("\\b1[uU]?[lL]{0,2}[uU]?\\s*<<\\s*(\\d+)");

    /**
     * A conversion or rounding to a 64-bit integer of a value scaled by a literal of 2^24 or more in the same
     * expression ({@code llrintf(f * 1099511627776.0f)}, {@code (long long)(e * (1ll << 40))}): a fixed-point
     * encoding, as molecular dynamics accumulates forces; one unit is at most 2^-24 of the value's scale, so a one-ulp
     * difference moves the integer as it moves the value and crosses no coarse step. The PTX layer decides the same
     * on the folded constant ({@code ptx/facts/FixedPoints}), which also sees a named one.
     */
    static boolean fixedPoint(ValueUse u) {
        if (u.kind() != ValueUse.Kind.INTEGER_CONVERSION && u.kind() != ValueUse.Kind.ROUNDING) return false;
        if (u.detail() == null
                || u.text() == null
                || !WIDE_INTEGER.matcher(u.detail().strip()).matches()) return false;
        String t = u.text();
        if (t.indexOf('*') < 0) return false;
        java.util.regex.Matcher s = SHIFT.matcher(t);
        while (s.find()) {
            if (Integer.parseInt(s.group(1)) >= 24) return true;
        }
        java.util.regex.Matcher m = NUMBER.matcher(t);
        while (m.find()) {
            try {
                if (Math.abs(Double.parseDouble(m.group(1))) >= 16777216.0) return true;
            } catch (NumberFormatException e) {
                // not a number after all
            }
        }
        return false;
    }

    /**
     * A comparison with a small tolerance ({@code err < 1e-5f}, {@code diff > 5e-4}) or with a value the programmer
     * named one ({@code r < EPS}, {@code nrm > REAL1_EPSILON}, {@code err <= tol}, {@code d < kTolerance}, {@code
     * FLT_EPSILON}): it is written to absorb rounding differences, so a one-ulp change does not decide it. A name
     * counts when it names an error tolerance ({@link dev.numlint.knowledge.ToleranceUse#epsilonName}: eps, epsilon,
     * tol, tolerance as a word of it; {@code total} or {@code stolen} are none); a threshold is a decision on data.
     */
    static boolean toleranceTest(ValueUse u) {
        if (u.kind() != ValueUse.Kind.COMPARISON) return false;
        if (u.text() != null && namesTolerance(u.text(), u.via())) return true;
        return literalTolerance(u);
    }

    /**
     * A comparison with a small literal tolerance ({@code err < 1e-5f}). A serial sum ({@link #of} without variates)
     * takes only these: its error grows with its length, and a named tolerance ({@code 1.0f - cdf <= FP_EPSILON}
     * after summing 2^n probabilities) is often the one the long sum outgrows.
     */
    static boolean literalTolerance(ValueUse u) {
        if (u.kind() != ValueUse.Kind.COMPARISON || u.text() == null) return false;
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

    /**
     * Whether {@code text} holds a name other than {@code value} (the variable the value reaches the test through,
     * or null) whose words include a tolerance's ({@link #toleranceTest}).
     */
    static boolean namesTolerance(String text, String value) {
        java.util.regex.Matcher m = IDENTIFIER.matcher(text);
        while (m.find()) {
            String id = m.group();
            // the value compared may be called eps itself (a permittivity): only the other side is a tolerance
            if (!id.equals(value) && dev.numlint.knowledge.ToleranceUse.epsilonName(id)) return true;
        }
        return false;
    }

    /** The first comparison with a small literal tolerance the value reaches ({@link #literalTolerance}), or null. */
    static ValueUse toleranceUse(Site site) {
        for (ValueUse u : site.uses()) if (literalTolerance(u)) return u;
        return null;
    }

    /** Whether the value reaches an integer conversion, a rounding or an index (not only a comparison). */
    static boolean discrete(Site site) {
        for (ValueUse u : site.uses()) {
            switch (u.kind()) {
                case INTEGER_CONVERSION, ROUNDING, INDEX -> {
                    return true;
                }
                default -> {}
            }
        }
        return false;
    }

    static String cancellationText(int line) {
        return phrase("use-cancellation", "line", line);
    }

    static String amplifiedText(ValueUse u) {
        int line = u.line();
        return switch (u.kind()) {
            case INTEGER_CONVERSION -> phrase("use-integer", "to", u.detail(), "line", line);
            case ROUNDING -> phrase("use-rounding", "fn", u.detail(), "line", line);
            case INDEX -> phrase("use-index", "line", line);
            case COMPARISON -> phrase("use-comparison", "test", shortQuote(u.text()), "line", line);
            case BRANCH -> phrase("use-branch", "line", line);
            default -> phrase("use-other", "line", line);
        };
    }

    /** The consequence of a value that decides nothing: where it ends up. */
    static String boundedText(List<ValueUse> uses) {
        for (ValueUse u : uses) {
            if (u.kind() == ValueUse.Kind.QUANTISED)
                return phrase("use-quantised", "what", u.detail(), "line", u.line());
        }
        // the comparison that would decide something, had it not kept the best candidate: why it decides nothing
        for (ValueUse u : uses) {
            if (u.kind() == ValueUse.Kind.BEST_CANDIDATE) return phrase("use-best-candidate", "line", u.line());
        }
        // the rounding that would decide something, had its weight not moved with it
        for (ValueUse u : uses) {
            if (u.kind() == ValueUse.Kind.INTERPOLATION || u.kind() == ValueUse.Kind.TESTED_INTERPOLATION)
                return phrase("use-interpolation", "line", u.line());
            if (u.kind() == ValueUse.Kind.PERIODIC_WRAP) return phrase("use-periodic-wrap", "line", u.line());
        }
        // the test that would decide something, had the terms it guards not carried the value as a factor
        for (ValueUse u : uses) {
            if (u.kind() == ValueUse.Kind.ZERO_TERM) return phrase("use-zero-term", "line", u.line());
            if (u.kind() == ValueUse.Kind.END_CLAMP) return phrase("use-end-clamp", "line", u.line());
            if (u.kind() == ValueUse.Kind.AGREEING_SIDES) return phrase("use-agreeing-sides", "line", u.line());
            if (u.kind() == ValueUse.Kind.NEGLIGIBLE_CUTOFF) return phrase("use-negligible-cutoff", "line", u.line());
        }
        // the comparison that would decide something, had it not been written against a tolerance
        for (ValueUse u : uses) {
            if (toleranceTest(u)) return phrase("use-tolerance", "line", u.line());
        }
        for (ValueUse u : uses) {
            if (u.kind() == ValueUse.Kind.STORE) return phrase("use-stored", "line", u.line());
            if (u.kind() == ValueUse.Kind.RETURN) return phrase("use-returned", "line", u.line());
        }
        for (ValueUse u : uses) {
            if (u.kind() == ValueUse.Kind.ATOMIC) return phrase("use-atomic-term", "line", u.line());
            if (u.kind() == ValueUse.Kind.SELECTION)
                return phrase("use-continuous-selection", "fn", u.detail(), "line", u.line());
        }
        return phrase("use-none");
    }
}
