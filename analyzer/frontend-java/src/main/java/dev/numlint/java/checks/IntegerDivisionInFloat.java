package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaUnit;
import dev.numlint.java.NumType;
import dev.numlint.knowledge.IntegerQuotients;
import dev.numlint.model.Impact;
import dev.numlint.model.Level;
import java.util.Set;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.Assignment;
import org.eclipse.jdt.core.dom.CastExpression;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.IMethodBinding;
import org.eclipse.jdt.core.dom.ITypeBinding;
import org.eclipse.jdt.core.dom.InfixExpression;
import org.eclipse.jdt.core.dom.MethodDeclaration;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.NumberLiteral;
import org.eclipse.jdt.core.dom.ParenthesizedExpression;
import org.eclipse.jdt.core.dom.PrefixExpression;
import org.eclipse.jdt.core.dom.ReturnStatement;
import org.eclipse.jdt.core.dom.VariableDeclarationFragment;

/**
 * NL015 in Java source: an {@code int} or {@code long} division whose quotient goes on in {@code double} or {@code
 * float} arithmetic: an operand of floating arithmetic ({@code c * (1 / 24)}), the value of a floating variable,
 * assignment or return, a {@code (double)} cast, or an argument of a floating parameter ({@code Math.pow(x, 1 / 3)},
 * {@code Math.ceil(n / 2)}, with bindings). Followed up through parentheses and integer {@code + - *}; anything else
 * on the way (a modulus, shift, comparison, integer call or cast) keeps the quotient an integer on purpose. Levels
 * as in the CUDA source layer ({@link IntegerQuotients}).
 */
@AutoService(JavaCheck.class)
public final class IntegerDivisionInFloat implements JavaCheck {
    private static final Set<String> ROUNDINGS = Set.of("ceil", "floor", "round", "rint");

    @Override
    public String ruleId() {
        return "NL015";
    }

    @Override
    public void check(JavaUnit unit) {
        for (InfixExpression in : unit.infixes()) {
            if (in.getOperator() != InfixExpression.Operator.DIVIDE
                    || !in.extendedOperands().isEmpty()) continue;
            if (!unit.types().of(in).isIntegral()
                    || !unit.types().of(in.getLeftOperand()).isIntegral()
                    || !unit.types().of(in.getRightOperand()).isIntegral()) continue;
            String[] context = floatingContext(unit, in);
            if (context == null) continue;
            IntegerQuotients.Loss loss = IntegerQuotients.loss(
                    constant(in.getLeftOperand()),
                    constant(in.getRightOperand()),
                    context[1],
                    context[2] != null,
                    false);
            if (loss == null) continue;
            String msg = JavaUnit.message(
                    ruleId(),
                    "java-integer-division-in-float",
                    "expr",
                    unit.shortText(in, 40),
                    "target",
                    context[0],
                    "consequence",
                    loss.consequence());
            boolean guessed = unit.types().typeOf(in).guessed();
            if (loss.certain()) unit.report(ruleId(), in, msg, guessed, null, null);
            else
                unit.report(
                        ruleId(),
                        in,
                        msg,
                        guessed,
                        Level.NOTE,
                        new Impact(Impact.Kind.BOUNDED, loss.consequence(), null, null));
        }
    }

    /**
     * {target type, rounding method or null, "indexed" or null} where the quotient becomes floating, or null;
     * "indexed": a term or factor of integer arithmetic with a variable on the way ({@code i - n / 2}).
     */
    private static String[] floatingContext(JavaUnit unit, Expression division) {
        ASTNode c = division;
        String indexed = null;
        for (ASTNode p = c.getParent(); p != null; c = p, p = p.getParent()) {
            if (p instanceof ParenthesizedExpression) continue;
            if (p instanceof PrefixExpression pre
                    && pre.getOperator() == PrefixExpression.Operator.MINUS
                    && unit.types().of(pre).isIntegral()) continue;
            if (p instanceof InfixExpression in) {
                NumType t = unit.types().of(in);
                InfixExpression.Operator op = in.getOperator();
                boolean arithmetic = op == InfixExpression.Operator.PLUS
                        || op == InfixExpression.Operator.MINUS
                        || op == InfixExpression.Operator.TIMES
                        || op == InfixExpression.Operator.DIVIDE;
                if (!arithmetic) return null;
                if (t.isFloating()) return new String[] {t.javaName(), null, indexed};
                if (t.isIntegral() && op != InfixExpression.Operator.DIVIDE) {
                    java.util.List<Expression> ops = new java.util.ArrayList<>();
                    ops.add(in.getLeftOperand());
                    ops.add(in.getRightOperand());
                    for (Object o : in.extendedOperands()) ops.add((Expression) o);
                    for (Expression o : ops) if (o != c && constant(o) == null) indexed = "indexed";
                    continue;
                }
                return null;
            }
            if (p instanceof CastExpression cast) {
                String t = cast.getType().toString();
                return t.equals("double") || t.equals("float") ? new String[] {t, null, indexed} : null;
            }
            if (p instanceof VariableDeclarationFragment vf && vf.getInitializer() == c) {
                NumType t = unit.types().of(vf.getName());
                return t.isFloating() ? new String[] {t.javaName(), null, indexed} : null;
            }
            if (p instanceof Assignment a && a.getRightHandSide() == c) {
                NumType t = unit.types().of(a.getLeftHandSide());
                return t.isFloating() ? new String[] {t.javaName(), null, indexed} : null;
            }
            if (p instanceof ReturnStatement) {
                ASTNode m = p;
                while (m != null && !(m instanceof MethodDeclaration)) m = m.getParent();
                if (m == null || ((MethodDeclaration) m).getReturnType2() == null) return null;
                String t = ((MethodDeclaration) m).getReturnType2().toString();
                return t.equals("double") || t.equals("float") ? new String[] {t, null, indexed} : null;
            }
            if (p instanceof MethodInvocation mi && mi.arguments().contains(c)) {
                IMethodBinding b = mi.resolveMethodBinding();
                if (b == null) return null;
                ITypeBinding[] params = b.getParameterTypes();
                int i = mi.arguments().indexOf(c);
                if (i >= params.length) return null;
                String t = params[i].getName();
                if (!t.equals("double") && !t.equals("float")) return null;
                boolean math = b.getDeclaringClass() != null
                        && (b.getDeclaringClass().getQualifiedName().equals("java.lang.Math")
                                || b.getDeclaringClass().getQualifiedName().equals("java.lang.StrictMath"));
                return new String[] {t, math && ROUNDINGS.contains(b.getName()) ? b.getName() : null, indexed};
            }
            return null;
        }
        return null;
    }

    /** The integer value of a constant operand (with bindings, or a literal through parentheses and a sign), or null. */
    private static Double constant(Expression e) {
        Object v = e.resolveConstantExpressionValue();
        if (v instanceof Number n && !(v instanceof Float) && !(v instanceof Double)) return n.doubleValue();
        if (v instanceof Character ch) return (double) ch.charValue();
        boolean negative = false;
        while (true) {
            if (e instanceof ParenthesizedExpression p) e = p.getExpression();
            else if (e instanceof PrefixExpression p && p.getOperator() == PrefixExpression.Operator.MINUS) {
                negative = !negative;
                e = p.getOperand();
            } else break;
        }
        if (!(e instanceof NumberLiteral lit)) return null;
        double x = dev.numlint.java.Types.literalValue(lit.getToken());
        return Double.isNaN(x) ? null : negative ? -x : x;
    }
}
