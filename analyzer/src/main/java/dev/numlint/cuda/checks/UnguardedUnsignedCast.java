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
                            "wrapped",
                            wrapped(c.bytes()),
                            "other",
                            c.site().hostOnly() ? "AArch64" : "the GPU");
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
     * What x86 gives for -69.235 converted to an unsigned type of {@code bytes} bytes, measured (rule document NL001):
     * x86 converts through a signed 32- or 64-bit integer and keeps the low bits; the GPU's cvt and AArch64 saturate
     * to 0.
     */
    static String wrapped(int bytes) {
        return switch (bytes) {
            case 1 -> "187";
            case 2 -> "65467";
            case 4 -> "4294967227";
            default -> "18446744073709551547";
        };
    }
}
