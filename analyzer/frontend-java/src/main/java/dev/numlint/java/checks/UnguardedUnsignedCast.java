package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaUnit;
import dev.numlint.java.Narrowing;
import dev.numlint.java.Narrowings;
import dev.numlint.java.NumType;

/**
 * NL001 in Java source: a float or double narrowed to char, or to a byte/short that is read back as unsigned
 * ({@code & 0xff}), without a range guard. Java wraps through int, so a negative value becomes a large one.
 */
@AutoService(JavaCheck.class)
public final class UnguardedUnsignedCast implements JavaCheck {
    @Override
    public String ruleId() {
        return "NL001";
    }

    @Override
    public void check(JavaUnit unit) {
        // one finding at the path that lacks the guard the other paths give the value, the conversions related
        java.util.Set<Narrowings.Cast> grouped = Narrowings.reportMissingGuards(
                unit,
                ruleId(),
                Narrowings.of(unit).stream()
                        .filter(n -> n.unsigned() && !n.guarded())
                        .toList());
        for (Narrowings.Cast n : Narrowings.of(unit)) {
            if (grouped.contains(n)) continue;
            if (!n.unsigned() || n.guarded()) continue;
            double example = Narrowings.example(n);
            NumType exType = n.sourceType() == NumType.DOUBLE ? NumType.DOUBLE : NumType.FLOAT;
            long res = Narrowing.narrow(example, exType, n.target());
            String expr = unit.shortText(n.cast(), 60);
            String lit = Narrowing.literal(example, exType);
            String msg;
            if (n.target() == NumType.CHAR) {
                msg = JavaUnit.message(
                        "NL001",
                        "java-char",
                        "expr",
                        expr,
                        "src",
                        n.sourceType().javaName(),
                        "side",
                        Narrowings.side(n),
                        "example",
                        lit,
                        "result",
                        res);
            } else {
                boolean b8 = n.target() == NumType.BYTE;
                long max = b8 ? 255 : 65535;
                msg = JavaUnit.message(
                        "NL001",
                        "java-unsigned",
                        "expr",
                        expr,
                        "src",
                        n.sourceType().javaName(),
                        "use",
                        n.usedAs(),
                        "side",
                        Narrowings.side(n),
                        "type",
                        n.target().javaName(),
                        "example",
                        lit,
                        "mask",
                        b8 ? "0xff" : "0xffff",
                        "result",
                        b8 ? res & 0xff : res & 0xffff,
                        "clamped",
                        example < 0 ? 0 : max,
                        "max",
                        max);
            }
            Narrowings.relate(unit, n, unit.report(ruleId(), n.cast(), msg, n.guessed(), null, Narrowings.impact(n)));
        }
    }
}
