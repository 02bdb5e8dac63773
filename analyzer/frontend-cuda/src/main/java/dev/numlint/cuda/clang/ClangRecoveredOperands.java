package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

/**
 * The floating type of an explicit conversion's operand that Clang left without a type after a compile error, in code
 * that is no template: {@code (unsigned char)std::clamp((noise - mm.min) * scale, 0.0f, 255.0f)} with {@code mm} of a
 * type declared in a header that is missing. Clang recovers such an expression with a dependent type; an arithmetic
 * operator in it with a float operand of a known type makes the value floating (session 54: a cast in FastNoise2's
 * wiki generator, in a unit whose library header was not found, had no finding, only the file's notice that
 * conversions of the header's types can be missed).
 */
final class ClangRecoveredOperands {
    private ClangRecoveredOperands() {}

    /** How the message names such an operand's type: the known float operand's, said to be partly unresolved. */
    static final String SUFFIX = " (partly unresolved after a compile error)";

    /**
     * The floating type of {@code op} as described above, with {@link #SUFFIX}, or null: only in a unit with errors,
     * in a function that is no template pattern, for an operand of dependent type.
     */
    static String floatingType(ClangUnit unit, ClangNode op, ClangUnit.Function fn) {
        if (op == null || unit.errors() == 0 || fn == null || ClangTemplates.pattern(fn)) return null;
        if (op.canonKind != CXType_Dependent) return null;
        String[] found = {null};
        op.forEach(n -> {
            if (found[0] != null || n.kind != CXCursor_BinaryOperator || n.canonKind != CXType_Dependent) return;
            if (!"+-*/".contains(n.spelling) || n.spelling.length() != 1 || n.children.size() != 2) return;
            for (ClangNode c : n.children) {
                ClangNode s = ClangSyntax.strip(c);
                if (s != null
                        && (s.kind == CXCursor_DeclRefExpr || s.kind == CXCursor_MemberRefExpr)
                        && ClangSyntax.floating(s.canonKind)
                        && !ClangSyntax.inSizeof(s, op)) {
                    found[0] = s.canon.replace("const ", "");
                    return;
                }
            }
        });
        return found[0] == null ? null : found[0] + SUFFIX;
    }

    /** Whether {@code c}'s floating type is one {@link #floatingType} gave (its float operand is data). */
    static boolean of(ClangUnit.Conversion c) {
        return c.from() != null && c.from().endsWith(SUFFIX);
    }
}
