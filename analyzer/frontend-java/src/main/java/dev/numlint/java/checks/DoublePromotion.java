package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaSyntax;
import dev.numlint.java.JavaUnit;
import dev.numlint.java.Narrowing;
import dev.numlint.java.NumType;
import dev.numlint.java.Types;
import dev.numlint.knowledge.FloatExactness;
import dev.numlint.model.Impact;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.core.dom.*;

/**
 * NL008 in Java source: float operands evaluated in double because of an unsuffixed literal or a Math call, and
 * the result rounded back to float ({@code (float) (x * 0.1)}, {@code f += d}). The level follows where the float
 * result goes: a note when it is only stored.
 */
@AutoService(JavaCheck.class)
public final class DoublePromotion implements JavaCheck {
    @Override
    public String ruleId() {
        return "NL008";
    }

    @Override
    public void check(JavaUnit unit) {
        for (CastExpression c : unit.casts()) {
            if (Types.typeNode(c.getType()) != NumType.FLOAT) continue;
            Types.T t = unit.types().typeOf(c.getExpression());
            if (t.type() == NumType.DOUBLE) promotion(unit, c, c.getExpression(), null, t.guessed());
        }
        for (Assignment a : unit.assignments()) {
            Assignment.Operator op = a.getOperator();
            if (op == Assignment.Operator.ASSIGN) continue;
            Expression lhs = a.getLeftHandSide();
            Types.T lt = unit.types().typeOf(lhs);
            if (lt.type() == NumType.FLOAT
                    && (op == Assignment.Operator.PLUS_ASSIGN
                            || op == Assignment.Operator.MINUS_ASSIGN
                            || op == Assignment.Operator.TIMES_ASSIGN
                            || op == Assignment.Operator.DIVIDE_ASSIGN)) {
                Types.T rt = unit.types().typeOf(a.getRightHandSide());
                if (rt.type() == NumType.DOUBLE)
                    promotion(unit, a, a.getRightHandSide(), lhs, lt.guessed() || rt.guessed());
            }
        }
    }

    private static final class Promotion {
        int floatLeaves;
        int doubleVars;
        int unknown;
        int ops;
        String inexact;
        double inexactValue;
        String literal;
        String mathCall;
    }

    private void promotion(JavaUnit unit, Expression site, Expression e, Expression compoundTarget, boolean guessed) {
        Promotion p = new Promotion();
        scan(unit, e, p);
        if (compoundTarget != null) {
            p.floatLeaves++;
            p.ops++;
        }
        if (p.floatLeaves == 0 || p.doubleVars > 0 || p.unknown > 0) return;
        if (p.inexact == null && p.ops < 2) return;
        if (p.inexact == null && p.literal == null && p.mathCall == null) return;
        String what =
                p.inexact != null ? "literal " + p.inexact : p.literal != null ? "literal " + p.literal : p.mathCall;
        Impact impact = unit.impacts().of(site);
        String msg;
        if (p.inexact != null) {
            msg = JavaUnit.message(
                    "NL008",
                    "java-literal",
                    "expr",
                    unit.shortText(site, 40),
                    "what",
                    what,
                    "exact",
                    Narrowing.exact(p.inexactValue, 12),
                    "asFloat",
                    Narrowing.exact((float) p.inexactValue, 11),
                    "consequence",
                    impact.consequence());
        } else {
            msg = JavaUnit.message(
                    "NL008",
                    "java-ops",
                    "expr",
                    unit.shortText(site, 40),
                    "what",
                    what,
                    "ops",
                    p.ops,
                    "consequence",
                    impact.consequence());
        }
        unit.report(ruleId(), site, msg, guessed, null, impact);
    }

    private static void scan(JavaUnit unit, Expression e, Promotion p) {
        e = JavaSyntax.unparen(e);
        NumType t = unit.types().of(e);
        if (t == NumType.DOUBLE
                && !(e instanceof NumberLiteral)
                && !(e instanceof Name)
                && e.resolveConstantExpressionValue() instanceof Number) {
            // a constant subexpression such as -1.0/3.0 acts as one literal
            double v = ((Number) e.resolveConstantExpressionValue()).doubleValue();
            if ((double) (float) v != v) {
                if (p.inexact == null) {
                    p.inexact = unit.text(e);
                    p.inexactValue = v;
                }
            } else if (p.literal == null) p.literal = unit.text(e);
            return;
        }
        switch (e.getNodeType()) {
            case ASTNode.NUMBER_LITERAL: {
                String tok = ((NumberLiteral) e).getToken();
                if (Types.literalType(tok) == NumType.DOUBLE) {
                    double v = Types.literalValue(tok);
                    if (!Double.isNaN(v) && (double) (float) v != v) {
                        if (p.inexact == null) {
                            p.inexact = tok;
                            p.inexactValue = v;
                        }
                    } else if (p.literal == null) p.literal = tok;
                }
                return;
            }
            case ASTNode.INFIX_EXPRESSION: {
                InfixExpression in = (InfixExpression) e;
                InfixExpression.Operator op = in.getOperator();
                boolean arith = op == InfixExpression.Operator.PLUS
                        || op == InfixExpression.Operator.MINUS
                        || op == InfixExpression.Operator.TIMES
                        || op == InfixExpression.Operator.DIVIDE
                        || op == InfixExpression.Operator.REMAINDER;
                if (!arith) {
                    p.unknown++;
                    return;
                }
                List<Expression> operands = new ArrayList<>();
                operands.add(in.getLeftOperand());
                operands.add(in.getRightOperand());
                for (Object o : in.extendedOperands()) operands.add((Expression) o);
                if (t == NumType.DOUBLE) {
                    int exactScale = 0;
                    if (op == InfixExpression.Operator.TIMES) {
                        for (Expression o : operands) if (isPowerOfTwoLiteral(o)) exactScale++;
                    } else if (op == InfixExpression.Operator.DIVIDE) {
                        // x / 2.0 is exact; 4.0 / x is not
                        for (int k = 1; k < operands.size(); k++)
                            if (isPowerOfTwoLiteral(operands.get(k))) exactScale++;
                    }
                    p.ops += operands.size() - 1 - exactScale;
                }
                for (Expression o : operands) scan(unit, o, p);
                return;
            }
            case ASTNode.PREFIX_EXPRESSION:
                scan(unit, ((PrefixExpression) e).getOperand(), p);
                return;
            case ASTNode.METHOD_INVOCATION: {
                MethodInvocation m = (MethodInvocation) e;
                String q = m.getExpression() == null ? "" : m.getExpression().toString();
                if ((q.equals("Math") || q.equals("StrictMath")) && t == NumType.DOUBLE) {
                    p.ops++;
                    if (p.mathCall == null) p.mathCall = q + "." + m.getName().getIdentifier();
                    for (Object a : m.arguments()) scan(unit, (Expression) a, p);
                    return;
                }
                break;
            }
            default:
                break;
        }
        if (t == NumType.FLOAT || t.isIntegral()) {
            if (t == NumType.FLOAT) p.floatLeaves++;
        } else if (t == NumType.DOUBLE) {
            p.doubleVars++;
        } else {
            p.unknown++;
        }
    }

    private static boolean isPowerOfTwoLiteral(Expression e) {
        e = JavaSyntax.unparen(e);
        if (!(e instanceof NumberLiteral)) return false;
        double v = Types.literalValue(((NumberLiteral) e).getToken());
        return FloatExactness.isPowerOfTwo(v) && Math.getExponent(Math.abs(v)) >= -120;
    }
}
