package dev.numlint.ptx.rules;

import java.util.regex.Pattern;

/** Heuristics over one line of CUDA source (comments and string literals removed first). */
public final class SourceText {
    private static final Pattern EXPLICIT_FMA = Pattern.compile(
            "\\b(?:std::)?(?:fmaf?|fmal|__fmaf?_(?:ieee_)?r[nzud]|__fma_r[nzud]|__fmaf_r[nzud]|__hfma2?|__hfma_sat)"
                    + "\\s*\\(");
    private static final Pattern CONVERSION_INTRINSIC = Pattern.compile(
            "\\b__(?:float|double|half|bfloat16|float2half)?\\w*2u(?:int|ll|short|char)_r[nzud]\\s*\\(");
    private static final Pattern DIVISION_INTRINSIC = Pattern.compile(
            "\\b(?:__fdividef|__fdiv_r[nzud]|__frcp_r[nzud]|__drcp_r[nzud]|__ddiv_r[nzud]|fdividef|__fdividef|"
                    + "h2rcp|hrcp|__frcp)\\s*\\(");
    /** The word before a {@code *} that makes it a pointer declarator (matched against the whole word). */
    private static final Pattern TYPE_BEFORE_STAR = Pattern.compile(
            "(?:float|double|int|char|void|unsigned|short|long|const|auto|half|size_t|bool|[A-Za-z_]\\w*_t|"
                    + "float[1-4]|double[1-4]|int[1-4]|uint[1-4]|restrict|__restrict__|T)");

    /** CUDA math functions whose inlined implementations are built from fma, approximations and branches. */
    private static final Pattern LIBRARY_CALL = Pattern.compile("\\b(?:std::)?(?:a?sinh?f?|a?cosh?f?|a?tanh?f?|"
            + "atan2f?|expf?|exp2f?|exp10f?|expm1f?|logf?|log2f?|log10f?|log1pf?|powf?|erfc?f?|erfc?invf?|cbrtf?|"
            + "rcbrtf?|hypotf?|norm3df?|norm4df?|rnormf?|tgammaf?|lgammaf?|sinpif?|cospif?|sincosf?|sincospif?|"
            + "normcdff?|normcdfinvf?|j[01]f?|y[01]f?|fmodf?|remainderf?|ldexpf?|frexpf?|scalbnf?|logbf?|"
            + "sqrtf?|rsqrtf?)\\s*\\(");

    /**
     * CUDA math functions whose result is exact (the CUDA Math API gives 0 ulp as their maximum error): the
     * remainder routines, whose libdevice code estimates a quotient with an approximate division and corrects the
     * remainder with fmas, steps that cannot change the exact result.
     */
    private static final Pattern EXACT_ROUTINE = Pattern.compile("\\b(?:std::)?(?:fmodf?|remainderf?|remquof?)\\s*\\(");

    private static final Pattern CONTROL_HEADER =
            Pattern.compile("^(?:}\\s*)?(?:else\\s+)?(?:if|while|for|switch)\\s*\\(");
    private static final Pattern CALL = Pattern.compile("\\b([A-Za-z_]\\w*)\\s*\\(");
    private static final Pattern DECISION = Pattern.compile(
            "[<>?]|==|!=|\\b(?:if|while|for|isnan|isinf|isfinite|signbit|f?min|f?max|clamp)\\w*\\s*\\(|__sat");

    private SourceText() {}

    /** The line calls a CUDA math-library routine (whose inlined code may carry the line's debug position). */
    public static boolean callsMathLibrary(String line) {
        return line != null
                && LineMemo.of(line, LineMemo.MATH_LIBRARY, l -> LIBRARY_CALL
                        .matcher(code(l))
                        .find());
    }

    /**
     * The line calls a CUDA math-library routine by its name in any letter case: {@code powf(...)}, or a
     * precision-switching macro spelled {@code POW(...)}, {@code EXP(...)} that expands to one.
     */
    public static boolean callsMathLibraryAnyCase(String line) {
        return line != null
                && LineMemo.of(line, LineMemo.MATH_LIBRARY_ANY_CASE, l -> LIBRARY_CALL
                        .matcher(code(l).toLowerCase(java.util.Locale.ROOT))
                        .find());
    }

    /** The line calls a math routine whose result is exact ({@code fmodf}, {@code remainderf}, {@code remquof}). */
    public static boolean callsExactRoutine(String line) {
        return line != null
                && LineMemo.of(line, LineMemo.EXACT_ROUTINE, l -> EXACT_ROUTINE
                        .matcher(code(l))
                        .find());
    }

    /** The math-library routines the line calls, by name in lower case ({@code powf}, {@code pow} for POW). */
    public static java.util.Set<String> mathLibraryCalls(String line) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        if (line == null) return out;
        java.util.regex.Matcher m = LIBRARY_CALL.matcher(code(line).toLowerCase(java.util.Locale.ROOT));
        while (m.find()) {
            out.add(m.group().replaceAll("^std::|\\s*\\($", ""));
        }
        return out;
    }

    /**
     * The line writes an addition or subtraction a product could feed: a binary {@code +} or {@code -} (not a sign,
     * not {@code ++}, {@code --} or {@code ->}, not the exponent of a literal such as {@code 1e-5}), {@code +=} or
     * {@code -=}; or the statement goes on on the next line (the line does not end with {@code ;}, <code>{</code>,
     * <code>}</code>, {@code :} or the {@code )} of an {@code if}/{@code while}/{@code for} header), where nvcc puts
     * the whole statement's instructions on its first line.
     */
    public static boolean writesSum(String line) {
        if (line == null) return true;
        String c = withoutSubscripts(code(line)).strip();
        if (c.isEmpty()) return false;
        char end = c.charAt(c.length() - 1);
        if (end != ';'
                && end != '{'
                && end != '}'
                && end != ':'
                && !(end == ')' && CONTROL_HEADER.matcher(c).find())) {
            return true;
        }
        for (int i = 0; i < c.length(); i++) {
            char ch = c.charAt(i);
            if (ch != '+' && ch != '-') continue;
            char next = i + 1 < c.length() ? c.charAt(i + 1) : ' ';
            if (next == ch) { // ++ or --
                i++;
                continue;
            }
            if (ch == '-' && next == '>') continue;
            if (next == '=') return true; // += or -=
            int p = operandEnd(c, i);
            if (p < 0) continue; // a sign: after an operator, '(' or ','
            char before = c.charAt(p);
            if ((before == 'e' || before == 'E') && p == i - 1 && exponent(c, p)) continue;
            if (Character.isLetter(before) || before == '_') {
                // a keyword before a sign: return -x, case -1
                int q = p;
                while (q >= 0 && (Character.isLetterOrDigit(c.charAt(q)) || c.charAt(q) == '_')) q--;
                String word = c.substring(q + 1, p + 1);
                if (word.equals("return") || word.equals("case")) continue;
            }
            return true;
        }
        return false;
    }

    /** The {@code e} at {@code at} ends the mantissa of a number literal ({@code 1e-5}, {@code 2.5E+3}). */
    private static boolean exponent(String c, int at) {
        int q = at - 1;
        while (q >= 0 && (Character.isDigit(c.charAt(q)) || c.charAt(q) == '.')) q--;
        if (q == at - 1) return false;
        return q < 0 || !(Character.isLetter(c.charAt(q)) || c.charAt(q) == '_');
    }

    /**
     * Whether a function the line calls has one of {@code parts} in its name (case-insensitive): {@code sqrt} for
     * sqrtf, rsqrtf, __fsqrt_rn or a SQRT macro.
     */
    public static boolean callsNamed(String line, String... parts) {
        if (line == null) return false;
        java.util.regex.Matcher m = CALL.matcher(code(line));
        while (m.find()) {
            String name = m.group(1).toLowerCase(java.util.Locale.ROOT);
            for (String p : parts) {
                if (name.contains(p)) return true;
            }
        }
        return false;
    }

    private static final Pattern RELATIONAL = Pattern.compile("<=|>=|(?<![<>-])[<>](?![<>=])");

    /**
     * The line compares with a fresh random draw: a call of a random-number generator ({@link
     * dev.numlint.knowledge.RandomGenerators}) and a relational operator inside one parenthesised group
     * ({@code if (rand_next_reflect(t) <= Rtotal)}, {@code while (curand_uniform(&s) * I0 >= I)}). A decision there
     * is a Bernoulli trial: one ulp of the compared value shifts its odds by about 2^-24.
     */
    public static boolean comparesWithDraw(String line) {
        // every generator name contains rand or rng: most lines stop here, before any regular expression
        if (line == null) return false;
        String lower = line.toLowerCase(java.util.Locale.ROOT);
        if (!lower.contains("rand") && !lower.contains("rng")) return false;
        String c = code(line);
        if (c == null) return false;
        java.util.regex.Matcher m = CALL.matcher(c);
        while (m.find()) {
            if (!dev.numlint.knowledge.RandomGenerators.isGenerator(m.group(1))) continue;
            // the group around the call: from the innermost unclosed '(' before it to its matching ')'
            int depth = 0;
            int open = -1;
            for (int i = m.start() - 1; i >= 0; i--) {
                char ch = c.charAt(i);
                if (ch == ')') depth++;
                else if (ch == '(' && depth-- == 0) {
                    open = i;
                    break;
                }
            }
            if (open < 0) continue;
            depth = 0;
            int close = c.length();
            for (int i = open; i < c.length(); i++) {
                char ch = c.charAt(i);
                if (ch == '(') depth++;
                else if (ch == ')' && --depth == 0) {
                    close = i;
                    break;
                }
            }
            String group = c.substring(open + 1, close);
            if (RELATIONAL.matcher(group.replace("->", "  ")).find()) return true;
        }
        return false;
    }

    /** The line writes a comparison, a condition or a min/max/clamp selection. */
    public static boolean writesDecision(String line) {
        return line != null && DECISION.matcher(code(line)).find();
    }

    private static final Pattern LOOP_STATEMENT = Pattern.compile("(?<![\\w.>:])(?:for|while|do)\\b");

    /**
     * Whether the line holds a loop statement: the keyword {@code for}, {@code while} or {@code do} in its code (not
     * a member or qualified name such as {@code x.for_each}). A line nvcc gives a loop's branch can be an
     * {@code if (...) break;} or a call inside the body instead.
     */
    public static boolean holdsLoop(String line) {
        return line != null && LOOP_STATEMENT.matcher(code(line)).find();
    }

    /** The line without // and block comments and with string/char literals blanked. */
    public static String code(String line) {
        if (line == null) return null;
        StringBuilder sb = new StringBuilder(line.length());
        boolean str = false, chr = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (str || chr) {
                if (c == '\\') {
                    i++;
                    continue;
                }
                if ((str && c == '"') || (chr && c == '\'')) {
                    str = chr = false;
                    sb.append(c);
                }
                continue;
            }
            if (c == '/' && i + 1 < line.length() && line.charAt(i + 1) == '/') break;
            if (c == '/' && i + 1 < line.length() && line.charAt(i + 1) == '*') {
                int e = line.indexOf("*/", i + 2);
                if (e < 0) break;
                i = e + 1;
                sb.append(' ');
                continue;
            }
            if (c == '"') str = true;
            if (c == '\'') chr = true;
            sb.append(c);
        }
        return sb.toString();
    }

    public static boolean hasExplicitFma(String line) {
        return line != null
                && LineMemo.of(line, LineMemo.EXPLICIT_FMA, l -> EXPLICIT_FMA
                        .matcher(code(l))
                        .find());
    }

    public static boolean hasConversionIntrinsic(String line) {
        return line != null && CONVERSION_INTRINSIC.matcher(code(line)).find();
    }

    public static boolean hasDivision(String line) {
        if (line == null) return false;
        String c = code(line);
        if (DIVISION_INTRINSIC.matcher(c).find()) return true;
        for (int i = 0; i < c.length(); i++) {
            if (c.charAt(i) == '/') return true;
        }
        return false;
    }

    /**
     * The index of the last character of the operand that ends before the operator at {@code i} (spaces skipped), or
     * -1 when none does (the operator follows another operator, '(' or ',': a unary sign or a dereference).
     */
    private static int operandEnd(String c, int i) {
        int p = i - 1;
        while (p >= 0 && c.charAt(p) == ' ') p--;
        if (p < 0) return -1;
        char before = c.charAt(p);
        boolean operand =
                Character.isLetterOrDigit(before) || before == '_' || before == ')' || before == ']' || before == '.';
        return operand ? p : -1;
    }

    /** A binary '*' (not a pointer declarator or dereference) appears in the line. */
    public static boolean hasMultiply(String line) {
        return line != null && LineMemo.of(line, LineMemo.MULTIPLY, SourceText::multiply);
    }

    private static boolean multiply(String line) {
        String c = withoutSubscripts(code(line));
        for (int i = 0; i < c.length(); i++) {
            if (c.charAt(i) != '*') continue;
            if (i + 1 < c.length() && c.charAt(i + 1) == '/') continue;
            int p = operandEnd(c, i);
            if (p < 0) continue;
            if (typeBefore(c, p)) continue;
            int q = i + 1;
            if (q < c.length() && c.charAt(q) == '=') return true; // *=
            while (q < c.length() && c.charAt(q) == ' ') q++;
            if (q >= c.length()) return true; // continued on the next line
            char after = c.charAt(q);
            if (Character.isLetterOrDigit(after)
                    || after == '_'
                    || after == '('
                    || after == '.'
                    || after == '-'
                    || after == '*'
                    || after == '&') {
                return true;
            }
        }
        return false;
    }

    /**
     * The word that ends at {@code p} (after blanks) is a type: the {@code *} after it declares a pointer. Only that
     * word is read, not the line before it (a regex over each prefix was quadratic in a long generated line).
     */
    private static boolean typeBefore(String c, int p) {
        int e = p;
        while (e >= 0 && Character.isWhitespace(c.charAt(e))) e--;
        int b = e;
        while (b >= 0 && isWord(c.charAt(b))) b--;
        return b < e && TYPE_BEFORE_STAR.matcher(c.substring(b + 1, e + 1)).matches();
    }

    private static boolean isWord(char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    }

    /** Blanks the contents of [...] subscripts: index arithmetic is integer and never contracts to a float fma. */
    static String withoutSubscripts(String c) {
        StringBuilder sb = new StringBuilder(c.length());
        int depth = 0;
        for (int i = 0; i < c.length(); i++) {
            char ch = c.charAt(i);
            if (ch == '[') depth++;
            if (ch == ']' && depth > 0) depth--;
            sb.append(depth > 0 && ch != '[' ? ' ' : ch);
        }
        return sb.toString();
    }

    /** Whether the line calls one of {@code names} (as a function call). */
    public static boolean calls(String line, String... names) {
        if (line == null) return false;
        String c = code(line);
        for (String n : names) {
            int i = c.indexOf(n);
            while (i >= 0) {
                boolean startOk = i == 0 || !(Character.isLetterOrDigit(c.charAt(i - 1)) || c.charAt(i - 1) == '_');
                int j = i + n.length();
                while (j < c.length() && c.charAt(j) == ' ') j++;
                if (startOk && j < c.length() && c.charAt(j) == '(') return true;
                i = c.indexOf(n, i + 1);
            }
        }
        return false;
    }

    /**
     * Device functions that ask for an approximation by name, whatever the build's flags: the fast intrinsics
     * ({@code __expf}, {@code __fdividef} ...) and the approximate reciprocal roots ({@code rsqrtf}, {@code rnormf}).
     */
    private static final String[] APPROXIMATION_BY_NAME = {
        "__fdividef", "__fdivide", "__sinf", "__cosf", "__tanf", "__sincosf", "__expf", "__exp10f", "__logf",
        "__log2f", "__log10f", "__powf", "rsqrtf", "rnormf", "rhypotf", "rnorm3df", "rnorm4df", "rcbrtf"
    };

    /**
     * Whether {@code line} asks for an approximation itself ({@link #APPROXIMATION_BY_NAME}, or an inline {@code asm}
     * statement), rather than getting it from the build's flags; true when the line cannot be read (nothing shows
     * that the flags alone made it).
     */
    public static boolean writesApproximation(String line) {
        if (line == null) return true;
        return calls(line, APPROXIMATION_BY_NAME) || calls(line, "asm", "__asm__", "asm volatile");
    }

    /**
     * A rounding to an integral value written in source: a rounding function of C, C++ or CUDA ({@code floorf},
     * {@code std::round}, {@code rint}, {@code __float2int_rn}), or a macro or helper whose name says it rounds
     * ({@code ROUND(x)}, {@code iround}). A rounding (cvt.rni, cvt.rzi to a floating type) on a line that writes none
     * is a math routine's own step: libdevice's {@code powf} tests its exponent with {@code cvt.rzi.f32.f32} and
     * {@code expf} rounds with {@code cvt.rni}, their instructions on the calling line, no consequence of the value the
     * user computes there (session 56: a lattice Boltzmann curvature stored into a float array was "rounded to an
     * integral value"). True without the line (nothing to tell).
     */
    public static boolean writesRounding(String line) {
        return line == null || WRITTEN_ROUNDING.matcher(line).find();
    }

    private static final java.util.regex.Pattern WRITTEN_ROUNDING = java.util.regex.Pattern.compile(
            "(?i)(floor|ceil|rint|round|trunc|nearbyint|2int|2uint|2ll|2ull)\\w*\\s*\\(");
}
