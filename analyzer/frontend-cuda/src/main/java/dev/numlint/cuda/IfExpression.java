package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.antlr.v4.runtime.Token;

/**
 * One {@code #if}/{@code #elif} expression of the {@link Preprocessor}, after {@code defined} and macro expansion: a
 * recursive-descent evaluator of C's integer constant expressions ({@code ?:}, the binary operators by precedence,
 * unary operators, literals). A value is null when it depends on something the analysis cannot know (the device or
 * host pass, the toolkit version); an identifier that is no macro is 0, as in C.
 */
final class IfExpression {
    /** An integer literal's suffix (compiled once: replaceAll compiles its pattern on every call). */
    private static final java.util.regex.Pattern INTEGER_SUFFIX = java.util.regex.Pattern.compile("[uUlLzZ]+$");

    final List<PToken> t;
    int pos;
    /** Predefined macros the file's dialect does not define (0 in an #if). */
    private final Set<String> undefinedPredefined;
    /** The value of a predefined macro, or null. */
    private final Function<String, Long> predefined;

    IfExpression(List<PToken> t, Set<String> undefinedPredefined, Function<String, Long> predefined) {
        this.t = t;
        this.undefinedPredefined = undefinedPredefined;
        this.predefined = predefined;
    }

    int type() {
        return pos < t.size() ? t.get(pos).getType() : Token.EOF;
    }

    Long ternary() {
        Long c = binary(0);
        if (type() == CudaLexer.QUESTION) {
            pos++;
            Long a = ternary();
            if (type() != CudaLexer.COLON) throw new IllegalStateException();
            pos++;
            Long b = ternary();
            if (c == null) return a != null && a.equals(b) ? a : null;
            return c != 0 ? a : b;
        }
        return c;
    }

    private int prec(int type) {
        switch (type) {
            case CudaLexer.OR_OR:
                return 1;
            case CudaLexer.AND_AND:
                return 2;
            case CudaLexer.PIPE:
                return 3;
            case CudaLexer.CARET:
                return 4;
            case CudaLexer.AMP:
                return 5;
            case CudaLexer.EQ:
            case CudaLexer.NE:
                return 6;
            case CudaLexer.LT:
            case CudaLexer.GT:
            case CudaLexer.LE:
            case CudaLexer.GE:
                return 7;
            case CudaLexer.SHL:
                return 8;
            case CudaLexer.PLUS:
            case CudaLexer.MINUS:
                return 9;
            case CudaLexer.STAR:
            case CudaLexer.DIV:
            case CudaLexer.MOD:
                return 10;
            default:
                return -1;
        }
    }

    Long binary(int minPrec) {
        Long left = unary();
        while (true) {
            int op = type();
            int p = prec(op);
            if (p < 0 || p <= minPrec - 1 || p < minPrec) return left;
            pos++;
            boolean shr = op == CudaLexer.GT && type() == CudaLexer.GT;
            if (shr) {
                pos++;
                p = 8;
            }
            Long right = binary(p + 1);
            left = apply(shr ? -1 : op, left, right);
        }
    }

    Long apply(int op, Long a, Long b) {
        if (op == CudaLexer.AND_AND) {
            if ((a != null && a == 0) || (b != null && b == 0)) return 0L;
            return a == null || b == null ? null : 1L;
        }
        if (op == CudaLexer.OR_OR) {
            if ((a != null && a != 0) || (b != null && b != 0)) return 1L;
            return a == null || b == null ? null : 0L;
        }
        if (a == null || b == null) return null;
        switch (op) {
            case -1:
                return a >> b;
            case CudaLexer.PIPE:
                return a | b;
            case CudaLexer.CARET:
                return a ^ b;
            case CudaLexer.AMP:
                return a & b;
            case CudaLexer.EQ:
                return a.equals(b) ? 1L : 0L;
            case CudaLexer.NE:
                return a.equals(b) ? 0L : 1L;
            case CudaLexer.LT:
                return a < b ? 1L : 0L;
            case CudaLexer.GT:
                return a > b ? 1L : 0L;
            case CudaLexer.LE:
                return a <= b ? 1L : 0L;
            case CudaLexer.GE:
                return a >= b ? 1L : 0L;
            case CudaLexer.SHL:
                return a << b;
            case CudaLexer.PLUS:
                return a + b;
            case CudaLexer.MINUS:
                return a - b;
            case CudaLexer.STAR:
                return a * b;
            case CudaLexer.DIV:
                return b == 0 ? null : a / b;
            case CudaLexer.MOD:
                return b == 0 ? null : a % b;
            default:
                return null;
        }
    }

    Long unary() {
        int ty = type();
        if (ty == CudaLexer.BANG) {
            pos++;
            Long v = unary();
            return v == null ? null : v == 0 ? 1L : 0L;
        }
        if (ty == CudaLexer.MINUS) {
            pos++;
            Long v = unary();
            return v == null ? null : -v;
        }
        if (ty == CudaLexer.PLUS) {
            pos++;
            return unary();
        }
        if (ty == CudaLexer.TILDE) {
            pos++;
            Long v = unary();
            return v == null ? null : ~v;
        }
        if (ty == CudaLexer.LPAREN) {
            pos++;
            Long v = ternary();
            if (type() != CudaLexer.RPAREN) throw new IllegalStateException();
            pos++;
            return v;
        }
        if (ty == CudaLexer.INTEGER_LITERAL) {
            String s = INTEGER_SUFFIX
                    .matcher(t.get(pos++).getText().replace("'", ""))
                    .replaceAll("");
            if (s.startsWith("0x") || s.startsWith("0X")) return Long.parseLong(s.substring(2), 16);
            if (s.startsWith("0b") || s.startsWith("0B")) return Long.parseLong(s.substring(2), 2);
            if (s.length() > 1 && s.startsWith("0")) return Long.parseLong(s, 8);
            return Long.parseLong(s);
        }
        if (ty == CudaLexer.TRUE) {
            pos++;
            return 1L;
        }
        if (ty == CudaLexer.FALSE) {
            pos++;
            return 0L;
        }
        if (ty == CudaLexer.IDENTIFIER || (ty != Token.EOF && ty < CudaLexer.LAUNCH_OPEN)) {
            String id = t.get(pos++).getText();
            if (type() == CudaLexer.LPAREN) { // unknown function-like macro
                int depth = 0;
                do {
                    if (type() == CudaLexer.LPAREN) depth++;
                    else if (type() == CudaLexer.RPAREN) depth--;
                    pos++;
                } while (depth > 0 && pos < t.size());
                return null;
            }
            if (undefinedPredefined.contains(id)) return 0L;
            Long pre = predefined.apply(id);
            if (pre != null) return pre;
            // C: an identifier that is not a macro is 0; unknown toolkit/arch macros are undecidable
            return Preprocessor.undecidable(id)
                            || id.equals("__undecidable__")
                            || id.startsWith("CUDA")
                            || id.startsWith("__CUDA")
                    ? null
                    : Long.valueOf(0);
        }
        throw new IllegalStateException("unexpected token in #if");
    }
}
