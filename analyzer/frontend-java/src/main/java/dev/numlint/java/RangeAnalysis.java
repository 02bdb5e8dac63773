package dev.numlint.java;

import static dev.numlint.java.JavaSyntax.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.core.dom.*;

/**
 * Light interval analysis for range guards before a narrowing conversion: literals and constants, Math.max/min/
 * clamp/abs/sqrt, ternary clamps ({@code v < 0 ? 0 : v > 255 ? 255 : v}), explicit if-clamps before the use
 * ({@code if (v < 0) v = 0;}), early exits ({@code if (v > max) continue;}), enclosing conditions, and the ranges of
 * narrow integer types and {@code & 0xff}. Works on simple local names; fields and calls are unbounded.
 */
public final class RangeAnalysis implements RangeEvaluator {
    private final Types types;

    private final RangeGuards guards;
    private final RangePatterns patterns;

    public RangeAnalysis(Types types) {
        this.types = types;
        this.guards = new RangeGuards(types, this);
        this.patterns = new RangePatterns(this);
    }

    public Range of(Expression e) {
        return of(e, Map.of(), 0);
    }

    /** The range of {@code e} when the variables named in {@code assume} are known to lie in the given ranges. */
    public Range of(Expression e, Map<String, Range> assume) {
        return of(e, assume, 0);
    }

    /**
     * When the last statement before {@code use} that assigns its variable is an if/else chain every branch of which
     * assigns it (or exits), the definition of each branch that reaches the use, with the variable's range there;
     * otherwise (one definition, or paths not followed) an empty list.
     */
    List<RangeGuards.PathDefinition> pathDefinitions(SimpleName use) {
        return guards.pathDefinitions(use);
    }

    @Override
    public Range of(Expression e, Map<String, Range> assume, int depth) {
        if (e == null || depth > MAX_DEPTH) return Range.ALL;
        Object cv = e.resolveConstantExpressionValue();
        if (cv instanceof Number) return Range.point(((Number) cv).doubleValue());
        if (cv instanceof Character) return Range.point((Character) cv);
        switch (e.getNodeType()) {
            case ASTNode.NUMBER_LITERAL:
                return Range.point(Types.literalValue(((NumberLiteral) e).getToken()));
            case ASTNode.CHARACTER_LITERAL:
                return Range.point(((CharacterLiteral) e).charValue());
            case ASTNode.PARENTHESIZED_EXPRESSION:
                return of(((ParenthesizedExpression) e).getExpression(), assume, depth + 1);
            case ASTNode.CAST_EXPRESSION: {
                CastExpression c = (CastExpression) e;
                Range inner = of(c.getExpression(), assume, depth + 1);
                return inner.and(Range.ofType(Types.typeNode(c.getType())));
            }
            case ASTNode.SIMPLE_NAME:
                return guards.nameRange((SimpleName) e, assume, depth);
            case ASTNode.PREFIX_EXPRESSION: {
                PrefixExpression p = (PrefixExpression) e;
                if (p.getOperator() == PrefixExpression.Operator.MINUS)
                    return of(p.getOperand(), assume, depth + 1).negate();
                if (p.getOperator() == PrefixExpression.Operator.PLUS) return of(p.getOperand(), assume, depth + 1);
                return Range.ofType(types.of(e));
            }
            case ASTNode.CONDITIONAL_EXPRESSION: {
                ConditionalExpression c = (ConditionalExpression) e;
                Range a = of(c.getThenExpression(), guards.facts(c.getExpression(), true, assume, depth), depth + 1);
                Range b = of(c.getElseExpression(), guards.facts(c.getExpression(), false, assume, depth), depth + 1);
                return a.or(b);
            }
            case ASTNode.METHOD_INVOCATION:
                return call((MethodInvocation) e, assume, depth);
            case ASTNode.INFIX_EXPRESSION: {
                Range lerp = patterns.lerp((InfixExpression) e, assume, depth);
                if (lerp == null) lerp = patterns.fraction((InfixExpression) e, assume, depth);
                return lerp != null ? lerp : infix((InfixExpression) e, assume, depth);
            }
            case ASTNode.ARRAY_ACCESS:
                return arrayElement((ArrayAccess) e, depth);
            default:
                return Range.ofType(types.of(e));
        }
    }

    private final Map<MethodDeclaration, Range> returnRanges = new java.util.IdentityHashMap<>();

    /**
     * Range of what a method of this compilation unit returns, when it cannot be overridden (private, static,
     * final, or in a final class): the union over its return statements.
     */
    private Range returnRange(MethodInvocation m, int depth) {
        if (m.getExpression() != null && !(m.getExpression() instanceof ThisExpression)) return null;
        MethodDeclaration d =
                Types.localMethod(m, m.getName().getIdentifier(), m.arguments().size());
        if (d == null || d.getBody() == null) return null;
        int mods = d.getModifiers();
        boolean finalClass = d.getParent() instanceof TypeDeclaration
                && Modifier.isFinal(((TypeDeclaration) d.getParent()).getModifiers());
        if (!Modifier.isPrivate(mods) && !Modifier.isStatic(mods) && !Modifier.isFinal(mods) && !finalClass)
            return null;
        if (returnRanges.containsKey(d)) return returnRanges.get(d);
        returnRanges.put(d, Range.ALL); // recursion guard
        Range[] acc = {null};
        d.getBody().accept(new ASTVisitor() {
            @Override
            public boolean visit(ReturnStatement rs) {
                Range r = rs.getExpression() == null ? Range.ALL : of(rs.getExpression(), Map.of(), depth + 2);
                acc[0] = acc[0] == null ? r : acc[0].or(r);
                return false;
            }

            @Override
            public boolean visit(LambdaExpression l) {
                return false;
            }

            @Override
            public boolean visit(AnonymousClassDeclaration a) {
                return false;
            }

            @Override
            public boolean visit(TypeDeclaration t) {
                return false;
            }
        });
        Range r = acc[0] == null ? Range.ALL : acc[0];
        returnRanges.put(d, r);
        return r;
    }

    /**
     * Element of a local array whose every store in the method is bounded (e.g. {@code r[i] = reds[i] & 255}): the
     * union of the stored ranges. Arrays that may alias anything else (parameters, fields) are unbounded.
     */
    private Range arrayElement(ArrayAccess aa, int depth) {
        NumType et = types.of(aa);
        Range typeR = Range.ofType(et);
        Expression arr = unparen(aa.getArray());
        if (!(arr instanceof SimpleName) || depth > MAX_DEPTH - 4) return typeR;
        String id = ((SimpleName) arr).getIdentifier();
        VariableDeclaration d = Types.declarationOf((SimpleName) arr);
        if (!(d instanceof VariableDeclarationFragment)) return typeR;
        boolean hsbInit = isRgbToHsb(d.getInitializer());
        if (!hsbInit
                && (!(d.getInitializer() instanceof ArrayCreation)
                        || ((ArrayCreation) d.getInitializer()).getInitializer() != null)) return typeR;
        ASTNode body = d;
        while (body != null && !(body instanceof MethodDeclaration) && !(body instanceof LambdaExpression))
            body = body.getParent();
        if (body == null) return typeR;
        Range unit = Range.of(0, 1);
        Range[] acc = {hsbInit ? unit : null};
        boolean[] bad = {false};
        body.accept(new ASTVisitor() {
            @Override
            public boolean visit(Assignment a) {
                Expression lhs = unparen(a.getLeftHandSide());
                if (isName(lhs, id)) {
                    // re-assigned array: only java.awt.Color.RGBtoHSB's result (hue, saturation, brightness in 0..1) is
                    // known
                    if (isRgbToHsb(a.getRightHandSide())) acc[0] = acc[0] == null ? unit : acc[0].or(unit);
                    else bad[0] = true;
                }
                if (lhs instanceof ArrayAccess && isName(((ArrayAccess) lhs).getArray(), id)) {
                    if (a.getOperator() != Assignment.Operator.ASSIGN) bad[0] = true;
                    else {
                        Range r = of(a.getRightHandSide(), Map.of(), depth + 2);
                        acc[0] = acc[0] == null ? r : acc[0].or(r);
                    }
                }
                return !bad[0];
            }

            @Override
            public boolean visit(SimpleName n) {
                // passed somewhere (a method may fill it): unbounded
                if (n.getIdentifier().equals(id) && n != arr && n.getParent() instanceof MethodInvocation) {
                    if (isRgbToHsb((Expression) n.getParent())) acc[0] = acc[0] == null ? unit : acc[0].or(unit);
                    else bad[0] = true;
                }
                return false;
            }
        });
        if (bad[0] || acc[0] == null) return typeR;
        return acc[0].and(typeR);
    }

    private Range infix(InfixExpression in, Map<String, Range> assume, int depth) {
        InfixExpression.Operator op = in.getOperator();
        List<Expression> ops = new ArrayList<>();
        ops.add(in.getLeftOperand());
        ops.add(in.getRightOperand());
        for (Object o : in.extendedOperands()) ops.add((Expression) o);
        if (op == InfixExpression.Operator.AND) {
            // x & C with a non-negative constant C is in [0, C]
            for (Expression o : ops) {
                Range r = of(o, assume, depth + 1);
                if (r.isPoint() && r.lo() >= 0) return Range.of(0, r.lo());
            }
            return Range.ofType(types.of(in));
        }
        if ((op == InfixExpression.Operator.RIGHT_SHIFT_SIGNED || op == InfixExpression.Operator.RIGHT_SHIFT_UNSIGNED)
                && ops.size() == 2) {
            Range v = of(ops.get(0), assume, depth + 1);
            Range k = of(ops.get(1), assume, depth + 1);
            if (k.isPoint() && k.lo() >= 0 && k.lo() < 63 && v.lo() >= 0 && !v.loGuard() && !v.hiGuard()) {
                double d = Math.pow(2, k.lo());
                return Range.of(Math.floor(v.lo() / d), Math.floor(v.hi() / d));
            }
            return Range.ofType(types.of(in));
        }
        if (op == InfixExpression.Operator.REMAINDER) {
            Range d = of(ops.get(1), assume, depth + 1);
            if (ops.size() == 2 && d.isPoint() && d.lo() != 0) {
                Range n = of(ops.get(0), assume, depth + 1);
                double m = Math.abs(d.lo());
                return Range.of(n.lo() >= 0 ? 0 : -m, n.hi() <= 0 && !n.hiGuard() ? 0 : m);
            }
            return Range.ALL;
        }
        if (op != InfixExpression.Operator.PLUS
                && op != InfixExpression.Operator.MINUS
                && op != InfixExpression.Operator.TIMES
                && op != InfixExpression.Operator.DIVIDE) {
            return Range.ofType(types.of(in));
        }
        if (op == InfixExpression.Operator.DIVIDE && ops.size() == 2) {
            Range ramp = patterns.ramp(ops.get(0), ops.get(1), assume, depth);
            if (ramp != null) return ramp;
            Range mean = patterns.weightedAverage(ops.get(0), ops.get(1), assume, depth);
            if (mean != null) return mean;
            Range accumulated = patterns.accumulatedAverage(ops.get(0), ops.get(1), assume, depth);
            if (accumulated != null) return accumulated;
            Range normalised = patterns.minMaxNormalised(ops.get(0), ops.get(1), assume, depth);
            if (normalised != null) return normalised;
        }
        Range r = of(ops.get(0), assume, depth + 1);
        for (int i = 1; i < ops.size(); i++) {
            Range b = of(ops.get(i), assume, depth + 1);
            if (op == InfixExpression.Operator.PLUS) r = r.add(b);
            else if (op == InfixExpression.Operator.MINUS) r = r.sub(b);
            else if (op == InfixExpression.Operator.TIMES) r = r.mul(b);
            else r = r.div(b);
        }
        return r;
    }

    private Range call(MethodInvocation m, Map<String, Range> assume, int depth) {
        String n = m.getName().getIdentifier();
        Expression q = m.getExpression();
        String qual = q == null ? "" : q.toString();
        boolean math = qual.equals("Math")
                || qual.equals("StrictMath")
                || qual.equals("java.lang.Math")
                || qual.equals("FastMath")
                || qual.isEmpty();
        List<?> args = m.arguments();
        if (args.isEmpty()
                && (n.equals("getRed") || n.equals("getGreen") || n.equals("getBlue") || n.equals("getAlpha"))
                && isAwtColor(m)) {
            return Range.of(0, 255);
        }
        if (!math || qual.isEmpty()) {
            Range rr = depth < MAX_DEPTH - 4 ? returnRange(m, depth) : null;
            if (rr != null) return rr.and(Range.ofType(types.of(m)));
            if (!math) return Range.ofType(types.of(m));
        }
        switch (n) {
            case "max":
                if (args.size() == 2)
                    return of((Expression) args.get(0), assume, depth + 1)
                            .max(of((Expression) args.get(1), assume, depth + 1));
                break;
            case "min":
                if (args.size() == 2)
                    return of((Expression) args.get(0), assume, depth + 1)
                            .min(of((Expression) args.get(1), assume, depth + 1));
                break;
            case "clamp":
                if (args.size() == 3) {
                    Range lo = of((Expression) args.get(1), assume, depth + 1);
                    Range hi = of((Expression) args.get(2), assume, depth + 1);
                    return new Range(lo.lo(), hi.hi(), lo.loGuard() || !lo.isPoint(), hi.hiGuard() || !hi.isPoint())
                            .and(of((Expression) args.get(0), assume, depth + 1)
                                    .or(Range.ALL)
                                    .and(Range.ALL));
                }
                break;
            case "abs": {
                if (args.size() == 1) {
                    Range a = of((Expression) args.get(0), assume, depth + 1);
                    double h = Math.max(Math.abs(a.lo()), Math.abs(a.hi()));
                    return new Range(0, h, false, a.loGuard() && a.hiGuard());
                }
                break;
            }
            case "sqrt":
            case "exp":
            case "hypot":
            case "cosh":
            case "random":
                return Range.of(0, Double.POSITIVE_INFINITY);
            case "sin":
            case "cos":
            case "tanh":
                return Range.of(-1, 1);
            case "round":
            case "floor":
            case "ceil":
            case "rint":
                if (args.size() == 1) {
                    // monotonic: apply to the bounds
                    Range a = of((Expression) args.get(0), assume, depth + 1);
                    return new Range(roundBound(n, a.lo()), roundBound(n, a.hi()), a.loGuard(), a.hiGuard())
                            .and(Range.ofType(types.of(m)));
                }
                break;
            default:
                break;
        }
        return Range.ofType(types.of(m));
    }

    private static double roundBound(String fn, double v) {
        if (Double.isInfinite(v)) return v;
        switch (fn) {
            case "floor":
                return Math.floor(v);
            case "ceil":
                return Math.ceil(v);
            case "rint":
                return Math.rint(v);
            default:
                return Math.floor(v + 0.5);
        }
    }

    private static boolean isRgbToHsb(Expression e) {
        e = e == null ? null : unparen(e);
        return e instanceof MethodInvocation
                && ((MethodInvocation) e).getName().getIdentifier().equals("RGBtoHSB")
                && ((MethodInvocation) e).arguments().size() == 4;
    }

    private static boolean isAwtColor(MethodInvocation m) {
        IMethodBinding b = m.resolveMethodBinding();
        if (b != null && b.getDeclaringClass() != null)
            return b.getDeclaringClass().getQualifiedName().equals("java.awt.Color");
        return true; // syntactic: getRed()/getGreen()/getBlue()/getAlpha() are colour components almost everywhere
    }
}
