package dev.numlint.knowledge;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a line or expression of C/C++/CUDA source, as written, says about the operation a finding is about. The
 * producers of findings (the CUDA source reporter, the PTX layer quoting the source line of an instruction) read the
 * code with these and state the result in the finding's typed {@link dev.numlint.model.Identity}; the scan never
 * reads a finding's message or evidence text.
 */
public final class WrittenCode {
    private WrittenCode() {}

    /** The first operation of a quoted expression: a called name ({@code __fdividef(1.f, v.x)}) or a cast. */
    private static final Pattern LEADING_OPERATION =
            Pattern.compile("^(?:([A-Za-z_][\\w:]*)\\s*\\(|\\(\\s*([A-Za-z_][\\w:\\s]*?)\\s*\\))");

    /** The variable a compound update adds to: {@code s += t}, {@code s -= t}, {@code s = s + t}. */
    private static final Pattern UPDATE =
            Pattern.compile("^\\s*([A-Za-z_][\\w.]*(?:\\[[^\\]]*\\])?)\\s*(?:[+-]=|=\\s*\\1\\s*[+-])");

    /** An assignment or initialisation: {@code =} that is not part of {@code ==}, {@code !=}, {@code <=}, {@code >=}. */
    private static final Pattern ASSIGNMENT = Pattern.compile("(?<![=!<>])=(?!=)");

    /** A call or functional cast: a name before {@code (}. */
    private static final Pattern CALL = Pattern.compile("\\b([A-Za-z_]\\w*)\\s*\\(");

    /** A C cast: {@code (type) operand}, {@code (unsigned int *) p}. */
    private static final Pattern CAST = Pattern.compile("\\(\\s*[A-Za-z_][\\w:\\s]*\\**\\s*\\)\\s*[\\w(.]");

    /** Keywords a parenthesis follows without a call. */
    private static final Set<String> NOT_CALLS =
            Set.of("if", "while", "for", "switch", "sizeof", "alignof", "decltype", "catch", "defined", "return");

    /**
     * The operation an expression starts with: the called name ({@code __fdividef}) or the cast, white space
     * collapsed ({@code (unsigned char)}); null when it starts with neither.
     */
    public static String leadingOperation(String expression) {
        if (expression == null) {
            return null;
        }
        Matcher m = LEADING_OPERATION.matcher(expression);
        if (!m.find()) {
            return null;
        }
        return m.group(1) != null ? m.group(1) : "(" + m.group(2).replaceAll("\\s+", " ") + ")";
    }

    /** The variable a compound update on {@code line} adds to ({@code sum} of {@code sum += t}), or null. */
    public static String updatedVariable(String line) {
        if (line == null) {
            return null;
        }
        Matcher m = UPDATE.matcher(line);
        return m.find() ? m.group(1) : null;
    }

    /**
     * Whether a source line can hold a conversion of a float to an integer: an assignment or initialisation, a
     * return, a call (an argument converted to its parameter's type) or a cast. {@code if (pos < gcfg->maxjump) {}
     * cannot: a comparison converts the integer to float, never the float to an integer.
     */
    public static boolean mayConvert(String line) {
        String s = line.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"").replaceAll("//.*$", "");
        if (ASSIGNMENT.matcher(s).find()
                || s.matches("(?s).*\\breturn\\b.*")
                || CAST.matcher(s).find()) {
            return true;
        }
        Matcher m = CALL.matcher(s);
        while (m.find()) {
            if (!NOT_CALLS.contains(m.group(1))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a source line can hold the operation a PTX instruction of {@code opcode} computes: a division or
     * reciprocal ({@code div}, {@code rcp}) needs a {@code /} or a division intrinsic ({@code __fdividef},
     * {@code __frcp_rn}, ...) on the line; any other instruction, a conversion ({@link #mayConvert}).
     */
    public static boolean mayHold(String opcode, String line) {
        return mayHold("div".equals(opcode) || "rcp".equals(opcode) ? Construct.DIVISION : Construct.CONVERSION, line);
    }

    /**
     * The construct a rule's PTX finding needs its written line to hold (catalog {@code policy: relocate-ptx}): a
     * PTX finding shown at a line that cannot hold it was moved there (hoisted out of a loop, scheduled next to a
     * branch, given no line) and stands for code written elsewhere.
     */
    public enum Construct {
        /** A float-to-integer conversion: an assignment, a return, a call or a cast ({@link #mayConvert}). */
        CONVERSION,
        /** A division or reciprocal: a {@code /} or a division intrinsic. */
        DIVISION,
        /**
         * Float math done in double: an unsuffixed floating literal, the type {@code double}, a call (a double
         * function, a macro) or a name in capitals (a macro constant); or data the line reads whose declared type
         * is double, which the text does not show (the PTX producer adds that case from the loads on the line).
         */
        DOUBLE_MATH,
        /**
         * A contraction: a sum or difference ({@code +}, {@code -}, {@code +=}, {@code -=}; the fma takes the line of
         * its addition, whose product may be written on another line), or a call.
         */
        CONTRACTION,
        /**
         * A float constant in double math: a floating literal with an {@code f} suffix ({@code 0.05f}), a name in
         * capitals (a macro constant), the type {@code float} (a cast) or a statement written over several lines. A
         * line that holds none of them is where nvcc placed the constant after inlining ({@code x - (x*x - a)/(2*x)}
         * in a solver whose caller passed {@code 0.05f} as its first guess), not where it is written.
         */
        FLOAT_CONSTANT;

        /** The catalog's name of the construct ({@code double-math}). */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }

        /**
         * Whether a finding that finds no written construct to join keeps its level: a conversion may be one the
         * source layer cannot see (an inlined callee's return); the source layer reports every written division,
         * double literal and product-sum where it is written, so a PTX one shown elsewhere adds no site of its own.
         */
        public boolean keepsLevel() {
            return this == CONVERSION;
        }

        /**
         * Whether the construct may be written over several lines, so that a line that goes on with the statement
         * above it may hold it ({@link #continuedAfter}); conversions and divisions are judged on their line alone.
         */
        public boolean spansLines() {
            return this == DOUBLE_MATH || this == CONTRACTION || this == FLOAT_CONSTANT;
        }

        /**
         * Whether the construct may reach the line it is shown at as an argument of the inlined function the line is
         * in: a constant that nvcc propagates into the callee, written at a call site up the inlining chain.
         */
        public boolean followsArguments() {
            return this == FLOAT_CONSTANT;
        }

        /** Whether the operand types the text does not show can bring the construct (a declared double). */
        public boolean typedByDeclaration() {
            return this == DOUBLE_MATH;
        }

        /** The construct the catalog names {@code id} ({@code division}), or null for null. */
        public static Construct of(String id) {
            if (id == null) {
                return null;
            }
            for (Construct c : values()) {
                if (c.id().equals(id)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("no written construct '" + id
                    + "' (known: conversion, division, double-math, contraction," + " float-constant)");
        }
    }

    /** Whether a source line can hold {@code construct} as written ({@link Construct}). */
    public static boolean mayHold(Construct construct, String line) {
        String s = code(line);
        return switch (construct) {
            case CONVERSION -> mayConvert(line);
            case DIVISION -> s.indexOf('/') >= 0 || DIVISION_CALL.matcher(s).find();
            case DOUBLE_MATH -> partOfStatement(s) || doubleMath(withoutIntegerSubscripts(s));
            case CONTRACTION -> partOfStatement(s) || calls(s) || SUM.matcher(s).find();
            case FLOAT_CONSTANT -> partOfStatement(s)
                    || FLOAT_LITERAL.matcher(s).find()
                    || CAPITAL_NAME.matcher(withoutIntegerSubscripts(s)).find()
                    || s.matches("(?s).*\\bfloat\\b.*");
        };
    }

    /** Whether a line writes a float literal ({@code 0.05f}; strings and comments left out). */
    public static boolean holdsFloatLiteral(String line) {
        return FLOAT_LITERAL.matcher(code(line)).find();
    }

    /** The parentheses a line opens and does not close (negative when it closes more; strings and comments left out). */
    public static int openParentheses(String line) {
        String s = code(line);
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '(') depth++;
            else if (s.charAt(i) == ')') depth--;
        }
        return depth;
    }

    private static String code(String line) {
        return line.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
                .replaceAll("//.*$", "")
                .replaceAll("/\\*.*?\\*/", " ");
    }

    /**
     * Whether the text of a line shows double math: an unsuffixed floating literal, the type {@code double}, a name in
     * capitals (a macro constant) or a call.
     */
    private static boolean doubleMath(String s) {
        return DOUBLE_LITERAL.matcher(s).find()
                || s.matches("(?s).*\\bdouble\\b.*")
                || CAPITAL_NAME.matcher(s).find()
                || calls(s);
    }

    /**
     * {@code s} with the text of each subscript that holds no parenthesis (no call, no cast) left out: {@code
     * par[k*NPAR + j]} becomes {@code par[]}. A subscript is an integer, and without a conversion it cannot compute in
     * double, so a name in capitals there is an integer constant (a template parameter, a size).
     */
    static String withoutIntegerSubscripts(String s) {
        String prev;
        String out = s;
        do {
            prev = out;
            out = INTEGER_SUBSCRIPT.matcher(prev).replaceAll("[]");
        } while (!out.equals(prev));
        return out;
    }

    /** A subscript with no bracket or parenthesis inside and some text: {@code [k*NPAR + j]}. */
    private static final Pattern INTEGER_SUBSCRIPT = Pattern.compile("\\[[^\\[\\]()]+\\]");

    /**
     * The line is one line of an expression written over several ({@code 1));} closing what a line above opened,
     * {@code x = a * (b +} going on below): nvcc gives each of its instructions the line of its operand, so the
     * line's own text does not show what the expression computes.
     */
    private static boolean partOfStatement(String s) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') depth++;
            else if (c == ')') depth--;
        }
        return depth != 0;
    }

    /**
     * Whether a line after {@code previous} goes on with its statement: {@code previous} (comments left out) ends
     * with an operator, a comma or an opening bracket ({@code x = a * b -}), so that the statement's instructions
     * may carry the next line although its own text shows only part of the expression. A construct written over
     * several lines (double math, a contraction) may be held by such a line.
     */
    public static boolean continuedAfter(String previous) {
        if (previous == null) {
            return false;
        }
        String s = previous.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
                .replaceAll("//.*$", "")
                .replaceAll("/\\*.*?\\*/", " ")
                .strip();
        return !s.isEmpty() && "+-*/%=&|^<>?,([".indexOf(s.charAt(s.length() - 1)) >= 0;
    }

    /** A call of a name that is not a keyword. */
    private static boolean calls(String s) {
        Matcher m = CALL.matcher(s);
        while (m.find()) {
            if (!NOT_CALLS.contains(m.group(1))) {
                return true;
            }
        }
        return false;
    }

    /** A floating literal without an {@code f} suffix: {@code 1.}, {@code .5}, {@code 0.5}, {@code 1e-3}. */
    private static final Pattern DOUBLE_LITERAL =
            Pattern.compile("(?<![\\w.])(?:\\d+\\.\\d*|\\.\\d+|\\d+(?=[eE]))(?:[eE][+-]?\\d+)?(?![\\w.])");

    /** A floating literal with an {@code f} suffix: {@code 0.05f}, {@code 1.f}, {@code .5F}, {@code 1e-3f}. */
    private static final Pattern FLOAT_LITERAL =
            Pattern.compile("(?<![\\w.])(?:\\d+\\.\\d*|\\.\\d+|\\d+(?=[eE]))(?:[eE][+-]?\\d+)?[fF](?![\\w.])");

    /** A name in capitals that may be a macro constant ({@code M_PI}, {@code SSE_VX}). */
    private static final Pattern CAPITAL_NAME = Pattern.compile("\\b[A-Z][A-Z0-9_]+\\b");

    /** A sum or difference: a binary {@code +} or {@code -} (with {@code +=}, {@code -=}), not {@code ++}, {@code ->}. */
    private static final Pattern SUM = Pattern.compile("(?<![+\\-])(?<!\\d[eE])[+\\-](?![+\\->])");

    private static final Pattern DIVISION_CALL =
            Pattern.compile("\\b(?:__fdividef|fdividef|__[fd]?div_r[nzud]|__[fd]rcp_r[nzud]|__frcp|h2?rcp)\\s*\\(");

    /** Punctuators of more than one character (C, C++, CUDA, Java), longest first: one token each. */
    private static final List<String> PUNCTUATORS = List.of(
            ">>>=", "<<=", ">>=", ">>>", "...", "->*", "::", "->", ".*", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
            "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##");

    /**
     * The tokens of written C/C++/CUDA/Java code, with its layout and comments left out: identifiers and keywords,
     * numbers, string and character literals (exactly as written, their white space included), and punctuators (the
     * longest one that matches, {@code ++} before {@code +}). Two pieces of code with the same tokens are the same
     * written code: {@code if (xx +  yy > 4)} and {@code if (xx+yy>4) // again} are one code, {@code a+ +b} and {@code
     * a++ b} are not, and neither are {@code "a b"} and {@code "a  b"}. An unterminated literal or comment (a snippet
     * cut short) runs to the end of the text. Empty for null or blank text.
     */
    public static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (text.startsWith("//", i)) {
                int e = text.indexOf('\n', i);
                i = e < 0 ? n : e;
            } else if (text.startsWith("/*", i)) {
                int e = text.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 2;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && text.charAt(j) != c) {
                    j += text.charAt(j) == '\\' ? 2 : 1;
                }
                j = Math.min(n, j + 1);
                out.add(text.substring(i, j));
                i = j;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(text.charAt(i + 1))) {
                // a number as the preprocessor reads it: 1.f, 0x1p-3, 1e+10f, 1'000
                int j = i + 1;
                while (j < n) {
                    char d = text.charAt(j);
                    char prev = text.charAt(j - 1);
                    if (Character.isLetterOrDigit(d)
                            || d == '_'
                            || d == '.'
                            || d == '\'' && j + 1 < n && Character.isLetterOrDigit(text.charAt(j + 1))) {
                        j++;
                    } else if ((d == '+' || d == '-') && "eEpP".indexOf(prev) >= 0) {
                        j++;
                    } else {
                        break;
                    }
                }
                out.add(text.substring(i, j));
                i = j;
            } else if (Character.isJavaIdentifierStart(c)) {
                int j = i + 1;
                while (j < n && Character.isJavaIdentifierPart(text.charAt(j))) {
                    j++;
                }
                out.add(text.substring(i, j));
                i = j;
            } else {
                String p = String.valueOf(c);
                for (String q : PUNCTUATORS) {
                    if (text.startsWith(q, i)) {
                        p = q;
                        break;
                    }
                }
                out.add(p);
                i += p.length();
            }
        }
        return out;
    }
}
