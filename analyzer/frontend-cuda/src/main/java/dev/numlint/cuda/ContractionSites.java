package dev.numlint.cuda;

import static dev.numlint.cuda.ParseTrees.simpleName;
import static dev.numlint.cuda.ParseTrees.stripParens;
import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.knowledge.NumericFacts;
import org.antlr.v4.runtime.ParserRuleContext;

/**
 * The contraction facts of a function body ({@link FunctionFacts.Contraction}, read by the NL003 check): a floating
 * product added to or subtracted from another value ({@code a*b + c}, {@code s += a*b}, through a single-use product
 * temporary too), which the compiler may fuse into one fma; whether it is a difference of products and one component
 * of a pair ({@code a.x*b.y - a.y*b.x}). Exact products (a power-of-two factor, whole numbers the type holds) change
 * nothing when fused and are left out. {@link FunctionAnalyzer} calls it with the typed values it computed.
 */
final class ContractionSites {
    private final FunctionBody b;
    private final PromotionSites promotions;

    ContractionSites(FunctionBody b, PromotionSites promotions) {
        this.b = b;
        this.promotions = promotions;
    }

    /** {@code c} adds or subtracts ({@code op}) two operands of floating type, its result of type {@code type}. */
    void sum(AddExprContext c, int op, CType type) {
        String prod = productOperand(c.expression(0), type);
        if (prod == null) prod = productOperand(c.expression(1), type);
        if (prod != null) {
            boolean both =
                    productOperand(c.expression(0), type) != null && productOperand(c.expression(1), type) != null;
            // -a*b + c*d is a difference of products too
            boolean difference =
                    both && (op == CudaLexer.MINUS) != (negated(c.expression(0)) != negated(c.expression(1)));
            contraction(
                    c, prod, op == CudaLexer.MINUS, difference, false, difference && b.flow.pairedComponent(c), type);
        }
    }

    /** {@code c} adds ({@code +=}) or subtracts ({@code -=}) {@code rc} to a floating variable of type {@code type}. */
    void accumulated(AssignExprContext c, ExpressionContext rc, boolean subtract, CType type) {
        String prod = productOperand(rc, type);
        if (prod != null) contraction(c, prod, subtract, false, true, false, type);
    }

    /**
     * The product text when {@code e} (parentheses stripped) is a floating multiplication or a single-use product
     * temporary, added in {@code sumType}. A float product added in double ({@code 1.0 + x * x} of a float x) is
     * rounded to float and then converted: no fma joins a mul.f32 to an add.f64, so it is no contraction.
     */
    private String productOperand(ExpressionContext e, CType sumType) {
        ExpressionContext p = stripParens(e);
        if (p instanceof MulExprContext && ((MulExprContext) p).STAR() != null) {
            E v = b.memo.get(p);
            if (v != null
                    && v.type.isFpScalar()
                    && v.cval == null
                    && !narrowerThan(v.type, sumType)
                    && !exactProduct((MulExprContext) p)) return b.text(p);
        }
        String n = simpleName(p);
        if (n != null) {
            Local l = b.lookup(n);
            if (l != null && l.product != null && !narrowerThan(l.type, sumType))
                return n + " = " + l.product + " (line " + l.line + ")";
        }
        return null;
    }

    /** A float product in a double (or long double) sum. */
    private static boolean narrowerThan(CType product, CType sumType) {
        return product != null
                && sumType != null
                && product.kind == CType.Kind.FLOAT
                && (sumType.kind == CType.Kind.DOUBLE || sumType.kind == CType.Kind.LONG_DOUBLE);
    }

    /**
     * A product that is exact, so fusing it changes nothing: a power-of-two factor (0.5f*x, 2*x, x*1.0f), two
     * whole-number constants whose product float holds exactly, a whole number times a constant whose odd mantissa
     * fits beside it ({@code idx * 0.75} in double: 32 + 2 bits of 53), or a double product of two values float holds
     * ({@code (double) a * b}, {@code (p / 2.0) * (p / 2.0)}: 24 + 24 significant bits fit in 53).
     */
    boolean exactProduct(MulExprContext m) {
        E x = b.memo.get(m.expression(0));
        E y = b.memo.get(m.expression(1));
        for (E v : new E[] {x, y}) {
            if (v != null && v.cval != null && NumericFacts.isPowerOfTwoOrZero(v.cval)) return true;
            // a weight whose every value is zero or a power of two (0.5*(1.0 + copysign(1.0, u)) is 0 or 1)
            if (ValueSets.powerOfTwoFactor(v)) return true;
        }
        E r = b.memo.get(m);
        if (r != null
                && (r.type.kind == CType.Kind.DOUBLE || r.type.kind == CType.Kind.LONG_DOUBLE)
                && promotions.floatValued(m.expression(0))
                && promotions.floatValued(m.expression(1))) return true;
        if (x != null
                && y != null
                && x.cval != null
                && y.cval != null
                && NumericFacts.isExactFloatInteger(x.cval * y.cval)) return true;
        // whole numbers whose product the type holds exactly ({@code i * i} of a float counter from -R to R)
        Double mx = E.wholeBound(x);
        Double my = E.wholeBound(y);
        if (r == null || !r.type.isFpScalar()) return false;
        double limit = ValueModel.wholeLimit(r.type);
        // a whole number times a constant whose odd mantissa fits beside it ({@code idx * 0.75} in double)
        if (mx != null && y != null && y.cval != null && mx * NumericFacts.oddMantissa(y.cval) < limit) return true;
        if (my != null && x != null && x.cval != null && my * NumericFacts.oddMantissa(x.cval) < limit) return true;
        return mx != null && my != null && mx * my <= limit;
    }

    private void contraction(
            ParserRuleContext c,
            String prod,
            boolean subtract,
            boolean differenceOfProducts,
            boolean accumulates,
            boolean pairedComponent,
            CType type) {
        dev.numlint.cuda.facts.Site at = b.site(c);
        if (type != null && (type.kind == CType.Kind.DOUBLE || type.kind == CType.Kind.LONG_DOUBLE))
            at.evaluatedInDouble();
        b.facts.contractions.add(
                new FunctionFacts.Contraction(at, prod, subtract, differenceOfProducts, accumulates, pairedComponent));
    }

    /**
     * A product whose sign a minus flips: an odd number of negated factors ({@code -a*b}, {@code -(a*b)},
     * {@code (-a)*b}, {@code a*(-b)}). A square ({@code (-a)*(-a)}, {@code x*x}) cannot be negative, and two negated
     * factors make a positive product: {@code (-a)*(-a) + b*b} is a sum of squares, which cannot cancel.
     */
    private static boolean negated(ExpressionContext e) {
        ExpressionContext p = stripParens(e);
        if (p instanceof UnaryExprContext && ((UnaryExprContext) p).MINUS() != null) {
            return !negated(((UnaryExprContext) p).expression());
        }
        if (p instanceof MulExprContext && ((MulExprContext) p).STAR() != null) {
            ExpressionContext l = stripParens(((MulExprContext) p).expression(0));
            ExpressionContext r = stripParens(((MulExprContext) p).expression(1));
            if (l.getText().equals(r.getText())) return false; // a square
            return negated(l) != negated(r);
        }
        return false;
    }
}
