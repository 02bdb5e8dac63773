package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;

/**
 * NL008: a float expression evaluated in double (an unsuffixed literal, or a double math function called on a
 * float in C) and rounded back to float. In device code double arithmetic is slow and rounds differently from the
 * float computation (unless one operation on values float holds is rounded straight back to float: then only the
 * speed differs, and the message says so), but a CPU running the same code computes the same double: a note of its
 * cost (session 69); in host code the CPU side of a port then computes in double what the GPU port computes in
 * float. C++ float overloads ({@code sin(x)} with float x in C++ and CUDA) are not promotions and never get here.
 */
@AutoService(CudaCheck.class)
public final class DoublePromotion implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL008";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        for (FunctionFacts.Promotion p : facts.promotions) {
            if (p.exact() && !p.site().device())
                continue; // same result in float and double: only the GPU's speed would differ
            String never = p.site().neverNegative();
            if (never != null) {
                // stored into a sum that stays >= 0 (norm += pow(g, 2)): rounding a value >= 0 keeps it >= 0, so its
                // tests against 0 cannot flip; what it decides is the other uses (session 75 round A)
                p.site().dropUses(u -> SerialAccumulation.zeroTest(never, u));
            }
            // device code: one operation on values float holds, rounded through double, gives the float result
            // (double has more than 2*24+2 bits): still slow, but not rounded unlike float
            String consequence = !p.site().device()
                    ? Consequences.phrase("promotion-host")
                    : p.exact()
                            ? Consequences.phrase("promotion-device-exact")
                            : Consequences.phrase("promotion-device");
            // device code: slow double arithmetic, always worth a look; host code: the result differs from a float
            // computation by about an ulp, which matters where the value decides something
            Impact impact = p.site().device() ? null : Consequences.of(p.site(), out);
            String rounding = p.site().device() ? null : innerRounding(p);
            if (!p.site().device() && p.site().cancels()) {
                // x - (x + c): in float the terms cancel, in double they leave c: the results differ entirely
                consequence = Consequences.phrase("promotion-cancels");
                impact = new Impact(Impact.Kind.CANCELLATION, consequence, null, null);
            } else if (!p.site().device() && hostFloatCall(p) != null) {
                // atan2(fy, fx) stored to a float in host code: more accurate than atan2f, cheap on a CPU, and no
                // device code computes it in float to diverge from; a value deciding something decides better
                consequence = Consequences.phrase("promotion-host-call", "fn", hostFloatCall(p));
                impact = new Impact(Impact.Kind.BOUNDED, consequence, null, null);
            } else if (rounding != null) {
                // ceil(log2(x)): the expression rounds the promoted value itself to an integral value, where one
                // ulp of log2() against log2f() moves ceil() by one; what follows sees an integer (pow(2.0, k) of it
                // is exact), so that rounding, not the value's later uses, is the consequence
                consequence = Consequences.phrase(
                        "use-rounding", "fn", rounding, "line", p.site().line());
                impact = new Impact(
                        Impact.Kind.AMPLIFIED,
                        consequence,
                        out.location(p.site().line(), p.site().column()),
                        null);
            } else if (impact != null && impact.kind() == Impact.Kind.AMPLIFIED) {
                consequence = impact.consequence();
            } else if (impact != null) {
                impact = new Impact(Impact.Kind.BOUNDED, "about an ulp from a float computation", null, null);
            }
            String msg = RuleCatalog.get()
                    .rule("NL008")
                    .message(
                            "cuda-promotion",
                            "expr",
                            Consequences.quote(p.site().text()),
                            "promoter",
                            p.promoter(),
                            "target",
                            quoteNames(p.target()),
                            "consequence",
                            consequence);
            Confidence confidence = p.viaFunction() ? Confidence.MEDIUM : Confidence.HIGH;
            if (p.site().device()) {
                // device code: a CPU running the same code promotes the same way (C's usual arithmetic
                // conversions), so the GPU agrees with it; a float computation nobody wrote is no reference, and
                // what the double decides it decides more accurately: FP64 throughput is what is at stake, a note
                // (sessions 66 to 68: 24 device promotions judged, none actionable, 19 of them deciding something)
                out.reportCostOnly(
                        "NL008",
                        facts.function,
                        p.site(),
                        msg,
                        confidence,
                        costOnly(p, out) ? "cost-only" : "cost-same-on-cpu");
            } else if (!p.site().device() && !p.site().cancels()) {
                // host code: what differs is a float computation on a GPU; with no device code in the scan there is
                // none, and the double result is the more accurate one (HostOnlyScans makes it a note)
                out.reportPortOnly("NL008", facts.function, p.site(), msg, confidence, impact);
            } else {
                out.report("NL008", facts.function, p.site(), msg, confidence, impact, null);
            }
        }
    }

    /**
     * Whether a device promotion's value decides nothing: its result is float's ({@link
     * FunctionFacts.Promotion#exact}), or the double result, about an ulp from float's, decides nothing as host code
     * judges it (no terms that cancel in float, no rounding to an integral value in the expression, no conversion,
     * index, branch or long sum it reaches). Both kinds are notes; this one says which reason the note gives.
     */
    static boolean costOnly(FunctionFacts.Promotion p, CudaReport out) {
        if (p.exact()) return true;
        if (p.site().cancels() || innerRounding(p) != null) return false;
        Impact numeric = Consequences.of(p.site(), out);
        return numeric == null || numeric.kind() == Impact.Kind.BOUNDED || numeric.kind() == Impact.Kind.EXACT;
    }

    private static final java.util.regex.Pattern CALL =
            java.util.regex.Pattern.compile("\\s*(?:std\\s*::\\s*|::)?([A-Za-z_][A-Za-z0-9_]*)\\s*\\((.*)\\)\\s*");
    /** A double literal ({@code 2.0}, {@code .5}, {@code 1e-3}; not {@code 2.0f}). */
    private static final java.util.regex.Pattern DOUBLE_LITERAL = java.util.regex.Pattern.compile(
            "(?<![\\w.])(?:\\d+\\.\\d*|\\.\\d+|\\d+(?=[eE]))(?:[eE][-+]?\\d+)?(?![\\w.])");

    /**
     * The function's name when the promotion is one call of a double math function on float arguments whose
     * result is rounded straight to float ({@code float a = atan2(fy, fx);}): the promoter is that call, the
     * expression is nothing but the call, and no argument is double (no double literal, no cast or declaration
     * naming double). Null otherwise ({@code exp(x) * 0.5}, {@code exp(x) - x}, {@code pow(x, 2.0)}, a compound
     * assignment).
     */
    static String hostFloatCall(FunctionFacts.Promotion p) {
        if (!p.viaFunction() || p.compound()) return null;
        java.util.regex.Matcher m = CALL.matcher(p.site().text());
        if (!m.matches()) return null;
        String fn = m.group(1);
        String args = m.group(2);
        if (!p.promoter().startsWith(fn + "()")) return null;
        // the call's parentheses are the whole expression's: (a)(b) or f(x) + g(y) do not match
        int depth = 0;
        for (int i = 0; i < args.length(); i++) {
            char c = args.charAt(i);
            if (c == '(') depth++;
            else if (c == ')' && --depth < 0) return null;
        }
        if (depth != 0
                || args.contains("double")
                || DOUBLE_LITERAL.matcher(args).find()) return null;
        return fn;
    }

    /** A call of a rounding function ({@code floor}, {@code ceil}, {@code rint} ...) as written. */
    private static final java.util.regex.Pattern ROUNDING_CALL =
            java.util.regex.Pattern.compile("(?<![\\w.])(?:std\\s*::\\s*)?([A-Za-z_]\\w*)\\s*\\(");

    /**
     * The rounding function of the math library whose argument, in the promoted expression as written, holds the
     * promoter ({@code ceil} in {@code ceil(log2(x))} and {@code pow(2.0, ceil(log2(n)))}, promoted by {@code log2()};
     * {@code floor} in {@code floor(x * 0.5)}, promoted by the literal), or null. Its result is integral: one ulp of
     * the promoted value can move it by one.
     */
    static String innerRounding(FunctionFacts.Promotion p) {
        String text = p.site().text();
        String promoter = p.promoter();
        if (text == null || promoter == null) return null;
        java.util.regex.Pattern inside;
        int call = promoter.indexOf("()");
        if (call > 0) {
            inside = java.util.regex.Pattern.compile(
                    "(?<![\\w.])" + java.util.regex.Pattern.quote(promoter.substring(0, call)) + "\\s*\\(");
        } else if (promoter.startsWith("the double literal ")) {
            String lit = promoter.substring("the double literal ".length());
            inside = java.util.regex.Pattern.compile("(?<![\\w.])" + java.util.regex.Pattern.quote(lit) + "(?![\\w.])");
        } else {
            return null;
        }
        java.util.regex.Matcher m = ROUNDING_CALL.matcher(text);
        while (m.find()) {
            String fn = m.group(1);
            if (!dev.numlint.knowledge.NumericFacts.ROUNDING.contains(fn)) continue;
            int open = m.end() - 1;
            int depth = 0;
            int close = -1;
            for (int i = open; i < text.length() && close < 0; i++) {
                char c = text.charAt(i);
                if (c == '(') depth++;
                else if (c == ')' && --depth == 0) close = i;
            }
            if (close > open
                    && inside.matcher(text.substring(open + 1, close)).find()
                    && wholeValue(text.substring(0, m.start()), text.substring(close + 1))) return fn;
        }
        return null;
    }

    /** {@code pow(2.0, }, {@code exp2(}, {@code ldexp(1.0, }: a function exact of an integral argument. */
    private static final java.util.regex.Pattern EXACT_OF_INTEGER =
            java.util.regex.Pattern.compile("(?:std::)?(?:(?:pow|powf|ldexp|ldexpf)\\(\\d+(?:\\.\\d*)?f?,|exp2f?\\()");

    /**
     * Whether the rounding between {@code before} and {@code after} (the rest of the expression) is the value the
     * expression rounds to its target: the whole expression, or the argument of a function exact of an integer
     * ({@code pow(2.0, ceil(...))}). A rounding combined with other terms ({@code x - P * floorf(x / P + 0.5)}, a
     * wrap) moves the value by a step those terms can take back: its uses decide, not the rounding.
     */
    private static boolean wholeValue(String before, String after) {
        String b = before.replaceAll("\\s+", "");
        String a = after.replaceAll("\\s+", "");
        return b.isEmpty() && a.isEmpty() || EXACT_OF_INTEGER.matcher(b).matches() && a.equals(")");
    }

    /** The target as written ({@code float 'x'}, {@code 'terms[i]'}), with a long quoted name shortened. */
    static String quoteNames(String target) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("'([^']*)'").matcher(target);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(
                    sb, java.util.regex.Matcher.quoteReplacement("'" + Consequences.shortQuote(m.group(1)) + "'"));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
