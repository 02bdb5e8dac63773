package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.Contracts;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaSyntax;
import dev.numlint.java.JavaUnit;
import dev.numlint.java.NumType;
import dev.numlint.java.Range;
import dev.numlint.java.Types;
import dev.numlint.model.Impact;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.core.dom.CastExpression;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.InfixExpression;
import org.eclipse.jdt.core.dom.MethodDeclaration;
import org.eclipse.jdt.core.dom.NumberLiteral;
import org.eclipse.jdt.core.dom.ParenthesizedExpression;
import org.eclipse.jdt.core.dom.SimpleName;
import org.eclipse.jdt.core.dom.SingleVariableDeclaration;

/**
 * NL013 in Java source: {@code (int) (x + 0.5)}, {@code (long) (d + 0.5)}: rounding by adding one half and
 * truncating. A value that can be negative rounds toward zero ({@code (int) (-2.7 + 0.5)} is -2; Math.round gives
 * -3): a warning. A non-negative one is wrong by one only at 0.49999999999999994 (0.49999997f) and at odd values from
 * 2^52 (2^23), where the sum rounds up: a note, none when its range ends below 2^52 (2^23) or when a float is added
 * to the double 0.5 (an exact sum), nor for a parameter of a setter whose documentation leaves its range to the
 * callers ({@link Contracts}, as NL001 and NL011 read it).
 */
@AutoService(JavaCheck.class)
public final class AddHalfRounding implements JavaCheck {
    @Override
    public String ruleId() {
        return "NL013";
    }

    @Override
    public void check(JavaUnit unit) {
        for (CastExpression cast : unit.casts()) {
            if (!Types.typeNode(cast.getType()).isIntegral()) continue;
            Expression e = cast.getExpression();
            while (e instanceof ParenthesizedExpression p) e = p.getExpression();
            if (!(e instanceof InfixExpression sum) || sum.getOperator() != InfixExpression.Operator.PLUS) continue;
            NumType type = unit.types().of(sum);
            if (!type.isFloating()) continue;
            List<Expression> others = new ArrayList<>();
            boolean half = false;
            List<Expression> terms = new ArrayList<>();
            terms.add(sum.getLeftOperand());
            terms.add(sum.getRightOperand());
            for (Object o : sum.extendedOperands()) terms.add((Expression) o);
            for (Expression t : terms) {
                if (!half && t instanceof NumberLiteral n && half(n.getToken())) half = true;
                else others.add(t);
            }
            if (!half || others.isEmpty()) continue;
            // a setter whose documentation leaves the value's range to its callers (Contracts): they keep it in range
            if (others.size() == 1 && documentedParameter(unit, others.get(0))) continue;
            Range r = unit.ranges().of(sum);
            if (r.isPoint()) continue; // a constant: its value is what it is
            boolean dbl = type == NumType.DOUBLE;
            if (r.lo() >= 0) {
                boolean floats = true;
                for (Expression t : others) floats &= unit.types().of(t) == NumType.FLOAT;
                // below 2^52 (2^23) only 0.49999999999999994 (0.49999997f) rounds wrongly, 1 of the 1,258,291,200
                // floats in [0, 2^23); a float plus the double 0.5 is exact, and truncating it rounds halves up
                if (r.hi() < (dbl ? 0x1p52 : 0x1p23) || dbl && floats) continue;
                String msg = JavaUnit.message(
                        ruleId(),
                        "java-non-negative",
                        "expr",
                        unit.shortText(cast, 40),
                        "example",
                        dbl ? "0.49999999999999994" : "0.49999997f",
                        "odd",
                        dbl ? "4503599627370497.0" : "8388609.0f",
                        "even",
                        dbl ? "4503599627370498" : "8388610");
                unit.report(
                        ruleId(),
                        cast,
                        msg,
                        !unit.bindings(),
                        null,
                        new Impact(
                                Impact.Kind.BOUNDED,
                                "off by one at odd values from 2^23 and at 0.49999997",
                                null,
                                null));
                continue;
            }
            String msg = JavaUnit.message(
                    ruleId(),
                    "java-negative",
                    "expr",
                    unit.shortText(cast, 40),
                    "to",
                    Types.typeNode(cast.getType()).javaName());
            unit.report(
                    ruleId(),
                    cast,
                    msg,
                    !unit.bindings(),
                    null,
                    new Impact(Impact.Kind.AMPLIFIED, "rounded toward zero for negative values", null, null));
        }
    }

    /**
     * {@code e} is a parameter of the enclosing method that the method never reassigns, and the method's
     * documentation says it does not clamp the value: the range is the callers' responsibility, written down.
     */
    private static boolean documentedParameter(JavaUnit unit, Expression e) {
        if (!(JavaSyntax.unparen(e) instanceof SimpleName name)) return false;
        if (!(Types.declarationOf(name) instanceof SingleVariableDeclaration d)
                || !(d.getParent() instanceof MethodDeclaration md)
                || md.getBody() == null
                || JavaSyntax.assignedIn(md.getBody(), name.getIdentifier())) {
            return false;
        }
        return Contracts.documentedNoClamping(unit, md);
    }

    /** The literal is one half: {@code 0.5}, {@code .5f}, {@code 0.5D}, {@code 5e-1}. */
    static boolean half(String token) {
        String t = token.replace("_", "");
        if (t.startsWith("0x") || t.startsWith("0X")) return false;
        if (t.endsWith("f") || t.endsWith("F") || t.endsWith("d") || t.endsWith("D"))
            t = t.substring(0, t.length() - 1);
        try {
            return Double.parseDouble(t) == 0.5;
        } catch (NumberFormatException ex) {
            return false;
        }
    }
}
