package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * A conditional store of a small constant, {@code if (freq == 0.0f) depth = 0.0f;} (a vibrato's depth, session 63 round
 * C): an {@code if} without {@code else} whose test writes nothing and whose branch only sets the variable to a
 * constant that every integer type holds (0 to 127), or only adds or subtracts a constant of at most {@link #MAX_SHIFT}
 * ({@code if (sign == -1) exp += 0x80;}). After it the variable holds that constant, or its value before, or that
 * value moved by the constant, so what limited the value before limits it after ({@link ClangGuards}: the walk back
 * goes on past it).
 */
final class ClangConstantStores {
    private ClangConstantStores() {}

    /** Whether {@code s} is such a store of the variable, member or element {@code usr}. */
    static boolean keeps(ClangNode s, ClangGuards.Path usr) {
        if (s.kind != CXCursor_IfStmt || s.children.size() != 2 || effects(s.children.get(0))) return false;
        ClangNode b = s.children.get(1);
        if (b.kind == CXCursor_CompoundStmt && b.children.size() == 1) b = b.children.get(0);
        ClangNode e = strip(b);
        if (e == null || e.children.size() != 2 || !usr.key().equals(ClangGuards.Path.key(e.children.get(0))))
            return false;
        Double c = folded(e.children.get(1));
        if (c == null) return false;
        if (e.kind == CXCursor_BinaryOperator && e.spelling.equals("=")) return c >= 0 && c <= 127;
        // a conditional shift by a constant (if (sign == -1) exp += 0x80;, a BCD encoder's sign bit: session 82 round
        // V) moves the bounds it had by at most the constant: still limited, as a guard's bounds are (not checked
        // against the target's range)
        return e.kind == CXCursor_CompoundAssignOperator
                && (e.spelling.equals("+=") || e.spelling.equals("-="))
                && Math.abs(c) <= MAX_SHIFT;
    }

    /** The largest constant of a conditional shift that keeps the value limited (a sign bit of a 16-bit field). */
    static final double MAX_SHIFT = 1 << 15;

    /** Whether {@code e} assigns, increments or calls anything. */
    private static boolean effects(ClangNode e) {
        boolean[] w = new boolean[1];
        e.forEach(x -> w[0] |= x.kind == CXCursor_CallExpr
                || x.kind == CXCursor_CompoundAssignOperator
                || x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                || x.kind == CXCursor_UnaryOperator && (x.spelling.equals("++") || x.spelling.equals("--")));
        return w[0];
    }
}
