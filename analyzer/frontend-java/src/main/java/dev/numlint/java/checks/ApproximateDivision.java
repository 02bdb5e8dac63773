package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaSyntax;
import dev.numlint.java.JavaUnit;
import dev.numlint.java.LoopFacts;
import dev.numlint.java.Types;
import dev.numlint.model.Impact;
import dev.numlint.model.Level;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.core.dom.*;

/**
 * NL002 in Java source: multiplication by a rounded reciprocal ({@code x * (1.0f / y)}, or {@code r = 1 / y}
 * hoisted out of a loop that multiplies by it): two roundings instead of the one of {@code x / y}. A note at most.
 */
@AutoService(JavaCheck.class)
public final class ApproximateDivision implements JavaCheck {
    @Override
    public String ruleId() {
        return "NL002";
    }

    @Override
    public void check(JavaUnit unit) {
        for (InfixExpression in : unit.infixes()) {
            if (in.getOperator() != InfixExpression.Operator.TIMES
                    || !unit.types().isFloating(in)) continue;
            List<Expression> ops = new ArrayList<>();
            ops.add(in.getLeftOperand());
            ops.add(in.getRightOperand());
            for (Object o : in.extendedOperands()) ops.add((Expression) o);
            for (Expression o : ops) {
                InfixExpression rec = reciprocal(unit, o);
                if (rec != null) {
                    Impact impact = unit.impacts().of(in);
                    String msg = JavaUnit.message(
                            "NL002",
                            "java-reciprocal",
                            "expr",
                            unit.shortText(in, 50),
                            "rec",
                            unit.shortText(rec, 30),
                            "consequence",
                            impact.consequence());
                    unit.report(ruleId(), in, msg, unit.types().typeOf(in).guessed(), Level.NOTE, impact);
                    break;
                }
            }
        }
        for (VariableDeclarationFragment vf : unit.fragments()) {
            Expression init = vf.getInitializer();
            InfixExpression rec = init == null ? null : reciprocal(unit, init);
            if (rec == null) continue;
            // hoisted reciprocal: r = 1.0f / y; ... x * r inside a loop that does not contain the declaration
            String id = vf.getName().getIdentifier();
            ASTNode scope = vf.getParent().getParent();
            InfixExpression use = findLoopMultiply(scope, id, vf);
            if (use != null) {
                Impact impact = unit.impacts().of(use);
                String msg = JavaUnit.message(
                        "NL002",
                        "java-hoisted",
                        "name",
                        id,
                        "rec",
                        unit.shortText(rec, 30),
                        "use",
                        unit.shortText(use, 30),
                        "line",
                        unit.line(use),
                        "consequence",
                        impact.consequence());
                unit.report(ruleId(), vf, msg, unit.types().typeOf(init).guessed(), Level.NOTE, impact);
            }
        }
    }

    /** 1 / y (1, 1.0, 1f ...) with a non-constant floating y, or null. */
    private static InfixExpression reciprocal(JavaUnit unit, Expression e) {
        e = JavaSyntax.unparen(e);
        if (!(e instanceof InfixExpression)) return null;
        InfixExpression d = (InfixExpression) e;
        if (d.getOperator() != InfixExpression.Operator.DIVIDE
                || !d.extendedOperands().isEmpty()) return null;
        Expression num = JavaSyntax.unparen(d.getLeftOperand());
        if (!(num instanceof NumberLiteral) || Types.literalValue(((NumberLiteral) num).getToken()) != 1.0) return null;
        if (!unit.types().isFloating(d)) return null;
        if (d.getRightOperand().resolveConstantExpressionValue() != null) return null;
        if (JavaSyntax.unparen(d.getRightOperand()) instanceof NumberLiteral) return null;
        return d;
    }

    private static InfixExpression findLoopMultiply(ASTNode scope, String id, ASTNode decl) {
        InfixExpression[] found = {null};
        scope.accept(new ASTVisitor() {
            @Override
            public boolean visit(InfixExpression in) {
                if (found[0] != null) return false;
                if (in.getOperator() != InfixExpression.Operator.TIMES
                        || in.getStartPosition() < decl.getStartPosition()) return true;
                boolean uses =
                        JavaSyntax.isName(in.getLeftOperand(), id) || JavaSyntax.isName(in.getRightOperand(), id);
                for (Object o : in.extendedOperands()) uses |= JavaSyntax.isName((Expression) o, id);
                if (uses && inLoopNotContaining(in, decl)) found[0] = in;
                return true;
            }
        });
        return found[0];
    }

    private static boolean inLoopNotContaining(ASTNode n, ASTNode decl) {
        for (ASTNode p = n.getParent(); p != null; p = p.getParent()) {
            if (p instanceof MethodDeclaration || p instanceof LambdaExpression) return false;
            if (JavaUnit.isAncestor(p, decl)) return false;
            if (LoopFacts.isLoop(p)) return true;
        }
        return false;
    }
}
