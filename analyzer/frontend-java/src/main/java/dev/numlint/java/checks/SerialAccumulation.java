package dev.numlint.java.checks;

import com.google.auto.service.AutoService;
import dev.numlint.java.JavaCheck;
import dev.numlint.java.JavaSyntax;
import dev.numlint.java.JavaUnit;
import dev.numlint.java.LoopFacts;
import dev.numlint.java.NumType;
import dev.numlint.java.Types;
import dev.numlint.knowledge.FloatExactness;
import dev.numlint.model.Impact;
import dev.numlint.model.Level;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jdt.core.dom.*;

/**
 * NL004 in Java source: a float accumulator carried across the iterations of a loop with an unknown or long trip
 * count ({@code s += x}, {@code s = s + x}). Not reported: compensated (Kahan) sums, short constant loops (also
 * over small local arrays), values rewritten at the start of every iteration, and double sums of integer values
 * (exact); float sums of integer values are exact below 2^24 and reported as a note.
 */
@AutoService(JavaCheck.class)
public final class SerialAccumulation implements JavaCheck {
    /**
     * A constant trip count up to which a float sum counts as short: its worst-case relative error, n * 2^-24, stays
     * at most 2^-16 (8 of the 24 bits), and a fixed count does not grow with the data (a 256-bin histogram).
     */
    static final long SHORT_SUM = 256;

    @Override
    public String ruleId() {
        return "NL004";
    }

    @Override
    public void check(JavaUnit unit) {
        Set<String> reported = new HashSet<>();
        int min = unit.context().rules().intOption("NL004", "min-trip-count");
        for (Assignment a : unit.assignments()) {
            accumulation(unit, a, min, reported);
        }
    }

    private void accumulation(JavaUnit unit, Assignment a, int min, Set<String> reported) {
        Expression lhs = JavaSyntax.unparen(a.getLeftHandSide());
        String name;
        if (lhs instanceof SimpleName) name = ((SimpleName) lhs).getIdentifier();
        else if (lhs instanceof FieldAccess && ((FieldAccess) lhs).getExpression() instanceof ThisExpression)
            name = ((FieldAccess) lhs).getName().getIdentifier();
        else return;
        Expression increment = increment(a, name);
        if (increment == null) return;
        Types.T t = unit.types().typeOf(lhs);
        if (!t.type().isFloating()) return;
        boolean isDouble = t.type() == NumType.DOUBLE;
        Expression inc = JavaSyntax.unparen(increment);
        if (inc instanceof NumberLiteral) {
            double v = Types.literalValue(((NumberLiteral) inc).getToken());
            if (v == Math.rint(v)) return; // counting in whole steps is exact up to 2^24 (float) / 2^53
        }
        boolean integral = integerValued(unit, inc);
        if (integral && isDouble) return; // exact below 2^53: a count, not a rounding accumulation
        VariableDeclaration decl = lhs instanceof SimpleName ? Types.declarationOf((SimpleName) lhs) : null;
        List<Statement> loops = unit.loops().carrying(a, decl);
        if (loops.isEmpty()) return;
        // a value assigned afresh earlier in the same iteration is not carried: t = f(k); t = t + h;
        if (rewrittenBefore(a, name, loops.get(0))) return;
        long trips = 1;
        for (Statement l : loops) {
            long n = unit.loops().tripCount(l);
            if (n < 0) {
                trips = -1;
                break;
            }
            trips *= n;
        }
        if (trips >= 0 && trips < min) return;
        for (Statement l : loops) if (unit.loops().isCompensated(l)) return;
        Statement outer = loops.get(loops.size() - 1);
        String key = name + "@" + (decl != null ? decl.getStartPosition() : -1) + "@" + outer.getStartPosition();
        if (!reported.add(key)) return;
        String tripText = trips < 0 ? "a loop of unknown length" : trips + " iterations";
        Impact impact;
        String msg;
        Statement window = windowOf(a, name, decl, outer);
        if (window == null) window = perElementCaller(unit, name, decl, outer);
        if (window != null && !integral) {
            // a sum started afresh for every iteration of an outer loop (a convolution, a bin, a row): a port with one
            // thread per outer iteration keeps each inner sum serial and in the same order
            impact = Impact.bounded("restarted for every iteration of the loop at line " + unit.line(window)
                    + ", so a thread-per-element port sums in the same order");
            msg = JavaUnit.message(
                    "NL004",
                    "java-window-sum",
                    "type",
                    t.type().javaName(),
                    "name",
                    name,
                    "expr",
                    unit.shortText(a, 40),
                    "trips",
                    tripText,
                    "line",
                    unit.line(window));
        } else if (integral) {
            impact = Impact.bounded("integer-valued terms are exact while the sum stays below 2^24 = 16777216");
            msg = JavaUnit.message(
                    "NL004", "java-integer-sum", "name", name, "expr", unit.shortText(a, 40), "trips", tripText);
        } else {
            String bound =
                    (trips < 0 ? "n" : Long.toString(trips)) + (isDouble ? " * 2^-53" : " * 2^-24") + " relative";
            if (constantStep(inc, loops.get(loops.size() - 1))) {
                // a = a + step with a step the loops never change: a stepping (an angle, a position), not a sum of
                // data; any port takes the same steps in the same order (the CUDA layer does not report these)
                impact = Impact.bounded("a constant step: every port takes the same steps in the same order");
            } else if (trips >= 0 && trips <= SHORT_SUM) {
                // a fixed, short sum: its worst-case error is a small constant, not a growing one
                impact = Impact.bounded("a fixed " + trips + "-term sum: the relative error stays below " + bound)
                        .withErrorBound(bound);
            } else if (decl != null && normalisesItsArray(inc, decl, loops.get(loops.size() - 1))) {
                // a kernel normalised by its own sum: the sum's error scales every element by the same factor
                impact = Impact.bounded("only divides the elements it sums: all move by one relative factor, "
                                + "below " + bound)
                        .withErrorBound(bound);
            } else {
                impact = new Impact(Impact.Kind.GROWING, "the error grows with " + tripText, null, null)
                        .withErrorBound(bound);
            }
            msg = JavaUnit.message(
                    "NL004",
                    isDouble ? "java-double-sum" : "java-float-sum",
                    "name",
                    name,
                    "expr",
                    unit.shortText(a, 40),
                    "trips",
                    tripText);
        }
        unit.report(ruleId(), a, msg, t.guessed(), isDouble ? Level.NOTE : null, impact);
    }

    /**
     * The outer loop for which the accumulator starts afresh (declared inside it, or plainly assigned in it before
     * the carrying loops), or null when the sum runs over the whole method.
     */
    private static Statement windowOf(Assignment a, String name, VariableDeclaration decl, Statement outerCarrying) {
        for (ASTNode p = outerCarrying.getParent();
                p != null && !(p instanceof BodyDeclaration) && !(p instanceof LambdaExpression);
                p = p.getParent()) {
            if (!LoopFacts.isLoop(p)) continue;
            if (decl != null && JavaUnit.isAncestor(p, decl)) return (Statement) p;
            if (rewrittenBefore(outerCarrying, name, (Statement) p)) return (Statement) p;
        }
        return null;
    }

    /**
     * A sum that a method restarts on every call (a local of the method, or a field it plainly resets before the
     * loop: {@code pCX = pCY = 0; for (...) pCX += w * pX[i];}) in a method that runs once per element of a caller's
     * loop ({@link dev.numlint.java.PerElementCalls}): the sum is restarted for each element of that loop, like a sum
     * declared inside it. Returns the caller's loop, or null (a method called with whole arrays, outside a loop, or
     * not called in this unit: a whole-data sum).
     */
    static Statement perElementCaller(JavaUnit unit, String name, VariableDeclaration decl, Statement outer) {
        MethodDeclaration md = null;
        for (ASTNode p = outer.getParent(); p != null; p = p.getParent()) {
            if (p instanceof LambdaExpression
                    || p instanceof AbstractTypeDeclaration
                    || p instanceof AnonymousClassDeclaration) return null;
            if (p instanceof MethodDeclaration) {
                md = (MethodDeclaration) p;
                break;
            }
        }
        if (md == null || md.getBody() == null) return null;
        boolean local = decl != null && JavaUnit.isAncestor(md, decl);
        if (!local && (decl != null && !(decl.getParent() instanceof FieldDeclaration))) return null;
        if (!local && !rewrittenBefore(outer, name, md.getBody())) return null;
        return unit.perElement().loopOf(md);
    }

    /**
     * Whether a sum of the elements of one array ({@code for (v : a) s += v} or {@code s += a[i]}) is used after its
     * loop only as the divisor of that array's own elements ({@code a[i] /= s}, {@code a[i] = a[i] / s}): a
     * normalisation (a kernel scaled to sum 1). The rounding error of the sum then scales every element by the
     * same relative factor; nothing else depends on it.
     */
    static boolean normalisesItsArray(Expression inc, VariableDeclaration decl, Statement outer) {
        Expression array = summedArray(inc, outer);
        if (array == null) return false;
        ASTNode body = decl.getParent();
        while (body != null && !(body instanceof MethodDeclaration) && !(body instanceof LambdaExpression))
            body = body.getParent();
        if (body == null) return false;
        String id = decl.getName().getIdentifier();
        IBinding binding = decl.getName().resolveBinding();
        int[] uses = {0};
        boolean[] other = {false};
        ASTMatcher same = new ASTMatcher();
        body.accept(new ASTVisitor() {
            @Override
            public boolean visit(SimpleName n) {
                if (!n.getIdentifier().equals(id) || n == decl.getName()) return false;
                IBinding b = n.resolveBinding();
                if (binding != null && b != null && !binding.isEqualTo(b)) return false;
                if (JavaUnit.isAncestor(outer, n)) return false; // the sum itself
                ASTNode p = n.getParent();
                while (p instanceof ParenthesizedExpression) p = p.getParent();
                Expression divided = null;
                if (p instanceof Assignment
                        && ((Assignment) p).getOperator() == Assignment.Operator.DIVIDE_ASSIGN
                        && JavaSyntax.unparen(((Assignment) p).getRightHandSide()) == n) {
                    divided = ((Assignment) p).getLeftHandSide();
                } else if (p instanceof InfixExpression
                        && ((InfixExpression) p).getOperator() == InfixExpression.Operator.DIVIDE
                        && ((InfixExpression) p).extendedOperands().isEmpty()
                        && JavaSyntax.unparen(((InfixExpression) p).getRightOperand()) == n
                        && p.getParent() instanceof Assignment
                        && ((Assignment) p.getParent()).getRightHandSide() == p) {
                    divided = ((InfixExpression) p).getLeftOperand();
                    Expression target = ((Assignment) p.getParent()).getLeftHandSide();
                    if (!JavaSyntax.unparen(target).subtreeMatch(same, JavaSyntax.unparen(divided))) divided = null;
                }
                Expression d = divided == null ? null : JavaSyntax.unparen(divided);
                if (d instanceof ArrayAccess && ((ArrayAccess) d).getArray().subtreeMatch(same, array)) uses[0]++;
                else other[0] = true;
                return false;
            }
        });
        return uses[0] > 0 && !other[0];
    }

    /** The array whose elements {@code inc} reads in {@code loop}: {@code a[i]}, or the element of a for-each. */
    private static Expression summedArray(Expression inc, Statement loop) {
        Expression e = JavaSyntax.unparen(inc);
        if (e instanceof ArrayAccess) return JavaSyntax.unparen(((ArrayAccess) e).getArray());
        if (e instanceof SimpleName && loop instanceof EnhancedForStatement) {
            EnhancedForStatement f = (EnhancedForStatement) loop;
            if (f.getParameter().getName().getIdentifier().equals(((SimpleName) e).getIdentifier()))
                return JavaSyntax.unparen(f.getExpression());
        }
        return null;
    }

    /** The added term of {@code s += x}, {@code s -= x}, {@code s = s + x}, {@code s = x + s}, or null. */
    private static Expression increment(Assignment a, String name) {
        Assignment.Operator op = a.getOperator();
        if (op == Assignment.Operator.PLUS_ASSIGN || op == Assignment.Operator.MINUS_ASSIGN)
            return a.getRightHandSide();
        if (op != Assignment.Operator.ASSIGN) return null;
        Expression r = JavaSyntax.unparen(a.getRightHandSide());
        if (!(r instanceof InfixExpression)) return null;
        InfixExpression in = (InfixExpression) r;
        if (!in.extendedOperands().isEmpty()) return null;
        if (in.getOperator() == InfixExpression.Operator.PLUS && JavaSyntax.isName(in.getRightOperand(), name)) {
            return in.getLeftOperand();
        }
        if ((in.getOperator() == InfixExpression.Operator.PLUS || in.getOperator() == InfixExpression.Operator.MINUS)
                && JavaSyntax.isName(in.getLeftOperand(), name)) {
            return in.getRightOperand();
        }
        return null;
    }

    /**
     * An integer-valued term: integer-typed, converted from an integer, or a sum, difference or product of such
     * terms ({@code (float) r * (float) hist[c]}); every partial sum is then an integer.
     */
    static boolean integerValued(JavaUnit unit, Expression inc) {
        inc = JavaSyntax.unparen(inc);
        NumType t = unit.types().of(inc);
        if (t.isIntegral()) return true;
        Object cv = inc.resolveConstantExpressionValue();
        if (cv instanceof Number) return FloatExactness.isInteger(((Number) cv).doubleValue());
        if (inc instanceof NumberLiteral)
            return FloatExactness.isInteger(Types.literalValue(((NumberLiteral) inc).getToken()));
        if (inc instanceof CastExpression) return integerValued(unit, ((CastExpression) inc).getExpression());
        if (inc instanceof InfixExpression) {
            InfixExpression in = (InfixExpression) inc;
            InfixExpression.Operator op = in.getOperator();
            if (op != InfixExpression.Operator.TIMES
                    && op != InfixExpression.Operator.PLUS
                    && op != InfixExpression.Operator.MINUS) return false;
            if (!integerValued(unit, in.getLeftOperand()) || !integerValued(unit, in.getRightOperand())) return false;
            for (Object o : in.extendedOperands()) if (!integerValued(unit, (Expression) o)) return false;
            return true;
        }
        return false;
    }

    /**
     * Whether {@code name} is plainly assigned (not from itself) in a statement that runs before {@code a} in every
     * iteration of {@code loop}: a statement of a block enclosing {@code a}, inside the loop, before it.
     */
    /**
     * Whether the increment is the same in every iteration of {@code loop} (and the loops inside it): it reads only
     * local variables, parameters and constants that nothing in the loop assigns, with no call, array element or
     * field of an object.
     */
    static boolean constantStep(Expression inc, Statement loop) {
        boolean[] ok = {true};
        java.util.Set<String> names = new HashSet<>();
        inc.accept(new ASTVisitor() {
            @Override
            public boolean visit(MethodInvocation n) {
                ok[0] = false;
                return false;
            }

            @Override
            public boolean visit(ArrayAccess n) {
                ok[0] = false;
                return false;
            }

            @Override
            public boolean visit(FieldAccess n) {
                ok[0] = false;
                return false;
            }

            @Override
            public boolean visit(QualifiedName n) {
                // a constant such as Math.PI or SOME.CONSTANT is fine; a field of an object is not
                org.eclipse.jdt.core.dom.IBinding b = n.resolveBinding();
                if (!(b instanceof org.eclipse.jdt.core.dom.IVariableBinding v)
                        || !java.lang.reflect.Modifier.isFinal(v.getModifiers())) ok[0] = false;
                return false;
            }

            @Override
            public boolean visit(SimpleName n) {
                org.eclipse.jdt.core.dom.IBinding b = n.resolveBinding();
                if (b instanceof org.eclipse.jdt.core.dom.IVariableBinding v
                        && v.isField()
                        && !java.lang.reflect.Modifier.isFinal(v.getModifiers())) ok[0] = false;
                if (b == null && !(n.getParent() instanceof MethodInvocation)) ok[0] = false; // unresolved: unknown
                names.add(n.getIdentifier());
                return false;
            }
        });
        if (!ok[0] || names.isEmpty()) return false;
        // assigned, incremented or declared in the loop: not the same in every iteration
        return java.util.Collections.disjoint(JavaSyntax.namesChangedIn(loop), names);
    }

    private static boolean rewrittenBefore(ASTNode a, String name, Statement loop) {
        ASTNode stmt = a instanceof Statement ? a : a.getParent();
        while (stmt != null && !(stmt instanceof Statement)) stmt = stmt.getParent();
        while (stmt != null && stmt != loop) {
            ASTNode parent = stmt.getParent();
            if (parent instanceof Block) {
                for (Object o : ((Block) parent).statements()) {
                    if (o == stmt) break;
                    if (plainlyAssigns((Statement) o, name)) return true;
                }
            }
            stmt = parent;
        }
        return false;
    }

    private static boolean isThisField(Expression e, String name) {
        Expression u = JavaSyntax.unparen(e);
        return u instanceof FieldAccess
                && ((FieldAccess) u).getExpression() instanceof ThisExpression
                && ((FieldAccess) u).getName().getIdentifier().equals(name);
    }

    private static boolean plainlyAssigns(Statement s, String name) {
        if (!(s instanceof ExpressionStatement)) return false;
        Expression e = ((ExpressionStatement) s).getExpression();
        // a chain a = b = c = 0 assigns each of its targets the innermost value
        boolean target = false;
        while (e instanceof Assignment && ((Assignment) e).getOperator() == Assignment.Operator.ASSIGN) {
            Assignment as = (Assignment) e;
            if (JavaSyntax.isName(as.getLeftHandSide(), name) || isThisField(as.getLeftHandSide(), name)) target = true;
            e = JavaSyntax.unparen(as.getRightHandSide());
        }
        if (!target) return false;
        boolean[] self = {false};
        e.accept(new ASTVisitor() {
            @Override
            public boolean visit(SimpleName n) {
                if (n.getIdentifier().equals(name)) self[0] = true;
                return false;
            }
        });
        return !self[0];
    }
}
