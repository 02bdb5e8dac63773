package dev.numlint.cuda.parser;

import java.util.function.Predicate;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenStream;

/**
 * Semantic predicates of {@code CudaParser}: C++ cannot be parsed without knowing which names are types. The
 * predicates look ahead on the token stream (they sit on the left edge of alternatives, so ANTLR evaluates them
 * during prediction with the stream at the decision point) and consult {@link #typeNames}, the names the
 * analyzer knows to be types (typedefs, structs, template parameters, CUDA vector types, fixed-width integers);
 * unknown names are classified by their shape ({@code Name name}, {@code Name *name =}).
 */
public abstract class CudaParserBase extends Parser {
    private static final int MAX_SCAN = 96;
    private Predicate<String> typeNames = s -> false;

    protected CudaParserBase(TokenStream input) {
        super(input);
    }

    public void setTypeNames(Predicate<String> names) {
        this.typeNames = names;
    }

    private int la(int i) {
        return _input.LA(i);
    }

    private Token lt(int i) {
        return _input.LT(i);
    }

    static boolean isBuiltinType(int t) {
        switch (t) {
            case CudaLexer.VOID:
            case CudaLexer.BOOL:
            case CudaLexer.CHAR:
            case CudaLexer.SHORT:
            case CudaLexer.INT:
            case CudaLexer.LONG:
            case CudaLexer.FLOAT:
            case CudaLexer.DOUBLE:
            case CudaLexer.SIGNED:
            case CudaLexer.UNSIGNED:
                return true;
            default:
                return false;
        }
    }

    static boolean isDeclKeyword(int t) {
        switch (t) {
            case CudaLexer.STATIC:
            case CudaLexer.EXTERN:
            case CudaLexer.INLINE:
            case CudaLexer.REGISTER:
            case CudaLexer.MUTABLE:
            case CudaLexer.CONSTEXPR:
            case CudaLexer.VIRTUAL:
            case CudaLexer.EXPLICIT:
            case CudaLexer.FRIEND:
            case CudaLexer.THREAD_LOCAL:
            case CudaLexer.GLOBAL:
            case CudaLexer.DEVICE:
            case CudaLexer.HOST:
            case CudaLexer.SHARED:
            case CudaLexer.CONSTANT:
            case CudaLexer.MANAGED:
            case CudaLexer.FORCEINLINE:
            case CudaLexer.NOINLINE:
            case CudaLexer.EXTENSION:
            case CudaLexer.CONST:
            case CudaLexer.VOLATILE:
            case CudaLexer.RESTRICT:
            case CudaLexer.STRUCT:
            case CudaLexer.CLASS:
            case CudaLexer.UNION:
            case CudaLexer.ENUM:
            case CudaLexer.TYPENAME:
            case CudaLexer.AUTO:
            case CudaLexer.DECLTYPE:
            case CudaLexer.GNU_ATTRIBUTE:
            case CudaLexer.DECLSPEC:
            case CudaLexer.ALIGN:
            case CudaLexer.GRID_CONSTANT:
                return true;
            default:
                return isBuiltinType(t);
        }
    }

    /** Index after a balanced template argument list starting at {@code i} (which is '<'), or -1. */
    private int skipTemplateArgs(int i) {
        int angle = 0;
        int paren = 0;
        for (int n = 0; n < MAX_SCAN; n++, i++) {
            int t = la(i);
            switch (t) {
                case Token.EOF:
                case CudaLexer.SEMI:
                case CudaLexer.LBRACE:
                case CudaLexer.RBRACE:
                case CudaLexer.AND_AND:
                case CudaLexer.OR_OR:
                case CudaLexer.QUESTION:
                    return -1;
                case CudaLexer.LT:
                    if (paren == 0) angle++;
                    break;
                case CudaLexer.GT:
                    if (paren == 0) {
                        angle--;
                        if (angle == 0) return i + 1;
                    }
                    break;
                case CudaLexer.LPAREN:
                case CudaLexer.LBRACKET:
                    paren++;
                    break;
                case CudaLexer.RPAREN:
                case CudaLexer.RBRACKET:
                    if (--paren < 0) return -1;
                    break;
                case CudaLexer.ASSIGN:
                case CudaLexer.PLUS_ASSIGN:
                case CudaLexer.MINUS_ASSIGN:
                case CudaLexer.STAR_ASSIGN:
                case CudaLexer.DIV_ASSIGN:
                    if (paren == 0) return -1;
                    break;
                default:
                    break;
            }
        }
        return -1;
    }

    private boolean templateClosePlausible(int i) {
        switch (la(i)) {
            case CudaLexer.LPAREN:
            case CudaLexer.SCOPE:
            case CudaLexer.LBRACE:
            case CudaLexer.IDENTIFIER:
            case CudaLexer.STAR:
            case CudaLexer.AMP:
            case CudaLexer.AND_AND:
            case CudaLexer.GT:
            case CudaLexer.COMMA:
            case CudaLexer.RPAREN:
            case CudaLexer.ELLIPSIS:
            case CudaLexer.SEMI:
            case CudaLexer.CONST:
            case CudaLexer.LAUNCH_OPEN:
            case CudaLexer.RESTRICT:
            case CudaLexer.OPERATOR:
            case CudaLexer.LBRACKET:
                return true;
            default:
                return false;
        }
    }

    /** '<' at LT(1) opens a template argument list. */
    protected boolean templateArgsAhead() {
        if (la(1) != CudaLexer.LT) return false;
        int end = skipTemplateArgs(1);
        return end > 0 && (templateClosePlausible(end) || onlyTypesBetween(2, end - 1));
    }

    /**
     * Whether the tokens from {@code i} up to (not including) {@code end} are type names separated by commas: a type
     * cannot be an operand of {@code <}, so {@code cp<TF> / ra} opens a template argument list (a C++14 variable
     * template) whatever follows the {@code >}.
     */
    private boolean onlyTypesBetween(int i, int end) {
        if (i >= end) return false;
        boolean expectType = true;
        for (int k = i; k < end; k++) {
            int t = la(k);
            if (expectType) {
                boolean type =
                        switch (t) {
                            case CudaLexer.FLOAT,
                                    CudaLexer.DOUBLE,
                                    CudaLexer.INT,
                                    CudaLexer.LONG,
                                    CudaLexer.SHORT,
                                    CudaLexer.CHAR,
                                    CudaLexer.BOOL,
                                    CudaLexer.UNSIGNED,
                                    CudaLexer.SIGNED -> true;
                            case CudaLexer.IDENTIFIER -> known(lt(k).getText());
                            default -> false;
                        };
                if (!type) return false;
                expectType = false;
            } else {
                if (t != CudaLexer.COMMA) return false;
                expectType = true;
            }
        }
        return !expectType;
    }

    /** Skips a (qualified, templated) name starting at {@code i}; returns the index after it or -1. */
    private int skipName(int i, String[] last) {
        if (la(i) == CudaLexer.SCOPE) i++;
        while (true) {
            if (la(i) == CudaLexer.TEMPLATE) i++;
            if (la(i) != CudaLexer.IDENTIFIER) return -1;
            last[0] = lt(i).getText();
            i++;
            if (la(i) == CudaLexer.LT) {
                int end = skipTemplateArgs(i);
                if (end > 0 && templateClosePlausible(end)) {
                    last[1] = "<>";
                    i = end;
                }
            }
            if (la(i) == CudaLexer.SCOPE && (la(i + 1) == CudaLexer.IDENTIFIER || la(i + 1) == CudaLexer.TEMPLATE)) {
                i++;
                last[2] = "::";
                continue;
            }
            return i;
        }
    }

    private boolean known(String name) {
        return typeNames.test(name);
    }

    /** A declaration starts at LT(1) (rather than an expression statement). */
    protected boolean declAhead() {
        int t = la(1);
        if (isDeclKeyword(t)) {
            return true;
        }
        if (t == CudaLexer.LBRACKET && la(2) == CudaLexer.LBRACKET) return true;
        if (t != CudaLexer.IDENTIFIER && t != CudaLexer.SCOPE) return false;
        String[] last = new String[3];
        int i = skipName(1, last);
        if (i < 0) return false;
        int next = la(i);
        if (next == CudaLexer.IDENTIFIER) return true;
        boolean isKnown = known(last[0]);
        boolean templated = last[1] != null;
        if (next == CudaLexer.STAR || next == CudaLexer.AMP || next == CudaLexer.AND_AND) {
            if (isKnown || templated) return true;
            int j = i;
            while (la(j) == CudaLexer.STAR
                    || la(j) == CudaLexer.AMP
                    || la(j) == CudaLexer.CONST
                    || la(j) == CudaLexer.RESTRICT
                    || la(j) == CudaLexer.AND_AND) j++;
            if (la(j) != CudaLexer.IDENTIFIER) return false;
            int after = la(j + 1);
            return after == CudaLexer.ASSIGN
                    || after == CudaLexer.SEMI
                    || after == CudaLexer.COMMA
                    || after == CudaLexer.LBRACKET
                    || after == CudaLexer.COLON;
        }
        // "Name const" / "Name volatile" cannot begin an expression: a declaration even of an unknown type
        // (e.g. a type from a system header: mxArray const *const p = ...)
        return next == CudaLexer.CONST || next == CudaLexer.VOLATILE || isKnown && next == CudaLexer.RESTRICT;
    }

    /** An identifier at LT(1) is a type name inside a declaration-specifier sequence. */
    protected boolean typeNameAhead() {
        int t = la(1);
        if (t != CudaLexer.IDENTIFIER && t != CudaLexer.SCOPE) return false;
        String[] last = new String[3];
        int i = skipName(1, last);
        if (i < 0) return false;
        if (known(last[0]) && last[2] == null) return true;
        int next = la(i);
        int before = _input.LT(-1) == null ? -1 : _input.LT(-1).getType();
        if (before == CudaLexer.NEW) return true;
        // a trailing return type: [](...) -> std::complex<double> { ... }, auto f() -> T
        if (before == CudaLexer.ARROW) return true;
        // C99 complex.h's 'complex' after a floating type: (float complex) x, double complex z
        if (i == 2 && isBuiltinType(before) && C99_COMPLEX.contains(lt(1).getText())) return true;
        if (next == CudaLexer.IDENTIFIER || next == CudaLexer.OPERATOR) return true;
        if (next == CudaLexer.STAR
                || next == CudaLexer.AMP
                || next == CudaLexer.AND_AND
                || next == CudaLexer.CONST
                || next == CudaLexer.RESTRICT
                || next == CudaLexer.VOLATILE
                || next == CudaLexer.ELLIPSIS) {
            return true;
        }
        if (known(last[0])) return true;
        int prev = _input.LT(-1) == null ? -1 : _input.LT(-1).getType();
        // (X) in a cast or sizeof, <X> or <X, ...> in a template argument list
        if (i == 2 && next == CudaLexer.RPAREN && prev == CudaLexer.LPAREN) return true;
        if (i == 2
                && (next == CudaLexer.GT || next == CudaLexer.COMMA)
                && (prev == CudaLexer.LT
                        || prev == CudaLexer.COMMA
                        || prev == CudaLexer.CONST
                        || prev == CudaLexer.VOLATILE)) {
            return true; // <X>, <X, ...>, <const X>
        }
        // const X) or const X& in a parameter or cast: "const" before a name makes it a type
        if (i == 2
                && (prev == CudaLexer.CONST || prev == CudaLexer.VOLATILE)
                && (next == CudaLexer.RPAREN || next == CudaLexer.GT || next == CudaLexer.COMMA)) {
            return true;
        }
        if (last[1] != null
                && (next == CudaLexer.RPAREN
                        || next == CudaLexer.COMMA
                        || next == CudaLexer.GT
                        || next == CudaLexer.LBRACKET)) {
            return true;
        }
        // a qualified name such as std::size_t or thrust::plus<float> in an abstract position: (T) or <T>
        return last[2] != null && (next == CudaLexer.RPAREN || next == CudaLexer.GT || next == CudaLexer.COMMA);
    }

    /** '(' at LT(1) opens a parameter list in a declarator (rather than a constructor argument list). */
    protected boolean paramsAhead() {
        if (la(1) != CudaLexer.LPAREN) return false;
        int t = la(2);
        if (t == CudaLexer.RPAREN || t == CudaLexer.ELLIPSIS || isDeclKeyword(t)) return true;
        if (t != CudaLexer.IDENTIFIER && t != CudaLexer.SCOPE) return false;
        String[] last = new String[3];
        int i = skipName(2, last);
        if (i < 0) return false;
        if (known(last[0])) return true;
        int next = la(i);
        if (next == CudaLexer.IDENTIFIER) return true;
        if (next == CudaLexer.STAR || next == CudaLexer.AMP) {
            int after = la(i + 1);
            return after == CudaLexer.IDENTIFIER
                    && (la(i + 2) == CudaLexer.COMMA || la(i + 2) == CudaLexer.RPAREN)
                    && last[1] != null;
        }
        return false;
    }

    /** '(' at LT(1) opens a C-style cast. */
    /** The words that make a C99 complex or imaginary type of a builtin floating type (complex.h's macros too). */
    private static final java.util.Set<String> C99_COMPLEX =
            java.util.Set.of("complex", "_Complex", "imaginary", "_Imaginary");

    protected boolean castAhead() {
        if (la(1) != CudaLexer.LPAREN) return false;
        int i = 2;
        boolean sawType = false;
        boolean builtin = false;
        boolean ptr = false;
        for (int n = 0; n < MAX_SCAN; n++) {
            int t = la(i);
            if (t == CudaLexer.CONST || t == CudaLexer.VOLATILE || t == CudaLexer.RESTRICT) {
                i++;
            } else if (isBuiltinType(t)) {
                sawType = true;
                builtin = true;
                i++;
            } else if (!sawType
                    && (t == CudaLexer.STRUCT
                            || t == CudaLexer.UNION
                            || t == CudaLexer.CLASS
                            || t == CudaLexer.ENUM
                            || t == CudaLexer.TYPENAME)) {
                i++;
                String[] last = new String[3];
                i = skipName(i, last);
                if (i < 0) return false;
                sawType = true;
                builtin = true;
            } else if (!sawType && (t == CudaLexer.IDENTIFIER || t == CudaLexer.SCOPE)) {
                String[] last = new String[3];
                i = skipName(i, last);
                if (i < 0) return false;
                sawType = true;
                builtin = known(last[0]) || last[1] != null;
            } else if (sawType && builtin && t == CudaLexer.IDENTIFIER && C99_COMPLEX.contains(lt(i).getText())) {
                // C99 complex types: (float complex *) p, (double _Complex) z
                i++;
            } else if (sawType && (t == CudaLexer.STAR || t == CudaLexer.AMP || t == CudaLexer.AND_AND)) {
                ptr = true;
                i++;
            } else if (sawType && t == CudaLexer.LPAREN && la(i + 1) == CudaLexer.STAR) {
                // a function pointer type: (int (*)()) f, (void *(*)(void *)) g; a pointer to array: (float (*)[4]) p
                int j = skipParens(i);
                if (j >= 0 && la(j) == CudaLexer.LBRACKET) {
                    while (la(j) == CudaLexer.LBRACKET) {
                        while (la(j) != CudaLexer.RBRACKET && la(j) != Token.EOF) j++;
                        j++;
                    }
                    return la(j) == CudaLexer.RPAREN;
                }
                if (j < 0 || la(j) != CudaLexer.LPAREN) return false;
                j = skipParens(j);
                return j >= 0 && la(j) == CudaLexer.RPAREN;
            } else if (sawType
                    && t == CudaLexer.LPAREN
                    && la(i + 1) == CudaLexer.LPAREN
                    && la(i + 2) == CudaLexer.STAR) {
                // a parenthesized abstract declarator: (unsigned char ((*)[16])) p
                int j = skipParens(i);
                return j >= 0 && la(j) == CudaLexer.RPAREN;
            } else if (sawType && t == CudaLexer.RPAREN) {
                if (builtin || ptr) return true;
                // (name)() calls a parenthesized function name: (std::min)(), (bl::max)()
                if (la(i + 1) == CudaLexer.LPAREN && la(i + 2) == CudaLexer.RPAREN) return false;
                switch (la(i + 1)) {
                    case CudaLexer.IDENTIFIER:
                    case CudaLexer.INTEGER_LITERAL:
                    case CudaLexer.FLOATING_LITERAL:
                    case CudaLexer.CHAR_LITERAL:
                    case CudaLexer.LPAREN:
                    case CudaLexer.THIS:
                    case CudaLexer.TILDE:
                    case CudaLexer.BANG:
                    case CudaLexer.SIZEOF:
                    case CudaLexer.STRING_LITERAL:
                        return true;
                    case CudaLexer.LBRACE: // a C99 compound literal (T){...}
                        return true;
                    default:
                        return false;
                }
            } else {
                return false;
            }
        }
        return false;
    }

    /** The index after the parenthesis that opens at {@code i} (balanced), or -1. */
    private int skipParens(int i) {
        int depth = 0;
        for (int n = 0; n < MAX_SCAN; n++, i++) {
            int t = la(i);
            if (t == Token.EOF) return -1;
            if (t == CudaLexer.LPAREN) depth++;
            else if (t == CudaLexer.RPAREN && --depth == 0) return i + 1;
        }
        return -1;
    }

    private static final int MAX_MACRO_ARGS = 4096;

    /**
     * {@code NAME(...)} at LT(1) is the invocation of a macro the analysis does not know (defined in a header
     * outside the scanned tree) used as a statement, which no C++ call expression can be: either nothing
     * separates it from the next statement ({@code TRY_AND_EXIT_ON_ITK_EXCEPTION(f->Update())} followed on the
     * next line by another statement), or its arguments are not expressions ({@code itkGenericExceptionMacro(<<
     * "text" << x);}, {@code M(a->f(););}).
     */
    protected boolean macroStmtAhead() {
        if (la(1) != CudaLexer.IDENTIFIER || la(2) != CudaLexer.LPAREN) return false;
        int depth = 0;
        boolean semiInside = false;
        int i = 2;
        for (int n = 0; n < MAX_MACRO_ARGS; n++, i++) {
            int t = la(i);
            if (t == Token.EOF) return false;
            if (t == CudaLexer.LPAREN) depth++;
            else if (t == CudaLexer.RPAREN && --depth == 0) break;
            else if (t == CudaLexer.SEMI && depth == 1) semiInside = true;
        }
        if (depth != 0) return false;
        if (semiInside || startsWithBinaryOperator(la(3))) return true;
        Token close = lt(i);
        Token next = lt(i + 1);
        if (next == null || next.getType() == Token.EOF || next.getLine() <= close.getLine()) return false;
        int t = next.getType();
        // a following statement starts with a name, a keyword or a block; an operator would continue an expression
        return t == CudaLexer.IDENTIFIER
                || t == CudaLexer.RBRACE
                || t == CudaLexer.LBRACE
                || (t > CudaLexer.DIRECTIVE
                                && t < CudaLexer.LAUNCH_OPEN
                                && t != CudaLexer.SIZEOF
                                && t != CudaLexer.ALIGNOF
                                && t != CudaLexer.NEW
                                && t != CudaLexer.DELETE
                                && t != CudaLexer.THIS
                                && t != CudaLexer.TRUE
                                && t != CudaLexer.FALSE
                                && t != CudaLexer.NULLPTR
                                && t != CudaLexer.NOEXCEPT
                                && t != CudaLexer.STATIC_CAST
                                && t != CudaLexer.REINTERPRET_CAST
                                && t != CudaLexer.CONST_CAST
                                && t != CudaLexer.DYNAMIC_CAST
                                && !isBuiltinType(t)
                        || isBuiltinType(t) && la(i + 2) != CudaLexer.LPAREN && la(i + 2) != CudaLexer.LBRACE);
    }

    private static boolean startsWithBinaryOperator(int t) {
        switch (t) {
            case CudaLexer.SHL:
            case CudaLexer.GT:
            case CudaLexer.LE:
            case CudaLexer.GE:
            case CudaLexer.EQ:
            case CudaLexer.NE:
            case CudaLexer.OR_OR:
            case CudaLexer.DIV:
            case CudaLexer.MOD:
            case CudaLexer.PIPE:
            case CudaLexer.CARET:
            case CudaLexer.QUESTION:
            case CudaLexer.ASSIGN:
            case CudaLexer.PLUS_ASSIGN:
            case CudaLexer.MINUS_ASSIGN:
            case CudaLexer.STAR_ASSIGN:
            case CudaLexer.DIV_ASSIGN:
            case CudaLexer.DOT:
            case CudaLexer.ARROW:
            case CudaLexer.SEMI:
                return true;
            default:
                return false;
        }
    }

    /** IDENTIFIER ':' at statement level is a label (not a bit-field or a ternary). */
    protected boolean isLabel() {
        return la(1) == CudaLexer.IDENTIFIER && la(2) == CudaLexer.COLON;
    }
}
