package dev.numlint.java;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.core.dom.*;

/**
 * The syntax questions the Java analyses ask of JDT trees: parentheses, simple names, whether and where a name is
 * assigned, sums, exits and comparison operators. Stateless; used by the range analysis ({@link RangeAnalysis},
 * {@link RangeGuards}, {@link RangePatterns}), the loop facts and the checks.
 */
public final class JavaSyntax {
    private JavaSyntax() {}

    /** Whether none of {@code names} is assigned in the method between {@code from} and {@code to}. */
    static boolean namesStable(java.util.Set<String> names, ASTNode from, ASTNode to) {
        for (String n : names) if (!n.isEmpty() && assignedBetween(from, to, n)) return false;
        return true;
    }

    /**
     * Whether {@code id} is assigned after {@code from} ends and before {@code to} starts in their method, or
     * anywhere in a loop that encloses {@code to} but not {@code from} (a later iteration sees that assignment).
     */
    static boolean assignedBetween(ASTNode from, ASTNode to, String id) {
        ASTNode body = to;
        while (body != null && !(body instanceof MethodDeclaration) && !(body instanceof LambdaExpression))
            body = body.getParent();
        if (body == null) return true;
        int lo = from.getStartPosition() + from.getLength();
        int hi = to.getStartPosition();
        int[] loopLo = {hi};
        int[] loopHi = {hi};
        for (ASTNode p = to.getParent(); p != null && p != body; p = p.getParent()) {
            if (LoopFacts.isLoop(p) && !JavaUnit.isAncestor(p, from)) {
                loopLo[0] = Math.min(loopLo[0], p.getStartPosition());
                loopHi[0] = Math.max(loopHi[0], p.getStartPosition() + p.getLength());
            }
        }
        boolean[] hit = {false};
        body.accept(new ASTVisitor() {
            private void check(ASTNode n, Expression target) {
                if (!isName(target, id)) return;
                int at = n.getStartPosition();
                if (at >= lo && at < hi || at >= loopLo[0] && at < loopHi[0]) hit[0] = true;
            }

            @Override
            public boolean visit(Assignment a) {
                check(a, a.getLeftHandSide());
                return !hit[0];
            }

            @Override
            public boolean visit(PostfixExpression p) {
                check(p, p.getOperand());
                return !hit[0];
            }

            @Override
            public boolean visit(PrefixExpression p) {
                if (p.getOperator() == PrefixExpression.Operator.INCREMENT
                        || p.getOperator() == PrefixExpression.Operator.DECREMENT) check(p, p.getOperand());
                return !hit[0];
            }
        });
        return hit[0];
    }

    static boolean zeroOrNull(Expression e) {
        if (e == null) return true;
        e = unparen(e);
        if (e instanceof CastExpression) e = unparen(((CastExpression) e).getExpression());
        return e instanceof NumberLiteral && Types.literalValue(((NumberLiteral) e).getToken()) == 0;
    }

    /** The operands of a sum written with +, or the expression itself. */
    static List<Expression> terms(Expression e) {
        List<Expression> out = new ArrayList<>();
        if (e instanceof InfixExpression && ((InfixExpression) e).getOperator() == InfixExpression.Operator.PLUS) {
            InfixExpression in = (InfixExpression) e;
            out.add(unparen(in.getLeftOperand()));
            out.add(unparen(in.getRightOperand()));
            for (Object o : in.extendedOperands()) out.add(unparen((Expression) o));
        } else {
            out.add(e);
        }
        return out;
    }

    /**
     * The simple names {@code n} changes: targets of assignments and of ++/--, and variables it declares (a
     * variable declared inside a loop is a new value in every iteration).
     */
    public static java.util.Set<String> namesChangedIn(ASTNode n) {
        java.util.Set<String> out = new java.util.HashSet<>();
        n.accept(new ASTVisitor() {
            private void target(Expression t) {
                Expression u = unparen(t);
                if (u instanceof SimpleName) out.add(((SimpleName) u).getIdentifier());
            }

            @Override
            public boolean visit(Assignment a) {
                target(a.getLeftHandSide());
                return true;
            }

            @Override
            public boolean visit(PostfixExpression p) {
                target(p.getOperand());
                return true;
            }

            @Override
            public boolean visit(PrefixExpression p) {
                if (p.getOperator() == PrefixExpression.Operator.INCREMENT
                        || p.getOperator() == PrefixExpression.Operator.DECREMENT) target(p.getOperand());
                return true;
            }

            @Override
            public boolean visit(VariableDeclarationFragment f) {
                out.add(f.getName().getIdentifier());
                return true;
            }

            @Override
            public boolean visit(SingleVariableDeclaration d) {
                out.add(d.getName().getIdentifier());
                return true;
            }
        });
        return out;
    }

    static Statement single(Statement s) {
        if (s instanceof Block && ((Block) s).statements().size() == 1)
            return (Statement) ((Block) s).statements().get(0);
        return s;
    }

    static boolean exits(Statement s) {
        s = single(s);
        return s instanceof ReturnStatement
                || s instanceof ContinueStatement
                || s instanceof BreakStatement
                || s instanceof ThrowStatement;
    }

    static InfixExpression.Operator flip(InfixExpression.Operator op) {
        if (op == InfixExpression.Operator.LESS) return InfixExpression.Operator.GREATER;
        if (op == InfixExpression.Operator.GREATER) return InfixExpression.Operator.LESS;
        if (op == InfixExpression.Operator.LESS_EQUALS) return InfixExpression.Operator.GREATER_EQUALS;
        if (op == InfixExpression.Operator.GREATER_EQUALS) return InfixExpression.Operator.LESS_EQUALS;
        if (op == InfixExpression.Operator.EQUALS || op == InfixExpression.Operator.NOT_EQUALS) return op;
        return null;
    }

    static InfixExpression.Operator negate(InfixExpression.Operator op) {
        if (op == InfixExpression.Operator.LESS) return InfixExpression.Operator.GREATER_EQUALS;
        if (op == InfixExpression.Operator.GREATER) return InfixExpression.Operator.LESS_EQUALS;
        if (op == InfixExpression.Operator.LESS_EQUALS) return InfixExpression.Operator.GREATER;
        if (op == InfixExpression.Operator.GREATER_EQUALS) return InfixExpression.Operator.LESS;
        if (op == InfixExpression.Operator.EQUALS) return InfixExpression.Operator.NOT_EQUALS;
        if (op == InfixExpression.Operator.NOT_EQUALS) return InfixExpression.Operator.EQUALS;
        return null;
    }

    public static Expression unparen(Expression e) {
        while (e instanceof ParenthesizedExpression) e = ((ParenthesizedExpression) e).getExpression();
        return e;
    }

    /** Whether a for loop's updater is {@code id++} or {@code ++id}. */
    static boolean incrementsByOne(Object u, String id) {
        return u instanceof PostfixExpression
                        && ((PostfixExpression) u).getOperator() == PostfixExpression.Operator.INCREMENT
                        && isName(((PostfixExpression) u).getOperand(), id)
                || u instanceof PrefixExpression
                        && ((PrefixExpression) u).getOperator() == PrefixExpression.Operator.INCREMENT
                        && isName(((PrefixExpression) u).getOperand(), id);
    }

    public static boolean isName(Expression e, String id) {
        e = unparen(e);
        return e instanceof SimpleName && ((SimpleName) e).getIdentifier().equals(id);
    }

    /** Whether {@code n} assigns (=, op=, ++, --) the simple name {@code id}. */
    public static boolean assignedIn(ASTNode n, String id) {
        boolean[] hit = {false};
        n.accept(new ASTVisitor() {
            @Override
            public boolean visit(Assignment a) {
                if (isName(a.getLeftHandSide(), id)) hit[0] = true;
                return !hit[0];
            }

            @Override
            public boolean visit(PostfixExpression p) {
                if (isName(p.getOperand(), id)) hit[0] = true;
                return !hit[0];
            }

            @Override
            public boolean visit(PrefixExpression p) {
                if ((p.getOperator() == PrefixExpression.Operator.INCREMENT
                                || p.getOperator() == PrefixExpression.Operator.DECREMENT)
                        && isName(p.getOperand(), id)) hit[0] = true;
                return !hit[0];
            }

            @Override
            public boolean visit(TypeDeclaration t) {
                return false;
            }
        });
        return hit[0];
    }
}
