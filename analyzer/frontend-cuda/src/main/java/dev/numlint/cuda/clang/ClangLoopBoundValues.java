package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * What a loop's condition says about its bound inside the body: {@code for (int x = 0; x < xc; ++x) { ... xc ... }}
 * runs its body only where {@code x < xc} held, so there {@code xc} is above the counter's least value (at least 0
 * here; above it for an integer bound and {@code <}), whatever its type: a comparison that held excludes a NaN. Only
 * for a local variable or parameter that nothing in the loop writes and whose address is never taken, read in the
 * body of a {@code for} or {@code while} loop whose condition is that comparison or a conjunction holding it (session
 * 68 round A: a particle code's cell index {@code x + y*xc + z*xc*yc} in three loops over {@code x < xc},
 * {@code y < yc}, {@code z < zc} with double bounds, reported as "nothing bounds 'xc' and 'yc' below").
 */
final class ClangLoopBoundValues {
    private ClangLoopBoundValues() {}

    /** {@code x}, the interval of the read {@code ref} in {@code fn}, raised by the loop conditions around it. */
    static double[] narrowed(ClangIntervals intervals, ClangNode ref, ClangUnit.Function fn, double[] x, int depth) {
        String usr = ref.refUsr;
        if (usr == null || depth <= 0 || !intervals.unaliasedLocals(fn).contains(usr)) return x;
        double lo = x[0];
        ClangNode cur = ref;
        for (ClangNode p = ref.parent; p != null && p != fn.node(); cur = p, p = p.parent) {
            ClangNode cond = null;
            if (p.kind == CXCursor_ForStmt && p.children.size() == 4 && cur == p.children.get(3))
                cond = p.children.get(1);
            if (p.kind == CXCursor_WhileStmt && p.children.size() == 2 && cur == p.children.get(1))
                cond = p.children.get(0);
            if (!isLoop(p)) continue;
            if (cond == null || writesIn(p, usr)) break; // a loop that may change it: the tests outside say nothing
            for (ClangNode part : ClangCounterRatios.conjuncts(cond)) {
                ClangNode other = counterBelow(part, usr);
                if (other == null) continue;
                double c = intervals.of(other, fn, depth - 1)[0];
                boolean strict = (part.spelling.equals("<") || part.spelling.equals(">")) && integral(ref.canonKind);
                if (!Double.isInfinite(c)) lo = Math.max(lo, strict ? c + 1 : c);
            }
        }
        return lo > x[0] && lo <= x[1] ? new double[] {lo, x[1]} : x;
    }

    /** The other side of {@code other < v}, {@code other <= v}, {@code v > other}, {@code v >= other}; or null. */
    private static ClangNode counterBelow(ClangNode test, String usr) {
        if (test.kind != CXCursor_BinaryOperator || test.children.size() != 2) return null;
        ClangNode a = test.children.get(0), b = test.children.get(1);
        return switch (test.spelling) {
            case "<", "<=" -> is(b, usr) && !mentions(a, usr) ? a : null;
            case ">", ">=" -> is(a, usr) && !mentions(b, usr) ? b : null;
            default -> null;
        };
    }

    private static boolean is(ClangNode e, String usr) {
        ClangNode x = strip(e);
        return x != null && x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr);
    }

    private static boolean mentions(ClangNode e, String usr) {
        boolean[] hit = new boolean[1];
        e.forEach(x -> hit[0] |= x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr));
        return hit[0];
    }
}
