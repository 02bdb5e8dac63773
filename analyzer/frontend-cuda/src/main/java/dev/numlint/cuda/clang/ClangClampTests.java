package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * A clamp of a local written as a test and an assignment, {@code if (v < 0) v = 0;} or {@code if (v >= N) v = N -
 * 1;}: the statement reads the local only in its test and assigns it a value in its one branch.
 */
final class ClangClampTests {
    private ClangClampTests() {}

    /**
     * Which side the statement {@code st} clamps the local {@code usr} on: -1 from below where rounding by adding one
     * half and truncating meets rounding ({@code if (v < 0) v = 0;}, {@code if (0 > v) v = 0;}, {@code if (v <= 0)
     * v = 2;}), 1 another clamp by a test (it reads and writes nothing else of the local), 0 when it is no clamp. An
     * {@code else if} chain of such clamps is one, from below when one of its tests is.
     */
    static int side(ClangNode st, String usr) {
        ClangNode s = strip(st);
        if (s == null || s.kind != CXCursor_IfStmt || s.children.size() != 2 && s.children.size() != 3) return 0;
        // if (v < 0) v = 0; else if (v > N) v = N;: each branch a clamp of the local, the chain's sides together
        int rest = 1;
        if (s.children.size() == 3) {
            rest = side(s.children.get(2), usr);
            if (rest == 0) return 0;
        }
        ClangNode test = strip(s.children.get(0));
        ClangNode then = strip(s.children.get(1));
        if (then != null && then.kind == CXCursor_CompoundStmt && then.children.size() == 1)
            then = strip(then.children.get(0));
        if (test == null || then == null || test.kind != CXCursor_BinaryOperator || test.children.size() != 2) return 0;
        if (then.kind != CXCursor_BinaryOperator || !then.spelling.equals("=") || then.children.size() != 2) return 0;
        ClangNode target = strip(then.children.get(0));
        if (target == null || target.kind != CXCursor_DeclRefExpr || !usr.equals(target.refUsr)) return 0;
        if (reads(then.children.get(1), usr)) return 0;
        ClangNode a = strip(test.children.get(0)), b = strip(test.children.get(1));
        boolean left = a != null && a.kind == CXCursor_DeclRefExpr && usr.equals(a.refUsr);
        boolean right = b != null && b.kind == CXCursor_DeclRefExpr && usr.equals(b.refUsr);
        if (left == right || reads(left ? b : a, usr)) return 0;
        // the test as "v OP bound"
        String op = test.spelling;
        if (!left) op = mirrored(op);
        Double bound = folded(left ? b : a);
        Double to = folded(then.children.get(1));
        // add-half truncation t and rounding r differ only where t <= 0 and r = t - 1: a test that takes in 0 (v < 1,
        // v <= 0) maps both to one value; one that takes in every negative value and not 0 (v < 0, v <= -1) must map
        // them to 0, the value t keeps
        boolean zero = op.equals("<") && bound != null && bound > 0 && bound <= 1
                || op.equals("<=") && bound != null && bound >= 0 && bound < 1;
        boolean negative = op.equals("<") && bound != null && bound <= 0 && bound > -1
                || op.equals("<=") && bound != null && bound < 0 && bound >= -1;
        if (to != null && (zero || negative && to == 0)) return -1;
        if (!op.equals("<") && !op.equals("<=") && !op.equals(">") && !op.equals(">=")) return 0;
        return rest;
    }

    /** Whether {@code e} reads the variable {@code usr}. */
    private static boolean reads(ClangNode e, String usr) {
        boolean[] r = {false};
        e.forEach(n -> {
            if (n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr)) r[0] = true;
        });
        return r[0];
    }
}
