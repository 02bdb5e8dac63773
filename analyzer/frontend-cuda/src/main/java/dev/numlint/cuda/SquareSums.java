package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * Sums of squares in the hand-written facts ({@code a*a + b*b}, {@code x*x + y*y + z*z}): a test of one against 0
 * cannot flip, fused or not ({@link ValueFlow}), as Clang's sign classes decide ({@code ClangSignClasses}).
 */
final class SquareSums {
    private SquareSums() {}

    /** Whether the value of {@code site} is a sum of squares and {@code constant} (a comparison's, as text) is 0. */
    static boolean testsZero(ParserRuleContext site, String constant) {
        return ("0.0".equals(constant) || "-0.0".equals(constant)) && is(site);
    }

    /**
     * The largest sum of squares {@code site} is a term of (through parentheses), or {@code site}: a square sum inside
     * a larger one (x*x + y*y of x*x + y*y + z*z) reaches what the whole sum reaches, and only through it.
     */
    static ParserRuleContext top(ParserRuleContext site) {
        ParserRuleContext top = site;
        if (!is(site)) return top;
        for (ParserRuleContext p = site.getParent(); p != null; p = p.getParent()) {
            if (p instanceof PrimaryExprContext || p instanceof ParenPrimaryContext) continue;
            if (!(p instanceof AddExprContext a) || !is(a)) break;
            top = a;
        }
        return top;
    }

    /**
     * A sum of squares ({@code a*a + b*b}, {@code x*x + y*y + z*z}): every term is at least 0, so rounded or fused,
     * the sum is 0 exactly when every rounded square is 0 (a positive term keeps it positive), and a test of it
     * against 0 cannot flip. The hand-written counterpart of Clang's sign classes ({@code ClangSignClasses}).
     */
    static boolean is(ParserRuleContext e) {
        if (!(e instanceof ExpressionContext)) return false;
        ExpressionContext x = ParseTrees.stripParens((ExpressionContext) e);
        if (x instanceof AddExprContext a) {
            return a.PLUS() != null && is(a.expression(0)) && is(a.expression(1));
        }
        if (x instanceof MulExprContext m && m.STAR() != null) {
            ExpressionContext l = ParseTrees.stripParens(m.expression(0));
            ExpressionContext r = ParseTrees.stripParens(m.expression(1));
            return l.getText().equals(r.getText()) && pureOperand(l);
        }
        return false;
    }

    /** An operand read twice that reads the same value both times: no call, assignment or increment in it. */
    private static boolean pureOperand(ParseTree t) {
        if (t instanceof CallExprContext
                || t instanceof AssignExprContext
                || t instanceof PostIncExprContext
                || t instanceof UnaryExprContext u && (u.PLUS_PLUS() != null || u.MINUS_MINUS() != null)) return false;
        for (int i = 0; i < t.getChildCount(); i++) {
            if (!pureOperand(t.getChild(i))) return false;
        }
        return true;
    }
}
