package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaUnit;
import dev.numlint.java.Narrowing;
import dev.numlint.java.Narrowings;
import dev.numlint.java.NumType;

/**
 * NL011 in Java source: a float or double narrowed to byte or short without a range guard (and not read back as
 * unsigned, which is NL001). Values kept in 0..255 (0..65535) and stored as an unsigned byte (short) are the
 * imaging idiom and not reported.
 */
@AutoService(JavaCheck.class)
public final class NarrowSignedCast implements JavaCheck {
    @Override
    public String ruleId() {
        return "NL011";
    }

    @Override
    public void check(JavaUnit unit) {
        // one finding at the path that lacks the guard the other paths give the value, the conversions related
        java.util.Set<Narrowings.Cast> grouped = Narrowings.reportMissingGuards(
                unit,
                ruleId(),
                Narrowings.of(unit).stream()
                        .filter(n -> !n.unsigned() && !n.guarded())
                        .toList());
        for (Narrowings.Cast n : Narrowings.of(unit)) {
            if (grouped.contains(n)) continue;
            if (n.unsigned() || n.guarded()) continue;
            NumType exType = n.sourceType() == NumType.DOUBLE ? NumType.DOUBLE : NumType.FLOAT;
            if (n.arrayStore() && !n.range().isPoint()) {
                // pixel data: usually unsigned, so the example is above 0..255 and the advice the unsigned range
                double example =
                        n.highOk() ? Narrowing.exampleBelow(n.target()) : Narrowing.exampleAbove(n.target(), true);
                String msg = JavaUnit.message(
                        "NL011",
                        "java-array",
                        "expr",
                        unit.shortText(n.cast(), 50),
                        "src",
                        n.sourceType().javaName(),
                        "type",
                        n.target().javaName(),
                        "side",
                        Narrowings.side(n),
                        "example",
                        Narrowing.literal(example, exType),
                        "result",
                        Narrowing.narrow(example, exType, n.target()),
                        "umax",
                        n.target() == NumType.BYTE ? 255 : 65535);
                unit.report(ruleId(), n.cast(), msg, n.guessed(), null, Narrowings.impact(n));
                continue;
            }
            double example = Narrowings.example(n);
            long res = Narrowing.narrow(example, exType, n.target());
            String msg = JavaUnit.message(
                    "NL011",
                    "java-signed",
                    "expr",
                    unit.shortText(n.cast(), 60),
                    "src",
                    n.sourceType().javaName(),
                    "type",
                    n.target().javaName(),
                    "side",
                    Narrowings.side(n),
                    "example",
                    Narrowing.literal(example, exType),
                    "result",
                    res);
            unit.report(ruleId(), n.cast(), msg, n.guessed(), null, Narrowings.impact(n));
        }
    }
}
