package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.antlr.v4.runtime.Vocabulary;

/**
 * A hand-written lexer producing exactly the token types of the ANTLR grammar {@code CudaLexer.g4} (the grammar
 * is the specification; {@code FastLexerTest} checks that both agree). It exists for speed: the generated lexer
 * runs at a few MB/s, this one at several tens, which keeps the whole front end above 100,000 lines/s.
 */
final class FastLexer {
    private static final Map<String, Integer> KEYWORDS = new HashMap<>();
    /** C++'s alternative tokens (ISO 646) read as the operators they spell, as the grammar's ALT_ rules do. */
    private static final Map<String, String> ALTERNATIVE_TOKENS = Map.of("and", "&&", "or", "||", "not", "!");
    /** Punctuators by length (3, 2, 1). */
    private static final Map<String, Integer> PUNCT = new HashMap<>();

    static {
        Vocabulary v = CudaLexer.VOCABULARY;
        for (int t = 1; t <= v.getMaxTokenType(); t++) {
            String lit = v.getLiteralName(t);
            if (lit == null) continue;
            String s = lit.substring(1, lit.length() - 1).replace("\\\\", "\\");
            if (Character.isLetter(s.charAt(0)) || s.charAt(0) == '_') KEYWORDS.put(s, t);
            else PUNCT.put(s, t);
        }
        for (String s : new String[] {"inline", "__inline__", "__inline"}) KEYWORDS.put(s, CudaLexer.INLINE);
        for (String s : new String[] {"signed", "__signed__"}) KEYWORDS.put(s, CudaLexer.SIGNED);
        for (String s : new String[] {"__restrict__", "__restrict", "restrict"}) KEYWORDS.put(s, CudaLexer.RESTRICT);
        for (String s : new String[] {"decltype", "__typeof__", "__typeof", "typeof"}) {
            KEYWORDS.put(s, CudaLexer.DECLTYPE);
        }
        for (String s : new String[] {"__attribute__", "__attribute"}) KEYWORDS.put(s, CudaLexer.GNU_ATTRIBUTE);
        for (String s : new String[] {"alignof", "__alignof__"}) KEYWORDS.put(s, CudaLexer.ALIGNOF);
        for (String s : new String[] {"__align__", "alignas"}) KEYWORDS.put(s, CudaLexer.ALIGN);
        for (String s : new String[] {"asm", "__asm__", "__asm"}) KEYWORDS.put(s, CudaLexer.ASM);
        for (String s : new String[] {"volatile", "__volatile__", "__volatile"}) KEYWORDS.put(s, CudaLexer.VOLATILE);
    }

    private static final Set<String> EMPTY = Set.of();

    private FastLexer() {}

    // ASCII first: Character's tables answer the same for ASCII, at more cost per character of every name

    /** A letter, '_' or '$': the first character of a name. */
    static boolean nameStart(char c) {
        if (c < 128) return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$';
        return Character.isLetter(c);
    }

    /** A letter, a digit, '_' or '$': a character of a name after the first. */
    static boolean namePart(char c) {
        if (c < 128)
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$';
        return Character.isLetterOrDigit(c);
    }

    static boolean digit(char c) {
        return c < 128 ? c >= '0' && c <= '9' : Character.isDigit(c);
    }

    static boolean letterOrDigit(char c) {
        if (c < 128) return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
        return Character.isLetterOrDigit(c);
    }

    static List<PToken> lex(String text) {
        return lex(text, true);
    }

    /**
     * Tokens of {@code text}; with {@code directives} false a '#' at the start of a line is the HASH punctuator
     * (a macro body: {@code #define Q(x) #x}), not a directive.
     */
    static List<PToken> lex(String text, boolean directives) {
        final char[] s = text.toCharArray();
        List<PToken> out = new ArrayList<>(s.length / 5 + 16);
        int n = s.length;
        int i = 0;
        int line = 1;
        int lineStart = 0;
        boolean atLineStart = true;
        while (i < n) {
            char c = s[i];
            if (c == '\n') {
                line++;
                i++;
                lineStart = i;
                atLineStart = true;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0B) {
                i++;
                continue;
            }
            if (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
                i += s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n' ? 3 : 2;
                line++;
                lineStart = i;
                continue;
            }
            int start = i;
            int startLine = line;
            int col = i - lineStart;
            if (c == '/' && i + 1 < n && s[i + 1] == '/') {
                // a line comment continues over backslash-newline (also backslash-CRLF)
                while (i < n && s[i] != '\n') {
                    if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
                        i++;
                        line++;
                    } else if (s[i] == '\\' && i + 2 < n && s[i + 1] == '\r' && s[i + 2] == '\n') {
                        i += 2;
                        line++;
                    }
                    i++;
                }
                lineStart = Math.max(lineStart, lastNewline(s, i - 1) + 1);
                continue;
            }
            if (c == '/' && i + 1 < n && s[i + 1] == '*') {
                int e = indexOf(s, '*', '/', i + 2);
                e = e < 0 ? n : e + 2;
                for (int k = i; k < e; k++) {
                    if (s[k] == '\n') {
                        line++;
                        lineStart = k + 1;
                    }
                }
                i = e;
                continue;
            }
            if (c == '#' && atLineStart && directives) {
                // directive up to the end of the line, with continuations and block comments
                while (i < n) {
                    char d = s[i];
                    if (d == '\n') break;
                    if (d == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
                        i += s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n' ? 3 : 2;
                        line++;
                        lineStart = i;
                        continue;
                    }
                    if (d == '/' && i + 1 < n && s[i + 1] == '/') break;
                    if (d == '/' && i + 1 < n && s[i + 1] == '*') {
                        int e = indexOf(s, '*', '/', i + 2);
                        e = e < 0 ? n : e + 2;
                        for (int k = i; k < e; k++) {
                            if (s[k] == '\n') {
                                line++;
                                lineStart = k + 1;
                            }
                        }
                        i = e;
                        continue;
                    }
                    i++;
                }
                out.add(new PToken(
                        CudaLexer.DIRECTIVE, new String(s, start, (i) - (start)), startLine, col, EMPTY, null));
                continue;
            }
            atLineStart = false;
            if (nameStart(c)) {
                // string/char prefixes
                int j = i + 1;
                while (j < n && namePart(s[j])) j++;
                if (j < n && (s[j] == '"' || s[j] == '\'') && isPrefix(s, i, j)) {
                    boolean raw = s[j - 1] == 'R' && s[j] == '"';
                    i = raw ? rawString(s, j) : quoted(s, j);
                    for (int k = start; k < i; k++) {
                        if (s[k] == '\n') {
                            line++;
                            lineStart = k + 1;
                        }
                    }
                    out.add(new PToken(
                            s[j] == '"' ? CudaLexer.STRING_LITERAL : CudaLexer.CHAR_LITERAL,
                            new String(s, start, (i) - (start)),
                            startLine,
                            col,
                            EMPTY,
                            null));
                    continue;
                }
                String w = new String(s, i, (j) - (i));
                int wordLine = line;
                if (j + 1 < n && s[j] == '\\' && (s[j + 1] == '\n' || s[j + 1] == '\r')) {
                    // a name split by backslash-newline is one name (line splicing comes before tokenization)
                    StringBuilder sb = new StringBuilder(w);
                    while (j + 1 < n
                            && s[j] == '\\'
                            && (s[j + 1] == '\n' || s[j + 1] == '\r' && j + 2 < n && s[j + 2] == '\n')) {
                        int k = j + (s[j + 1] == '\r' ? 3 : 2);
                        if (k >= n || !namePart(s[k])) break;
                        line++;
                        lineStart = k;
                        j = k;
                        while (j < n && namePart(s[j])) sb.append(s[j++]);
                    }
                    w = sb.toString();
                }
                String alt = ALTERNATIVE_TOKENS.get(w);
                if (alt != null) w = alt;
                Integer kw = alt != null ? PUNCT.get(alt) : KEYWORDS.get(w);
                out.add(new PToken(kw != null ? kw : CudaLexer.IDENTIFIER, w, wordLine, col, EMPTY, null));
                i = j;
                continue;
            }
            if (digit(c) || (c == '.' && i + 1 < n && digit(s[i + 1]))) {
                int j = i + 1;
                boolean hex = c == '0' && j < n && (s[j] == 'x' || s[j] == 'X');
                boolean fl = c == '.';
                while (j < n) {
                    char d = s[j];
                    if ((d == '+' || d == '-')
                            && (hex ? (s[j - 1] == 'p' || s[j - 1] == 'P') : (s[j - 1] == 'e' || s[j - 1] == 'E'))) {
                        fl = true;
                        j++;
                        continue;
                    }
                    if (d == '.') {
                        fl = true;
                        j++;
                        continue;
                    }
                    if (letterOrDigit(d) || d == '_' || (d == '\'' && j + 1 < n && letterOrDigit(s[j + 1]))) {
                        if (!hex && (d == 'e' || d == 'E')) fl = true;
                        if (hex && (d == 'p' || d == 'P')) fl = true;
                        j++;
                        continue;
                    }
                    break;
                }
                String w = new String(s, i, (j) - (i));
                char last = w.charAt(w.length() - 1);
                if (!hex && (last == 'f' || last == 'F')) fl = true;
                out.add(new PToken(
                        fl ? CudaLexer.FLOATING_LITERAL : CudaLexer.INTEGER_LITERAL, w, line, col, EMPTY, null));
                i = j;
                continue;
            }
            if (c == '"' || c == '\'') {
                i = quoted(s, i);
                out.add(new PToken(
                        c == '"' ? CudaLexer.STRING_LITERAL : CudaLexer.CHAR_LITERAL,
                        new String(s, start, (i) - (start)),
                        line,
                        col,
                        EMPTY,
                        null));
                // a literal continued with backslash-newline spans lines: later tokens keep their physical lines
                for (int k = start; k < i; k++) {
                    if (s[k] == '\n') {
                        line++;
                        lineStart = k + 1;
                    }
                }
                continue;
            }
            Integer p = null;
            int len = 0;
            for (int l = 3; l >= 1 && p == null; l--) {
                if (i + l <= n) {
                    p = PUNCT.get(new String(s, i, l));
                    len = l;
                }
            }
            if (p == null) {
                out.add(new PToken(CudaLexer.UNKNOWN, String.valueOf(c), line, col, EMPTY, null));
                i++;
            } else {
                out.add(new PToken(p, new String(s, i, (i + len) - (i)), line, col, EMPTY, null));
                i += len;
            }
        }
        return out;
    }

    private static int indexOf(char[] s, char a, char b, int from) {
        for (int k = from; k + 1 < s.length; k++) {
            if (s[k] == a && s[k + 1] == b) return k;
        }
        return -1;
    }

    private static int lastNewline(char[] s, int from) {
        for (int k = Math.min(from, s.length - 1); k >= 0; k--) {
            if (s[k] == '\n') return k;
        }
        return -1;
    }

    private static boolean isPrefix(char[] s, int i, int j) {
        String p = new String(s, i, j - i);
        return p.equals("u8")
                || p.equals("u")
                || p.equals("U")
                || p.equals("L")
                || p.equals("R")
                || p.equals("u8R")
                || p.equals("uR")
                || p.equals("UR")
                || p.equals("LR");
    }

    private static int quoted(char[] s, int i) {
        char q = s[i];
        int n = s.length;
        int j = i + 1;
        while (j < n) {
            char d = s[j];
            if (d == '\\') {
                j += j + 2 < n && s[j + 1] == '\r' && s[j + 2] == '\n' ? 3 : 2;
                continue;
            }
            if (d == q) return j + 1;
            if (d == '\n') return j; // unterminated: stop at the end of the line
            j++;
        }
        return n;
    }

    private static int rawString(char[] s, int quote) {
        String str = new String(s);
        int open = str.indexOf('(', quote);
        if (open < 0) return quoted(s, quote);
        String delim = ")" + str.substring(quote + 1, open) + "\"";
        int e = str.indexOf(delim, open);
        return e < 0 ? s.length : e + delim.length();
    }
}
