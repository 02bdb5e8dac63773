package dev.numlint.java;

import dev.numlint.model.Impact;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jdt.core.dom.*;

/**
 * Where a floating value goes, through def-use of locals inside its method: whether a one-ulp difference in it can
 * change an integer, an index, a decision or a selection ({@link Impact.Kind#AMPLIFIED}), meets a subtraction of a
 * similar product ({@link Impact.Kind#CANCELLATION}), or is only stored, returned or passed on
 * ({@link Impact.Kind#BOUNDED}).
 */
public final class ValueImpacts {
    private static final int MAX_DEPTH = 4;
    private static final Set<String> ROUNDING = Set.of("round", "floor", "ceil", "rint", "floorDiv", "toIntExact");
    private static final Set<String> SELECTING = Set.of("min", "max", "signum", "clamp");
    /** java.lang.Math functions whose result carries the argument's error on (monotone or exact transforms). */
    private static final Set<String> CARRYING = Set.of(
            "abs",
            "sqrt",
            "cbrt",
            "exp",
            "log",
            "log10",
            "sin",
            "cos",
            "tan",
            "atan",
            "atan2",
            "hypot",
            "pow",
            "toDegrees",
            "toRadians",
            "scalb",
            "copySign",
            "fma",
            "sinh",
            "cosh",
            "tanh",
            "expm1",
            "log1p",
            "asin",
            "acos");

    private final JavaUnit unit;

    ValueImpacts(JavaUnit unit) {
        this.unit = unit;
    }

    /** The most consequential use of the value of {@code e}; bounded ("stored") when nothing more is found. */
    public Impact of(Expression e) {
        Impact best;
        Expression lhs = e instanceof Assignment ? JavaSyntax.unparen(((Assignment) e).getLeftHandSide()) : null;
        if (lhs instanceof SimpleName && isLocal((SimpleName) lhs)) {
            best = followName((SimpleName) lhs, e, 0, new HashSet<>());
        } else {
            best = follow(e, 0, new HashSet<>());
        }
        return best != null ? best : Impact.bounded("only stored or returned: a few ulp at most");
    }

    private Impact follow(Expression e, int depth, Set<String> seen) {
        ASTNode child = e;
        ASTNode p = e.getParent();
        while (true) {
            if (p instanceof ParenthesizedExpression) {
                child = p;
                p = p.getParent();
                continue;
            }
            if (p instanceof CastExpression) {
                NumType t = Types.typeNode(((CastExpression) p).getType());
                if (t.isIntegral() || t == NumType.CHAR) {
                    return amplified(
                            "truncated by " + castText((CastExpression) p) + " at line " + unit.line(p)
                                    + ": 1 ulp can change the integer",
                            p);
                }
                child = p;
                p = p.getParent();
                continue;
            }
            if (p instanceof ArrayAccess && ((ArrayAccess) p).getIndex() == child) {
                return amplified("used as an array index at line " + unit.line(p), p);
            }
            if (p instanceof PrefixExpression) {
                child = p;
                p = p.getParent();
                continue;
            }
            if (p instanceof InfixExpression) {
                InfixExpression in = (InfixExpression) p;
                InfixExpression.Operator op = in.getOperator();
                if (isComparison(op)) {
                    ConditionalExpression select = clampSelect(in, child);
                    if (select != null) {
                        // v < c ? c : v is continuous in v (a clamp): follow the clamped value on
                        child = select;
                        p = select.getParent();
                        continue;
                    }
                    if (isClampStatement(in, child)) return null; // if (v < c) v = c;: continuous, v is followed on
                    return amplified("compared at line " + unit.line(in) + ": 1 ulp can flip the decision", in);
                }
                if (op == InfixExpression.Operator.MINUS && isProduct(child) && otherIsProduct(in, child)) {
                    return new Impact(
                            Impact.Kind.CANCELLATION,
                            "subtracted from a similar product at line " + unit.line(in)
                                    + ": the difference can lose all digits",
                            unit.location(in),
                            null);
                }
                if (op == InfixExpression.Operator.CONDITIONAL_AND || op == InfixExpression.Operator.CONDITIONAL_OR) {
                    return null;
                }
                child = p;
                p = p.getParent();
                continue;
            }
            if (p instanceof ConditionalExpression) {
                if (((ConditionalExpression) p).getExpression() == child) return null;
                child = p;
                p = p.getParent();
                continue;
            }
            if (p instanceof MethodInvocation) {
                MethodInvocation m = (MethodInvocation) p;
                if (m.getExpression() == child) return null;
                String n = m.getName().getIdentifier();
                if (unit.isJavaLangMath(m) || isStrictMath(m)) {
                    if (ROUNDING.contains(n)) {
                        return amplified(
                                "rounded by Math." + n + " at line " + unit.line(m) + ": 1 ulp can change the integer",
                                m);
                    }
                    if (SELECTING.contains(n) && !"signum".equals(n) && clampsToConstant(m, child)) {
                        // Math.min(1.0, v) is the clamp if (v > 1) v = 1: continuous in v, follow the value on
                        child = p;
                        p = p.getParent();
                        continue;
                    }
                    if (SELECTING.contains(n)) {
                        return amplified(
                                "selected by Math." + n + " at line " + unit.line(m)
                                        + ": 1 ulp can pick the other operand",
                                m);
                    }
                    if (CARRYING.contains(n)) {
                        child = p;
                        p = p.getParent();
                        continue;
                    }
                }
                return null; // passed to another method
            }
            if (p instanceof Assignment && ((Assignment) p).getRightHandSide() == child) {
                Expression lhs = JavaSyntax.unparen(((Assignment) p).getLeftHandSide());
                if (lhs instanceof SimpleName && isLocal((SimpleName) lhs)) {
                    return followName((SimpleName) lhs, p, depth, seen);
                }
                return null; // stored in a field or array element
            }
            if (p instanceof VariableDeclarationFragment
                    && ((VariableDeclarationFragment) p).getInitializer() == child) {
                return followName(((VariableDeclarationFragment) p).getName(), p, depth, seen);
            }
            if (p instanceof IfStatement
                    || p instanceof WhileStatement
                    || p instanceof DoStatement
                    || p instanceof ForStatement) {
                return amplified("decides a branch at line " + unit.line(p), p);
            }
            return null;
        }
    }

    private Impact followName(SimpleName name, ASTNode def, int depth, Set<String> seen) {
        if (depth >= MAX_DEPTH) return null;
        String id = name.getIdentifier();
        if (!seen.add(id + "@" + def.getStartPosition())) return null;
        ASTNode scope = enclosingBody(def);
        if (scope == null) return null;
        Impact[] best = {null};
        int from = def.getStartPosition() + def.getLength();
        scope.accept(new ASTVisitor() {
            @Override
            public boolean visit(SimpleName n) {
                if (best[0] != null && best[0].kind() == Impact.Kind.AMPLIFIED) return false;
                if (!n.getIdentifier().equals(id) || n.getStartPosition() < from && !inLoopWith(n, def)) return false;
                if (n.getParent() instanceof Assignment
                        && ((Assignment) n.getParent()).getLeftHandSide() == n
                        && ((Assignment) n.getParent()).getOperator() == Assignment.Operator.ASSIGN) return false;
                if (n.getLocationInParent() == VariableDeclarationFragment.NAME_PROPERTY) return false;
                if (n.getParent() instanceof QualifiedName && ((QualifiedName) n.getParent()).getName() == n)
                    return false;
                if (n.getParent() instanceof FieldAccess
                        || n.getParent() instanceof MethodInvocation
                                && ((MethodInvocation) n.getParent()).getName() == n) return false;
                Impact i = follow(n, depth + 1, seen);
                best[0] = worse(best[0], i);
                return false;
            }
        });
        return best[0];
    }

    private static boolean inLoopWith(ASTNode use, ASTNode def) {
        for (ASTNode p = def.getParent(); p != null && !(p instanceof BodyDeclaration); p = p.getParent()) {
            if (LoopFacts.isLoop(p) && JavaUnit.isAncestor(p, use)) return true;
        }
        return false;
    }

    private static ASTNode enclosingBody(ASTNode n) {
        for (ASTNode p = n.getParent(); p != null; p = p.getParent()) {
            if (p instanceof MethodDeclaration) return ((MethodDeclaration) p).getBody();
            if (p instanceof LambdaExpression) return ((LambdaExpression) p).getBody();
            if (p instanceof Initializer) return ((Initializer) p).getBody();
            if (p instanceof AbstractTypeDeclaration) return null;
        }
        return null;
    }

    private static boolean isLocal(SimpleName n) {
        IBinding b = n.resolveBinding();
        if (b instanceof IVariableBinding) return !((IVariableBinding) b).isField();
        VariableDeclaration d = Types.declarationOf(n);
        return d != null && !(d.getParent() instanceof FieldDeclaration);
    }

    /**
     * The conditional expression when comparison {@code in} of {@code child} with a bound selects between the value
     * and that bound ({@code v < c ? c : v}, {@code v > c ? c : v}): a clamp, whose result moves by at most what
     * {@code v} moves, so the comparison cannot amplify a one-ulp difference. Null otherwise.
     */
    private static ConditionalExpression clampSelect(InfixExpression in, ASTNode child) {
        if (!in.extendedOperands().isEmpty() || in.getOperator() == InfixExpression.Operator.EQUALS) return null;
        ASTNode p = in.getParent();
        while (p instanceof ParenthesizedExpression) p = p.getParent();
        if (!(p instanceof ConditionalExpression)) return null;
        ConditionalExpression c = (ConditionalExpression) p;
        if (JavaSyntax.unparen(c.getExpression()) != in) return null;
        Expression v = JavaSyntax.unparen((Expression) child);
        Expression bound = in.getLeftOperand() == child ? in.getRightOperand() : in.getLeftOperand();
        Expression t = JavaSyntax.unparen(c.getThenExpression());
        Expression e = JavaSyntax.unparen(c.getElseExpression());
        boolean matches = same(t, bound) && same(e, v) || same(t, v) && same(e, bound);
        return matches ? c : null;
    }

    /**
     * Whether comparison {@code in} of the local {@code child} is the condition (alone, or one disjunct of an
     * {@code ||} such as {@code Float.isNaN(v) || v < 0}) of {@code if (v < c) v = c;}: the statement clamps the
     * value to the bound it is compared with, a continuous operation; later uses of {@code v} are followed anyway.
     */
    private static boolean isClampStatement(InfixExpression in, ASTNode child) {
        if (!in.extendedOperands().isEmpty() || in.getOperator() == InfixExpression.Operator.EQUALS) return false;
        Expression v = JavaSyntax.unparen((Expression) child);
        if (!(v instanceof SimpleName)) return false;
        Expression bound = in.getLeftOperand() == child ? in.getRightOperand() : in.getLeftOperand();
        ASTNode p = in.getParent();
        while (p instanceof ParenthesizedExpression
                || p instanceof InfixExpression
                        && ((InfixExpression) p).getOperator() == InfixExpression.Operator.CONDITIONAL_OR)
            p = p.getParent();
        if (!(p instanceof IfStatement) || ((IfStatement) p).getElseStatement() != null) return false;
        Statement then = ((IfStatement) p).getThenStatement();
        if (then instanceof Block && ((Block) then).statements().size() == 1)
            then = (Statement) ((Block) then).statements().get(0);
        if (!(then instanceof ExpressionStatement)
                || !(((ExpressionStatement) then).getExpression() instanceof Assignment)) return false;
        Assignment a = (Assignment) ((ExpressionStatement) then).getExpression();
        return a.getOperator() == Assignment.Operator.ASSIGN
                && JavaSyntax.isName(a.getLeftHandSide(), ((SimpleName) v).getIdentifier())
                && sameValue(a.getRightHandSide(), bound);
    }

    private static boolean same(Expression a, Expression b) {
        return JavaSyntax.unparen(a).subtreeMatch(new ASTMatcher(), JavaSyntax.unparen(b));
    }

    /** Same expression, or equal numeric constants ({@code 0} and {@code 0f}). */
    private static boolean sameValue(Expression a, Expression b) {
        if (same(a, b)) return true;
        Object x = JavaSyntax.unparen(a).resolveConstantExpressionValue();
        Object y = JavaSyntax.unparen(b).resolveConstantExpressionValue();
        if (x == null) x = literal(a);
        if (y == null) y = literal(b);
        return x instanceof Number && y instanceof Number && ((Number) x).doubleValue() == ((Number) y).doubleValue();
    }

    private static Object literal(Expression e) {
        e = JavaSyntax.unparen(e);
        return e instanceof NumberLiteral ? (Object) Types.literalValue(((NumberLiteral) e).getToken()) : null;
    }

    private static Impact worse(Impact a, Impact b) {
        if (a == null) return b;
        if (b == null) return a;
        return b.kind().ordinal() < a.kind().ordinal() ? b : a;
    }

    private Impact amplified(String consequence, ASTNode sink) {
        return Impact.amplified(consequence, unit.location(sink));
    }

    private String castText(CastExpression c) {
        return "(" + c.getType() + ")";
    }

    /** Math.min/max/clamp whose other arguments are all constants: a clamp of {@code child} to fixed bounds. */
    private static boolean clampsToConstant(MethodInvocation m, ASTNode child) {
        if (m.arguments().size() < 2) return false;
        for (Object o : m.arguments()) {
            if (o == child) continue;
            Expression a = JavaSyntax.unparen((Expression) o);
            if (a instanceof PrefixExpression
                    && ((PrefixExpression) a).getOperator() == PrefixExpression.Operator.MINUS)
                a = JavaSyntax.unparen(((PrefixExpression) a).getOperand());
            if (!(a instanceof NumberLiteral) && !(a.resolveConstantExpressionValue() instanceof Number)) return false;
        }
        return true;
    }

    private static boolean isStrictMath(MethodInvocation m) {
        return m.getExpression() != null && m.getExpression().toString().equals("StrictMath");
    }

    public static boolean isComparison(InfixExpression.Operator op) {
        return op == InfixExpression.Operator.LESS
                || op == InfixExpression.Operator.GREATER
                || op == InfixExpression.Operator.LESS_EQUALS
                || op == InfixExpression.Operator.GREATER_EQUALS
                || op == InfixExpression.Operator.EQUALS
                || op == InfixExpression.Operator.NOT_EQUALS;
    }

    private static boolean isProduct(ASTNode n) {
        return n instanceof Expression
                && JavaSyntax.unparen((Expression) n) instanceof InfixExpression
                && ((InfixExpression) JavaSyntax.unparen((Expression) n)).getOperator()
                        == InfixExpression.Operator.TIMES;
    }

    private static boolean otherIsProduct(InfixExpression in, ASTNode child) {
        List<?> ext = in.extendedOperands();
        if (!ext.isEmpty()) return false;
        Expression other = in.getLeftOperand() == child ? in.getRightOperand() : in.getLeftOperand();
        return isProduct(other);
    }
}
