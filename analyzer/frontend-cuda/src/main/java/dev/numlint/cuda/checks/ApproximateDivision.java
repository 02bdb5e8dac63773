package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FlagCitation;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;
import java.util.HashSet;
import java.util.Set;

/**
 * NL002: approximate division. The intrinsic {@code __fdividef} gets its level from what the quotient decides: a
 * note where it decides nothing (written by name: a chosen approximation) or only a test of its sign that its
 * rounding cannot flip (a quotient's sign is its operands', except where it gives 0 for a divisor above 2^126); a '/'
 * in device code built with -prec-div=false or --use_fast_math gets its level from what the quotient decides.
 */
@AutoService(CudaCheck.class)
public final class ApproximateDivision implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL002";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        Set<Integer> lines = new HashSet<>();
        for (FunctionFacts.Division d : facts.divisions) {
            if (d.intrinsic() != null) {
                Impact impact = Consequences.of(d.site(), out);
                // its tests of its sign against 0 cannot flip: a quotient's sign is its operands', whatever the error,
                // except where __fdividef gives 0 (a divisor above 2^126); with no other use it decides nothing, and
                // a PTX "compared in a condition" at such a test does not raise it
                boolean proven = impact.kind() == Impact.Kind.BOUNDED && Consequences.fixedSign(d.site());
                boolean signOnly = proven && d.site().uses().isEmpty();
                if (signOnly) {
                    impact = new Impact(Impact.Kind.BOUNDED, Consequences.phrase("use-quotient-sign"), null, null);
                } else if (impact.kind() == Impact.Kind.BOUNDED && ApproximateMathFunction.asm(d.intrinsic())) {
                    // an instruction of an asm statement (div.approx.f32) is not raised as an intrinsic is: its
                    // result leaves through the asm's operands, which numlint does not follow
                    impact = new Impact(Impact.Kind.BOUNDED, Consequences.phrase("use-asm-operand"), null, null);
                } else if (impact.kind() == Impact.Kind.BOUNDED) {
                    // written by name, deciding nothing: the author's choice, a note that says so
                    String chosen = ApproximateMathFunction.chosen(impact);
                    out.consequenceWithoutDecision(d.site(), chosen); // the PTX layer may follow it further
                    impact =
                            new Impact(Impact.Kind.BOUNDED, chosen, impact.sink(), impact.errorBound(), impact.reach());
                }
                String msg = RuleCatalog.get()
                        .rule("NL002")
                        .message(
                                "cuda-div-intrinsic",
                                "expr",
                                Consequences.quote(d.site().text()),
                                "consequence",
                                impact.consequence());
                if (proven) {
                    out.reportProven("NL002", facts.function, d.site(), msg, Confidence.HIGH, impact);
                } else {
                    out.report("NL002", facts.function, d.site(), msg, Confidence.HIGH, impact, null);
                }
                continue;
            }
            if (!d.site().device()
                    || out.build().effectivePrecDiv()
                    || !lines.add(d.site().line())) continue;
            FlagCitation fl = out.flag(
                    x -> x.contains("prec-div") || x.contains("prec_div") || fastMath(x),
                    Boolean.FALSE.equals(out.build().precDiv()) ? "-prec-div=false" : "--use_fast_math");
            out.deviceOnly("NL002", d.site()); // nvcc's flag changes device code only
            Impact impact = Consequences.of(d.site(), out);
            String msg = RuleCatalog.get()
                    .rule("NL002")
                    .message(
                            "cuda-div-flag",
                            "expr",
                            Consequences.quote(d.site().text()),
                            "flag",
                            fl.origin() != null ? fl.origin().flag() : fl.text(),
                            "consequence",
                            impact.consequence());
            Consequences.report(out, "NL002", facts.function, d.site(), msg, Confidence.HIGH, impact, fl, true);
        }
    }

    static boolean fastMath(String f) {
        return f.contains("fast_math") || f.contains("fast-math") || f.equals("-Ofast");
    }
}
