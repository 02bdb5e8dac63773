package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.cuda.parser.CudaParser;
import java.util.HashMap;
import java.util.Map;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * The sign of a product whose factors other than number literals pair up, as Clang's {@code ClangSquares}: {@code x
 * * x} is never negative, {@code -x * x} and {@code -0.5f * d * d} never positive (so {@code exp(-x * x)} lies in [0,
 * 1]). Factors are told apart by their text; a factor with a call, an assignment or an increment counts as no factor
 * of a square.
 */
final class Squares {
    private Squares() {}

    /** {@code r}, the value of the product {@code c}, narrowed to the side of 0 its paired factors put it on. */
    static E bound(E r, CudaParser.MulExprContext c) {
        if (((TerminalNode) c.getChild(1)).getSymbol().getType() != CudaLexer.STAR) return r;
        Map<String, Integer> count = new HashMap<>();
        int[] sign = {1};
        if (!collect(c, count, sign) || count.isEmpty()) return r;
        for (int k : count.values()) if (k % 2 != 0) return r;
        if (sign[0] > 0 && r.lo < 0) Intervals.set(r, 0, Math.max(0, r.hi));
        if (sign[0] < 0 && r.hi > 0) Intervals.set(r, Math.min(0, r.lo), 0);
        return r;
    }

    private static boolean collect(CudaParser.ExpressionContext e, Map<String, Integer> count, int[] sign) {
        if (e instanceof CudaParser.MulExprContext m
                && ((TerminalNode) m.getChild(1)).getSymbol().getType() == CudaLexer.STAR)
            return collect(m.expression(0), count, sign) && collect(m.expression(1), count, sign);
        if (e instanceof CudaParser.UnaryExprContext u && u.MINUS() != null) {
            sign[0] = -sign[0];
            return collect(u.expression(), count, sign);
        }
        if (e instanceof CudaParser.PrimaryExprContext p
                && p.primary() instanceof CudaParser.ParenPrimaryContext q
                && q.commaExpression().expression().size() == 1)
            return collect(q.commaExpression().expression(0), count, sign);
        if (e instanceof CudaParser.PrimaryExprContext p
                && p.primary() instanceof CudaParser.LiteralPrimaryContext l
                && l.literal().CHAR_LITERAL() == null) {
            Double v = number(l.getText());
            if (v == null) return false;
            if (v < 0) sign[0] = -sign[0];
            return true;
        }
        if (!pure(e)) return false;
        count.merge(e.getText(), 1, Integer::sum);
        return true;
    }

    private static Double number(String text) {
        String t = text.replaceAll("[fFlLuU]+$", "");
        try {
            return t.startsWith("0x") || t.startsWith("0X") ? (double) Long.decode(t) : Double.valueOf(t);
        } catch (NumberFormatException ex) {
            return null;
        }
    }

    private static boolean pure(ParseTree t) {
        if (t instanceof CudaParser.CallExprContext
                || t instanceof CudaParser.AssignExprContext
                || t instanceof CudaParser.PostIncExprContext
                || t instanceof CudaParser.UnaryExprContext u && (u.PLUS_PLUS() != null || u.MINUS_MINUS() != null))
            return false;
        for (int i = 0; i < t.getChildCount(); i++) if (!pure(t.getChild(i))) return false;
        return true;
    }
}
