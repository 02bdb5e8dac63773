package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaUnit;
import dev.numlint.java.NumType;
import dev.numlint.knowledge.FloatExactness;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.Assignment;
import org.eclipse.jdt.core.dom.CastExpression;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.IMethodBinding;
import org.eclipse.jdt.core.dom.ITypeBinding;
import org.eclipse.jdt.core.dom.InfixExpression;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.NumberLiteral;
import org.eclipse.jdt.core.dom.ParenthesizedExpression;
import org.eclipse.jdt.core.dom.PrefixExpression;
import org.eclipse.jdt.core.dom.VariableDeclarationFragment;

/**
 * NL014 in Java source: a float literal whose float value is not the number it denotes ({@code 0.1f}) widened to
 * double: an operand of double arithmetic ({@code x * 0.1f} with a double {@code x}), the value of a double variable
 * or assignment ({@code double d = 0.1f}), a {@code (double)} cast, or an argument of a double parameter (with
 * bindings: {@code Math.pow(x, 0.1f)}). The double carries float's error, up to 2^-24 (6e-8) relative. Literals spelled to
 * float's full precision (8 or more significant digits) and powers of two are not reported, as at the other layers.
 */
@AutoService(JavaCheck.class)
public final class FloatLiteralInDouble implements JavaCheck {
    @Override
    public String ruleId() {
        return "NL014";
    }

    @Override
    public void check(JavaUnit unit) {
        List<Expression> widened = new ArrayList<>();
        for (InfixExpression in : unit.infixes()) {
            if (unit.types().of(in) != NumType.DOUBLE) continue;
            widened.add(in.getLeftOperand());
            widened.add(in.getRightOperand());
            for (Object o : in.extendedOperands()) widened.add((Expression) o);
        }
        for (VariableDeclarationFragment vf : unit.fragments()) {
            if (vf.getInitializer() != null && unit.types().of(vf.getName()) == NumType.DOUBLE) {
                widened.add(vf.getInitializer());
            }
        }
        for (Assignment a : unit.assignments()) {
            if (unit.types().of(a.getLeftHandSide()) == NumType.DOUBLE) widened.add(a.getRightHandSide());
        }
        for (CastExpression c : unit.casts()) {
            if (c.getType().isPrimitiveType() && c.getType().toString().equals("double"))
                widened.add(c.getExpression());
        }
        if (unit.bindings()) {
            for (MethodInvocation m : unit.invocations()) {
                IMethodBinding b = m.resolveMethodBinding();
                if (b == null) continue;
                ITypeBinding[] params = b.getParameterTypes();
                for (int i = 0; i < m.arguments().size() && i < params.length; i++) {
                    if (params[i].getName().equals("double"))
                        widened.add((Expression) m.arguments().get(i));
                }
            }
        }
        Set<ASTNode> seen = new HashSet<>();
        for (Expression e : widened) {
            NumberLiteral lit = literal(e);
            if (lit == null || !seen.add(lit)) continue;
            FloatExactness.Widening parts = FloatExactness.widening(lit.getToken());
            if (parts == null) continue;
            ASTNode where = e.getParent() instanceof InfixExpression ? e.getParent() : e;
            String msg = JavaUnit.message(
                    ruleId(),
                    "java-widened",
                    "literal",
                    lit.getToken(),
                    "expr",
                    unit.shortText(where, 40),
                    "value",
                    parts.value(),
                    "error",
                    parts.error(),
                    "decimal",
                    parts.decimal());
            unit.report(ruleId(), where, msg, !unit.bindings(), null, null);
        }
    }

    /** The float-suffixed literal {@code e} is, through parentheses and a sign, or null. */
    private static NumberLiteral literal(Expression e) {
        while (true) {
            if (e instanceof ParenthesizedExpression p) e = p.getExpression();
            else if (e instanceof PrefixExpression p
                    && (p.getOperator() == PrefixExpression.Operator.MINUS
                            || p.getOperator() == PrefixExpression.Operator.PLUS)) e = p.getOperand();
            else break;
        }
        if (!(e instanceof NumberLiteral n)) return null;
        String t = n.getToken();
        return t.endsWith("f") || t.endsWith("F") ? n : null;
    }
}
