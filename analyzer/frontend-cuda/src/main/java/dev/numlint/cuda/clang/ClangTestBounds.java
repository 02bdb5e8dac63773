package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * A value narrowed by a test that came out one way: a comparison of it with a constant ({@code r < 0}, {@code 255 <
 * r}) bounds it on one side; each conjunct of a test that held, each disjunct of one that failed, in turn. The value
 * is an integer variable's read, an element with a constant or variable index, or a member (one {@link
 * ClangGuards.Path} key: {@code nparm >= 1 && parm[0] > 0 ? parm[0] : 6} is at least 1, session 84 round AE, an
 * image tool's halftone size, a false NL013 warning), or a floating one where the caller already assumes a finite
 * value. A floating NaN fails every test and would pass such a bound otherwise.
 */
final class ClangTestBounds {
    private ClangTestBounds() {}

    /** {@code x}, the interval of {@code v}, where {@code test} came out {@code holds}; {@code x} when not read. */
    static double[] of(ClangNode test, boolean holds, ClangNode v, double[] x, boolean finite) {
        ClangNode var = strip(v);
        ClangNode t = strip(test);
        if (var == null || t == null) return x;
        if (!integral(var.canonKind) && !(finite && floating(var.canonKind))) return x;
        if (t.kind == CXCursor_BinaryOperator && t.children.size() == 2 && t.spelling.equals(holds ? "&&" : "||"))
            return of(t.children.get(1), holds, v, of(t.children.get(0), holds, v, x, finite), finite);
        String key = ClangGuards.Path.key(var);
        if (key == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2 || !isComparison(t.spelling))
            return x;
        String op = t.spelling;
        ClangNode l = strip(t.children.get(0));
        ClangNode r = strip(t.children.get(1));
        Double c;
        if (l != null && key.equals(ClangGuards.Path.key(l))) c = ClangSyntax.folded(r);
        else if (r != null && key.equals(ClangGuards.Path.key(r))) {
            c = ClangSyntax.folded(l);
            op = mirrored(op); // c < v is v > c
        } else return x;
        if (c == null || op.equals("!=")) return x;
        if (!holds) op = op.startsWith("<") ? (op.equals("<") ? ">=" : ">") : (op.equals(">") ? "<=" : "<");
        double lo = x[0];
        double hi = x[1];
        if (op.startsWith("<")) hi = Math.min(hi, c);
        else lo = Math.max(lo, c);
        return lo <= hi ? new double[] {lo, hi} : x;
    }
}
