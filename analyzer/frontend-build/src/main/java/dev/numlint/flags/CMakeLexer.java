package dev.numlint.flags;

import java.util.ArrayList;
import java.util.List;

/**
 * A lexer for the CMake language (cmake-language(7)): command invocations with bracket, quoted and unquoted
 * arguments, line and bracket comments, escape sequences and quoted line continuations. Variable references are
 * kept as written (the evaluator expands them); every character keeps its line and column.
 */
final class CMakeLexer {
    /** Argument kinds. */
    enum Kind {
        UNQUOTED,
        QUOTED,
        BRACKET,
        OPEN_PAREN,
        CLOSE_PAREN
    }

    record Arg(Kind kind, PosText text) {}

    record Command(String name, List<Arg> args, int line, int column) {}

    /** A problem in the input; lexing resumes after it where possible. */
    record Problem(int line, String message) {}

    private final String s;
    private final int fileIndex;
    private int pos;
    private int line = 1;
    private int col = 1;
    final List<Command> commands = new ArrayList<>();
    final List<Problem> problems = new ArrayList<>();

    private CMakeLexer(String s, int fileIndex) {
        this.s = s;
        this.fileIndex = fileIndex;
        // a byte-order mark opening the file, which CMake skips (session 50 round L: "unexpected character")
        if (s.startsWith("\uFEFF")) pos = 1;
    }

    static CMakeLexer lex(String text, int fileIndex) {
        CMakeLexer l = new CMakeLexer(text, fileIndex);
        l.run();
        return l;
    }

    private char peek(int ahead) {
        int p = pos + ahead;
        return p < s.length() ? s.charAt(p) : '\0';
    }

    private boolean eof() {
        return pos >= s.length();
    }

    private char next() {
        char c = s.charAt(pos++);
        if (c == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
        return c;
    }

    private void run() {
        while (!eof()) {
            char c = peek(0);
            if (c == '#') {
                comment();
            } else if (Character.isWhitespace(c)) {
                next();
            } else if (Character.isLetter(c) || c == '_') {
                int cl = line;
                int cc = col;
                StringBuilder id = new StringBuilder();
                while (!eof() && (Character.isLetterOrDigit(peek(0)) || peek(0) == '_')) id.append(next());
                while (!eof() && (peek(0) == ' ' || peek(0) == '\t')) next();
                if (peek(0) != '(') {
                    problems.add(new Problem(cl, "expected '(' after command name '" + id + "'"));
                    skipLine();
                    continue;
                }
                next();
                int restartPos = pos;
                int restartLine = line;
                int restartCol = col;
                List<Arg> args = new ArrayList<>();
                String err = arguments(args);
                if (err != null) {
                    problems.add(new Problem(
                            cl,
                            err + " in " + id + "() starting at line " + cl
                                    + "; the command is ignored and reading resumes on the next line"));
                    // resume on the line after the command name: the rest of the file is still used
                    pos = restartPos;
                    line = restartLine;
                    col = restartCol;
                    skipLine();
                    continue;
                }
                commands.add(new Command(id.toString(), args, cl, cc));
            } else {
                problems.add(new Problem(line, "unexpected character '" + c + "' outside a command"));
                skipLine();
            }
        }
    }

    private void skipLine() {
        while (!eof() && peek(0) != '\n') next();
    }

    /** '#' line comment or '#[=*[' bracket comment. */
    private void comment() {
        next(); // '#'
        if (peek(0) == '[') {
            int eqs = bracketOpen();
            if (eqs >= 0) {
                if (bracketBody(eqs, null) == null) {
                    problems.add(new Problem(line, "unterminated bracket comment"));
                }
                return;
            }
        }
        skipLine();
    }

    /** At '[': if "[=*[" follows, consumes it and returns the number of '='; otherwise consumes nothing, returns -1. */
    private int bracketOpen() {
        int k = 1;
        while (peek(k) == '=') k++;
        if (peek(k) != '[') return -1;
        for (int i = 0; i <= k; i++) next();
        return k - 1;
    }

    /** Reads up to the matching "]=*]"; returns the body or null at EOF. */
    private PosText bracketBody(int eqs, PosText.Builder into) {
        PosText.Builder b = into != null ? into : new PosText.Builder();
        // a newline right after the opening bracket is not part of the content
        if (peek(0) == '\n') next();
        else if (peek(0) == '\r' && peek(1) == '\n') {
            next();
            next();
        }
        while (!eof()) {
            if (peek(0) == ']') {
                int k = 1;
                while (peek(k) == '=') k++;
                if (k - 1 == eqs && peek(k) == ']') {
                    for (int i = 0; i <= k; i++) next();
                    return b.build();
                }
            }
            int l = line;
            int c = col;
            b.append(next(), fileIndex, l, c, true);
        }
        return null;
    }

    /** Reads arguments up to the matching ')'; returns an error text or null. */
    private String arguments(List<Arg> args) {
        int depth = 0;
        while (true) {
            if (eof()) return "missing ')'";
            char c = peek(0);
            if (c == '#') {
                comment();
            } else if (Character.isWhitespace(c)) {
                next();
            } else if (c == '(') {
                args.add(new Arg(Kind.OPEN_PAREN, PosText.of("(", fileIndex, line, col)));
                next();
                depth++;
            } else if (c == ')') {
                if (depth == 0) {
                    next();
                    return null;
                }
                args.add(new Arg(Kind.CLOSE_PAREN, PosText.of(")", fileIndex, line, col)));
                next();
                depth--;
            } else if (c == '"') {
                int startLine = line;
                next();
                PosText q = quoted();
                if (q == null) return "unterminated quoted argument opened at line " + startLine;
                args.add(new Arg(Kind.QUOTED, q));
            } else if (c == '[' && bracketOpen() >= 0) {
                // bracketOpen consumed the opening; recover the '=' count from the text just read
                int eqs = 0;
                int p = pos - 2;
                while (p >= 0 && s.charAt(p) == '=') {
                    eqs++;
                    p--;
                }
                int startLine = line;
                PosText b = bracketBody(eqs, null);
                if (b == null) return "unterminated bracket argument opened at line " + startLine;
                args.add(new Arg(Kind.BRACKET, b));
            } else {
                String err = unquoted(args);
                if (err != null) return err;
            }
        }
    }

    /** After the opening '"': content up to the closing quote, escapes decoded, "\\\n" continuations removed. */
    private PosText quoted() {
        PosText.Builder b = new PosText.Builder();
        while (!eof()) {
            int l = line;
            int c = col;
            char ch = next();
            if (ch == '"') return b.build();
            if (ch == '\\') {
                if (eof()) return null;
                char e = peek(0);
                if (e == '\n') {
                    next();
                    continue;
                }
                if (e == '\r' && peek(1) == '\n') {
                    next();
                    next();
                    continue;
                }
                escape(b, l, c);
                continue;
            }
            b.append(ch, fileIndex, l, c, false);
        }
        return null;
    }

    /** At the character after '\\': decodes one escape sequence. */
    private void escape(PosText.Builder b, int l, int c) {
        char e = next();
        switch (e) {
            case 'n' -> b.append('\n', fileIndex, l, c, true);
            case 't' -> b.append('\t', fileIndex, l, c, true);
            case 'r' -> b.append('\r', fileIndex, l, c, true);
            case '0' -> b.append('\0', fileIndex, l, c, true);
            case ';' -> {
                // "\;" stays an escaped semicolon: literal, not a list separator
                b.append(';', fileIndex, l, c, true);
            }
            default -> b.append(e, fileIndex, l, c, true);
        }
    }

    /** An unquoted argument (with the legacy forms a"b c"d and $(VAR)). */
    private String unquoted(List<Arg> args) {
        PosText.Builder b = new PosText.Builder();
        int parenDepth = 0;
        while (!eof()) {
            char ch = peek(0);
            if (Character.isWhitespace(ch) || ch == '#') break;
            if (ch == '(') {
                if (parenDepth == 0) break;
                parenDepth++;
            }
            if (ch == ')') {
                if (parenDepth == 0) break;
                parenDepth--;
            }
            int l = line;
            int c = col;
            if (ch == '\\') {
                next();
                if (eof()) break;
                escape(b, l, c);
                continue;
            }
            if (ch == '"') {
                // legacy unquoted argument: the quoted part (spaces included) belongs to the argument
                b.append(next(), fileIndex, l, c, false);
                boolean closed = false;
                while (!eof()) {
                    int l2 = line;
                    int c2 = col;
                    char q = next();
                    b.append(q, fileIndex, l2, c2, false);
                    if (q == '"') {
                        closed = true;
                        break;
                    }
                }
                if (!closed) return "unterminated quote in unquoted argument at line " + l;
                continue;
            }
            if (ch == '$' && peek(1) == '(') {
                parenDepth++; // legacy make-style $(VAR)
                b.append(next(), fileIndex, l, c, false);
                int l2 = line;
                int c2 = col;
                b.append(next(), fileIndex, l2, c2, false);
                continue;
            }
            b.append(next(), fileIndex, l, c, false);
        }
        if (b.length() > 0) args.add(new Arg(Kind.UNQUOTED, b.build()));
        else if (!eof()) next(); // cannot happen for well-formed input; guarantees progress
        return null;
    }
}
