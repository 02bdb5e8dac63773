package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

/**
 * What the preprocessor branches a file's build configuration does not compile hold, of what numlint reports where it
 * is compiled: a float {@code atomicAdd}, an approximate intrinsic ({@code __expf}, {@code __fdividef},
 * {@code rsqrtf}), a cast to an unsigned type of an operand with a floating literal, a floating type or a math call
 * ({@code (uint32_t)(value * scale + .5)}, {@code static_cast<unsigned>(...)}, {@code uint8_t(...)}). Their code is not analyzed (the compiler does not compile it either), and
 * one notice per file says so and where (session 53's evaluation: a WebP codec's MIPS32 and an audio synthesizer's
 * JACK and LADSPA branches held 11 such casts, and nothing in the report said why they had no finding).
 * {@code --all-configurations} analyzes them.
 */
final class InactiveSites {
    private InactiveSites() {}

    private static final Pattern UNSIGNED_TYPE = Pattern.compile(
            "unsigned|size_t|uint\\w*|uchar|ushort|ulong|u(8|16|32|64)|u_int(8|16|32|64)_t|UINT(8|16|32|64)?|BYTE"
                    + "|WORD|DWORD|Uint(8|16|32|64)|guint\\w*");

    /**
     * The names the compiled unit and its project headers define as floating and as unsigned integer types
     * ({@code typedef float smpl_t;}, {@code typedef unsigned int uint_t;}): an inactive branch uses the project's own
     * names (session 66, an audio library's {@code (uint_t)(frames / ratio)} with {@code smpl_t ratio}).
     */
    record TypeNames(Set<String> floating, Set<String> unsigned, Set<String> floatingFunctions) {
        /**
         * Clang's names (from the unit's parse: a project header another unit's parse read first is not in it) and
         * the names the file's reading found in it and its project headers.
         */
        static TypeNames of(dev.numlint.cuda.clang.ClangUnit unit, FileScope scope) {
            Set<String> floating = new java.util.HashSet<>(), unsigned = new java.util.HashSet<>();
            Set<String> functions = new java.util.HashSet<>();
            if (unit != null) {
                var n = dev.numlint.cuda.clang.ClangTypeNames.of(unit);
                floating.addAll(n.floating());
                unsigned.addAll(n.unsigned());
                functions.addAll(n.floatingFunctions());
            }
            scope.typedefs.forEach((name, type) -> {
                if (type.isFloating()) floating.add(name);
                else if (type.isUnsignedInt()) unsigned.add(name);
            });
            return new TypeNames(floating, unsigned, functions);
        }

        boolean unsignedType(String word) {
            return UNSIGNED_TYPE.matcher(word).matches() || unsigned.contains(word);
        }
    }

    private static final Set<String> MATH_CALLS = Set.of(
            "floor", "floorf", "ceil", "ceilf", "round", "roundf", "rint", "rintf", "lrint", "lrintf", "lround",
            "lroundf", "sqrt", "sqrtf", "pow", "powf", "exp", "expf", "log", "logf", "log10", "log10f", "fabs", "fabsf",
            "sin", "sinf", "cos", "cosf", "tan", "tanf", "atan2", "atan2f", "fmod", "fmodf", "trunc", "truncf");

    /** Approximations Clang's sites name, and the reciprocal square root and saturation intrinsics. */
    private static final Set<String> APPROXIMATE = Set.of("rsqrtf", "__saturatef", "__frsqrt_rn");

    /**
     * The notice for {@code rel}, or null when its inactive branches hold none of those sites. {@code analyzed} says
     * whether Clang, which compiled the file with the build's own macros, has code on a line (its reading of a branch
     * the hand-written preprocessor could not decide wins): such a line is left out.
     */
    static Notification of(String rel, Preprocessor pp, IntPredicate analyzed, TypeNames names) {
        List<PToken> t = pp.inactiveTokens;
        java.util.Set<Integer> sites = new java.util.LinkedHashSet<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        java.util.Set<String> conditions = new java.util.LinkedHashSet<>();
        int casts = 0, atomics = 0, intrinsics = 0;
        Set<String> floating = declaredFloating(t, names);
        // a call of a function the build declares with a floating result is a floating operand too
        floating.addAll(names.floatingFunctions());
        for (int i = 0; i < t.size(); i++) {
            PToken k = t.get(i);
            if (k.getType() != CudaLexer.IDENTIFIER
                    && k.getType() != CudaLexer.LPAREN
                    && k.getType() != CudaLexer.STATIC_CAST) continue;
            int line = k.getLine();
            String what = null;
            if (k.getType() == CudaLexer.STATIC_CAST) {
                // a keyword to the lexer, never a name (session 81 round I: no static_cast had been named)
                if (staticCast(t, i, names, floating)) what = "cast";
            } else if (k.getType() == CudaLexer.IDENTIFIER) {
                String s = k.getText();
                if (dev.numlint.cuda.clang.ClangUnit.ATOMIC_ADDS.contains(s) && next(t, i, CudaLexer.LPAREN))
                    what = "atomic";
                else if ((APPROXIMATE.contains(s)
                                || dev.numlint.cuda.clang.ClangUnit.APPROXIMATE_INTRINSICS.contains(s)
                                || s.startsWith("__fdiv_")
                                || s.startsWith("__frcp_")
                                || s.startsWith("__fsqrt_"))
                        && next(t, i, CudaLexer.LPAREN)) what = "intrinsic";
                // a functional cast, uint8_t(clamp(0.0f, 255.0f, v)) (session 79 round F: an image library's NEON
                // kernels, under an #if for ARM, named by no notice)
                // (not a declarator: uint8_t (*convert)(float))
                else if (names.unsignedType(s)
                        && next(t, i, CudaLexer.LPAREN)
                        && i + 2 < t.size()
                        && !"*".equals(t.get(i + 2).getText())
                        && !"&".equals(t.get(i + 2).getText())
                        && floatingOperand(t, i + 1, floating)) what = "cast";
            } else if (cast(t, i, names, floating)) what = "cast";
            if (what == null || analyzed.test(line) || !seen.add(line + ":" + what)) continue;
            sites.add(line);
            switch (what) {
                case "atomic" -> atomics++;
                case "intrinsic" -> intrinsics++;
                default -> casts++;
            }
            String c = pp.inactiveConditions.get(i);
            if (c != null) conditions.add(c);
        }
        if (sites.isEmpty()) return null;
        List<String> parts = new ArrayList<>();
        if (casts > 0) parts.add(casts + " cast" + (casts == 1 ? "" : "s") + " of floating values to unsigned types");
        if (atomics > 0) parts.add(atomics + " atomicAdd call" + (atomics == 1 ? "" : "s"));
        if (intrinsics > 0) parts.add(intrinsics + " approximate intrinsic" + (intrinsics == 1 ? "" : "s"));
        StringBuilder lines = new StringBuilder();
        int n = 0;
        for (int l : sites) {
            if (n++ == 6) {
                lines.append(", ...");
                break;
            }
            lines.append(n == 1 ? "" : ", ").append(l);
        }
        StringBuilder conds = new StringBuilder();
        n = 0;
        for (String c : conditions) {
            if (n++ == 3) {
                conds.append(", ...");
                break;
            }
            conds.append(n == 1 ? "" : ", ")
                    .append('\'')
                    .append(dev.numlint.rules.Quote.shorten(c, dev.numlint.rules.Quote.EXPRESSION))
                    .append('\'');
        }
        return new Notification(
                rel,
                sites.iterator().next(),
                Level.NOTE,
                "inactive-sites",
                "not analyzed: " + String.join(", ", parts) + " in preprocessor branches this build does not compile"
                        + (conds.length() == 0 ? "" : " (" + conds + ")") + ", at line"
                        + (sites.size() == 1 ? " " : "s ")
                        + lines + "; --all-configurations analyzes them");
    }

    /** The lines of the functions Clang read in the file (none without a parse). */
    static java.util.BitSet codeLines(dev.numlint.cuda.clang.ClangUnit unit) {
        java.util.BitSet b = new java.util.BitSet();
        if (unit == null) return b;
        for (dev.numlint.cuda.clang.ClangUnit.Function f : unit.functions()) {
            f.node().forEach(n -> {
                if (n.line > 0) b.set(n.line);
            });
        }
        return b;
    }

    /**
     * The names the tokens declare as float or double ({@code double sample_rate}, a parameter too), or as one of the
     * project's floating type names ({@code smpl_t ratio}), every declarator of a list ({@code FLOAT_T delay, vol;}:
     * session 81 round J, a synthesizer's {@code (uint8)vol} under an inactive {@code #ifndef}).
     */
    private static Set<String> declaredFloating(List<PToken> t, TypeNames names) {
        Set<String> out = new java.util.HashSet<>();
        for (int j = 0; j + 1 < t.size(); j++) {
            int ty = t.get(j).getType();
            if (ty != CudaLexer.FLOAT
                    && ty != CudaLexer.DOUBLE
                    && !(ty == CudaLexer.IDENTIFIER
                            && names.floating().contains(t.get(j).getText()))) continue;
            int k = j + 1;
            while (true) {
                while (k < t.size()
                        && ("*".equals(t.get(k).getText())
                                || "&".equals(t.get(k).getText()))) k++;
                // a declarator's name: followed by what ends or continues a declarator, not by another name (a type)
                if (k + 1 >= t.size() || t.get(k).getType() != CudaLexer.IDENTIFIER) break;
                if (t.get(k + 1).getType() == CudaLexer.IDENTIFIER) break;
                out.add(t.get(k).getText());
                k = declaratorEnd(t, k + 1);
                if (k >= t.size() || !",".equals(t.get(k).getText())) break;
                k++;
            }
        }
        return out;
    }

    /** The index of the first ',' ';' or ')' at depth 0 from {@code from} (past an initializer, a subscript). */
    private static int declaratorEnd(List<PToken> t, int from) {
        int depth = 0;
        for (int k = from; k < t.size() && k < from + 256; k++) {
            String x = t.get(k).getText();
            if (x.equals("(") || x.equals("[") || x.equals("{")) depth++;
            else if (x.equals(")") || x.equals("]") || x.equals("}")) {
                if (depth-- == 0) return k;
            } else if (depth == 0 && (x.equals(",") || x.equals(";"))) return k;
        }
        return t.size();
    }

    private static boolean next(List<PToken> t, int i, int type) {
        return i + 1 < t.size() && t.get(i + 1).getType() == type;
    }

    /** {@code ( unsigned-type ) operand} at {@code i} with a floating hint in the operand. */
    private static boolean cast(List<PToken> t, int i, TypeNames names, Set<String> floating) {
        // ( unsigned-type words ) : the first word decides, the others only have to be names or keywords (unsigned int)
        if (i + 1 >= t.size() || !names.unsignedType(t.get(i + 1).getText())) return false;
        int j = i + 2;
        while (j < t.size() && j - i <= 4 && t.get(j).getType() != CudaLexer.RPAREN) {
            if (!t.get(j).getText().matches("[A-Za-z_][A-Za-z0-9_]*")) return false;
            j++;
        }
        if (j >= t.size() || t.get(j).getType() != CudaLexer.RPAREN) return false;
        return floatingOperand(t, j + 1, floating);
    }

    /** {@code static_cast < unsigned-type > ( operand )} at {@code i} with a floating hint in the operand. */
    private static boolean staticCast(List<PToken> t, int i, TypeNames names, Set<String> floating) {
        if (!next(t, i, CudaLexer.LT) || i + 2 >= t.size()) return false;
        PToken type = t.get(i + 2);
        if (!names.unsignedType(type.getText())) return false;
        int j = i + 3;
        while (j < t.size() && t.get(j).getType() != CudaLexer.GT && j - i < 8) j++;
        return j < t.size() && t.get(j).getType() == CudaLexer.GT && floatingOperand(t, j + 1, floating);
    }

    /**
     * Whether the operand starting at {@code from} (a parenthesised expression, or a name with its calls and
     * subscripts) holds a floating literal, {@code float}/{@code double}, a math call (the project's upper-case macros
     * too: {@code FLOOR}, {@code ROUND}) or a name the inactive code declares floating.
     */
    private static boolean floatingOperand(List<PToken> t, int from, Set<String> floating) {
        // a qualified name: its last part decides ((uint32_t)std::round(x), session 73 round D: a texture codec's
        // #if 0 branch, named by no notice)
        while (from + 2 < t.size()
                && t.get(from).getType() == CudaLexer.IDENTIFIER
                && t.get(from + 1).getType() == CudaLexer.SCOPE) from += 2;
        // a name alone ((unsigned long)sample_rate): floating when the inactive code declares it float or double
        if (from + 1 < t.size()
                && t.get(from).getType() == CudaLexer.IDENTIFIER
                && t.get(from + 1).getType() != CudaLexer.LPAREN
                && t.get(from + 1).getType() != CudaLexer.LBRACKET)
            return floating.contains(t.get(from).getText());
        int depth = 0;
        for (int j = from; j < t.size() && j < from + 64; j++) {
            PToken k = t.get(j);
            int ty = k.getType();
            if (ty == CudaLexer.LPAREN || ty == CudaLexer.LBRACKET) depth++;
            else if (ty == CudaLexer.RPAREN || ty == CudaLexer.RBRACKET) {
                if (--depth < 0) return false;
            }
            if (ty == CudaLexer.FLOATING_LITERAL || ty == CudaLexer.FLOAT || ty == CudaLexer.DOUBLE) return true;
            if (ty == CudaLexer.IDENTIFIER
                    && (MATH_CALLS.contains(k.getText().toLowerCase(java.util.Locale.ROOT))
                            || j > from && floating.contains(k.getText()))) return true;
            if (depth == 0 && j > from && ty != CudaLexer.LPAREN && ty != CudaLexer.LBRACKET) {
                // the operand ends at the first token outside its parentheses after a name: an operator, ';', ','
                if (ty != CudaLexer.RPAREN && ty != CudaLexer.RBRACKET && ty != CudaLexer.IDENTIFIER) return false;
                if (ty == CudaLexer.RPAREN || ty == CudaLexer.RBRACKET) {
                    if (j + 1 >= t.size()
                            || t.get(j + 1).getType() != CudaLexer.LPAREN
                                    && t.get(j + 1).getType() != CudaLexer.LBRACKET) return false;
                }
            }
        }
        return false;
    }
}
