package dev.numlint.java;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.core.dom.*;

/**
 * Loops of a compilation unit: the loops that carry a variable across iterations, constant trip counts (also
 * through {@code .length} of arrays created with a constant size in the same method), and compensated
 * (Kahan/Neumaier) summation.
 */
public final class LoopFacts {
    private final JavaUnit unit;
    private final Map<ASTNode, Boolean> compensated = new IdentityHashMap<>();
    private final Map<Statement, Long> trips = new IdentityHashMap<>();

    LoopFacts(JavaUnit unit) {
        this.unit = unit;
    }

    public static boolean isLoop(ASTNode p) {
        return p instanceof ForStatement
                || p instanceof WhileStatement
                || p instanceof DoStatement
                || p instanceof EnhancedForStatement;
    }

    /** The body of a loop statement. */
    public static Statement body(Statement loop) {
        if (loop instanceof ForStatement) return ((ForStatement) loop).getBody();
        if (loop instanceof WhileStatement) return ((WhileStatement) loop).getBody();
        if (loop instanceof DoStatement) return ((DoStatement) loop).getBody();
        if (loop instanceof EnhancedForStatement) return ((EnhancedForStatement) loop).getBody();
        return null;
    }

    /**
     * The loops around {@code n} that carry a variable declared by {@code decl} (may be null: a field) across
     * iterations, innermost first: the enclosing loops up to the method that do not contain the declaration.
     */
    public List<Statement> carrying(ASTNode n, VariableDeclaration decl) {
        List<Statement> loops = new ArrayList<>();
        for (ASTNode p = n.getParent(); p != null; p = p.getParent()) {
            if (p instanceof MethodDeclaration
                    || p instanceof LambdaExpression
                    || p instanceof AbstractTypeDeclaration
                    || p instanceof AnonymousClassDeclaration
                    || p instanceof Initializer) break;
            if (decl != null && JavaUnit.isAncestor(p, decl)) break;
            if (isLoop(p)) loops.add((Statement) p);
        }
        return loops;
    }

    /** Constant trip count of a loop, or -1 when unknown. */
    public long tripCount(Statement l) {
        return trips.computeIfAbsent(l, this::computeTripCount);
    }

    private long computeTripCount(Statement l) {
        RangeAnalysis ranges = unit.ranges();
        if (!(l instanceof ForStatement)) {
            if (l instanceof EnhancedForStatement) {
                Expression it = JavaSyntax.unparen(((EnhancedForStatement) l).getExpression());
                if (it instanceof ArrayCreation && ((ArrayCreation) it).getInitializer() != null)
                    return ((ArrayCreation) it).getInitializer().expressions().size();
                long n = constantLength(it);
                if (n >= 0) return n;
            }
            return -1;
        }
        ForStatement f = (ForStatement) l;
        if (f.initializers().size() != 1 || f.updaters().size() != 1 || f.getExpression() == null) return -1;
        String var;
        Expression init;
        Object i0 = f.initializers().get(0);
        if (i0 instanceof VariableDeclarationExpression
                && ((VariableDeclarationExpression) i0).fragments().size() == 1) {
            VariableDeclarationFragment vf = (VariableDeclarationFragment)
                    ((VariableDeclarationExpression) i0).fragments().get(0);
            var = vf.getName().getIdentifier();
            init = vf.getInitializer();
        } else if (i0 instanceof Assignment && ((Assignment) i0).getLeftHandSide() instanceof SimpleName) {
            var = ((SimpleName) ((Assignment) i0).getLeftHandSide()).getIdentifier();
            init = ((Assignment) i0).getRightHandSide();
        } else {
            return -1;
        }
        Range start = ranges.of(init);
        if (!start.isPoint()) return -1;
        Expression cond = JavaSyntax.unparen(f.getExpression());
        if (!(cond instanceof InfixExpression)) return -1;
        InfixExpression c = (InfixExpression) cond;
        Expression bound;
        InfixExpression.Operator op = c.getOperator();
        if (JavaSyntax.isName(c.getLeftOperand(), var)) bound = c.getRightOperand();
        else if (JavaSyntax.isName(c.getRightOperand(), var)) {
            bound = c.getLeftOperand();
            if (op == InfixExpression.Operator.LESS) op = InfixExpression.Operator.GREATER;
            else if (op == InfixExpression.Operator.GREATER) op = InfixExpression.Operator.LESS;
            else if (op == InfixExpression.Operator.LESS_EQUALS) op = InfixExpression.Operator.GREATER_EQUALS;
            else if (op == InfixExpression.Operator.GREATER_EQUALS) op = InfixExpression.Operator.LESS_EQUALS;
        } else return -1;
        Range end = ranges.of(bound);
        double e;
        if (end.isPoint()) {
            e = end.lo();
        } else {
            long n = lengthBound(bound);
            if (n < 0) return -1;
            e = n;
        }
        double step = step((Expression) f.updaters().get(0), var);
        if (step == 0 || Double.isNaN(step)) return -1;
        double s = start.lo();
        double n;
        if (op == InfixExpression.Operator.LESS) n = Math.ceil((e - s) / step);
        else if (op == InfixExpression.Operator.LESS_EQUALS) n = Math.floor((e - s) / step) + 1;
        else if (op == InfixExpression.Operator.GREATER) n = Math.ceil((s - e) / -step);
        else if (op == InfixExpression.Operator.GREATER_EQUALS) n = Math.floor((s - e) / -step) + 1;
        else if (op == InfixExpression.Operator.NOT_EQUALS) n = (e - s) / step;
        else return -1;
        return n < 0 || Double.isNaN(n) || Double.isInfinite(n) ? -1 : (long) Math.max(0, n);
    }

    /** {@code a.length} where {@code a} is a local array created with a constant size or initializer, or -1. */
    private long lengthBound(Expression bound) {
        bound = JavaSyntax.unparen(bound);
        Expression arr = null;
        if (bound instanceof QualifiedName
                && ((QualifiedName) bound).getName().getIdentifier().equals("length")) {
            arr = ((QualifiedName) bound).getQualifier();
        } else if (bound instanceof FieldAccess
                && ((FieldAccess) bound).getName().getIdentifier().equals("length")) {
            arr = ((FieldAccess) bound).getExpression();
        }
        return arr == null ? -1 : constantLength(arr);
    }

    private long constantLength(Expression arr) {
        arr = JavaSyntax.unparen(arr);
        if (!(arr instanceof SimpleName)) return -1;
        SimpleName name = (SimpleName) arr;
        VariableDeclaration d = Types.declarationOf(name);
        if (d == null || d.getInitializer() == null) return -1;
        // the array must not be reassigned between its declaration and the loop
        ASTNode scope = d.getParent() == null ? null : d.getParent().getParent();
        if (scope != null && JavaSyntax.assignedIn(scope, name.getIdentifier())) return -1;
        Expression init = JavaSyntax.unparen(d.getInitializer());
        if (init instanceof ArrayInitializer)
            return ((ArrayInitializer) init).expressions().size();
        if (init instanceof ArrayCreation) {
            ArrayCreation ac = (ArrayCreation) init;
            if (ac.getInitializer() != null)
                return ac.getInitializer().expressions().size();
            if (ac.dimensions().size() >= 1) {
                Range r = unit.ranges().of((Expression) ac.dimensions().get(0));
                if (r.isPoint() && r.lo() >= 0) return (long) r.lo();
            }
        }
        return -1;
    }

    private double step(Expression u, String var) {
        if (u instanceof PostfixExpression && JavaSyntax.isName(((PostfixExpression) u).getOperand(), var)) {
            return ((PostfixExpression) u).getOperator() == PostfixExpression.Operator.INCREMENT ? 1 : -1;
        }
        if (u instanceof PrefixExpression && JavaSyntax.isName(((PrefixExpression) u).getOperand(), var)) {
            PrefixExpression.Operator o = ((PrefixExpression) u).getOperator();
            return o == PrefixExpression.Operator.INCREMENT
                    ? 1
                    : o == PrefixExpression.Operator.DECREMENT ? -1 : Double.NaN;
        }
        if (u instanceof Assignment && JavaSyntax.isName(((Assignment) u).getLeftHandSide(), var)) {
            Assignment a = (Assignment) u;
            Range r = unit.ranges().of(a.getRightHandSide());
            if (!r.isPoint()) return Double.NaN;
            if (a.getOperator() == Assignment.Operator.PLUS_ASSIGN) return r.lo();
            if (a.getOperator() == Assignment.Operator.MINUS_ASSIGN) return -r.lo();
        }
        return Double.NaN;
    }

    /** Kahan/Neumaier: the loop computes a compensation term like {@code c = (t - sum) - y}. */
    public boolean isCompensated(Statement loop) {
        return compensated.computeIfAbsent(loop, l -> {
            boolean[] hit = {false};
            l.accept(new ASTVisitor() {
                @Override
                public boolean visit(InfixExpression in) {
                    if (in.getOperator() == InfixExpression.Operator.MINUS
                            || in.getOperator() == InfixExpression.Operator.PLUS) {
                        Expression left = JavaSyntax.unparen(in.getLeftOperand());
                        if (in.getLeftOperand() instanceof ParenthesizedExpression
                                && left instanceof InfixExpression
                                && ((InfixExpression) left).getOperator() == InfixExpression.Operator.MINUS
                                && unit.types().isFloating(left)) {
                            hit[0] = true;
                        }
                    }
                    return !hit[0];
                }
            });
            return hit[0];
        });
    }
}
