package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/** Addresses a call only reads through ({@link ClangSyntax#aliases}): what a store through them cannot change. */
final class ClangReadOnlyArguments {
    private ClangReadOnlyArguments() {}

    /** A pointer to a const object, one level ({@code const vec4F *}; not {@code vec4F *const}, not {@code **}). */
    private static boolean pointerToConst(String canon) {
        return canon != null
                && canon.startsWith("const ")
                && canon.endsWith("*")
                && canon.indexOf('*') == canon.length() - 1;
    }

    /**
     * Whether the address {@code addr} is only read through: an argument converted to a pointer to const, the source
     * of {@code memcpy}/{@code memmove}, the buffer
     * {@code fwrite} or {@code write} writes out (session 65 round B: a compressor's {@code memcpy(&tmp, (void *)&scale,
     * sizeof scale)} made {@code scale}, defined as {@code ldexp(1, k)}, a variable of unknown value).
     */
    static boolean readOnly(ClangNode addr) {
        ClangNode c = addr;
        boolean toConst = false;
        while (c.parent != null
                && (c.parent.kind == CXCursor_ParenExpr
                        || c.parent.kind == CXCursor_UnexposedExpr
                        || c.parent.kind == CXCursor_CStyleCastExpr
                        || c.parent.kind == CXCursor_CXXStaticCastExpr)) {
            c = c.parent;
            // converted to a pointer to const for the call (vec4F_add(&meanColor, &b0) of 'const vec4F *' parameters,
            // session 73 round D: a saturated mean was lost at every such read)
            toConst = c.kind == CXCursor_UnexposedExpr && pointerToConst(c.canon);
        }
        ClangNode q = c.parent;
        if (q == null || q.kind != CXCursor_CallExpr) return false;
        if (toConst && q.children.indexOf(c) > 0) return true;
        String name = callee(q).replaceFirst("^std::", "");
        int i = q.children.indexOf(c);
        return (name.equals("memcpy") || name.equals("memmove") || name.equals("__builtin_memcpy")) && i == 2
                || name.equals("fwrite") && i == 1
                || name.equals("write") && i == 2;
    }
}
