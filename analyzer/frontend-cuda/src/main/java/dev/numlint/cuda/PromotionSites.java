package dev.numlint.cuda;

import static dev.numlint.cuda.ParseTrees.calleeName;
import static dev.numlint.cuda.ParseTrees.stripParens;
import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.knowledge.NumericFacts;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The promotion facts of a function body ({@link FunctionFacts.Promotion}, read by the NL008 check): a float
 * destination (a variable, a return value, a compound assignment) given a value computed in double because of a
 * double literal or a double function, with whether the double rounding is innocuous (one operation on operands
 * float holds exactly). {@link FunctionAnalyzer} calls it with the typed values it computed.
 */
final class PromotionSites {
    private final FunctionBody a;

    PromotionSites(FunctionBody a) {
        this.a = a;
    }

    void promotion(CType target, E v, ExpressionContext src, Supplier<String> whatS) {
        widening(target, v, src);
        if (target == null || v == null || target.kind != CType.Kind.FLOAT || v.type.kind != CType.Kind.DOUBLE) return;
        if (v.promoter == null || !v.f32Leaf || v.cval != null) return;
        boolean viaFunction = !v.promoter.startsWith("the double literal");
        a.facts.promotions.add(new FunctionFacts.Promotion(
                a.site(src), whatS.get(), v.promoter, v.promotedVar, viaFunction, false, innocuousDoubleRounding(src)));
    }

    void promotionCompound(CType target, E rhs, AssignExprContext c) {
        if (target.kind == CType.Kind.DOUBLE) {
            String lit = rhs.type.kind == CType.Kind.FLOAT && rhs.floatLiteral != null
                    ? rhs.floatLiteral
                    : rhs.type.kind == CType.Kind.DOUBLE ? rhs.widenedLiteral : null;
            if (lit != null) {
                a.facts.widenedLiterals.add(new FunctionFacts.WidenedLiteral(
                        a.site(c), lit, a.text(c), "assignment to '" + a.text(c.expression(0)) + "'", a.wholeText()));
            }
        }
        if (target.kind != CType.Kind.FLOAT || rhs.type.kind != CType.Kind.DOUBLE || rhs.dblVar) return;
        String why = rhs.dblLiteral != null ? "the double literal " + rhs.dblLiteral : rhs.promoter;
        if (why == null) return;
        // x op= v is one operation on float x and v: innocuous when v is a value float holds (x *= 0.5, x += 1.0)
        boolean exact = floatValued(c.expression(1));
        a.facts.promotions.add(new FunctionFacts.Promotion(
                a.site(c), "float '" + a.text(c.expression(0)) + "'", why, null, rhs.dblLiteral == null, true, exact));
    }

    /**
     * One operation ({@code x * 0.5}, {@code delta + 1.0}, {@code 1.0 / e}) on float operands and constants that
     * float holds exactly: computed in double and rounded to float it gives the float result (double has more than
     * 2*24+2 bits, so the double rounding is innocuous); only the speed differs.
     */
    private boolean innocuousDoubleRounding(ExpressionContext e) {
        // a value float holds is not rounded at all (frexp(x, &k), 0.5*(1.0 + copysign(1.0, u))*v)
        if (floatValued(e)) return true;
        ExpressionContext p = stripParens(e);
        // (b > 0) ? -0.5 * (b + s) : -0.5 * (b - s): one of the branches is the value, each rounded once
        if (p instanceof CondExprContext c
                && c.expression().size() == 2
                && c.commaExpression() != null
                && c.commaExpression().expression().size() == 1)
            return innocuousDoubleRounding(c.commaExpression().expression(0))
                    && innocuousDoubleRounding(c.expression(1));
        ExpressionContext a;
        ExpressionContext b;
        if (p instanceof MulExprContext && ((MulExprContext) p).MOD() == null) {
            a = ((MulExprContext) p).expression(0);
            b = ((MulExprContext) p).expression(1);
        } else if (p instanceof AddExprContext) {
            a = ((AddExprContext) p).expression(0);
            b = ((AddExprContext) p).expression(1);
        } else if (p instanceof CallExprContext) {
            // sqrt, fabs, floor ... are correctly rounded: sqrt(float) in double rounds to sqrtf(float)
            String callee = calleeName(((CallExprContext) p).expression());
            ArgumentListContext al = ((CallExprContext) p).argumentList();
            if (callee == null || al == null || !CORRECTLY_ROUNDED.contains(callee)) return false;
            // ldexp(x, n): exact in double for a float x; its one rounding to float is ldexpf's own
            if (callee.equals("ldexp"))
                return !al.argument().isEmpty() && floatValued(al.argument(0).expression());
            for (ArgumentContext arg : al.argument()) {
                if (arg.expression() == null || !floatValued(arg.expression())) return false;
            }
            return true;
        } else {
            return false;
        }
        return floatValued(a) && floatValued(b);
    }

    /**
     * A value float holds exactly, whatever type it is computed in: a float-typed operand, a constant float holds
     * exactly, a float converted to double, or such a value negated or scaled by a power of two ({@code -h},
     * {@code p / 2.0}, {@code (double) x * 0.5}; the scaling is exact short of overflow and underflow). One
     * operation on two such values rounded through double gives the float result; a product of two of them is exact
     * in double (24 + 24 bits of significand fit in 53).
     */
    boolean floatValued(ExpressionContext e) {
        ExpressionContext p = stripParens(e);
        E v = a.memo.get(p);
        if (v == null) return false;
        if (v.cval != null) return (double) (float) (double) v.cval == v.cval;
        if (v.type.kind == CType.Kind.FLOAT) return true;
        if (!v.type.isFpScalar()) return false;
        if (ValueSets.floatHeld(v)) return true; // copysign(1.0, u), (u > 0) ? 1.0 : 0.0
        // an exact function of values float holds: fabs, copysign, fmin, fmax, frexp (the second argument of
        // copysign gives only a sign, frexp's is the exponent's address)
        if (p instanceof CallExprContext call && call.argumentList() != null) {
            String callee = calleeName(call.expression());
            String base = callee == null ? "" : callee.replace("std::", "");
            var args = call.argumentList().argument();
            if (!EXACT.contains(base) || args.isEmpty()) return false;
            int n = base.equals("fmin") || base.equals("fmax") ? args.size() : 1;
            for (int k = 0; k < n; k++) {
                if (args.get(k).expression() == null || !floatValued(args.get(k).expression())) return false;
            }
            return true;
        }
        // a variable whose only definition is a float value (double da = a)
        String n = ParseTrees.simpleName(p);
        if (n != null) {
            Local l = a.lookup(n);
            if (l != null && l.floatValued) return true;
        }
        if (p instanceof CastExprContext) return floatValued(((CastExprContext) p).expression());
        // a functional cast of one value, double(x) (session 12 evaluation: DualSPHysics' 2x2 minors)
        if (p instanceof FunctionalCastExprContext fc
                && fc.argumentList() != null
                && fc.argumentList().argument().size() == 1
                && fc.argumentList().argument(0).expression() != null) {
            return floatValued(fc.argumentList().argument(0).expression());
        }
        if (p instanceof NamedCastExprContext && ((NamedCastExprContext) p).STATIC_CAST() != null) {
            return floatValued(((NamedCastExprContext) p).expression());
        }
        if (p instanceof UnaryExprContext
                && (((UnaryExprContext) p).MINUS() != null || ((UnaryExprContext) p).PLUS() != null)) {
            return floatValued(((UnaryExprContext) p).expression());
        }
        if (p instanceof MulExprContext && ((MulExprContext) p).MOD() == null) {
            MulExprContext m = (MulExprContext) p;
            E r = a.memo.get(stripParens(m.expression(1)));
            if (r != null && r.cval != null && r.cval != 0 && NumericFacts.isPowerOfTwoOrZero(r.cval)) {
                return floatValued(m.expression(0));
            }
            // a weight whose every value is zero or a power of two (0.5*(1.0 + copysign(1.0, u)) is 0 or 1)
            if (m.STAR() != null) {
                for (int k = 0; k < 2; k++) {
                    E f = a.memo.get(stripParens(m.expression(k)));
                    if (ValueSets.powerOfTwoFactor(f) && floatValued(m.expression(1 - k))) return true;
                }
            }
            E l = a.memo.get(stripParens(m.expression(0)));
            if (m.STAR() != null
                    && l != null
                    && l.cval != null
                    && l.cval != 0
                    && NumericFacts.isPowerOfTwoOrZero(l.cval)) {
                return floatValued(m.expression(1));
            }
        }
        return false;
    }

    /** Exact double functions: of float values they give a value float holds. */
    private static final Set<String> EXACT = Set.of("fabs", "copysign", "fmin", "fmax", "frexp");

    /** Correctly rounded (or exact) double functions: of float arguments, rounded to float they give the float result. */
    private static final Set<String> CORRECTLY_ROUNDED = Set.of(
            "sqrt",
            "fabs",
            "floor",
            "ceil",
            "trunc",
            "round",
            "rint",
            "nearbyint",
            "fmin",
            "fmax",
            "fmod",
            "copysign",
            "ldexp",
            "fdim");

    /**
     * A double value that holds a widened float literal reaching a double target ({@code double d = x * 0.1f}), or a
     * float literal stored to one ({@code double d = 0.1f}): a {@link FunctionFacts.WidenedLiteral}.
     */
    private void widening(CType target, E v, ExpressionContext src) {
        if (target == null || v == null || target.kind != CType.Kind.DOUBLE) return;
        String lit = v.type.kind == CType.Kind.FLOAT && v.floatLiteral != null
                ? v.floatLiteral
                : v.type.kind == CType.Kind.DOUBLE ? v.widenedLiteral : null;
        if (lit == null) return;
        a.facts.widenedLiterals.add(
                new FunctionFacts.WidenedLiteral(a.site(src), lit, a.text(src), targetOf(src), a.wholeText()));
    }

    /** What receives the value of {@code src}: the declared, assigned or returned name as the source reads. */
    private String targetOf(ExpressionContext src) {
        org.antlr.v4.runtime.tree.ParseTree p = src.getParent();
        for (int i = 0; i < 6 && p != null; i++, p = p.getParent()) {
            if (p instanceof AssignExprContext ac) return "assignment to '" + a.text(ac.expression(0)) + "'";
            if (p instanceof ReturnStmtContext) return "the returned value";
            if (p instanceof InitDeclaratorContext id) return "initialization of '" + a.text(id.declarator()) + "'";
        }
        return "a double value";
    }
}
