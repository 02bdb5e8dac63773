package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;

import dev.numlint.cuda.facts.CallerNeed;
import dev.numlint.knowledge.ValueBounds;
import java.util.ArrayList;
import java.util.List;

/**
 * The parameters a conversion to an unsigned type needs non-negative to be in range, where nothing in its function
 * bounds its operand below: {@code dim3 grid((size - 1) / BLOCK + 1)} in {@code void launch(float *d, double size)} is
 * in range for every {@code size} at least 0, and whether every call of the program passes one is known only once every
 * file's calls are (the scan's review, {@code CallerRanges}; session 86 round AP: host launchers whose {@code size} a
 * program's {@code main} in another file passes). Only for a plain function of external linkage
 * ({@link ClangCallSites#externalPlain}: a {@code static} function's callers are its file's, {@link ClangCallSites}):
 * the operand's interval is evaluated again with its parameters passed by value, numbers, that the function neither
 * writes nor aliases bound to [0, +inf) (the others unknown), and the parameters it needs are those it cannot do
 * without, one left out at a time.
 */
final class ClangCallerBounds {
    private ClangCallerBounds() {}

    private static final double INF = ValueBounds.INF;

    /**
     * The parameters of {@code fn} the operand of a conversion to an unsigned type of {@code bytes} bytes needs
     * non-negative to be in range, or null: none would do, or {@code fn}'s callers are no other file's.
     */
    static List<CallerNeed> of(ClangUnit unit, ClangNode operand, ClangUnit.Function fn, int bytes) {
        if (operand == null || fn == null || bytes <= 0 || bytes > 8) return null;
        if (!ClangCallSites.externalPlain(unit, fn)) return null;
        List<ClangNode> ps = ClangCallSites.parameters(fn.node());
        List<Integer> assumed = new ArrayList<>();
        for (int i = 0; i < ps.size(); i++) {
            ClangNode p = ps.get(i);
            if (p.usr != null && (integral(p.canonKind) || floating(p.canonKind)) && mentioned(fn, p.usr))
                assumed.add(i);
        }
        if (assumed.isEmpty()) return null;
        double max = Math.pow(2, 8.0 * bytes) - 1;
        if (!inRange(unit, operand, fn, ps.size(), assumed, max)) return null;
        // the parameters it cannot do without: each left out in turn
        for (int k = assumed.size() - 1; k >= 0 && assumed.size() > 1; k--) {
            List<Integer> fewer = new ArrayList<>(assumed);
            fewer.remove(k);
            if (inRange(unit, operand, fn, ps.size(), fewer, max)) assumed = fewer;
        }
        List<CallerNeed> out = new ArrayList<>(assumed.size());
        for (int i : assumed) out.add(new CallerNeed(fn.node().usr, fn.name(), i, ps.get(i).spelling));
        return out;
    }

    /** Whether the operand is in range of an unsigned type up to {@code max} with {@code assumed} at least 0. */
    private static boolean inRange(
            ClangUnit unit, ClangNode operand, ClangUnit.Function fn, int params, List<Integer> assumed, double max) {
        List<double[]> args = new ArrayList<>(params);
        for (int i = 0; i < params; i++)
            args.add(assumed.contains(i) ? new double[] {0, INF} : new double[] {-INF, INF});
        double[] x = unit.intervals.bound(fn, args, () -> unit.interval(operand, fn));
        if (x == null || Double.isNaN(x[0]) || Double.isNaN(x[1]) || x[0] <= -1) return false;
        // 32 and 64 bits: out of range only above 4e9 where the interval has a finite top past it (the check's own
        // test); 8 and 16 bits: the whole interval in range
        return max >= 0xFFFFFFFFL ? !(x[1] > max + 1 && x[1] < INF) : x[1] < max + 1;
    }

    /** Whether {@code fn}'s body names the parameter {@code usr}. */
    private static boolean mentioned(ClangUnit.Function fn, String usr) {
        boolean[] seen = {false};
        fn.node().forEach(n -> {
            if (!seen[0] && n.kind == org.bytedeco.llvm.global.clang.CXCursor_DeclRefExpr && usr.equals(n.refUsr))
                seen[0] = true;
        });
        return seen[0];
    }
}
