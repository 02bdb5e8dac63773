package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.facts.Site;
import dev.numlint.cuda.facts.ValueUse;
import java.util.List;

/**
 * Comparisons that no reachable value is near: {@code X OP c} with a constant {@code c} whose other side's interval
 * ({@link ClangIntervals}: {@code atan2f(y, x) / (2*PI)} lies in [-0.5, 0.5], so {@code fabsf(t) < 1.0} is always
 * true) stays farther from {@code c} than any rounding moves it: one ulp, an fma, an approximate division or a fast
 * intrinsic change the value by far less than {@link #MARGIN} of its size, so the test cannot flip. Such a
 * comparison is no use that decides something: Clang's uses leave it out ({@link ClangUses}) and the hand-written
 * facts' uses of it are dropped ({@link #drop}, matched by line and text).
 */
final class ClangUnreachableTests {
    private ClangUnreachableTests() {}

    /** The relative distance a bound must keep from the constant: 2^-10, far above any rounding this tool names. */
    static final double MARGIN = 0x1p-10;

    /** Whether the comparison {@code cmp} of {@code fn} compares with a constant that its other side cannot reach. */
    static boolean unreachable(ClangUnit unit, ClangNode cmp, ClangUnit.Function fn) {
        if (cmp.kind != CXCursor_BinaryOperator || cmp.children.size() != 2) return false;
        if (!isComparison(cmp.spelling) && !cmp.spelling.equals("==") && !cmp.spelling.equals("!=")) return false;
        ClangNode a = cmp.children.get(0), b = cmp.children.get(1);
        Double ca = constant(a), cb = constant(b);
        if (ca != null == (cb != null)) return false; // two constants, or none
        double c = ca != null ? ca : cb;
        ClangNode x = ca != null ? b : a;
        if (!floating(strip(x) == null ? x.canonKind : strip(x).canonKind)) return false;
        double[] r = unit.interval(x, fn);
        if (r == null || Double.isNaN(r[0]) || Double.isNaN(r[1])) return false;
        double scale = Math.max(Math.abs(c), Math.max(finite(r[0]), finite(r[1])));
        double m = MARGIN * Math.max(scale, Double.MIN_NORMAL);
        return r[1] < c - m || r[0] > c + m;
    }

    private static double finite(double v) {
        return Double.isInfinite(v) ? 0 : Math.abs(v);
    }

    /**
     * Whether the comparison spelled {@code text} at {@code line} (a hand-written front end's use) is {@link
     * #unreachable}.
     */
    static boolean unreachableAt(ClangUnit unit, int line, String text) {
        Comparison c = comparisonAt(unit, line, text);
        return c != null && unreachable(unit, c.node(), c.fn());
    }

    /** Drops the hand-written facts' comparisons that Clang proves {@link #unreachable}. */
    static void drop(ClangUnit unit, List<Site> sites) {
        for (Site site : sites) {
            site.dropUses(u -> u.kind() == ValueUse.Kind.COMPARISON
                    && u.text() != null
                    && unreachableAt(unit, u.line(), u.text()));
        }
    }
}
