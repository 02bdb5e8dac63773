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
        if (unsignedTest(test, usr) && zeroBelow(then.children.get(1), usr, target.canonKind)) return -1;
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

    /**
     * Whether {@code test} is {@code (unsigned) v > K} or {@code >= K} with a constant {@code 0 <= K < 2^31} and
     * {@code v} the signed local: true for every negative value of it, false at 0.
     */
    private static boolean unsignedTest(ClangNode test, String usr) {
        if (!test.spelling.equals(">") && !test.spelling.equals(">=")) return false;
        ClangNode cast = strip(test.children.get(0));
        if (cast == null || !isExplicitCast(cast) || !unsignedKind(cast.canonKind)) return false;
        ClangNode v = strip(operandOf(cast));
        if (v == null || v.kind != CXCursor_DeclRefExpr || !usr.equals(v.refUsr)) return false;
        if (!integral(v.canonKind) || unsignedKind(v.canonKind) || bytes(cast.canonKind) < bytes(v.canonKind))
            return false;
        Double k = folded(test.children.get(1));
        return k != null && k >= (test.spelling.equals(">") ? 0 : 1) && k < 0x1p31;
    }

    /**
     * Whether {@code e} is 0 for every negative value of the local (a signed integer of {@code kind}), by intervals
     * of its value there through {@code ~}, {@code >>} by a constant and {@code &} with a non-negative constant:
     * {@code (~v >> 31) & 15} of a branchless clamp ({@code if ((uint32_t)v > 15) v = (~v >> 31) & 15;}, session 73
     * round D: a texture transcoder's selectors), {@code ~(v >> 31) & 15}.
     */
    static boolean zeroBelow(ClangNode e, String usr, int kind) {
        int bits = 8 * bytes(kind);
        if (bits < 8 || bits > 64) return false;
        long[] r = below(e, usr, bits, 0);
        return r != null && r[0] == 0 && r[1] == 0;
    }

    private static long[] below(ClangNode e, String usr, int bits, int depth) {
        ClangNode n = strip(e);
        for (int d = 0; n != null && n.kind == CXCursor_ParenExpr && n.children.size() == 1 && d < 8; d++)
            n = strip(n.children.get(0));
        if (n == null || depth > 16) return null;
        if (n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr))
            return new long[] {bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1)), -1};
        Double k = folded(n);
        if (k != null && k == Math.rint(k) && Math.abs(k) < 0x1p62) return new long[] {k.longValue(), k.longValue()};
        if (n.kind == CXCursor_UnaryOperator && n.spelling.equals("~") && n.children.size() == 1) {
            long[] x = below(n.children.get(0), usr, bits, depth + 1);
            return x == null ? null : new long[] {~x[1], ~x[0]};
        }
        if (n.kind != CXCursor_BinaryOperator || n.children.size() != 2) return null;
        boolean mask = n.spelling.equals("&");
        // a mask's constant may come first (15 & (~v >> 31)); a shift's count is its right operand
        int at = mask && folded(n.children.get(0)) != null ? 1 : 0;
        long[] x = below(n.children.get(at), usr, bits, depth + 1);
        Double c = folded(n.children.get(1 - at));
        if (x == null || c == null || c != Math.rint(c) || c < 0 || c >= 0x1p62) return null;
        long m = c.longValue();
        if (n.spelling.equals(">>") && m < 64) return new long[] {x[0] >> m, x[1] >> m}; // arithmetic: monotone
        if (mask) return x[0] == 0 && x[1] == 0 || m == 0 ? new long[] {0, 0} : null;
        return null;
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
