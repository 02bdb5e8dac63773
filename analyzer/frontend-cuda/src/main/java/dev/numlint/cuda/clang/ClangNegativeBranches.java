package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * A branch in which a test makes a variable negative: {@code if (t < 0) { ... (unsigned long)t ... }}, or the
 * {@code else} of {@code if (t >= 0)}, or not positive ({@code t <= 0}), and the code after an early exit of the
 * positive values ({@code if (t > 0) return 0;}). A conversion of it to an unsigned type there wraps on x86 and gives 0 on the
 * GPU for every value the branch sees, so the test is no guard of that conversion (session 60: a PDF library's
 * transition duration, converted to unsigned inside {@code if (disp_time < 0)}, was a note "limited by the test").
 */
final class ClangNegativeBranches {
    private ClangNegativeBranches() {}

    /**
     * Whether {@code conv}, a conversion to an unsigned type, lies where {@code test} ({@code holds}: in the branch
     * taken when it holds, else in the other) makes the variable {@code usr} negative: one comparison of it with a
     * constant ({@code t < 0}, {@code t <= 0}, {@code 0 > t}; failing, {@code t >= 0}, {@code t > 0}).
     */
    static boolean negative(ClangNode conv, ClangNode test, ClangGuards.Path usr, boolean holds) {
        if (conv == null || !unsignedKind(conv.canonKind)) return false;
        ClangNode t = bare(ClangChecks.condition(test));
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return false;
        String op = t.spelling;
        ClangNode a = bare(t.children.get(0)), b = bare(t.children.get(1));
        Double k;
        if (usr.key().equals(ClangGuards.Path.key(a)) && (k = constant(b)) != null) {
            // v op k
        } else if (usr.key().equals(ClangGuards.Path.key(b)) && (k = constant(a)) != null) {
            op = mirrored(op); // k op v is v mirrored(op) k
        } else {
            return false;
        }
        if (!holds) op = negatedComparison(op);
        // at most 0: only (-1, 0] converts alike on both sides, every value below wraps (session 83)
        return (op.equals("<") || op.equals("<=")) && k <= 0;
    }

    /**
     * Whether {@code check}, an early exit passed before the conversion {@code conv} ({@code if (v > 0) return 0;}),
     * leaves only values that are not positive to it: the exit takes the side that converts alike, and the test is no
     * guard of the conversion (session 82's list: such an exit was "taken as in range, an upper bound only").
     */
    static boolean exitsAbove(ClangNode conv, ClangNode check, ClangGuards.Path usr) {
        return check.kind == CXCursor_IfStmt
                && check.children.size() == 2
                && ClangGuards.leaves(check.children.get(1))
                && negative(conv, check.children.get(0), usr, false);
    }
}
