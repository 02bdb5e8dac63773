package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * A hand-written absolute value before a use: {@code if (a < 0) a = -a;}, or through a flag set from the same test
 * ({@code isneg = (a < 0); if (isneg) a = -a;}, XEphem's sexagesimal formatter, session 54), or with {@code a *= f} of a
 * factor never positive ({@code a *= -1}, {@code a *= n * -(0.01 * B / rate)} with unsigned n and rate: session 70).
 * After it the variable is never negative: a guard from below for its conversions ({@link ClangGuards}), as {@code if
 * (a < 0) a = 0;} is. Only the certain case: an {@code if} without {@code else} whose branch is that one assignment, a
 * test of the variable against 0 on the negative side, and for a flag, its definition earlier in the same block with
 * neither the flag nor the variable written in between.
 */
final class ClangSignFlips {
    private ClangSignFlips() {}

    /**
     * The guard the statement {@code k} of {@code block} gives {@code usr} when it is such a sign flip, as {@link
     * ClangGuards.Clamp} (a lower bound only), or null.
     */
    static ClangGuards.Clamp of(ClangUnit unit, ClangNode block, int k, ClangGuards.Path usr) {
        ClangNode s = block.children.get(k);
        if (s.kind != CXCursor_IfStmt || s.children.size() != 2) return null;
        ClangNode then = soleStatement(s.children.get(1));
        if (then == null || !negates(unit, then, usr)) return null;
        ClangNode test = s.children.get(0);
        if (ClangGuards.writes(test, usr)) return null;
        // the variable as the flip writes it: a test of it against 0 (ClangSignGuards#sign) says which side
        String x = squash(unit.text(strip(strip(then).children.get(0))));
        if (negativeSide(unit, test, x)) return new ClangGuards.Clamp(unit.text(test), test.line, -1);
        // a flag: if (isneg) with isneg = (a < 0) earlier in the block
        ClangNode flag = bare(test);
        if (flag == null || flag.kind != CXCursor_DeclRefExpr || flag.refUsr == null) return null;
        ClangGuards.Path f = new ClangGuards.Path(flag.refUsr, java.util.Set.of(), false);
        for (int j = k - 1; j >= 0; j--) {
            ClangNode d = block.children.get(j);
            ClangNode value = ClangFractions.assigned(d, flag.refUsr);
            if (value != null) {
                if (!negativeSide(unit, value, x) || ClangGuards.writes(value, usr)) return null;
                return new ClangGuards.Clamp(unit.text(value), value.line, -1);
            }
            if (ClangGuards.writes(d, f) || ClangGuards.writes(d, usr)) return null;
        }
        return null;
    }

    /** Whether {@code e} is {@code x = -x} or {@code x *= -1} for the variable, member or element {@code usr}. */
    private static boolean negates(ClangUnit unit, ClangNode e, ClangGuards.Path usr) {
        ClangNode n = strip(e);
        if (n == null || n.children.size() != 2 || !usr.key().equals(ClangGuards.Path.key(n.children.get(0))))
            return false;
        ClangNode rhs = strip(n.children.get(1));
        if (rhs == null) return false;
        if (n.kind == CXCursor_BinaryOperator && n.spelling.equals("=")) {
            ClangNode r = bare(rhs);
            return r != null
                    && r.kind == CXCursor_UnaryOperator
                    && r.spelling.equals("-")
                    && r.children.size() == 1
                    && usr.key().equals(ClangGuards.Path.key(r.children.get(0)));
        }
        if (n.kind == CXCursor_CompoundAssignOperator && n.spelling.equals("*=")) {
            Double c = constant(rhs);
            if (c != null) return c <= 0;
            // a factor never positive: x *= n * -(0.01 * B / rate) with unsigned n and rate (session 70 round B: an
            // audio decoder's negative start, a percentage of the length, made a time)
            ClangUnit.Function fn = unit.functionOf(n);
            return fn != null && unit.signs().nonPositive(rhs, unit.signs().signs(fn), 0);
        }
        return false;
    }

    /** Whether the test holds only where {@code x} is negative or zero: {@code x < 0}, {@code x <= 0}, {@code 0 > x}. */
    private static boolean negativeSide(ClangUnit unit, ClangNode test, String x) {
        Integer sign = ClangSignGuards.sign(unit, test, x);
        return sign != null && sign < 0;
    }
}
