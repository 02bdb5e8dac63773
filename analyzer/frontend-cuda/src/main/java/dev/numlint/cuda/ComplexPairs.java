package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import java.util.ArrayList;
import java.util.HashSet;
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

    /** How many lines apart the two components of a complex product or rotation may be written. */
    private static final int PAIR_SPAN = 12;

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
            if (b == a || Math.abs(b.start.getLine() - line) > PAIR_SPAN) continue;
            List<List<String>> other = productPair(b);
            if (other != null && swapped(mine.get(0), mine.get(1), other.get(0), other.get(1))) return true;
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

    /**
     * {g0, g1} is {f0, f1} with one factor of f0 and one (different) factor of f1 exchanged: {@code p*q, r*s} and
     * {@code p*s, r*q}.
     */
    private static boolean swapped(List<String> f0, List<String> f1, List<String> g0, List<String> g1) {
        for (String x : new HashSet<>(f0)) {
            for (String y : new HashSet<>(f1)) {
                if (x.equals(y)) continue;
                List<String> h0 = new ArrayList<>(f0);
                h0.remove(x);
                h0.add(y);
                h0.sort(null);
                List<String> h1 = new ArrayList<>(f1);
                h1.remove(y);
                h1.add(x);
                h1.sort(null);
                if (h0.equals(g0) && h1.equals(g1) || h0.equals(g1) && h1.equals(g0)) return true;
            }
        }
        return false;
    }
}
