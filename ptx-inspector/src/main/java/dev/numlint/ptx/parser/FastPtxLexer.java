package dev.numlint.ptx.parser;

import java.util.HashMap;
import java.util.Map;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.CommonTokenFactory;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenFactory;
import org.antlr.v4.runtime.TokenSource;
import org.antlr.v4.runtime.misc.Pair;

/**
 * A hand-written lexer producing exactly the token stream of the generated {@link PtxLexer} (same token types,
 * texts, lines and character offsets; longest match, keyword before DOTID) several times faster, for the
 * generated {@link PtxParser}. The grammar's lexer rules remain the specification; a test checks that both
 * lexers agree token by token. Offsets are UTF-16 indices into the input string.
 */
public final class FastPtxLexer implements TokenSource {
    private static final Map<String, Integer> KEYWORDS = new HashMap<>();

    static {
        String[] names = PtxLexer.ruleNames;
        for (int i = 0; i < names.length; i++) {
            String lit = PtxLexer.VOCABULARY.getLiteralName(i + 1);
            if (lit != null && lit.startsWith("'.")) KEYWORDS.put(lit.substring(1, lit.length() - 1), i + 1);
        }
    }

    private final String s;
    private final int n;
    private int pos;
    private int line = 1;
    private int lineStart;
    private final Pair<TokenSource, CharStream> source;
    private TokenFactory<?> factory = CommonTokenFactory.DEFAULT;

    public FastPtxLexer(String text) {
        this.s = text;
        this.n = text.length();
        this.source = new Pair<>(this, null);
    }

    private static boolean idChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
    }

    private static boolean hex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    @Override
    public Token nextToken() {
        dev.numlint.model.WorkBudget.check();
        // skip whitespace and comments
        while (pos < n) {
            char c = s.charAt(pos);
            if (c == '\n') {
                pos++;
                line++;
                lineStart = pos;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
                pos++;
            } else if (c == '/' && pos + 1 < n && s.charAt(pos + 1) == '/') {
                pos += 2;
                while (pos < n && s.charAt(pos) != '\n' && s.charAt(pos) != '\r') pos++;
            } else if (c == '/' && pos + 1 < n && s.charAt(pos + 1) == '*') {
                int end = s.indexOf("*/", pos + 2);
                if (end < 0) break; // not a comment: '/' becomes OTHER
                for (int i = pos; i < end; i++) {
                    if (s.charAt(i) == '\n') {
                        line++;
                        lineStart = i + 1;
                    }
                }
                pos = end + 2;
            } else {
                break;
            }
        }
        int start = pos;
        int startLine = line;
        int col = pos - lineStart;
        if (pos >= n) {
            CommonToken eof = new CommonToken(source, Token.EOF, Token.DEFAULT_CHANNEL, pos, pos - 1);
            eof.setText("<EOF>");
            eof.setLine(line);
            eof.setCharPositionInLine(col);
            return eof;
        }
        char c = s.charAt(pos);
        int type;
        if (c == '.') {
            int p = pos + 1;
            while (p < n && idChar(s.charAt(p))) p++;
            if (p == pos + 1) {
                type = PtxLexer.OTHER;
                pos++;
            } else {
                while (p + 2 < n && s.charAt(p) == ':' && s.charAt(p + 1) == ':' && idChar(s.charAt(p + 2))) {
                    p += 2;
                    while (p < n && idChar(s.charAt(p))) p++;
                }
                Integer kw = KEYWORDS.get(s.substring(pos, p));
                type = kw != null ? kw : PtxLexer.DOTID;
                pos = p;
            }
        } else if (c == '%') {
            int p = pos + 1;
            while (p < n && idChar(s.charAt(p))) p++;
            type = p == pos + 1 ? PtxLexer.OTHER : PtxLexer.REGISTER;
            pos = p == pos + 1 ? pos + 1 : p;
        } else if (digit(c)) {
            pos = number();
            type = lastNumberType;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$') {
            int p = pos + 1;
            while (p < n && idChar(s.charAt(p))) p++;
            type = PtxLexer.ID;
            pos = p;
        } else if (c == '"') {
            int p = pos + 1;
            boolean closed = false;
            while (p < n) {
                char d = s.charAt(p);
                if (d == '\\' && p + 1 < n) {
                    p += 2;
                } else if (d == '"') {
                    closed = true;
                    p++;
                    break;
                } else if (d == '\r' || d == '\n') {
                    break;
                } else {
                    p++;
                }
            }
            if (closed) {
                type = PtxLexer.STRING;
                for (int i = pos; i < p; i++) {
                    if (s.charAt(i) == '\n') {
                        line++;
                        lineStart = i + 1;
                    }
                }
                pos = p;
            } else {
                type = PtxLexer.OTHER;
                pos++;
            }
        } else {
            type = switch (c) {
                case '(' -> PtxLexer.LPAREN;
                case ')' -> PtxLexer.RPAREN;
                case '{' -> PtxLexer.LBRACE;
                case '}' -> PtxLexer.RBRACE;
                case '[' -> PtxLexer.LBRACK;
                case ']' -> PtxLexer.RBRACK;
                case ',' -> PtxLexer.COMMA;
                case ';' -> PtxLexer.SEMI;
                case ':' -> PtxLexer.COLON;
                case '@' -> PtxLexer.AT;
                case '!' -> PtxLexer.BANG;
                case '+' -> PtxLexer.PLUS;
                case '-' -> PtxLexer.MINUS;
                case '<' -> PtxLexer.LT;
                case '>' -> PtxLexer.GT;
                case '=' -> PtxLexer.EQ;
                case '|' -> PtxLexer.PIPE;
                default -> PtxLexer.OTHER;
            };
            pos++;
        }
        CommonToken t = new CommonToken(source, type, Token.DEFAULT_CHANNEL, start, pos - 1);
        t.setText(s.substring(start, pos));
        t.setLine(startLine);
        t.setCharPositionInLine(col);
        return t;
    }

    private int lastNumberType;

    /** Longest match among HEX_FLOAT, DEC_FLOAT and INT (in that priority on equal length). */
    private int number() {
        int best = -1;
        int bestType = 0;
        // HEX_FLOAT : '0' [fFdD] [0-9a-fA-F]+
        if (s.charAt(pos) == '0' && pos + 2 < n + 0 && pos + 1 < n) {
            char k = s.charAt(pos + 1);
            if ((k == 'f' || k == 'F' || k == 'd' || k == 'D') && pos + 2 < n && hex(s.charAt(pos + 2))) {
                int p = pos + 2;
                while (p < n && hex(s.charAt(p))) p++;
                best = p;
                bestType = PtxLexer.HEX_FLOAT;
            }
        }
        // DEC_FLOAT : [0-9]+ '.' [0-9]+ exp? | [0-9]+ exp
        int d = pos;
        while (d < n && digit(s.charAt(d))) d++;
        int dec = -1;
        if (d + 1 < n && s.charAt(d) == '.' && digit(s.charAt(d + 1))) {
            int p = d + 1;
            while (p < n && digit(s.charAt(p))) p++;
            int e = exponent(p);
            dec = e > 0 ? e : p;
        } else {
            int e = exponent(d);
            if (e > 0) dec = e;
        }
        if (dec > best) {
            best = dec;
            bestType = PtxLexer.DEC_FLOAT;
        }
        // INT : ('0' [xX] hex+ | '0' [bB] [01]+ | [0-9]+) [uU]?
        int in = d;
        if (s.charAt(pos) == '0' && pos + 2 < n + 1 && pos + 1 < n) {
            char k = s.charAt(pos + 1);
            if ((k == 'x' || k == 'X') && pos + 2 < n && hex(s.charAt(pos + 2))) {
                int p = pos + 2;
                while (p < n && hex(s.charAt(p))) p++;
                in = Math.max(in, p);
            } else if ((k == 'b' || k == 'B')
                    && pos + 2 < n
                    && (s.charAt(pos + 2) == '0' || s.charAt(pos + 2) == '1')) {
                int p = pos + 2;
                while (p < n && (s.charAt(p) == '0' || s.charAt(p) == '1')) p++;
                in = Math.max(in, p);
            }
        }
        if (in < n && (s.charAt(in) == 'u' || s.charAt(in) == 'U')) in++;
        if (in > best) {
            best = in;
            bestType = PtxLexer.INT;
        }
        lastNumberType = bestType;
        return best;
    }

    /** End of "[eE] [+-]? [0-9]+" starting at p, or -1. */
    private int exponent(int p) {
        if (p < n && (s.charAt(p) == 'e' || s.charAt(p) == 'E')) {
            int q = p + 1;
            if (q < n && (s.charAt(q) == '+' || s.charAt(q) == '-')) q++;
            if (q < n && digit(s.charAt(q))) {
                while (q < n && digit(s.charAt(q))) q++;
                return q;
            }
        }
        return -1;
    }

    @Override
    public int getLine() {
        return line;
    }

    @Override
    public int getCharPositionInLine() {
        return pos - lineStart;
    }

    @Override
    public CharStream getInputStream() {
        return null;
    }

    @Override
    public String getSourceName() {
        return "ptx";
    }

    @Override
    public void setTokenFactory(TokenFactory<?> f) {
        factory = f;
    }

    @Override
    public TokenFactory<?> getTokenFactory() {
        return factory;
    }
}
