package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.List;
import java.util.Map;

/**
 * The tests a function body leaves through before going on: {@code if (x < 0) continue;},
 * {@code if (p.x < lo || p.x >= hi) { miss++; continue; }}, {@code if (d[i] < origin) return;} (or {@code break},
 * {@code goto}, {@code throw}). What follows such a statement in its block is reached only when the test is false, so
 * the operands it compares are range-limited there: their names ({@link TokenFacts#guardedVars}) and, for members
 * and elements ({@code p.x}, {@code d[i]}), their texts ({@link TokenFacts#guardedTexts}), each with the test as the
 * reason. Like the rest of the token facts it is flow-insensitive: a later write of the operand is not seen.
 */
final class EarlyExits {
    private final List<PToken> toks;
    private final BodyText text;

    EarlyExits(List<PToken> toks) {
        this.toks = toks;
        this.text = new BodyText(toks);
    }

    /** Records the operands of every early-exit test into {@code vars} and {@code texts} (first reason wins). */
    void record(Map<String, String> vars, Map<String, String> texts) {
        int n = toks.size();
        for (int i = 0; i + 1 < n; i++) {
            if (toks.get(i).getType() != CudaLexer.IF || toks.get(i + 1).getType() != CudaLexer.LPAREN) continue;
            // `else if (x < 0) continue;` is left only when the earlier tests failed: what follows is not guarded
            if (i > 0 && toks.get(i - 1).getType() == CudaLexer.ELSE) continue;
            int close = match(i + 1, CudaLexer.LPAREN, CudaLexer.RPAREN);
            if (close < 0 || close + 1 >= n) continue;
            String exit = exit(close + 1);
            if (exit == null) continue;
            String why = "the early '" + exit + "' under '" + text.text(i + 2, close - 1) + "' (line "
                    + toks.get(i).getLine() + ")";
            for (int p = i + 2; p < close; p++) {
                if (!TokenFacts.comparison(toks, p)) continue;
                operand(chainStart(p - 1), p - 1, why, vars, texts);
                operand(p + 1, chainEnd(p + 1, close), why, vars, texts);
            }
        }
    }

    /** The jump a statement starting at {@code s} always ends with ("continue"), or null. */
    private String exit(int s) {
        int ty = toks.get(s).getType();
        if (jump(ty)) return toks.get(s).getText();
        if (ty != CudaLexer.LBRACE) return null;
        int end = match(s, CudaLexer.LBRACE, CudaLexer.RBRACE);
        if (end < 0 || toks.get(end - 1).getType() != CudaLexer.SEMI) return null;
        // the block's last statement: after the previous ';', '{' or '}' at the block's depth
        int depth = 0;
        for (int k = end - 2; k > s; k--) {
            int t = toks.get(k).getType();
            if (t == CudaLexer.RPAREN || t == CudaLexer.RBRACKET) depth++;
            else if (t == CudaLexer.LPAREN || t == CudaLexer.LBRACKET) depth--;
            else if (depth == 0 && (t == CudaLexer.SEMI || t == CudaLexer.LBRACE || t == CudaLexer.RBRACE)) {
                return jump(toks.get(k + 1).getType()) ? toks.get(k + 1).getText() : null;
            }
        }
        return jump(toks.get(s + 1).getType()) ? toks.get(s + 1).getText() : null;
    }

    private static boolean jump(int ty) {
        return ty == CudaLexer.CONTINUE
                || ty == CudaLexer.BREAK
                || ty == CudaLexer.RETURN
                || ty == CudaLexer.GOTO
                || ty == CudaLexer.THROW;
    }

    /** A name, member or element from token {@code a} to {@code b}: recorded with {@code why}. */
    private void operand(int a, int b, String why, Map<String, String> vars, Map<String, String> texts) {
        if (a < 0 || b < a || toks.get(a).getType() != CudaLexer.IDENTIFIER) return;
        if (a == b) vars.putIfAbsent(toks.get(a).getText(), why);
        else texts.putIfAbsent(text.text(a, b), why);
    }

    /** The first token of the name, member or element chain ending at {@code end} ({@code p.x}, {@code d[i]}). */
    private int chainStart(int end) {
        int k = end;
        while (k >= 0) {
            int ty = toks.get(k).getType();
            if (ty == CudaLexer.RBRACKET) {
                int open = matchBack(k);
                if (open < 1) return -1;
                k = open - 1;
            } else if (ty == CudaLexer.IDENTIFIER) {
                if (k >= 1
                        && (toks.get(k - 1).getType() == CudaLexer.DOT
                                || toks.get(k - 1).getType() == CudaLexer.ARROW)) k -= 2;
                else return k;
            } else {
                return -1;
            }
        }
        return -1;
    }

    /** The last token of the name, member or element chain starting at {@code start}, before {@code limit}. */
    private int chainEnd(int start, int limit) {
        if (start >= limit || toks.get(start).getType() != CudaLexer.IDENTIFIER) return -1;
        int k = start;
        while (k + 1 < limit) {
            int ty = toks.get(k + 1).getType();
            if ((ty == CudaLexer.DOT || ty == CudaLexer.ARROW)
                    && k + 2 < limit
                    && toks.get(k + 2).getType() == CudaLexer.IDENTIFIER) {
                k += 2;
            } else if (ty == CudaLexer.LBRACKET) {
                int close = match(k + 1, CudaLexer.LBRACKET, CudaLexer.RBRACKET);
                if (close < 0 || close >= limit) return -1;
                k = close;
            } else {
                break;
            }
        }
        // a call (f(x) < 0) is no operand held in a name
        if (k + 1 < limit && toks.get(k + 1).getType() == CudaLexer.LPAREN) return -1;
        return k;
    }

    /** The index of the token closing the one at {@code open}, or -1. */
    private int match(int open, int o, int c) {
        int depth = 0;
        for (int k = open; k < toks.size(); k++) {
            int ty = toks.get(k).getType();
            if (ty == o) depth++;
            else if (ty == c && --depth == 0) return k;
        }
        return -1;
    }

    /** The index of the '[' matching the ']' at {@code close}, or -1. */
    private int matchBack(int close) {
        int depth = 0;
        for (int k = close; k >= 0; k--) {
            int ty = toks.get(k).getType();
            if (ty == CudaLexer.RBRACKET) depth++;
            else if (ty == CudaLexer.LBRACKET && --depth == 0) return k;
        }
        return -1;
    }
}
