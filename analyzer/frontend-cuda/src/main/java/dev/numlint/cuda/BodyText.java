package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.List;
import org.antlr.v4.runtime.ParserRuleContext;

/**
 * The text of a function body's tokens (after preprocessing) as its sites quote it: words apart, binary operators
 * spaced, long texts shortened ({@link #text}); or joined in full, without spaces ({@link #fullText}).
 */
final class BodyText {
    private final List<PToken> toks;
    private String functionText;

    BodyText(List<PToken> toks) {
        this.toks = toks;
    }

    /** The function's tokens (after preprocessing). */
    List<PToken> tokens() {
        return toks;
    }

    /** The whole text of {@code c}, its tokens joined without spaces ({@link #text} shortens long texts). */
    String fullText(ParserRuleContext c) {
        StringBuilder sb = new StringBuilder();
        int to = c.stop == null ? c.start.getTokenIndex() : c.stop.getTokenIndex();
        for (int i = c.start.getTokenIndex(); i <= to && i < toks.size(); i++)
            sb.append(toks.get(i).getText());
        return sb.toString();
    }

    /** The text of the whole function (computed on first use). */
    String functionText() {
        if (functionText == null) functionText = text(0, toks.size() - 1);
        return functionText;
    }

    /** Every token of the function, spaced, not shortened (what a use of a local is looked up in). */
    String wholeText() {
        StringBuilder sb = new StringBuilder();
        for (PToken t : toks) sb.append(t.getText()).append(' ');
        return sb.toString();
    }

    String text(ParserRuleContext c) {
        if (c == null) return "";
        return text(c.start.getTokenIndex(), c.stop == null ? c.start.getTokenIndex() : c.stop.getTokenIndex());
    }

    /** The text of tokens {@code a} to {@code b}. */
    String text(int a, int b) {
        StringBuilder sb = new StringBuilder();
        int prev = -1;
        for (int i = a; i <= b && i < toks.size(); i++) {
            PToken t = toks.get(i);
            int ty = t.getType();
            boolean word = isWord(ty);
            if (prev >= 0 && word && isWord(prev)) sb.append(' ');
            else if (prev >= 0
                    && (isBinary(ty) || isBinary(prev))
                    && !(ty == CudaLexer.LT || ty == CudaLexer.GT || prev == CudaLexer.LT || prev == CudaLexer.GT))
                sb.append(' ');
            else if (prev == CudaLexer.COMMA) sb.append(' ');
            sb.append(t.getText());
            prev = ty;
            if (sb.length() > 120) {
                sb.append(" ...");
                break;
            }
        }
        return sb.toString().replace("( ", "(");
    }

    private static boolean isWord(int ty) {
        return ty == CudaLexer.IDENTIFIER
                || ty == CudaLexer.INTEGER_LITERAL
                || ty == CudaLexer.FLOATING_LITERAL
                || (ty > CudaLexer.DIRECTIVE && ty < CudaLexer.LAUNCH_OPEN);
    }

    private static boolean isBinary(int ty) {
        switch (ty) {
            case CudaLexer.ASSIGN:
            case CudaLexer.PLUS_ASSIGN:
            case CudaLexer.MINUS_ASSIGN:
            case CudaLexer.STAR_ASSIGN:
            case CudaLexer.DIV_ASSIGN:
            case CudaLexer.EQ:
            case CudaLexer.NE:
            case CudaLexer.AND_AND:
            case CudaLexer.OR_OR:
            case CudaLexer.LE:
            case CudaLexer.GE:
            case CudaLexer.QUESTION:
                return true;
            default:
                return false;
        }
    }
}
