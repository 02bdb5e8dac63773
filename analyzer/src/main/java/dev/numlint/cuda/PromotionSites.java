package dev.numlint.cuda;

import static dev.numlint.cuda.FunctionAnalyzer.calleeName;
import static dev.numlint.cuda.FunctionAnalyzer.stripParens;
import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.FunctionFacts;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The promotion facts of a function body ({@link FunctionFacts.Promotion}, read by the NL008 check): a float
 * destination (a variable, a return value, a compound assignment) given a value computed in double because of a
 * double literal or a double function, with whether the double rounding is innocuous (one operation on operands
 * float holds exactly). {@link FunctionAnalyzer} calls it with the typed values it computed.
 */
final class PromotionSites {
    private final FunctionAnalyzer a;

    PromotionSites(FunctionAnalyzer a) {
        this.a = a;
    }

    void promotion(CType target, E v, ExpressionContext src, Supplier<String> whatS) {
        if (target == null || v == null || target.kind != CType.Kind.FLOAT || v.type.kind != CType.Kind.DOUBLE) return;
        if (v.promoter == null || !v.f32Leaf || v.cval != null) return;
        boolean viaFunction = !v.promoter.startsWith("the double literal");
        a.facts.promotions.add(new FunctionFacts.Promotion(
                a.site(src), whatS.get(), v.promoter, v.promotedVar, viaFunction, false, innocuousDoubleRounding(src)));
    }

    void promotionCompound(CType target, E rhs, AssignExprContext c) {
        if (target.kind != CType.Kind.FLOAT || rhs.type.kind != CType.Kind.DOUBLE || rhs.dblVar) return;
        String why = rhs.dblLiteral != null ? "the double literal " + rhs.dblLiteral : rhs.promoter;
        if (why == null) return;
        boolean exact = rhs.cval != null && (double) (float) (double) rhs.cval == rhs.cval;
        a.facts.promotions.add(new FunctionFacts.Promotion(
                a.site(c), "float '" + a.text(c.expression(0)) + "'", why, null, rhs.dblLiteral == null, true, exact));
    }

    /**
     * One operation ({@code x * 0.5}, {@code delta + 1.0}, {@code 1.0 / e}) on float operands and constants that
     * float holds exactly: computed in double and rounded to float it gives the float result (double has more than
     * 2*24+2 bits, so the double rounding is innocuous); only the speed differs.
     */
    private boolean innocuousDoubleRounding(ExpressionContext e) {
        ExpressionContext p = stripParens(e);
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
            for (ArgumentContext arg : al.argument()) {
                if (arg.expression() == null || !floatExact(arg.expression())) return false;
            }
            return true;
        } else {
            return false;
        }
        return floatExact(a) && floatExact(b);
    }

    /** A float-typed operand, or a constant float holds exactly. */
    private boolean floatExact(ExpressionContext e) {
        E v = a.memo.get(stripParens(e));
        if (v == null) return false;
        if (v.cval != null) return (double) (float) (double) v.cval == v.cval;
        return v.type.kind == CType.Kind.FLOAT;
    }

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
            "fdim");
}
