package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.ValueBounds;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The value a floating local holds after a statement that updates it from its own value: {@code z *= z;} squares it
 * ({@code z = v * v; z *= z; z *= z;}: a fourth or eighth power, never negative; libimagequant's dithering weight),
 * {@code x += d;}, {@code x *= k;} combine the value before with the operand's interval. Only floating locals: an
 * integer update may overflow or wrap.
 */
final class ClangUpdates {
    private ClangUpdates() {}

    /**
     * The interval of {@code usr} after statement {@code st}, when {@code st} is {@code usr op= e;} with {@code op}
     * one of {@code + - * /} and {@code e} not writing it; null for any other statement or when the value before is
     * not known.
     */
    static double[] after(
            ClangUnit unit, ClangNode st, String usr, Supplier<double[]> before, Function<ClangNode, double[]> eval) {
        // a loop that adds a table's elements times a value, each element once (ClangTables)
        double[] added = isLoop(st) ? ClangTables.kernelSum(unit, st, usr, eval) : null;
        if (added != null) {
            double[] b = before.get();
            return b == null ? null : ValueBounds.arith('+', b, added, false);
        }
        if (st.kind != CXCursor_CompoundAssignOperator || st.children.size() != 2) return null;
        String op = st.spelling;
        if (op.length() != 2 || "+-*/".indexOf(op.charAt(0)) < 0) return null;
        ClangNode target = strip(st.children.get(0));
        if (target == null || target.kind != CXCursor_DeclRefExpr || !usr.equals(target.refUsr)) return null;
        if (!floating(target.canonKind) || writesIn(st.children.get(1), usr)) return null;
        double[] b = before.get();
        if (b == null) return null;
        ClangNode operand = strip(st.children.get(1));
        // x -= floor(x), or x -= k after k = (long)floor(x): the fractional part (session 72 round B, an image
        // resize's interpolation weight 'index = (ptrdiff_t)floor(alpha); alpha -= index;'); a truncation's keeps
        // the sign of x
        int whole = op.equals("-=") ? ClangFractions.keptWholePart(st, operand, target) : 0;
        if (whole != 0) return whole > 0 || b[0] >= 0 ? new double[] {0, 1} : new double[] {-1, 1};
        if (op.charAt(0) == '*'
                && operand != null
                && operand.kind == CXCursor_DeclRefExpr
                && usr.equals(operand.refUsr)) return square(b);
        return ValueBounds.arith(op.charAt(0), b, eval.apply(st.children.get(1)), false);
    }

    /** The interval of {@code x * x} for {@code x} in {@code b}: the product of one value with itself. */
    static double[] square(double[] b) {
        double lo = b[0] <= 0 && b[1] >= 0 ? 0 : Math.min(b[0] * b[0], b[1] * b[1]);
        return new double[] {lo, Math.max(b[0] * b[0], b[1] * b[1])};
    }

    /**
     * The one write of {@code usr} in {@code body} when it is a compound assignment {@code usr += e} ({@code -=},
     * {@code *=}, {@code /=}) of the whole variable, else null.
     */
    static ClangNode onlyUpdate(ClangNode body, String usr) {
        List<ClangNode> sts = body.kind == CXCursor_CompoundStmt ? body.children : List.of(body);
        ClangNode found = null;
        for (ClangNode st : sts) {
            if (!writesIn(st, usr) && !ClangIntervals.declares(st, usr)) continue;
            if (found != null
                    || st.kind != CXCursor_CompoundAssignOperator
                    || st.children.size() != 2
                    || !List.of("+=", "-=", "*=", "/=").contains(st.spelling)) return null;
            ClangNode l = strip(st.children.get(0));
            if (l == null
                    || l.kind != CXCursor_DeclRefExpr
                    || !usr.equals(l.refUsr)
                    || writesIn(st.children.get(1), usr)) return null;
            found = st;
        }
        return found;
    }
}
