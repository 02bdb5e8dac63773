package dev.numlint.java;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.core.dom.*;

/**
 * Light interval analysis for range guards before a narrowing conversion: literals and constants, Math.max/min/
 * clamp/abs/sqrt, ternary clamps ({@code v < 0 ? 0 : v > 255 ? 255 : v}), explicit if-clamps before the use
 * ({@code if (v < 0) v = 0;}), early exits ({@code if (v > max) continue;}), enclosing conditions, and the ranges of
 * narrow integer types and {@code & 0xff}. Works on simple local names; fields and calls are unbounded.
 */
public final class RangeAnalysis {
    private static final int MAX_DEPTH = 12;
    private final Types types;

    public RangeAnalysis(Types types) {
        this.types = types;
    }

    public Range of(Expression e) {
        return of(e, Map.of(), 0);
    }

    /** The range of {@code e} when the variables named in {@code assume} are known to lie in the given ranges. */
    public Range of(Expression e, Map<String, Range> assume) {
        return of(e, assume, 0);
    }

    /**
     * One path's definition of a variable before a use: the statement that assigns it last on that path and the
     * variable's range at the end of the path (its clamps included).
     */
    public record PathDefinition(Statement definition, Range range) {}

    /**
     * When the last statement before {@code use} that assigns its variable is an if/else chain every branch of which
     * assigns it (or exits), the definition of each branch that reaches the use, with the variable's range there;
     * otherwise (one definition, or paths not followed) an empty list.
     */
    public List<PathDefinition> pathDefinitions(SimpleName use) {
        String id = use.getIdentifier();
        Range typeR = typeRange(types.of(use));
        ASTNode child = use;
        for (ASTNode p = use.getParent(); p != null; child = p, p = p.getParent()) {
            if (p instanceof MethodDeclaration
                    || p instanceof LambdaExpression
                    || p instanceof AbstractTypeDeclaration
                    || p instanceof AnonymousClassDeclaration
                    || p instanceof Initializer) return List.of();
            if ((p instanceof ForStatement
                            || p instanceof WhileStatement
                            || p instanceof DoStatement
                            || p instanceof EnhancedForStatement)
                    && assignedIn(p, id)) return List.of(); // loop-carried
            if (p instanceof Block) {
                List<?> stmts = ((Block) p).statements();
                for (int i = stmts.indexOf(child) - 1; i >= 0; i--) {
                    Statement st = (Statement) stmts.get(i);
                    if (!assignedIn(st, id)) continue;
                    if (!(st instanceof IfStatement)) return List.of();
                    List<PathDefinition> paths = branches((IfStatement) st, id, typeR, 0);
                    return paths == null ? List.of() : paths;
                }
            }
        }
        return List.of();
    }

    /** The definitions of {@code id} on the branches of an if/else chain that reach past it; null if not followed. */
    private List<PathDefinition> branches(IfStatement is, String id, Range typeR, int depth) {
        if (is.getElseStatement() == null || depth > MAX_DEPTH - 3) return null;
        List<PathDefinition> out = new ArrayList<>();
        List<PathDefinition> then = branchEnd(is.getThenStatement(), id, typeR, depth);
        if (then == null) return null;
        out.addAll(then);
        List<PathDefinition> rest = is.getElseStatement() instanceof IfStatement
                ? branches((IfStatement) is.getElseStatement(), id, typeR, depth + 1)
                : branchEnd(is.getElseStatement(), id, typeR, depth);
        if (rest == null) return null;
        out.addAll(rest);
        return out;
    }

    /**
     * The definition of {@code id} that leaves branch {@code b}: none when the branch exits (return, throw ...), the
     * last plain assignment with the clamps after it, or the paths of a nested if/else chain; null if not followed.
     */
    private List<PathDefinition> branchEnd(Statement b, String id, Range typeR, int depth) {
        List<?> stmts = b instanceof Block ? ((Block) b).statements() : List.of(b);
        if (!stmts.isEmpty() && exits((Statement) stmts.get(stmts.size() - 1))) return List.of();
        List<Object[]> clamps = new ArrayList<>();
        List<Range> facts = new ArrayList<>();
        for (int i = stmts.size() - 1; i >= 0; i--) {
            Statement st = (Statement) stmts.get(i);
            int r = statementEffect(st, id, clamps, facts, depth + 1);
            if (r == 1) {
                Range base = baseOf(st, id, depth + 1);
                return List.of(new PathDefinition(st, applyClamps(base, typeR, clamps, facts)));
            }
            if (r == 2) {
                if (!(st instanceof IfStatement) || !clamps.isEmpty() || !facts.isEmpty()) return null;
                return branches((IfStatement) st, id, typeR, depth + 1);
            }
        }
        return null; // the branch keeps the value from before the chain: not followed
    }

    /** A base range narrowed by the type, then by the clamps (in reverse program order) and the facts after it. */
    private static Range applyClamps(Range base, Range typeR, List<Object[]> clamps, List<Range> facts) {
        Range r = base == null ? typeR : base.and(typeR);
        for (int i = clamps.size() - 1; i >= 0; i--) {
            boolean lower = (Boolean) clamps.get(i)[0];
            Range b = (Range) clamps.get(i)[1];
            if (lower) r = new Range(b.lo(), Math.max(r.hi(), b.hi()), b.loGuard() || !b.loBounded(), r.hiGuard());
            else r = new Range(Math.min(r.lo(), b.lo()), b.hi(), r.loGuard(), b.hiGuard() || !b.hiBounded());
        }
        for (Range f : facts) r = r.and(f);
        return r;
    }

    private Range of(Expression e, Map<String, Range> assume, int depth) {
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
                return inner.and(typeRange(Types.typeNode(c.getType())));
            }
            case ASTNode.SIMPLE_NAME:
                return nameRange((SimpleName) e, assume, depth);
            case ASTNode.PREFIX_EXPRESSION: {
                PrefixExpression p = (PrefixExpression) e;
                if (p.getOperator() == PrefixExpression.Operator.MINUS)
                    return of(p.getOperand(), assume, depth + 1).negate();
                if (p.getOperator() == PrefixExpression.Operator.PLUS) return of(p.getOperand(), assume, depth + 1);
                return typeRange(types.of(e));
            }
            case ASTNode.CONDITIONAL_EXPRESSION: {
                ConditionalExpression c = (ConditionalExpression) e;
                Range a = of(c.getThenExpression(), facts(c.getExpression(), true, assume, depth), depth + 1);
                Range b = of(c.getElseExpression(), facts(c.getExpression(), false, assume, depth), depth + 1);
                return a.or(b);
            }
            case ASTNode.METHOD_INVOCATION:
                return call((MethodInvocation) e, assume, depth);
            case ASTNode.INFIX_EXPRESSION: {
                Range lerp = lerp((InfixExpression) e, assume, depth);
                return lerp != null ? lerp : infix((InfixExpression) e, assume, depth);
            }
            case ASTNode.ARRAY_ACCESS:
                return arrayElement((ArrayAccess) e, depth);
            default:
                return typeRange(types.of(e));
        }
    }

    /**
     * Linear interpolation {@code (1 - f) * a + f * b}: the programmer's f lies in [0, 1] (it is the
     * interpolation weight), so the result lies between a and b.
     */
    private Range lerp(InfixExpression in, Map<String, Range> assume, int depth) {
        if (in.getOperator() != InfixExpression.Operator.PLUS
                || !in.extendedOperands().isEmpty()) return null;
        Expression l = unparen(in.getLeftOperand());
        Expression r = unparen(in.getRightOperand());
        Range ab = lerpDelta(l, r, assume, depth);
        if (ab != null) return ab;
        Range stepped = steppedLerp(in, l, r, assume, depth);
        if (stepped != null) return stepped;
        if (!(l instanceof InfixExpression) || !(r instanceof InfixExpression)) return null;
        InfixExpression a = (InfixExpression) l;
        InfixExpression b = (InfixExpression) r;
        if (a.getOperator() != InfixExpression.Operator.TIMES
                || b.getOperator() != InfixExpression.Operator.TIMES
                || !a.extendedOperands().isEmpty()
                || !b.extendedOperands().isEmpty()) return null;
        Expression oneMinus = unparen(a.getLeftOperand());
        Expression av = a.getRightOperand();
        if (!(oneMinus instanceof InfixExpression)) {
            oneMinus = unparen(a.getRightOperand());
            av = a.getLeftOperand();
        }
        if (!(oneMinus instanceof InfixExpression)) return null;
        InfixExpression om = (InfixExpression) oneMinus;
        if (om.getOperator() != InfixExpression.Operator.MINUS
                || !om.extendedOperands().isEmpty()) return null;
        Expression one = unparen(om.getLeftOperand());
        if (!(one instanceof NumberLiteral) || Types.literalValue(((NumberLiteral) one).getToken()) != 1.0) return null;
        Expression f = unparen(om.getRightOperand());
        if (!(f instanceof SimpleName)) return null;
        String fid = ((SimpleName) f).getIdentifier();
        Expression bv;
        if (isName(b.getLeftOperand(), fid)) bv = b.getRightOperand();
        else if (isName(b.getRightOperand(), fid)) bv = b.getLeftOperand();
        else return null;
        return of(av, assume, depth + 1).or(of(bv, assume, depth + 1));
    }

    /**
     * Interpolation in steps: {@code a + k * step} with {@code step = (b - a) / d} computed before the loop, and
     * {@code k} a loop counter ({@code i}, or {@code i - i0} where the loop starts at {@code i0}) that never exceeds
     * {@code d}: then {@code k / d} lies in [0, 1] and the value between a and b. The bounds are compared as linear
     * forms of names and constants ({@code d = last - first + 1} against {@code i <= last}, {@code k = i - first}).
     * Null when the pattern or the bound does not follow.
     */
    private Range steppedLerp(InfixExpression in, Expression a, Expression t, Map<String, Range> assume, int depth) {
        if (!(a instanceof SimpleName) || !(t instanceof InfixExpression)) return null;
        InfixExpression prod = (InfixExpression) t;
        if (prod.getOperator() != InfixExpression.Operator.TIMES
                || !prod.extendedOperands().isEmpty()) return null;
        for (int side = 0; side < 2; side++) {
            Expression k = unparen(side == 0 ? prod.getLeftOperand() : prod.getRightOperand());
            Expression st = unparen(side == 0 ? prod.getRightOperand() : prod.getLeftOperand());
            if (!(st instanceof SimpleName)) continue;
            VariableDeclaration sd = Types.declarationOf((SimpleName) st);
            if (!(sd instanceof VariableDeclarationFragment) || sd.getInitializer() == null) continue;
            Expression init = unparen(sd.getInitializer());
            if (init instanceof CastExpression) init = unparen(((CastExpression) init).getExpression());
            if (!(init instanceof InfixExpression)) continue;
            InfixExpression div = (InfixExpression) init;
            if (div.getOperator() != InfixExpression.Operator.DIVIDE
                    || !div.extendedOperands().isEmpty()) continue;
            Expression num = unparen(div.getLeftOperand());
            if (!(num instanceof InfixExpression)) continue;
            InfixExpression diff = (InfixExpression) num;
            if (diff.getOperator() != InfixExpression.Operator.MINUS
                    || !diff.extendedOperands().isEmpty()
                    || !isName(diff.getRightOperand(), ((SimpleName) a).getIdentifier())) continue;
            String aId = ((SimpleName) a).getIdentifier();
            // a and the step must hold the values they had when the step was computed
            if (assignedBetween(sd, in, aId) || assignedBetween(sd, in, ((SimpleName) st).getIdentifier())) continue;
            List<ASTNode> substituted = new ArrayList<>();
            Map<String, Double> d = linear(unparen(div.getRightOperand()), substituted);
            Map<String, Double> kMax = counterMax(k, in);
            if (d == null || kMax == null || !namesStable(d.keySet(), sd, in)) continue;
            // a local that stood for its initializer: the names in it must not change from its declaration on
            boolean stable = true;
            for (ASTNode decl : substituted) stable &= namesStable(d.keySet(), decl, in);
            if (!stable) continue;
            // d - kMax must be a non-negative constant: 0 <= k <= kMax <= d, so k / d in [0, 1]
            Map<String, Double> gap = new HashMap<>(d);
            for (Map.Entry<String, Double> e : kMax.entrySet()) gap.merge(e.getKey(), -e.getValue(), Double::sum);
            boolean ok = true;
            for (Map.Entry<String, Double> e : gap.entrySet())
                if (!e.getKey().isEmpty() && e.getValue() != 0) ok = false;
            if (!ok || gap.getOrDefault("", 0.0) < 0) continue;
            return of(a, assume, depth + 1).or(of(diff.getLeftOperand(), assume, depth + 1));
        }
        return null;
    }

    /**
     * For {@code k} = a for-loop counter {@code i} (or {@code i - s} where the loop starts at {@code s}) of a loop
     * around {@code use} that counts up by one, the largest value of k as a linear form; null otherwise.
     */
    private Map<String, Double> counterMax(Expression k, ASTNode use) {
        String id;
        Expression minus = null;
        if (k instanceof SimpleName) id = ((SimpleName) k).getIdentifier();
        else if (k instanceof InfixExpression
                && ((InfixExpression) k).getOperator() == InfixExpression.Operator.MINUS
                && ((InfixExpression) k).extendedOperands().isEmpty()
                && unparen(((InfixExpression) k).getLeftOperand()) instanceof SimpleName) {
            id = ((SimpleName) unparen(((InfixExpression) k).getLeftOperand())).getIdentifier();
            minus = unparen(((InfixExpression) k).getRightOperand());
        } else return null;
        for (ASTNode p = use.getParent(); p != null && !(p instanceof BodyDeclaration); p = p.getParent()) {
            if (!(p instanceof ForStatement)) continue;
            ForStatement f = (ForStatement) p;
            if (f.updaters().size() != 1
                    || f.initializers().size() != 1
                    || !(f.getExpression() instanceof InfixExpression)) continue;
            Object u = f.updaters().get(0);
            boolean up = incrementsByOne(u, id);
            if (!up) continue;
            if (assignedIn(f.getBody(), id)) return null;
            Expression start = null;
            Object i0 = f.initializers().get(0);
            if (i0 instanceof VariableDeclarationExpression) {
                for (Object fr : ((VariableDeclarationExpression) i0).fragments()) {
                    VariableDeclarationFragment vf = (VariableDeclarationFragment) fr;
                    if (vf.getName().getIdentifier().equals(id)) start = vf.getInitializer();
                }
            } else if (i0 instanceof Assignment && isName(((Assignment) i0).getLeftHandSide(), id)) {
                start = ((Assignment) i0).getRightHandSide();
            }
            if (start == null) return null;
            Map<String, Double> s = linear(unparen(start), null);
            Map<String, Double> sub = minus == null ? Map.of() : linear(minus, null);
            if (s == null || sub == null) return null;
            for (String n : sub.keySet()) if (!n.isEmpty() && assignedIn(f.getBody(), n)) return null;
            // k >= 0: the counter starts at the subtracted value (or at a non-negative constant)
            boolean nonNegative = minus != null ? s.equals(sub) : s.size() == 1 && s.getOrDefault("", -1.0) >= 0;
            if (!nonNegative) return null;
            InfixExpression c = (InfixExpression) f.getExpression();
            if (!isName(c.getLeftOperand(), id)) return null;
            Map<String, Double> bound = linear(unparen(c.getRightOperand()), null);
            if (bound == null) return null;
            for (String n : bound.keySet()) if (!n.isEmpty() && assignedIn(f.getBody(), n)) return null;
            Map<String, Double> max = new HashMap<>(bound);
            if (c.getOperator() == InfixExpression.Operator.LESS) max.merge("", -1.0, Double::sum);
            else if (c.getOperator() != InfixExpression.Operator.LESS_EQUALS) return null;
            for (Map.Entry<String, Double> e : sub.entrySet()) max.merge(e.getKey(), -e.getValue(), Double::sum);
            return max;
        }
        return null;
    }

    /**
     * An expression as a linear form: names (key) and a constant (key ""), through +, - and integer or floating
     * casts; with {@code locals} (the declarations used are added to it), a local name is replaced by its
     * initializer when it is never reassigned.
     */
    private Map<String, Double> linear(Expression e, List<ASTNode> locals) {
        e = unparen(e);
        Object cv = e.resolveConstantExpressionValue();
        Map<String, Double> m = new HashMap<>();
        if (cv instanceof Number) {
            m.put("", ((Number) cv).doubleValue());
            return m;
        }
        if (e instanceof NumberLiteral) {
            m.put("", Types.literalValue(((NumberLiteral) e).getToken()));
            return m;
        }
        if (e instanceof CastExpression) return linear(((CastExpression) e).getExpression(), locals);
        if (e instanceof SimpleName) {
            String id = ((SimpleName) e).getIdentifier();
            if (locals != null) {
                VariableDeclaration d = Types.declarationOf((SimpleName) e);
                if (d instanceof VariableDeclarationFragment && d.getInitializer() != null) {
                    ASTNode body = d;
                    while (body != null && !(body instanceof MethodDeclaration)) body = body.getParent();
                    if (body == null || assignedIn(body, id)) return null;
                    locals.add(d);
                    return linear(d.getInitializer(), null);
                }
            }
            m.put(id, 1.0);
            return m;
        }
        if (!(e instanceof InfixExpression)) return null;
        InfixExpression in = (InfixExpression) e;
        if (in.getOperator() != InfixExpression.Operator.PLUS && in.getOperator() != InfixExpression.Operator.MINUS)
            return null;
        List<Expression> ops = new ArrayList<>();
        ops.add(in.getLeftOperand());
        ops.add(in.getRightOperand());
        for (Object o : in.extendedOperands()) ops.add((Expression) o);
        for (int i = 0; i < ops.size(); i++) {
            Map<String, Double> x = linear(ops.get(i), locals);
            if (x == null) return null;
            double sign = i > 0 && in.getOperator() == InfixExpression.Operator.MINUS ? -1 : 1;
            for (Map.Entry<String, Double> en : x.entrySet()) m.merge(en.getKey(), sign * en.getValue(), Double::sum);
        }
        return m;
    }

    /** Whether none of {@code names} is assigned in the method between {@code from} and {@code to}. */
    private static boolean namesStable(java.util.Set<String> names, ASTNode from, ASTNode to) {
        for (String n : names) if (!n.isEmpty() && assignedBetween(from, to, n)) return false;
        return true;
    }

    /**
     * Whether {@code id} is assigned after {@code from} ends and before {@code to} starts in their method, or
     * anywhere in a loop that encloses {@code to} but not {@code from} (a later iteration sees that assignment).
     */
    private static boolean assignedBetween(ASTNode from, ASTNode to, String id) {
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

    /**
     * A weighted average {@code (a * u + b * v) / (u + v)} (any number of terms, weights on either side of each
     * product, the denominator the sum of the same weights in any order): it lies between the smallest and the
     * largest value, as {@link #lerp} assumes of an interpolation weight; here the weights are taken to have one sign
     * (distances, counts, kernel weights). A weight that is a constant of the other sign makes it no average; so does
     * a term whose weight is not in the denominator.
     */
    private Range weightedAverage(Expression num, Expression den, Map<String, Range> assume, int depth) {
        List<Expression> terms = terms(unparen(num));
        List<Expression> weights = terms(unparen(den));
        if (terms.size() < 2 || terms.size() != weights.size()) return null;
        List<Expression> unused = new ArrayList<>(weights);
        Range out = null;
        boolean positive = false, negative = false;
        for (Expression t : terms) {
            if (!(t instanceof InfixExpression)
                    || ((InfixExpression) t).getOperator() != InfixExpression.Operator.TIMES
                    || !((InfixExpression) t).extendedOperands().isEmpty()) return null;
            InfixExpression prod = (InfixExpression) t;
            Expression value = null;
            for (int side = 0; side < 2 && value == null; side++) {
                Expression w = unparen(side == 0 ? prod.getRightOperand() : prod.getLeftOperand());
                for (java.util.Iterator<Expression> it = unused.iterator(); it.hasNext(); ) {
                    if (it.next().subtreeMatch(new ASTMatcher(), w)) {
                        it.remove();
                        value = side == 0 ? prod.getLeftOperand() : prod.getRightOperand();
                        Range wr = of(w, assume, depth + 1);
                        if (wr.lo() > 0) positive = true;
                        if (wr.hi() < 0) negative = true;
                        break;
                    }
                }
            }
            if (value == null) return null;
            Range v = of(value, assume, depth + 1);
            out = out == null ? v : out.or(v);
        }
        if (!unused.isEmpty() || (positive && negative) || out == null) return null;
        return Range.of(out.lo(), out.hi());
    }

    /**
     * A weighted average accumulated in a loop, {@code sum / wsum} where the local {@code sum} is only ever
     * increased by {@code v * w} and the local {@code wsum} by the same {@code w}, one for one in the same block
     * (both start at 0 and are set only to 0 otherwise): a convex combination of the values {@code v}, within their
     * range (0/0 gives NaN, which converts to 0). As in {@link #weightedAverage}, the weights are taken to have one
     * sign (kernel weights, distances, counts); a weight known to be negative makes it no average.
     */
    private Range accumulatedAverage(Expression num, Expression den, Map<String, Range> assume, int depth) {
        num = unparen(num);
        den = unparen(den);
        if (!(num instanceof SimpleName) || !(den instanceof SimpleName)) return null;
        String n = ((SimpleName) num).getIdentifier();
        String d = ((SimpleName) den).getIdentifier();
        if (n.equals(d)) return null;
        VariableDeclaration nd = Types.declarationOf((SimpleName) num);
        VariableDeclaration dd = Types.declarationOf((SimpleName) den);
        if (nd == null || dd == null || !zeroOrNull(nd.getInitializer()) || !zeroOrNull(dd.getInitializer()))
            return null;
        ASTNode body = nd.getParent();
        while (body != null && !(body instanceof MethodDeclaration) && !(body instanceof LambdaExpression))
            body = body.getParent();
        if (body == null || !JavaUnit.isAncestor(body, dd)) return null;
        List<Assignment> numAdds = new ArrayList<>();
        List<Assignment> denAdds = new ArrayList<>();
        boolean[] other = {false};
        body.accept(new ASTVisitor() {
            @Override
            public boolean visit(Assignment a) {
                boolean isN = isName(a.getLeftHandSide(), n);
                boolean isD = isName(a.getLeftHandSide(), d);
                if (!isN && !isD) return true;
                if (a.getOperator() == Assignment.Operator.PLUS_ASSIGN) (isN ? numAdds : denAdds).add(a);
                else if (a.getOperator() != Assignment.Operator.ASSIGN || !zeroOrNull(a.getRightHandSide()))
                    other[0] = true;
                return true;
            }

            @Override
            public boolean visit(PostfixExpression p) {
                if (isName(p.getOperand(), n) || isName(p.getOperand(), d)) other[0] = true;
                return true;
            }

            @Override
            public boolean visit(PrefixExpression p) {
                if (isName(p.getOperand(), n) || isName(p.getOperand(), d)) other[0] = true;
                return true;
            }
        });
        if (other[0] || numAdds.isEmpty() || numAdds.size() != denAdds.size()) return null;
        List<Assignment> unused = new ArrayList<>(denAdds);
        Range out = null;
        for (Assignment a : numAdds) {
            Expression t = unparen(a.getRightHandSide());
            if (!(t instanceof InfixExpression)
                    || ((InfixExpression) t).getOperator() != InfixExpression.Operator.TIMES
                    || !((InfixExpression) t).extendedOperands().isEmpty()) return null;
            InfixExpression prod = (InfixExpression) t;
            Expression value = null;
            for (int side = 0; side < 2 && value == null; side++) {
                Expression w = unparen(side == 0 ? prod.getRightOperand() : prod.getLeftOperand());
                for (java.util.Iterator<Assignment> it = unused.iterator(); it.hasNext(); ) {
                    Assignment wa = it.next();
                    if (wa.getParent().getParent() != a.getParent().getParent()
                            || !unparen(wa.getRightHandSide()).subtreeMatch(new ASTMatcher(), w)) continue;
                    if (of(w, assume, depth + 1).hi() < 0) return null; // a negative weight: no average
                    it.remove();
                    value = side == 0 ? prod.getLeftOperand() : prod.getRightOperand();
                    break;
                }
            }
            if (value == null) return null;
            Range v = of(value, assume, depth + 1);
            out = out == null ? v : out.or(v);
        }
        return out == null ? null : Range.of(out.lo(), out.hi());
    }

    private static boolean zeroOrNull(Expression e) {
        if (e == null) return true;
        e = unparen(e);
        if (e instanceof CastExpression) e = unparen(((CastExpression) e).getExpression());
        return e instanceof NumberLiteral && Types.literalValue(((NumberLiteral) e).getToken()) == 0;
    }

    /**
     * Min-max normalisation {@code (x - lo) * K / (hi - lo)} (or without K), where {@code lo} and {@code hi} are
     * locals assigned, after their declaration, only as the running minimum and maximum of {@code x} itself
     * ({@code if (x < lo) lo = x;}, {@code lo = Math.min(lo, x)}, and the same for hi): x lies in [lo, hi], so the
     * value lies in [0, K] (0/0 gives NaN, which converts to 0). The same expression must be the one the extremes
     * were taken of; an extreme set anywhere else (a display range, a user's value) proves nothing.
     */
    private Range minMaxNormalised(Expression num, Expression den, Map<String, Range> assume, int depth) {
        num = unparen(num);
        den = unparen(den);
        if (!(den instanceof InfixExpression)
                || ((InfixExpression) den).getOperator() != InfixExpression.Operator.MINUS
                || !((InfixExpression) den).extendedOperands().isEmpty()) return null;
        Expression hi = unparen(((InfixExpression) den).getLeftOperand());
        Expression lo = unparen(((InfixExpression) den).getRightOperand());
        if (!(hi instanceof SimpleName) || !(lo instanceof SimpleName)) return null;
        Scaled sc = scaled(num, assume, depth);
        if (sc == null) return null;
        double k = sc.k();
        Expression diff = sc.operand();
        if (!(diff instanceof InfixExpression)
                || ((InfixExpression) diff).getOperator() != InfixExpression.Operator.MINUS
                || !((InfixExpression) diff).extendedOperands().isEmpty()
                || !isName(((InfixExpression) diff).getRightOperand(), ((SimpleName) lo).getIdentifier())) return null;
        Expression x = unparen(((InfixExpression) diff).getLeftOperand());
        if (k < 0 || Double.isInfinite(k) || Double.isNaN(k)) return null;
        if (!runningExtreme((SimpleName) lo, x, false) || !runningExtreme((SimpleName) hi, x, true)) return null;
        return Range.of(0, k);
    }

    /**
     * Whether the local {@code v} is assigned, after its declaration, only as the running maximum ({@code max}) or
     * minimum of an expression written as {@code x}, and at least once.
     */
    private static boolean runningExtreme(SimpleName v, Expression x, boolean max) {
        VariableDeclaration decl = Types.declarationOf(v);
        if (decl == null) return false;
        ASTNode scope = decl.getParent();
        while (scope != null && !(scope instanceof Block)) scope = scope.getParent();
        if (scope == null) return false;
        String id = v.getIdentifier();
        boolean[] ok = {true};
        int[] updates = {0};
        ASTMatcher same = new ASTMatcher();
        scope.accept(new ASTVisitor() {
            @Override
            public boolean visit(Assignment a) {
                if (!isName(a.getLeftHandSide(), id)) return true;
                Expression r = unparen(a.getRightHandSide());
                if (a.getOperator() != Assignment.Operator.ASSIGN) {
                    ok[0] = false;
                } else if (r instanceof MethodInvocation
                        && ((MethodInvocation) r).getName().getIdentifier().equals(max ? "max" : "min")
                        && ((MethodInvocation) r).arguments().size() == 2) {
                    Expression a0 = unparen(
                            (Expression) ((MethodInvocation) r).arguments().get(0));
                    Expression a1 = unparen(
                            (Expression) ((MethodInvocation) r).arguments().get(1));
                    if ((isName(a0, id) && a1.subtreeMatch(same, x)) || (isName(a1, id) && a0.subtreeMatch(same, x)))
                        updates[0]++;
                    else ok[0] = false;
                } else if (r.subtreeMatch(same, x) && guardedUpdate(a, id, x, max)) {
                    updates[0]++;
                } else {
                    ok[0] = false;
                }
                return true;
            }

            @Override
            public boolean visit(PostfixExpression p) {
                if (isName(p.getOperand(), id)) ok[0] = false;
                return true;
            }

            @Override
            public boolean visit(PrefixExpression p) {
                if (isName(p.getOperand(), id)
                        && (p.getOperator() == PrefixExpression.Operator.INCREMENT
                                || p.getOperator() == PrefixExpression.Operator.DECREMENT)) ok[0] = false;
                return true;
            }
        });
        return ok[0] && updates[0] > 0;
    }

    /** {@code if (x > v) v = x;} (max) or {@code if (x < v) v = x;} (min), either way round, no else. */
    private static boolean guardedUpdate(Assignment a, String id, Expression x, boolean max) {
        ASTNode st = a.getParent();
        if (!(st instanceof ExpressionStatement)) return false;
        ASTNode p = st.getParent();
        if (p instanceof Block && ((Block) p).statements().size() == 1) p = p.getParent();
        if (!(p instanceof IfStatement) || ((IfStatement) p).getElseStatement() != null) return false;
        Expression c = unparen(((IfStatement) p).getExpression());
        if (!(c instanceof InfixExpression)
                || !((InfixExpression) c).extendedOperands().isEmpty()) return false;
        InfixExpression in = (InfixExpression) c;
        Expression l = unparen(in.getLeftOperand());
        Expression r = unparen(in.getRightOperand());
        InfixExpression.Operator op = in.getOperator();
        if (isName(l, id) && r.subtreeMatch(new ASTMatcher(), x)) op = flip(op);
        else if (!(isName(r, id) && l.subtreeMatch(new ASTMatcher(), x))) return false;
        // now the condition reads x OP v
        if (max) return op == InfixExpression.Operator.GREATER || op == InfixExpression.Operator.GREATER_EQUALS;
        return op == InfixExpression.Operator.LESS || op == InfixExpression.Operator.LESS_EQUALS;
    }

    /** The operands of a sum written with +, or the expression itself. */
    private static List<Expression> terms(Expression e) {
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

    /** a + f * (b - a): between a and b (f is the interpolation weight). */
    private Range lerpDelta(Expression a, Expression r, Map<String, Range> assume, int depth) {
        if (!(r instanceof InfixExpression)) return null;
        InfixExpression t = (InfixExpression) r;
        if (t.getOperator() != InfixExpression.Operator.TIMES
                || !t.extendedOperands().isEmpty()) return null;
        for (Expression d : new Expression[] {unparen(t.getLeftOperand()), unparen(t.getRightOperand())}) {
            if (d instanceof InfixExpression
                    && ((InfixExpression) d).getOperator() == InfixExpression.Operator.MINUS
                    && ((InfixExpression) d).extendedOperands().isEmpty()
                    && unparen(((InfixExpression) d).getRightOperand()).subtreeMatch(new ASTMatcher(), a)) {
                Expression b = ((InfixExpression) d).getLeftOperand();
                return of(a, assume, depth + 1).or(of(b, assume, depth + 1));
            }
        }
        return null;
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
        Range typeR = typeRange(et);
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

    public static Range typeRange(NumType t) {
        switch (t) {
            case BYTE:
                return Range.of(Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SHORT:
                return Range.of(Short.MIN_VALUE, Short.MAX_VALUE);
            case CHAR:
                return Range.of(0, Character.MAX_VALUE);
            case INT:
                return Range.of(Integer.MIN_VALUE, Integer.MAX_VALUE);
            case LONG:
                return Range.of(Long.MIN_VALUE, Long.MAX_VALUE);
            default:
                return Range.ALL;
        }
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
            return typeRange(types.of(in));
        }
        if ((op == InfixExpression.Operator.RIGHT_SHIFT_SIGNED || op == InfixExpression.Operator.RIGHT_SHIFT_UNSIGNED)
                && ops.size() == 2) {
            Range v = of(ops.get(0), assume, depth + 1);
            Range k = of(ops.get(1), assume, depth + 1);
            if (k.isPoint() && k.lo() >= 0 && k.lo() < 63 && v.lo() >= 0 && !v.loGuard() && !v.hiGuard()) {
                double d = Math.pow(2, k.lo());
                return Range.of(Math.floor(v.lo() / d), Math.floor(v.hi() / d));
            }
            return typeRange(types.of(in));
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
            return typeRange(types.of(in));
        }
        if (op == InfixExpression.Operator.DIVIDE && ops.size() == 2) {
            Range ramp = ramp(ops.get(0), ops.get(1), assume, depth);
            if (ramp != null) return ramp;
            Range mean = weightedAverage(ops.get(0), ops.get(1), assume, depth);
            if (mean != null) return mean;
            Range accumulated = accumulatedAverage(ops.get(0), ops.get(1), assume, depth);
            if (accumulated != null) return accumulated;
            Range normalised = minMaxNormalised(ops.get(0), ops.get(1), assume, depth);
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

    /** {@code operand * k}: a product with one constant factor, or any other expression with k = 1. */
    private record Scaled(double k, Expression operand) {}

    /** {@code e} split into a constant factor and the rest; null for a product of two non-constant factors. */
    private Scaled scaled(Expression e, Map<String, Range> assume, int depth) {
        e = unparen(e);
        if (!(e instanceof InfixExpression)
                || ((InfixExpression) e).getOperator() != InfixExpression.Operator.TIMES
                || !((InfixExpression) e).extendedOperands().isEmpty()) return new Scaled(1, e);
        InfixExpression t = (InfixExpression) e;
        Range b = of(t.getRightOperand(), assume, depth + 1);
        if (b.isPoint()) return new Scaled(b.lo(), unparen(t.getLeftOperand()));
        Range a = of(t.getLeftOperand(), assume, depth + 1);
        if (a.isPoint()) return new Scaled(a.lo(), unparen(t.getRightOperand()));
        return null;
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

    /**
     * A ramp {@code i * K / n} (or {@code i / n}) where {@code i} counts up from a non-negative start in a loop
     * {@code for (...; i < n; i++)} with the same {@code n}: the quotient lies in [0, K) (lookup tables, colour ramps).
     */
    private Range ramp(Expression num, Expression den, Map<String, Range> assume, int depth) {
        num = unparen(num);
        den = unparen(den);
        Scaled sc = scaled(num, assume, depth);
        if (sc == null) return null;
        double k = sc.k();
        Expression var = sc.operand();
        if (!(var instanceof SimpleName) || k < 0 || Double.isInfinite(k)) return null;
        String id = ((SimpleName) var).getIdentifier();
        String bound = den.toString();
        for (ASTNode p = num.getParent(); p != null && !(p instanceof BodyDeclaration); p = p.getParent()) {
            if (!(p instanceof ForStatement)) continue;
            ForStatement f = (ForStatement) p;
            if (!(f.getExpression() instanceof InfixExpression) || f.updaters().size() != 1) continue;
            InfixExpression c = (InfixExpression) f.getExpression();
            if (c.getOperator() != InfixExpression.Operator.LESS
                    || !isName(c.getLeftOperand(), id)
                    || !unparen(c.getRightOperand()).toString().equals(bound)) continue;
            Object u = f.updaters().get(0);
            boolean up = incrementsByOne(u, id);
            if (!up || assignedIn(f.getBody(), id) || den instanceof SimpleName && assignedIn(f.getBody(), bound))
                return null;
            Expression init = null;
            for (Object o : f.initializers()) {
                if (o instanceof VariableDeclarationExpression) {
                    for (Object fr : ((VariableDeclarationExpression) o).fragments()) {
                        VariableDeclarationFragment vf = (VariableDeclarationFragment) fr;
                        if (vf.getName().getIdentifier().equals(id)) init = vf.getInitializer();
                    }
                } else if (o instanceof Assignment && isName(((Assignment) o).getLeftHandSide(), id)) {
                    init = ((Assignment) o).getRightHandSide();
                }
            }
            if (init == null || of(init, assume, depth + 1).lo() < 0) return null;
            // i <= n - 1, so i * k / n <= k - k / n < k
            return Range.of(0, Math.nextDown(k));
        }
        return null;
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
            if (rr != null) return rr.and(typeRange(types.of(m)));
            if (!math) return typeRange(types.of(m));
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
                            .and(typeRange(types.of(m)));
                }
                break;
            default:
                break;
        }
        return typeRange(types.of(m));
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

    // ---- names: guards before the use ----------------------------------------------------------------------

    private Range nameRange(SimpleName name, Map<String, Range> assume, int depth) {
        String id = name.getIdentifier();
        Range typeR = typeRange(types.of(name));
        if (assume.containsKey(id)) return assume.get(id).and(typeR);
        if (depth > MAX_DEPTH - 3) return typeR;
        // Walk backwards from the use: statements before it in its blocks, enclosing conditions.
        List<Range> facts = new ArrayList<>(); // "value is within" facts, applied after the base
        List<Object[]> clamps = new ArrayList<>(); // {Boolean lower, Range bound} in reverse program order
        Range base = null;
        ASTNode child = name;
        outer:
        for (ASTNode p = name.getParent(); p != null; child = p, p = p.getParent()) {
            switch (p.getNodeType()) {
                case ASTNode.CONDITIONAL_EXPRESSION: {
                    ConditionalExpression c = (ConditionalExpression) p;
                    if (child == c.getThenExpression()) facts.add(factAbout(id, c.getExpression(), true, depth));
                    else if (child == c.getElseExpression()) facts.add(factAbout(id, c.getExpression(), false, depth));
                    break;
                }
                case ASTNode.INFIX_EXPRESSION: {
                    InfixExpression in = (InfixExpression) p;
                    if (in.getOperator() == InfixExpression.Operator.CONDITIONAL_AND && child != in.getLeftOperand()) {
                        facts.add(factAbout(id, in.getLeftOperand(), true, depth));
                    }
                    break;
                }
                case ASTNode.IF_STATEMENT: {
                    IfStatement is = (IfStatement) p;
                    if (child == is.getThenStatement()) facts.add(factAbout(id, is.getExpression(), true, depth));
                    else if (child == is.getElseStatement()) facts.add(factAbout(id, is.getExpression(), false, depth));
                    break;
                }
                case ASTNode.WHILE_STATEMENT: {
                    WhileStatement ws = (WhileStatement) p;
                    if (child == ws.getBody()) facts.add(factAbout(id, ws.getExpression(), true, depth));
                    if (assignedIn(ws.getBody(), id)) break outer; // loop-carried: value depends on earlier iterations
                    break;
                }
                case ASTNode.FOR_STATEMENT:
                case ASTNode.DO_STATEMENT:
                case ASTNode.ENHANCED_FOR_STATEMENT: {
                    if (p instanceof ForStatement) {
                        Range lv = loopVariable((ForStatement) p, id, child, depth);
                        if (lv != null) {
                            base = lv;
                            break outer;
                        }
                    }
                    Statement body = p instanceof ForStatement
                            ? ((ForStatement) p).getBody()
                            : p instanceof DoStatement
                                    ? ((DoStatement) p).getBody()
                                    : ((EnhancedForStatement) p).getBody();
                    if (child == body && assignedIn(body, id)) {
                        // an assignment later in the body flows into the next iteration; only statements before the
                        // use within this iteration were considered (enough for clamp-then-cast code)
                        if (base == null) break outer;
                    }
                    if (p instanceof EnhancedForStatement
                            && ((EnhancedForStatement) p)
                                    .getParameter()
                                    .getName()
                                    .getIdentifier()
                                    .equals(id)) break outer;
                    break;
                }
                case ASTNode.BLOCK:
                case ASTNode.SWITCH_STATEMENT: {
                    List<?> stmts = p instanceof Block ? ((Block) p).statements() : ((SwitchStatement) p).statements();
                    int idx = stmts.indexOf(child);
                    for (int i = idx - 1; i >= 0; i--) {
                        Statement s = (Statement) stmts.get(i);
                        int r = statementEffect(s, id, clamps, facts, depth);
                        if (r == 1) {
                            base = baseOf(s, id, depth);
                            break outer;
                        }
                        if (r == 2) {
                            // an if/else chain that assigns on every path: the union of the paths' ranges (a
                            // clamp on every path bounds the value by construction)
                            List<PathDefinition> paths =
                                    s instanceof IfStatement ? branches((IfStatement) s, id, typeR, depth + 1) : null;
                            base = Range.ALL;
                            if (paths != null && !paths.isEmpty()) {
                                base = paths.get(0).range();
                                for (PathDefinition d : paths) base = base.or(d.range());
                            }
                            break outer;
                        }
                    }
                    break;
                }
                case ASTNode.METHOD_DECLARATION:
                case ASTNode.LAMBDA_EXPRESSION:
                case ASTNode.TYPE_DECLARATION:
                case ASTNode.ANONYMOUS_CLASS_DECLARATION:
                case ASTNode.INITIALIZER:
                    break outer;
                default:
                    break;
            }
        }
        return applyClamps(base, typeR, clamps, facts);
    }

    /** Range of a counting loop's variable inside the body: for (int i = A; i < B; i++) gives [A, B). */
    private Range loopVariable(ForStatement f, String id, ASTNode child, int depth) {
        if (child != f.getBody() || f.initializers().size() != 1) return null;
        Object i0 = f.initializers().get(0);
        if (!(i0 instanceof VariableDeclarationExpression)) return null;
        Expression init = null;
        for (Object o : ((VariableDeclarationExpression) i0).fragments()) {
            VariableDeclarationFragment vf = (VariableDeclarationFragment) o;
            if (vf.getName().getIdentifier().equals(id)) init = vf.getInitializer();
        }
        if (init == null || f.updaters().size() != 1 || assignedIn(f.getBody(), id)) return null;
        Object u = f.updaters().get(0);
        boolean up = u instanceof PostfixExpression
                        && ((PostfixExpression) u).getOperator() == PostfixExpression.Operator.INCREMENT
                || u instanceof PrefixExpression
                        && ((PrefixExpression) u).getOperator() == PrefixExpression.Operator.INCREMENT;
        boolean down = u instanceof PostfixExpression
                        && ((PostfixExpression) u).getOperator() == PostfixExpression.Operator.DECREMENT
                || u instanceof PrefixExpression
                        && ((PrefixExpression) u).getOperator() == PrefixExpression.Operator.DECREMENT;
        if (!up && !down) return null;
        Range start = of(init, Map.of(), depth + 1);
        Range cond = f.getExpression() == null ? Range.ALL : factAbout(id, f.getExpression(), true, depth);
        if (up) return new Range(start.lo(), Double.POSITIVE_INFINITY, start.loGuard(), false).and(cond);
        return new Range(Double.NEGATIVE_INFINITY, start.hi(), false, start.hiGuard()).and(cond);
    }

    /**
     * The effect of statement {@code s} (before the use) on {@code id}: 0 = none or a recorded clamp/exit fact,
     * 1 = assigns the base value (plain assignment or declaration), 2 = changes it in a way we do not follow.
     */
    private int statementEffect(Statement s, String id, List<Object[]> clamps, List<Range> facts, int depth) {
        if (s instanceof VariableDeclarationStatement) {
            for (Object f : ((VariableDeclarationStatement) s).fragments()) {
                if (((VariableDeclarationFragment) f).getName().getIdentifier().equals(id)) return 1;
            }
            return assignedIn(s, id) ? 2 : 0;
        }
        if (s instanceof ExpressionStatement) {
            Expression e = ((ExpressionStatement) s).getExpression();
            if (e instanceof Assignment) {
                Assignment a = (Assignment) e;
                if (isName(a.getLeftHandSide(), id)) return a.getOperator() == Assignment.Operator.ASSIGN ? 1 : 2;
            }
            return assignedIn(s, id) ? 2 : 0;
        }
        if (s instanceof IfStatement) {
            IfStatement is = (IfStatement) s;
            if (clampChain(is, id, clamps, depth)) return 0;
            if (is.getElseStatement() == null
                    && exits(is.getThenStatement())
                    && !assignedIn(is.getThenStatement(), id)) {
                facts.add(factAbout(id, is.getExpression(), false, depth));
                return 0;
            }
            return assignedIn(s, id) ? 2 : 0;
        }
        return assignedIn(s, id) ? 2 : 0;
    }

    /** if (v < A) v = A; [else] if (v > B) v = B; (any order, with or without else). */
    private boolean clampChain(IfStatement is, String id, List<Object[]> clamps, int depth) {
        List<Object[]> found = new ArrayList<>();
        Statement cur = is;
        while (cur instanceof IfStatement) {
            IfStatement i = (IfStatement) cur;
            Object[] c = clamp(i.getExpression(), single(i.getThenStatement()), id, depth);
            if (c == null) return false;
            found.add(c);
            cur = i.getElseStatement();
        }
        if (cur != null) return false;
        // in program order the chain applies all its clamps; record in reverse
        for (int i = found.size() - 1; i >= 0; i--) clamps.add(found.get(i));
        return true;
    }

    private Object[] clamp(Expression cond, Statement then, String id, int depth) {
        if (!(then instanceof ExpressionStatement)) return null;
        Expression e = ((ExpressionStatement) then).getExpression();
        if (!(e instanceof Assignment)) return null;
        Assignment a = (Assignment) e;
        if (a.getOperator() != Assignment.Operator.ASSIGN || !isName(a.getLeftHandSide(), id)) return null;
        cond = unparen(cond);
        if (!(cond instanceof InfixExpression)) return null;
        InfixExpression in = (InfixExpression) cond;
        if (in.getOperator() == InfixExpression.Operator.CONDITIONAL_OR) {
            // if (Float.isNaN(v) || v < 0) v = 0;  -- any disjunct that compares v establishes the bound
            List<Expression> ds = new ArrayList<>();
            ds.add(in.getLeftOperand());
            ds.add(in.getRightOperand());
            for (Object o : in.extendedOperands()) ds.add((Expression) o);
            Object[] found = null;
            for (Expression d : ds) {
                Object[] c = clamp(d, then, id, depth);
                if (c != null) {
                    if (found != null && (Boolean) found[0] != (Boolean) c[0]) return null;
                    found = c;
                }
            }
            return found;
        }
        if (!in.extendedOperands().isEmpty()) return null;
        InfixExpression.Operator op = in.getOperator();
        boolean nameLeft = isName(in.getLeftOperand(), id);
        boolean nameRight = isName(in.getRightOperand(), id);
        if (!nameLeft && !nameRight) return null;
        boolean less = op == InfixExpression.Operator.LESS || op == InfixExpression.Operator.LESS_EQUALS;
        boolean greater = op == InfixExpression.Operator.GREATER || op == InfixExpression.Operator.GREATER_EQUALS;
        if (!less && !greater) return null;
        boolean lowerClamp = nameLeft ? less : greater; // v < A  or  A > v
        Range bound = of(a.getRightHandSide(), Map.of(), depth + 1);
        if (!bound.isPoint()) {
            // clamped to a non-constant bound: treat as guarded on that side
            bound = lowerClamp
                    ? new Range(bound.lo(), bound.hi(), true, bound.hiGuard())
                    : new Range(bound.lo(), bound.hi(), bound.loGuard(), true);
        }
        return new Object[] {lowerClamp, bound};
    }

    private static Statement single(Statement s) {
        if (s instanceof Block && ((Block) s).statements().size() == 1)
            return (Statement) ((Block) s).statements().get(0);
        return s;
    }

    private static boolean exits(Statement s) {
        s = single(s);
        return s instanceof ReturnStatement
                || s instanceof ContinueStatement
                || s instanceof BreakStatement
                || s instanceof ThrowStatement;
    }

    private Range baseOf(Statement s, String id, int depth) {
        Expression init = null;
        if (s instanceof VariableDeclarationStatement) {
            for (Object f : ((VariableDeclarationStatement) s).fragments()) {
                VariableDeclarationFragment vf = (VariableDeclarationFragment) f;
                if (vf.getName().getIdentifier().equals(id)) init = vf.getInitializer();
            }
        } else if (s instanceof ExpressionStatement
                && ((ExpressionStatement) s).getExpression() instanceof Assignment) {
            init = ((Assignment) ((ExpressionStatement) s).getExpression()).getRightHandSide();
        }
        return init == null ? Range.ALL : of(init, Map.of(), depth + 1);
    }

    /** What {@code cond} being {@code value} says about {@code id}. */
    private Range factAbout(String id, Expression cond, boolean value, int depth) {
        Map<String, Range> m = facts(cond, value, Map.of(), depth);
        Range r = m.get(id);
        return r == null ? Range.ALL : r;
    }

    private Map<String, Range> facts(Expression cond, boolean value, Map<String, Range> assume, int depth) {
        Map<String, Range> out = new HashMap<>(assume);
        addFacts(unparen(cond), value, out, depth);
        return out;
    }

    private void addFacts(Expression cond, boolean value, Map<String, Range> out, int depth) {
        cond = unparen(cond);
        if (cond instanceof PrefixExpression
                && ((PrefixExpression) cond).getOperator() == PrefixExpression.Operator.NOT) {
            addFacts(((PrefixExpression) cond).getOperand(), !value, out, depth);
            return;
        }
        if (!(cond instanceof InfixExpression)) return;
        InfixExpression in = (InfixExpression) cond;
        InfixExpression.Operator op = in.getOperator();
        if ((op == InfixExpression.Operator.CONDITIONAL_AND && value)
                || (op == InfixExpression.Operator.CONDITIONAL_OR && !value)) {
            addFacts(in.getLeftOperand(), value, out, depth);
            addFacts(in.getRightOperand(), value, out, depth);
            for (Object o : in.extendedOperands()) addFacts((Expression) o, value, out, depth);
            return;
        }
        if (!in.extendedOperands().isEmpty()) return;
        Expression l = unparen(in.getLeftOperand());
        Expression r = unparen(in.getRightOperand());
        // normalise to  name OP bound
        SimpleName n;
        Expression bound;
        if (l instanceof SimpleName) {
            n = (SimpleName) l;
            bound = r;
        } else if (r instanceof SimpleName) {
            n = (SimpleName) r;
            bound = l;
            op = flip(op);
        } else {
            return;
        }
        if (op == null) return;
        if (!value) op = negate(op);
        if (op == null) return;
        Range b = of(bound, Map.of(), depth + 1);
        boolean sym = !b.isPoint();
        if (!sym && types.of(n).isIntegral()) {
            // i < 256 means i <= 255 for an integer i
            if (op == InfixExpression.Operator.LESS) b = Range.point(Math.ceil(b.lo()) - 1);
            else if (op == InfixExpression.Operator.GREATER) b = Range.point(Math.floor(b.lo()) + 1);
        }
        Range fact;
        if (op == InfixExpression.Operator.LESS || op == InfixExpression.Operator.LESS_EQUALS) {
            fact = new Range(Double.NEGATIVE_INFINITY, sym ? Double.POSITIVE_INFINITY : b.hi(), false, sym);
        } else if (op == InfixExpression.Operator.GREATER || op == InfixExpression.Operator.GREATER_EQUALS) {
            fact = new Range(sym ? Double.NEGATIVE_INFINITY : b.lo(), Double.POSITIVE_INFINITY, sym, false);
        } else if (op == InfixExpression.Operator.EQUALS && !sym) {
            fact = Range.point(b.lo());
        } else {
            return;
        }
        out.merge(n.getIdentifier(), fact, Range::and);
    }

    private static InfixExpression.Operator flip(InfixExpression.Operator op) {
        if (op == InfixExpression.Operator.LESS) return InfixExpression.Operator.GREATER;
        if (op == InfixExpression.Operator.GREATER) return InfixExpression.Operator.LESS;
        if (op == InfixExpression.Operator.LESS_EQUALS) return InfixExpression.Operator.GREATER_EQUALS;
        if (op == InfixExpression.Operator.GREATER_EQUALS) return InfixExpression.Operator.LESS_EQUALS;
        if (op == InfixExpression.Operator.EQUALS || op == InfixExpression.Operator.NOT_EQUALS) return op;
        return null;
    }

    private static InfixExpression.Operator negate(InfixExpression.Operator op) {
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
    private static boolean incrementsByOne(Object u, String id) {
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
