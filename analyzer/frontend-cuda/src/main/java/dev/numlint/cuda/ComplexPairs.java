package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.ProductPairs;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.antlr.v4.runtime.ParserRuleContext;

/**
 * The components of complex products and 2-D rotations in one function body ({@link ValueFlow}): a difference of
 * two products whose companion sum, with one factor of each product swapped, is written a few lines away.
 */
final class ComplexPairs {
    private static final java.util.regex.Pattern WHITESPACE = java.util.regex.Pattern.compile("\\s+");

    private final Function<ParserRuleContext, String> text;
    /** The body's additions and subtractions (indexed on first use). */
    private final Supplier<List<AddExprContext>> adds;

    ComplexPairs(Function<ParserRuleContext, String> text, Supplier<List<AddExprContext>> adds) {
        this.text = text;
        this.adds = adds;
    }

    /**
     * {@code a} ({@code p*q - r*s}, two products in any sign arrangement) is one component of a complex product or a
     * 2-D rotation: the function also computes the companion {@code p*s + r*q} (the same factors, one factor of each
     * product swapped; any order and signs) within a few lines. The error of the pair is bounded relative to the
     * magnitude of the operands (a few ulp normwise, with or without fma), so the component's "cancellation" is no
     * loss of the pair's accuracy.
     */
    boolean pairedComponent(AddExprContext a) {
        List<List<String>> mine = productPair(a);
        if (mine == null) return false;
        int line = a.start.getLine();
        for (AddExprContext b : adds.get()) {
            if (b == a || Math.abs(b.start.getLine() - line) > ProductPairs.SPAN) continue;
            List<List<String>> other = productPair(b);
            if (other != null && ProductPairs.swapped(mine.get(0), mine.get(1), other.get(0), other.get(1)))
                return true;
        }
        return false;
    }

    /** The sorted factor texts of both operands of {@code a} when each is a product of at least two factors. */
    private List<List<String>> productPair(AddExprContext a) {
        List<String> f0 = factors(a.expression(0));
        List<String> f1 = factors(a.expression(1));
        return f0 == null || f1 == null ? null : List.of(f0, f1);
    }

    /** The factors of a product ({@code -a*b*c}: a, b, c), sorted; null when {@code e} is not a product. */
    private List<String> factors(ExpressionContext e) {
        ExpressionContext p = unminus(e);
        if (!(p instanceof MulExprContext) || ((MulExprContext) p).STAR() == null) return null;
        List<String> out = new ArrayList<>();
        collectFactors(p, out);
        out.sort(null);
        return out;
    }

    private void collectFactors(ExpressionContext e, List<String> out) {
        ExpressionContext p = unminus(e);
        if (p instanceof MulExprContext && ((MulExprContext) p).STAR() != null && out.size() < 8) {
            for (ExpressionContext f : ((MulExprContext) p).expression()) collectFactors(f, out);
        } else {
            out.add(WHITESPACE.matcher(text.apply(p)).replaceAll(""));
        }
    }

    /** {@code e} without parentheses and unary minus signs. */
    private static ExpressionContext unminus(ExpressionContext e) {
        ExpressionContext p = ParseTrees.stripParens(e);
        while (p instanceof UnaryExprContext && ((UnaryExprContext) p).MINUS() != null) {
            p = ParseTrees.stripParens(((UnaryExprContext) p).expression());
        }
        return p;
    }
}
