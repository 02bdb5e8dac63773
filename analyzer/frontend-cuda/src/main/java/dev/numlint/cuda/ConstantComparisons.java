package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaParser.RelExprContext;
import java.util.IdentityHashMap;
import org.antlr.v4.runtime.ParserRuleContext;

/**
 * Comparisons whose outcome no value can change: an unsigned integer tested against 0 by {@code <} or {@code >=}
 * ({@code jj < 0} of a {@code size_t}: always false). A value that reaches one decides nothing there, so no ulp can
 * flip it (session 30's evaluation: an index's guard {@code ii < 0 || ii >= n} named as the test an ulp could flip).
 */
final class ConstantComparisons {
    private ConstantComparisons() {}

    /** Whether {@code r} compares an unsigned integer with the constant 0 by {@code <} or {@code >=} (either side). */
    static boolean unsignedAgainstZero(RelExprContext r, IdentityHashMap<ParserRuleContext, E> memo) {
        if (r.expression().size() != 2) return false;
        E a = memo.get(r.expression(0));
        E b = memo.get(r.expression(1));
        if (a == null || b == null) return false;
        if (r.LT() != null || r.GE() != null) return unsigned(a) && zero(b); // u < 0, u >= 0
        if (r.GT() != null || r.LE() != null) return zero(a) && unsigned(b); // 0 > u, 0 <= u
        return false;
    }

    private static boolean unsigned(E e) {
        return e.type != null && e.type.isInteger() && e.type.unsigned && e.cval == null;
    }

    private static boolean zero(E e) {
        return e.cval != null && e.cval == 0;
    }
}
