package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;

/**
 * NL011: a floating value converted to a narrow signed integer (signed char, short) without a range guard. Measured
 * with GCC 12 on x86-64 and nvcc 13 on sm_90 (rule document NL011): both truncate through a 32-bit int and keep the
 * low bits, so in-int-range overflow wraps alike; beyond the int range x86 gives 0x80000000 and the GPU saturates.
 */
@AutoService(CudaCheck.class)
public final class NarrowSignedCast implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL011";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        for (FunctionFacts.Conversion c : facts.conversions) {
            if (c.unsigned() || c.bytes() >= 4) continue; // to int and wider: not narrow
            double max = Math.pow(2, c.bytes() * 8.0 - 1);
            if (c.guarded() && c.floatData() && !c.within(-max, max - 1) && c.unseen() == null) {
                // a guard numlint found: a note naming it, as NL001's, so that no examined conversion goes unsaid
                // (a one-sided clamp says which side it leaves open)
                String guard = c.guard() != null ? c.guard() : "a range guard";
                out.reportProven(
                        "NL011",
                        facts.function,
                        c.site(),
                        RuleCatalog.get()
                                .rule("NL011")
                                .message(
                                        "cuda-guarded",
                                        "expr",
                                        UnguardedUnsignedCast.quoted(c),
                                        "from",
                                        c.from(),
                                        "to",
                                        c.to(),
                                        "guard",
                                        guard),
                        Confidence.HIGH,
                        Impact.bounded("limited by " + guard));
                continue;
            }
            if (!UnguardedUnsignedCast.unguarded(c, max, -max)) continue;
            if (c.within(-max, max - 1)) continue; // in range by construction
            String expr = UnguardedUnsignedCast.quoted(c);
            String msg = RuleCatalog.get()
                    .rule("NL011")
                    .message(
                            "cuda-narrow",
                            "expr",
                            expr,
                            "from",
                            c.from(),
                            "to",
                            c.to(),
                            "example",
                            c.bytes() == 1 ? "200.7" : "40000.5",
                            "wrapped",
                            c.bytes() == 1 ? "-56" : "-25536",
                            "where",
                            Consequences.phrase(c.site().hostOnly() ? "values-host" : "values-device"));
            out.report(
                    "NL011",
                    facts.function,
                    c.site(),
                    msg,
                    Confidence.HIGH,
                    new Impact(Impact.Kind.AMPLIFIED, "converted to " + c.to() + " without a range guard", null, null),
                    null);
        }
    }
}
