package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;
import java.util.ArrayList;
import java.util.List;

/**
 * NL013 in CUDA/C++ source: a floating value rounded to an integer by adding one half and truncating, {@code (int)(x
 * + 0.5f)}. Where the operand can be negative it rounds toward zero there ({@code -2.7f} gives -2): a warning. Where
 * its interval proves it non-negative, only 0.49999997f (1 of the 1,258,291,200 floats in [0, 2^23)) and odd values
 * from 2^23 on round wrong by one: not reported when the interval ends below 2^23 (2^52 in double), a note otherwise.
 * An operand a test limits ({@code (v >= 0) ? (int)(v + 0.5) : (int)(v - 0.5)}) is taken as non-negative, as NL001
 * takes a guarded cast as in range: a note naming the guard. To an unsigned type where NL001 reports the negative
 * value at its level, the negative case is NL001's finding: a note that states only the non-negative half-way cases.
 * A rounded value a clamp bounds from below before anything reads it ({@code v = clampi(v, 1, N - 1)}: {@code
 * ClangRoundingClamps}) is a note: every value whose rounding toward zero differs ends at the clamp's bound. So is
 * a conversion to fixed point ({@code (int32_t)(x * 4096 + 0.5)}: {@code ClangFixedPoints}): a negative value comes
 * out one step of the format, 2^-k of its unit, toward zero, as large as the format's own rounding error. So is one to a
 * signed type only stored as a narrow sample ({@code out[i] = (short)(v * 90.0f + 0.5f)}: {@code ClangQuantisedSamples}):
 * a negative value ends one level toward zero, the size of the quantisation's own step.
 */
@AutoService(CudaCheck.class)
public final class AddHalfRounding implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL013";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        for (FunctionFacts.Conversion c : facts.conversions) {
            // to a template parameter whose instantiations are not in view: an integer type or not, unknown
            if (c.constant() != null || c.unseen() != null || !addsHalf(c.operand())) continue;
            // x < 0 ? x * g - .5 : x * g + .5: rounded half away from zero by the sign, as the rule asks
            if (bySign(c.operand())) continue;
            boolean dbl = c.from().contains("double");
            String expr = UnguardedUnsignedCast.quoted(c);
            if (c.nonNegative() || c.lo() >= 0) {
                // below 2^23 (2^52) only 0.49999997f (0.49999999999999994) rounds wrongly: 1 of the 1,258,291,200
                // floats in [0, 2^23) (rule document); from there on odd values round up to even: a note
                boolean below = c.hi() < (dbl ? 0x1p52 : 0x1p23);
                String msg = RuleCatalog.get()
                        .rule(ruleId())
                        .message(
                                "cuda-non-negative",
                                "expr",
                                expr,
                                "example",
                                dbl ? "0.49999999999999994" : "0.49999997f",
                                "odd",
                                dbl ? "4503599627370497.0" : "8388609.0f",
                                "even",
                                dbl ? "4503599627370498" : "8388610");
                // the interval proves the sign: a PTX finding of the line adds evidence but raises nothing. Below
                // 2^23 (2^52) no hazard: reported as exact (never shown), so that the PTX layer's finding of this
                // cvt, which cannot see the bound (a grid-stride index), merges into it and goes with it, as NL001's
                // in range
                Impact impact = below
                        ? new Impact(
                                Impact.Kind.EXACT, "not negative and below 2^23 (2^52) by construction", null, null)
                        : new Impact(
                                Impact.Kind.BOUNDED,
                                "off by one at odd values from 2^23 and at 0.49999997",
                                null,
                                null);
                out.reportProven(ruleId(), facts.function, c.site(), msg, Confidence.HIGH, impact);
                continue;
            }
            // a guard whose interval reaches below 0 (v = fmaxf(fminf(x, 1.0f), -1.0f)) keeps negative values: the
            // rounding toward zero stays (session 87: such a clamp was 'taken as non-negative')
            boolean negativeKept = c.lo() < 0 && Double.isFinite(c.lo());
            if (c.guarded() && !negativeKept) {
                // (v >= 0) ? (int)(v + 0.5) : (int)(v - 0.5): a test of its variables limits the operand; as NL001
                // does for a guarded cast, it is taken as non-negative there and said so (eval26d, ecos)
                String guard = c.guard() != null ? c.guard() : "a range guard";
                // the PTX layer's cvt of the same sum sees no test (a signed int converted, a loop bound): it
                // confirms the instruction, never raises the note (session 17: three such notes became warnings)
                out.reportProven(
                        ruleId(),
                        facts.function,
                        c.site(),
                        RuleCatalog.get().rule(ruleId()).message("cuda-guarded", "expr", expr, "guard", guard),
                        Confidence.HIGH,
                        Impact.bounded("taken as non-negative, limited by " + guard));
                continue;
            }
            String clamp =
                    facts.clampedRoundings.get(c.site().line() + ":" + c.site().column());
            if (clamp != null && !c.unsigned()) {
                // sel = (int)(x + .5f); sel = clampi(sel, 1, N - 1); : every value whose rounding toward zero differs
                // is at most 0 before the clamp, which lifts both roundings to its bound (session 51, a texture
                // compressor's selectors)
                out.reportProven(
                        ruleId(),
                        facts.function,
                        c.site(),
                        RuleCatalog.get().rule(ruleId()).message("cuda-clamped", "expr", expr, "clamp", clamp),
                        Confidence.HIGH,
                        Impact.bounded("negative values reach the " + clamp + " as its lower bound either way"));
                continue;
            }
            String at = c.site().line() + ":" + c.site().column();
            Integer bits = facts.fixedPointRoundings.get(at);
            if (bits != null && !c.unsigned()) {
                // (int32_t)(x * 4096 + 0.5): a conversion to fixed point with 12 fraction bits; a negative value comes
                // out one step (2^-12 of its unit) toward zero, an error the size of the format's own rounding (session
                // 72: ten such conversions of two image libraries' samples and weights, all judged tolerant)
                String note = RuleCatalog.get().rule(ruleId()).message("cuda-fixed-point", "expr", expr, "bits", bits);
                out.reportProven(
                        ruleId(),
                        facts.function,
                        c.site(),
                        note,
                        Confidence.HIGH,
                        Impact.bounded("one fixed-point step, 2^-" + bits + " of the unit, toward zero for negative"
                                + " values"));
                continue;
            }
            String sample = c.unsigned() ? null : facts.quantisedRoundings.get(at);
            if (sample != null) {
                // only stored as a narrow sample ((short)(dot * 90.0f / sum + 0.5f) into a 16-bit image): a negative
                // value ends one level toward zero, as a one-ulp difference moves such a sample by one level at most
                // (NL003's quantised samples); 41 NL013 warnings of unseen code judged in sessions 84 and 87, none
                // actionable
                String note = RuleCatalog.get().rule(ruleId()).message("cuda-quantised", "expr", expr, "what", sample);
                out.reportProven(
                        ruleId(),
                        facts.function,
                        c.site(),
                        note,
                        Confidence.HIGH,
                        Impact.bounded("quantised to " + sample + ": a negative value ends one level toward zero"));
                continue;
            }
            if (UnguardedUnsignedCast.negativeHazard(c)) {
                // to an unsigned type NL001 reports the negative value at its level (-69.235 wraps on x86): saying
                // again that negative values round toward zero adds nothing; what is left to this rule is the
                // non-negative half-way cases, a note (session 30, issue #26: 12 such warnings doubled NL001 errors)
                String note = RuleCatalog.get()
                        .rule(ruleId())
                        .message(
                                "cuda-unsigned",
                                "expr",
                                expr,
                                "to",
                                c.to(),
                                "example",
                                dbl ? "0.49999999999999994" : "0.49999997f",
                                "limit",
                                dbl ? "2^52" : "2^23");
                // proven: the PTX layer's add-0.5-then-cvt of the same line confirms it, never raises it
                out.reportProven(
                        ruleId(),
                        facts.function,
                        c.site(),
                        note,
                        Confidence.HIGH,
                        Impact.bounded("negative values are NL001's; off by one at odd values and at 0.49999997"));
                continue;
            }
            String msg = RuleCatalog.get().rule(ruleId()).message("cuda-negative", "expr", expr, "to", c.to());
            out.report(
                    ruleId(),
                    facts.function,
                    c.site(),
                    msg,
                    Confidence.HIGH,
                    new Impact(Impact.Kind.AMPLIFIED, "rounded toward zero for negative values", null, null),
                    null);
        }
    }

    /**
     * Whether {@code operand} rounds by its sign: {@code x < 0 ? e - .5 : e + .5} (also {@code <=}, {@code x > 0 ?
     * e + .5 : e - .5}, {@code 0 > x}), the same {@code e} in both branches and {@code x} in it (session 62 round D, an
     * audio synthesizer's {@code synth_out < 0 ? synth_out * gain - .5 : synth_out * gain + .5}): negative values are
     * rounded away from zero too. A factor of {@code e} is taken as not flipping the sign.
     */
    static boolean bySign(String operand) {
        String[] parts = ternary(unwrap(operand));
        if (parts == null) return false;
        java.util.regex.Matcher t = SIGN_TEST.matcher(unwrap(parts[0]));
        java.util.regex.Matcher r = SIGN_TEST_REVERSED.matcher(unwrap(parts[0]));
        String x;
        boolean thenNegative;
        if (t.matches()) {
            x = t.group(1);
            thenNegative = t.group(2).startsWith("<");
        } else if (r.matches()) {
            x = r.group(2);
            thenNegative = r.group(1).startsWith(">");
        } else return false;
        java.util.regex.Matcher a = HALF_TERM.matcher(unwrap(parts[1]));
        java.util.regex.Matcher b = HALF_TERM.matcher(unwrap(parts[2]));
        if (!a.matches() || !b.matches()) return false;
        String ea = a.group(1).replaceAll("\\s+", ""), eb = b.group(1).replaceAll("\\s+", "");
        String minus = thenNegative ? a.group(2) : b.group(2), plus = thenNegative ? b.group(2) : a.group(2);
        return ea.equals(eb) && ea.contains(x.replaceAll("\\s+", "")) && minus.equals("-") && plus.equals("+");
    }

    private static final java.util.regex.Pattern SIGN_TEST =
            java.util.regex.Pattern.compile("(.+?)\\s*(<=|>=|<|>)\\s*(?:0+\\.?0*|\\.0+)[fF]?");
    private static final java.util.regex.Pattern SIGN_TEST_REVERSED =
            java.util.regex.Pattern.compile("(?:0+\\.?0*|\\.0+)[fF]?\\s*(<=|>=|<|>)\\s*(.+?)");
    private static final java.util.regex.Pattern HALF_TERM =
            java.util.regex.Pattern.compile("(.+?)\\s*([-+])\\s*0?\\.50*[fF]?");

    /** {@code s} without blanks around it and without parentheses that enclose all of it. */
    private static String unwrap(String s) {
        String t = s.strip();
        while (Consequences.enclosed(t)) t = t.substring(1, t.length() - 1).strip();
        return t;
    }

    /** The test and the two branches of a conditional expression at the top level of {@code s}, or null. */
    private static String[] ternary(String s) {
        int d = 0, q = -1;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '(' || ch == '[') d++;
            else if (ch == ')' || ch == ']') d--;
            else if (d == 0 && ch == '?' && q < 0) q = i;
            else if (d == 0
                    && ch == ':'
                    && q >= 0
                    && !(i + 1 < s.length() && s.charAt(i + 1) == ':')
                    && !(i > 0 && s.charAt(i - 1) == ':'))
                return new String[] {s.substring(0, q), s.substring(q + 1, i), s.substring(i + 1)};
        }
        return null;
    }

    /**
     * Whether {@code operand} is a sum one of whose top-level terms is the constant one half ({@code x + 0.5f},
     * {@code 0.5 + a * b}): not subtracted, not inside a call or a parenthesised sub-expression.
     */
    static boolean addsHalf(String operand) {
        List<String> terms = new ArrayList<>();
        String s = operand.strip();
        while (s.startsWith("(") && closing(s, 0) == s.length() - 1)
            s = s.substring(1, s.length() - 1).strip();
        int depth = 0;
        int start = 0;
        char sign = '+';
        List<Character> signs = new ArrayList<>();
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '(' || ch == '[') depth++;
            else if (ch == ')' || ch == ']') depth--;
            else if (depth == 0 && (ch == '+' || ch == '-') && i > start && !exponentSign(s, i)) {
                String prev = s.substring(start, i).strip();
                if (prev.isEmpty() || "*/%<>=!&|^?:".indexOf(prev.charAt(prev.length() - 1)) >= 0) continue;
                terms.add(prev);
                signs.add(sign);
                sign = ch;
                start = i + 1;
            }
        }
        terms.add(s.substring(start).strip());
        signs.add(sign);
        if (terms.size() < 2) return false;
        for (int i = 0; i < terms.size(); i++) {
            if (signs.get(i) == '+' && half(terms.get(i))) return true;
        }
        return false;
    }

    private static boolean half(String term) {
        return term.matches("(0?\\.5|0\\.50*|5\\.?0*[eE]-0*1)[fFlL]?");
    }

    private static boolean exponentSign(String s, int i) {
        if (i < 2 || (s.charAt(i - 1) != 'e' && s.charAt(i - 1) != 'E')) return false;
        int j = i - 2;
        while (j >= 0 && (Character.isDigit(s.charAt(j)) || s.charAt(j) == '.')) j--;
        return j < i - 2 && (j < 0 || !Character.isJavaIdentifierPart(s.charAt(j)));
    }

    private static int closing(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            if (s.charAt(i) == '(') depth++;
            else if (s.charAt(i) == ')' && --depth == 0) return i;
        }
        return -1;
    }
}
