package dev.numlint.java;

import static dev.numlint.java.JavaSyntax.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.core.dom.*;

/**
 * The pattern recognisers of the range analysis: expressions whose value lies between others by construction,
 * whatever their operands' ranges say: linear interpolations ({@code (1 - f) * a + f * b}, {@code a + f * (b - a)},
 * stepped interpolations), weighted and accumulated averages, min-max normalisations and loop ramps
 * ({@code i * K / n}). Each returns null when its pattern does not match. The ranges of the operands come from the
 * evaluator it is handed, never from the class it was split out of.
 */
final class RangePatterns {
    private final RangeEvaluator eval;

    RangePatterns(RangeEvaluator eval) {
        this.eval = eval;
    }

    /**
     * Linear interpolation {@code (1 - f) * a + f * b}: the programmer's f lies in [0, 1] (it is the
     * interpolation weight), so the result lies between a and b.
     */
    Range lerp(InfixExpression in, Map<String, Range> assume, int depth) {
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
        return eval.of(av, assume, depth + 1).or(eval.of(bv, assume, depth + 1));
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
            return eval.of(a, assume, depth + 1).or(eval.of(diff.getLeftOperand(), assume, depth + 1));
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

    /**
     * A weighted average {@code (a * u + b * v) / (u + v)} (any number of terms, weights on either side of each
     * product, the denominator the sum of the same weights in any order): it lies between the smallest and the
     * largest value, as {@link #lerp} assumes of an interpolation weight; here the weights are taken to have one sign
     * (distances, counts, kernel weights). A weight that is a constant of the other sign makes it no average; so does
     * a term whose weight is not in the denominator.
     */
    Range weightedAverage(Expression num, Expression den, Map<String, Range> assume, int depth) {
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
                        Range wr = eval.of(w, assume, depth + 1);
                        if (wr.lo() > 0) positive = true;
                        if (wr.hi() < 0) negative = true;
                        break;
                    }
                }
            }
            if (value == null) return null;
            Range v = eval.of(value, assume, depth + 1);
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
    Range accumulatedAverage(Expression num, Expression den, Map<String, Range> assume, int depth) {
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
                    if (eval.of(w, assume, depth + 1).hi() < 0) return null; // a negative weight: no average
                    it.remove();
                    value = side == 0 ? prod.getLeftOperand() : prod.getRightOperand();
                    break;
                }
            }
            if (value == null) return null;
            Range v = eval.of(value, assume, depth + 1);
            out = out == null ? v : out.or(v);
        }
        return out == null ? null : Range.of(out.lo(), out.hi());
    }

    /**
     * Min-max normalisation {@code (x - lo) * K / (hi - lo)} (or without K), where {@code lo} and {@code hi} are
     * locals assigned, after their declaration, only as the running minimum and maximum of {@code x} itself
     * ({@code if (x < lo) lo = x;}, {@code lo = Math.min(lo, x)}, and the same for hi): x lies in [lo, hi], so the
     * value lies in [0, K] (0/0 gives NaN, which converts to 0). The same expression must be the one the extremes
     * were taken of; an extreme set anywhere else (a display range, a user's value) proves nothing.
     */
    Range minMaxNormalised(Expression num, Expression den, Map<String, Range> assume, int depth) {
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
                return eval.of(a, assume, depth + 1).or(eval.of(b, assume, depth + 1));
            }
        }
        return null;
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
        Range b = eval.of(t.getRightOperand(), assume, depth + 1);
        if (b.isPoint()) return new Scaled(b.lo(), unparen(t.getLeftOperand()));
        Range a = eval.of(t.getLeftOperand(), assume, depth + 1);
        if (a.isPoint()) return new Scaled(a.lo(), unparen(t.getRightOperand()));
        return null;
    }

    /**
     * A ramp {@code i * K / n} (or {@code i / n}) where {@code i} counts up from a non-negative start in a loop
     * {@code for (...; i < n; i++)} with the same {@code n}: the quotient lies in [0, K) (lookup tables, colour ramps).
     */
    Range ramp(Expression num, Expression den, Map<String, Range> assume, int depth) {
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
            if (init == null || eval.of(init, assume, depth + 1).lo() < 0) return null;
            // i <= n - 1, so i * k / n <= k - k / n < k
            return Range.of(0, Math.nextDown(k));
        }
        return null;
    }

    /**
     * A value less its whole part: {@code d - k} with a local {@code k} declared as {@code (short) d} or {@code (int)
     * Math.floor(d)} and never written again, {@code d} a local or parameter nothing writes after that declaration:
     * [0, 1] for a floor's or for a truncation's of a {@code d} never negative, (-1, 1) for a truncation's; and a
     * periodic wrap {@code x - P * Math.floor(x / P)} of a constant P > 0: [0, P]. Session 69 round B: an astronomy
     * library's Java wrappers ({@code short deg = (short) degrees; short min = (short) (60.0 * (degrees - deg));},
     * {@code hours = hours - 24.0 * Math.floor(hours / 24.0); short hour = (short) hours;}), false NL011 warnings.
     */
    Range fraction(InfixExpression in, Map<String, Range> assume, int depth) {
        if (in.getOperator() != InfixExpression.Operator.MINUS
                || !in.extendedOperands().isEmpty()) return null;
        Expression a = unparen(in.getLeftOperand());
        Expression b = unparen(in.getRightOperand());
        Range wrap = wrap(a, b);
        if (wrap != null) return wrap;
        if (!(a instanceof SimpleName x) || !(b instanceof SimpleName k)) return null;
        VariableDeclaration kd = Types.declarationOf(k);
        VariableDeclaration xd = Types.declarationOf(x);
        if (!(kd instanceof VariableDeclarationFragment) || xd == null || kd.getInitializer() == null) return null;
        Expression init = unparen(kd.getInitializer());
        if (!(init instanceof CastExpression c) || !c.getType().isPrimitiveType()) return null;
        Expression whole = unparen(c.getExpression());
        boolean floor = false;
        if (whole instanceof MethodInvocation m
                && m.getName().getIdentifier().equals("floor")
                && m.arguments().size() == 1
                && m.getExpression() instanceof SimpleName q
                && q.getIdentifier().equals("Math")) {
            floor = true;
            whole = unparen((Expression) m.arguments().get(0));
        }
        if (!isName(whole, x.getIdentifier())) return null;
        ASTNode body = kd;
        while (body != null && !(body instanceof MethodDeclaration)) body = body.getParent();
        if (body == null
                || writtenAfter(body, k.getIdentifier(), -1)
                || writtenAfter(body, x.getIdentifier(), kd.getStartPosition())) return null;
        if (floor || eval.of(x, assume, depth + 1).lo() >= 0) return Range.of(0, 1);
        return Range.of(-1, 1);
    }

    /** {@code x - P * Math.floor(x / P)} of a constant P > 0: in [0, P]; null otherwise. */
    private Range wrap(Expression a, Expression b) {
        if (!(a instanceof SimpleName x)
                || !(b instanceof InfixExpression t)
                || !t.extendedOperands().isEmpty()) return null;
        if (t.getOperator() != InfixExpression.Operator.TIMES) return null;
        // the period by the evaluator (a literal needs no bindings: the syntactic mode finds the same)
        Range p = eval.of(t.getLeftOperand(), Map.of(), 0);
        Expression f = unparen(t.getRightOperand());
        if (!p.isPoint() || p.lo() <= 0) return null;
        if (!(f instanceof MethodInvocation m)
                || !m.getName().getIdentifier().equals("floor")
                || m.arguments().size() != 1) return null;
        Expression q = unparen((Expression) m.arguments().get(0));
        if (!(q instanceof InfixExpression d) || d.getOperator() != InfixExpression.Operator.DIVIDE) return null;
        Range p2 = eval.of(d.getRightOperand(), Map.of(), 0);
        if (!isName(d.getLeftOperand(), x.getIdentifier()) || !p2.isPoint() || p2.lo() != p.lo()) return null;
        return Range.of(0, p.lo());
    }

    /** Whether something in {@code body} after source position {@code from} assigns or steps the name {@code id}. */
    private static boolean writtenAfter(ASTNode body, String id, int from) {
        boolean[] w = {false};
        body.accept(new ASTVisitor() {
            @Override
            public boolean visit(Assignment as) {
                if (as.getStartPosition() > from && isName(as.getLeftHandSide(), id)) w[0] = true;
                return true;
            }

            @Override
            public boolean visit(PostfixExpression e) {
                if (e.getStartPosition() > from && isName(e.getOperand(), id)) w[0] = true;
                return true;
            }

            @Override
            public boolean visit(PrefixExpression e) {
                PrefixExpression.Operator o = e.getOperator();
                boolean step = o == PrefixExpression.Operator.INCREMENT || o == PrefixExpression.Operator.DECREMENT;
                if (step && e.getStartPosition() > from && isName(e.getOperand(), id)) w[0] = true;
                return true;
            }
        });
        return w[0];
    }
}
