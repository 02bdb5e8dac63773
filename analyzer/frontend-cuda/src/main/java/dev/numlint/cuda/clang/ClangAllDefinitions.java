package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The interval of an unaliased local from every definition of it in its function, whatever the control flow: each
 * value it holds was assigned by one of them ({@code int samplerate = 0;} then, in a loop, {@code samplerate =
 * rates[k];}: both non-negative, so is every read of it). The fallback of {@link ClangIntervals}' reaching
 * definition where no single definition is known to reach the use (one inside a loop or a branch the use is
 * after). Only plain assignments and initializers: a compound assignment, an increment or a decrement of it makes
 * it unknown here.
 */
final class ClangAllDefinitions {
    private ClangAllDefinitions() {}

    /**
     * The hull of {@code eval} over the initializer and the assigned values of the local {@code usr} of {@code fn}, or
     * null when it has another kind of write or none.
     */
    static double[] hull(ClangUnit.Function fn, String usr, Function<ClangNode, double[]> eval) {
        // a definition that reads the local itself (x = x + 1): unknown here, not a hull of hulls
        if (!OPEN.get().add(usr)) return null;
        try {
            return compute(fn, usr, eval);
        } finally {
            OPEN.get().remove(usr);
        }
    }

    private static final ThreadLocal<java.util.Set<String>> OPEN = ThreadLocal.withInitial(java.util.HashSet::new);

    private static double[] compute(ClangUnit.Function fn, String usr, Function<ClangNode, double[]> eval) {
        List<ClangNode> values = new ArrayList<>();
        boolean[] other = {false};
        boolean[] local = {false};
        fn.node().forEach(n -> {
            // a local of the function (a parameter's first value is its caller's, no definition here)
            if (n.kind == CXCursor_VarDecl && usr.equals(n.usr)) local[0] = true;
            if (other[0]) return;
            if (n.kind == CXCursor_DeclStmt || n.kind == CXCursor_BinaryOperator) {
                ClangNode v = ClangIntervals.definition(n, usr);
                if (v != null) values.add(v);
            } else if (n.kind == CXCursor_DeclRefExpr && usr.equals(n.refUsr) && ClangSyntax.written(n)) {
                ClangNode p = ClangSyntax.outermost(n).parent;
                if (p.kind != CXCursor_BinaryOperator || !p.spelling.equals("=")) other[0] = true;
            }
        });
        if (!local[0] || other[0] || values.isEmpty() || values.size() > 16) return null;
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (ClangNode v : values) {
            double[] x = eval.apply(v);
            if (x == null) return null;
            lo = Math.min(lo, x[0]);
            hi = Math.max(hi, x[1]);
        }
        return new double[] {lo, hi};
    }
}
