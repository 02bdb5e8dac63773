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
 * speed differs, and the message says so); in host code the CPU side of a port then computes in double what the GPU
 * port computes in float. C++ float overloads ({@code sin(x)} with float x in C++ and CUDA) are not promotions and never get here.
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
            if (!p.site().device() && p.site().cancels()) {
                // x - (x + c): in float the terms cancel, in double they leave c: the results differ entirely
                consequence = Consequences.phrase("promotion-cancels");
                impact = new Impact(Impact.Kind.CANCELLATION, consequence, null, null);
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
            out.report(
                    "NL008",
                    facts.function,
                    p.site(),
                    msg,
                    p.viaFunction() ? Confidence.MEDIUM : Confidence.HIGH,
                    impact,
                    null);
        }
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
