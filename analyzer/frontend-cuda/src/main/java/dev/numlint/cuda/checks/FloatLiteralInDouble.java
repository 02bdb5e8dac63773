package dev.numlint.cuda.checks;

import com.google.auto.service.AutoService;
import dev.numlint.cuda.facts.CudaReport;
import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.model.Confidence;
import dev.numlint.rules.RuleCatalog;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * NL014 in CUDA/C++ source: a float literal whose float value is not the number it denotes ({@code 0.1f}) widened
 * to double by the double arithmetic or the double target it reaches ({@code double d = 0.1f}, {@code r = x * 0.1f}
 * with double {@code x} and {@code r}): the double result carries float's rounding error of the constant, up to
 * 2^-24 (6e-8) relative, about 10^8 times double's. Always a warning: the value is wrong at double precision wherever it
 * goes. A literal spelled to float's full precision (8 or more significant digits: FLT_EPSILON, FLT_MIN as the
 * headers spell them) or whose value is a power of two names that float on purpose: not reported.
 */
@AutoService(CudaCheck.class)
public final class FloatLiteralInDouble implements CudaCheck {
    @Override
    public String ruleId() {
        return "NL014";
    }

    @Override
    public void check(FunctionFacts facts, CudaReport out) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (FunctionFacts.WidenedLiteral w : facts.widenedLiterals) {
            String[] parts = widening(w.literal());
            if (parts == null || !seen.add(w.site().line() + "|" + w.literal())) continue;
            String msg = RuleCatalog.get()
                    .rule(ruleId())
                    .message(
                            "cuda-widened",
                            "literal",
                            w.literal(),
                            "expr",
                            Consequences.quote(w.expression()),
                            "target",
                            w.target(),
                            "value",
                            parts[0],
                            "error",
                            parts[1],
                            "decimal",
                            parts[2]);
            out.report(ruleId(), facts.function, w.site(), msg, Confidence.HIGH, null, null);
        }
    }

    /**
     * For a float literal worth reporting, its float value (15 significant digits), the distance from the number it
     * denotes and that number; null when the float holds the number exactly, when the literal is spelled to float's
     * full precision (8 or more significant digits) or when its value is a power of two.
     */
    static String[] widening(String literal) {
        String s = literal.replace("'", "");
        boolean negative = s.startsWith("-");
        if (negative) s = s.substring(1);
        if (s.startsWith("0x") || s.startsWith("0X")) return null;
        if (s.endsWith("f") || s.endsWith("F")) s = s.substring(0, s.length() - 1);
        BigDecimal decimal;
        try {
            decimal = new BigDecimal(s);
        } catch (NumberFormatException e) {
            return null;
        }
        float f = Float.parseFloat(s);
        if (!Float.isFinite(f) || f == 0) return null;
        BigDecimal exact = new BigDecimal(f);
        if (exact.compareTo(decimal) == 0) return null;
        if (decimal.stripTrailingZeros().precision() >= 8) return null;
        if (Math.getExponent(f) > Float.MIN_EXPONENT - 1 && f == Math.scalb(1.0f, Math.getExponent(f))) return null;
        String sign = negative ? "-" : "";
        double error = exact.subtract(decimal).abs().doubleValue();
        return new String[] {
            sign + exact.round(new MathContext(15)).stripTrailingZeros().toPlainString(),
            String.format(Locale.ROOT, "%.1e", error),
            sign + decimal.toPlainString()
        };
    }
}
