package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * Elements of the constant tables {@link ClangWalker#constantTable} records: a const array's subscript, a const {@code
 * std::array}'s {@code operator[]}, either through a reference bound to the table. Their bounds are an interval
 * ({@link ClangIntervals}); a table whose elements are all dyadic with few digits after the point (a 3x3 Gaussian
 * kernel of sixteenths, a gradient kernel of quarters) makes a whole number times an element exact, and a sum of such
 * products exact while it stays small (session 70 round D: an image library's convolutions of bytes, four false
 * NL004 warnings "one ulp can change the u8").
 */
final class ClangTables {
    private ClangTables() {}

    /** The table variable an element read {@code e} reads ({@code K[i]}, {@code K[i][j]}, {@code k[w]}), or null. */
    static ClangNode table(ClangNode e) {
        ClangNode n = strip(e);
        if (n == null) return null;
        if (n.kind == CXCursor_ArraySubscriptExpr) {
            ClangNode base = n.children.isEmpty() ? null : strip(n.children.get(0));
            while (base != null && base.kind == CXCursor_ArraySubscriptExpr && !base.children.isEmpty())
                base = strip(base.children.get(0));
            return base != null && base.kind == CXCursor_DeclRefExpr ? base : null;
        }
        if (n.kind != CXCursor_CallExpr || !"operator[]".equals(n.spelling)) return null;
        for (ClangNode c : n.children) {
            ClangNode o = strip(c);
            if (o != null && o.kind == CXCursor_DeclRefExpr && o.canon != null && o.canon.contains("array<")) return o;
        }
        return null;
    }

    /** The bounds of the element {@code call} reads when it is a constant std::array's {@code operator[]}, or null. */
    static double[] element(ClangUnit unit, ClangNode call) {
        return call.kind == CXCursor_CallExpr ? bounds(unit, table(call)) : null;
    }

    /** The bounds of the elements of the table {@code ref} names ({@link ClangWalker#constantTable}), or null. */
    static double[] bounds(ClangUnit unit, ClangNode ref) {
        Double lo = fact(unit, ref, "lo"), hi = fact(unit, ref, "hi");
        return lo == null || hi == null ? null : new double[] {lo, hi};
    }

    /**
     * The bounds of the element {@code e} reads ({@link #table}) when every element of its table is a whole number (no
     * binary digit after the point: {@code {-1.0f, 0.0f, 1.0f, -2.0f, ...}}, a Sobel kernel), else null.
     */
    static double[] wholeElement(ClangUnit unit, ClangNode e) {
        ClangNode t = table(e);
        Double digits = fact(unit, t, "dyadic");
        return digits != null && digits == 0 ? bounds(unit, t) : null;
    }

    /** A recorded fact of the table {@code ref} names: "lo", "hi", "dyadic", "pos" (sum of its positive elements)... */
    private static Double fact(ClangUnit unit, ClangNode ref, String key) {
        return ref == null || ref.refUsr == null
                ? null
                : unit.memberConstants().get(ClangWalker.TABLE + ref.refUsr + ":" + key);
    }

    /**
     * The interval a loop {@code st} adds to {@code usr} when its only write of it is {@code usr += x * K[w]} (either
     * order), one statement of the innermost loop's body that runs on every trip, {@code K} a table and {@code w} a
     * counter that steps by one in that same loop (its increment, or a statement of its body on every trip) and that
     * nothing inside {@code st} sets otherwise: each element of {@code K} is then added at most once, so the sum lies
     * between the sums of the elements' least and greatest products with {@code x} (session 70 round D: a 3x3 Gaussian
     * of bytes, {@code (u8) l}, lies in [0, 255] since its sixteenths sum to 1). Null when not such.
     */
    static double[] kernelSum(
            ClangUnit unit, ClangNode st, String usr, java.util.function.Function<ClangNode, double[]> eval) {
        if (!isLoop(st)) return null;
        ClangNode[] update = {null};
        boolean[] other = {false};
        st.forEach(n -> {
            if (n.kind != CXCursor_DeclRefExpr || !usr.equals(n.refUsr)) return;
            ClangNode w = writer(n);
            if (w == null) return;
            if (update[0] != null || w.kind != CXCursor_CompoundAssignOperator || !"+=".equals(w.spelling))
                other[0] = true;
            else update[0] = w;
        });
        if (other[0] || update[0] == null || update[0].children.size() != 2) return null;
        ClangNode u = update[0];
        ClangNode loop = innermostLoop(u);
        if (loop == null || !st.contains(loop) && loop != st || !everyTrip(u, loop)) return null;
        ClangNode p = strip(u.children.get(1));
        if (p == null || p.kind != CXCursor_BinaryOperator || !"*".equals(p.spelling) || p.children.size() != 2)
            return null;
        for (int k = 0; k < 2; k++) {
            ClangNode t = table(p.children.get(k));
            Double pos = fact(unit, t, "pos"), neg = fact(unit, t, "neg");
            if (pos == null || neg == null || !counter(index(p.children.get(k)), loop, st)) continue;
            double[] x = eval.apply(p.children.get(1 - k));
            if (x == null || Double.isInfinite(x[0]) || Double.isInfinite(x[1])) return null;
            return new double[] {
                pos * Math.min(0, x[0]) + neg * Math.max(0, x[1]), pos * Math.max(0, x[1]) + neg * Math.min(0, x[0])
            };
        }
        return null;
    }

    /** The assignment or update that writes the reference {@code n} (its left side), or null. */
    private static ClangNode writer(ClangNode n) {
        ClangNode c = n;
        ClangNode p = n.parent;
        while (p != null && (p.kind == CXCursor_ParenExpr || p.kind == CXCursor_UnexposedExpr)) {
            c = p;
            p = p.parent;
        }
        if (p == null) return null;
        boolean assign = (p.kind == CXCursor_CompoundAssignOperator
                        || p.kind == CXCursor_BinaryOperator && "=".equals(p.spelling))
                && !p.children.isEmpty()
                && p.children.get(0) == c;
        boolean step = p.kind == CXCursor_UnaryOperator
                && ("++".equals(p.spelling) || "--".equals(p.spelling) || "&".equals(p.spelling));
        return assign || step ? p : null;
    }

    /** The index expression of the element read {@code e} ({@code K[w]}, {@code K.operator[](w)}), or null. */
    private static ClangNode index(ClangNode e) {
        ClangNode n = strip(e);
        if (n == null || n.children.size() < 2) return null;
        return strip(n.children.get(n.children.size() - 1));
    }

    /**
     * Whether {@code w} is a local that {@code loop} steps by one on every trip ({@code ++w} in its increment or as a
     * statement of its body), and nothing else inside {@code st} writes or declares. When {@code loop} is {@code st}
     * itself, its initialization may set the counter ({@code for (c = 0; c < 3; c++)}, {@code for (unsigned c = 0;
     * ...)}): that runs once, before the first trip (session 77: an image library's luminance of three channels).
     */
    private static boolean counter(ClangNode w, ClangNode loop, ClangNode st) {
        if (w == null || w.kind != CXCursor_DeclRefExpr || w.refUsr == null) return false;
        int[] steps = {0, 0}; // [steps of loop on every trip, other writes in st]
        ClangNode init =
                loop == st && loop.kind == CXCursor_ForStmt && loop.children.size() == 4 ? loop.children.get(0) : null;
        st.forEach(n -> {
            if (init != null && init.contains(n)) return; // set once, before the loop's first trip
            if (n.kind == CXCursor_VarDecl && w.refUsr.equals(n.usr)) steps[1]++; // declared again on each trip
            if (n.kind != CXCursor_DeclRefExpr || !w.refUsr.equals(n.refUsr)) return;
            ClangNode wr = writer(n);
            if (wr == null) return;
            boolean inc = wr.kind == CXCursor_UnaryOperator && "++".equals(wr.spelling);
            if (inc && innermostLoop(wr) == loop && everyTrip(wr, loop)) steps[0]++;
            else if (inc && inIncrement(wr, loop)) steps[0]++;
            else steps[1]++;
        });
        return steps[0] == 1 && steps[1] == 0;
    }

    /** Whether {@code n} lies in the increment of the for loop {@code loop}. */
    private static boolean inIncrement(ClangNode n, ClangNode loop) {
        return loop.kind == CXCursor_ForStmt
                && loop.children.size() >= 2
                && loop.children.get(loop.children.size() - 2).contains(n);
    }

    /** Whether {@code n} runs on every trip of {@code loop}: no branch or inner loop between them. */
    private static boolean everyTrip(ClangNode n, ClangNode loop) {
        if (inIncrement(n, loop)) return true;
        for (ClangNode p = n.parent; p != null && p != loop; p = p.parent) {
            if (isLoop(p)
                    || p.kind == CXCursor_IfStmt
                    || p.kind == CXCursor_SwitchStmt
                    || p.kind == CXCursor_ConditionalOperator
                    || p.kind == CXCursor_BinaryOperator && ("&&".equals(p.spelling) || "||".equals(p.spelling)))
                return false;
        }
        return true;
    }

    /**
     * Whether {@code term} is a byte times an element of a dyadic table ({@code src[x] * K[w]}), either order. The
     * table's elements have at most 8 digits after the point and numerators below 2^8 ({@link ClangWalker}), so each
     * product is a whole number below 2^16 of the least digit's unit, and a sum of up to 2^8 of them (a kernel's taps)
     * stays below 2^24 units: exact in float, whatever the order, as whole-number terms are below 2^24.
     */
    static boolean exactProduct(ClangUnit unit, ClangNode term) {
        ClangNode p = strip(term);
        if (p == null || p.kind != CXCursor_BinaryOperator || !"*".equals(p.spelling) || p.children.size() != 2)
            return false;
        return dyadicTimesSmallInteger(unit, p.children.get(0), p.children.get(1))
                || dyadicTimesSmallInteger(unit, p.children.get(1), p.children.get(0));
    }

    private static boolean dyadicTimesSmallInteger(ClangUnit unit, ClangNode element, ClangNode whole) {
        ClangNode t = table(element);
        if (t == null || t.refUsr == null) return false;
        Double digits = unit.memberConstants().get(ClangWalker.TABLE + t.refUsr + ":dyadic");
        ClangNode w = strip(whole);
        return digits != null && w != null && integral(w.canonKind) && narrowInteger(w.canonKind);
    }

    /** Whether an integer type has at most 8 bits (a byte, a bool). */
    private static boolean narrowInteger(int kind) {
        return kind == CXType_UChar
                || kind == CXType_Char_U
                || kind == CXType_SChar
                || kind == CXType_Char_S
                || kind == CXType_Bool;
    }
}
