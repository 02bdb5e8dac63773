package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.rules.RuleCatalog;

/**
 * NL001: a floating value converted to an unsigned integer type without a range guard. Always reported at the
 * rule's level (the conversion itself is where a one-ulp or sign difference becomes a different integer); the
 * message states what x86 and the GPU (or, in host-only code, x86 and AArch64) give for this target type.
 */
@AutoService(CudaCheck.class)
public final class UnguardedUnsignedCast implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL001";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        for (FunctionFacts.Conversion c : facts.conversions) {
            if (!c.unsigned() || !unguarded(c, Math.pow(2, c.bytes() * 8.0), 0)) continue;
            if (c.nonNegative() && c.bytes() >= 4) continue;
            String expr = Consequences.quote(c.explicit() ? c.how() + "(" + c.operand() + ")" : c.operand());
            String msg = RuleCatalog.get()
                    .rule("NL001")
                    .message(
                            "cuda-cast",
                            "expr",
                            expr,
                            "from",
                            c.from(),
                            "to",
                            c.to(),
                            "values",
                            values(c.bytes(), c.site().hostOnly()));
            Impact impact =
                    new Impact(Impact.Kind.AMPLIFIED, "converted to " + c.to() + " without a range guard", null, null);
            out.report("NL001", facts.function, c.site(), msg, Confidence.HIGH, impact, null);
        }
    }

    /** Whether the conversion can go out of range: not a constant in range, not guarded, from floating data. */
    static boolean unguarded(FunctionFacts.Conversion c, double max, double min) {
        if (c.constant() != null && c.constant() >= min && c.constant() < max) return false;
        return !c.guarded() && c.floatData();
    }

    /**
     * What this conversion gives out of range, measured (rule document NL001): x86 converts through a signed 32- or
     * 64-bit integer and keeps the low bits; the GPU's cvt saturates to the 32-bit (or 64-bit) range and then keeps
     * the low bits, so above the range of a narrow type both wrap alike; AArch64 saturates like the GPU.
     */
    static String values(int bytes, boolean hostOnly) {
        String other = hostOnly ? "AArch64" : "the GPU";
        String neg =
                switch (bytes) {
                    case 1 -> "-69.235 gives 187 on x86, 0 on " + other;
                    case 2 -> "-69.235 gives 65467 on x86, 0 on " + other;
                    case 4 -> "-69.235 gives 4294967227 on x86, 0 on " + other;
                    default -> "-69.235 gives 18446744073709551547 on x86, 0 on " + other;
                };
        String above =
                switch (bytes) {
                    case 1 -> "; 300.0: 44 on both";
                    case 2 -> "; 70000.0: 4464 on both";
                    case 4 -> "; 5e9 gives 705032704 on x86, 4294967295 on " + other;
                    default -> "";
                };
        return neg + above;
    }
}
