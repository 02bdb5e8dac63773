package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * The extremes of an array and the ratio they bound: a min-max normalisation {@code (a[i] - lo) / (hi - lo)}, where
 * {@code lo} and {@code hi} are the smallest and the largest element of {@code a}, lies in [0, 1] (an image scaled to
 * bytes for display or saving: {@code * 255}), or is 0/0 for constant data (see {@link #ratio}). Interval arithmetic
 * alone cannot see it: the numerator and the denominator share {@code lo}. A variable is {@code a}'s minimum when a
 * loop replaces it by every smaller element ({@code if (a[k] < lo) lo = a[k];}, {@code lo = std::min(lo, a[k])},
 * {@code fminf}), whatever it starts from ({@code a[0]}, {@code width}, {@code HUGE_VAL}: the smallest of that and the
 * elements is at most each element) and nothing else given it after the loop, or when every value it is given is the
 * element {@code std::min_element} or {@code std::minmax_element}'s {@code first} found; its maximum likewise. Elements
 * are told apart by the text of the array before the subscript, read through a local defined from one ({@code const
 * float disp = disparity[i * w + j];}).
 */
final class ClangExtremes {
    private ClangExtremes() {}

    /**
     * [0, 1] when {@code div} (a {@code /}) is such a normalisation in {@code fn}; [-1, 1] when it is a component of a
     * normalised vector ({@link ClangUnitVectors}); the values' interval when it is a weighted mean a loop
     * accumulates ({@link ClangWeightedMeans#accumulated}); else null.
     */
    static double[] ratio(ClangUnit unit, ClangNode div, ClangUnit.Function fn) {
        double[] component = ClangUnitVectors.component(unit, div, fn);
        if (component != null) return component;
        double[] mean = ClangWeightedMeans.accumulated(unit, div, fn); // sum(x * w) / sum(w) of a loop
        if (mean != null) return mean;
        if (fn == null || div.children.size() != 2) return null;
        ClangNode num = withoutCasts(div.children.get(0));
        ClangNode den = withoutCasts(div.children.get(1));
        // a scaled numerator: 255.0 * (v - lo) / (hi - lo) is [0, 255] (the product is the division's left operand)
        double scale = 1;
        if (num != null
                && num.kind == CXCursor_BinaryOperator
                && num.spelling.equals("*")
                && num.children.size() == 2) {
            for (int i = 0; i < 2; i++) {
                Double k = constant(num.children.get(i));
                ClangNode d = withoutCasts(num.children.get(1 - i));
                if (k != null && k >= 0 && Double.isFinite(k) && difference(d)) {
                    scale = k;
                    num = d;
                    break;
                }
            }
        }
        if (!difference(num) || !difference(den)) return null;
        ClangNode a = element(fn, withoutCasts(num.children.get(0)));
        String lo = variable(num.children.get(1));
        String lo2 = variable(den.children.get(1));
        String hi = variable(den.children.get(0));
        String array = arrayOf(unit, a);
        if (array == null) array = containerOf(unit, fn, a);
        if (lo == null || !lo.equals(lo2) || hi == null || hi.equals(lo) || array == null) return null;
        if (!extreme(unit, fn, lo, array, true) || !extreme(unit, fn, hi, array, false)) return null;
        // reached with hi == lo (constant data) the ratio is 0/0, NaN: converted to an unsigned char or short, or
        // from a float to an unsigned int, it gives 0 on x86 and on the GPU alike (measured on an H100, session 69:
        // docs/validation/conversions-session69), so no test is asked for (session 67, rounds B and E: two such
        // normalisations of images to bytes judged false as errors); a double's NaN converted to an unsigned int
        // is 0 on x86 but 2^31 on the GPU, a case this interval does not tell apart
        return new double[] {0, scale};
    }

    /**
     * The container whose elements the variable {@code e} reads takes in turn, or null: the range of a range-based
     * {@code for (float v : buf)}, or the whole container a lambda's one parameter gets from {@code
     * std::transform(std::begin(buf), std::end(buf), out, [=](float v) {...})} ({@link #wholeRange}); the variable
     * never written (session 71 round A: a simulator's debug dump scaled a device buffer to bytes through
     * {@code std::min_element}, {@code std::max_element} and such a lambda).
     */
    private static String containerOf(ClangUnit unit, ClangUnit.Function fn, ClangNode e) {
        if (e == null || e.kind != CXCursor_DeclRefExpr || e.refUsr == null) return null;
        String[] found = {null};
        boolean[] written = {false};
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && e.refUsr.equals(x.refUsr) && written(x)) written[0] = true;
            if (x.kind != CXCursor_VarDecl && x.kind != CXCursor_ParmDecl || !e.refUsr.equals(x.usr)) return;
            ClangNode p = x.parent;
            if (p == null) return;
            if (x.kind == CXCursor_VarDecl && p.kind == CXCursor_CXXForRangeStmt && p.children.size() == 3) {
                // for (float v : buf): the loop variable, the range, the body
                String range = unit.text(strip(p.children.get(1)));
                if (p.children.get(0) == x && range != null && range.matches(NAME)) found[0] = range;
            } else if (x.kind == CXCursor_ParmDecl && p.kind == CXCursor_LambdaExpr) {
                long params = p.children.stream()
                        .filter(c -> c.kind == CXCursor_ParmDecl)
                        .count();
                ClangNode call = p.parent;
                while (call != null && call.kind == CXCursor_UnexposedExpr) call = call.parent;
                if (params != 1 || call == null || call.kind != CXCursor_CallExpr) return;
                String name = callee(call);
                List<ClangNode> args = arguments(call);
                if ((name.equals("transform") || name.equals("std::transform"))
                        && args.size() == 4
                        && strip(args.get(3)) == p)
                    found[0] = wholeRange(unit.text(args.get(0)), unit.text(args.get(1)));
            }
        });
        return written[0] ? null : found[0];
    }

    private static final String NAME = "[A-Za-z_][\\w.>-]*";
    private static final java.util.regex.Pattern BEGIN =
            java.util.regex.Pattern.compile("(?:std::)?c?begin\\((" + NAME + ")\\)|(" + NAME + ")\\.c?begin\\(\\)");

    /** {@code X} where {@code first} and {@code last} are the whole of container {@code X} ({@code std::begin(X)}, {@code
     * begin(X)}, {@code X.begin()}, their {@code c} forms, and the matching end), else null. */
    static String wholeRange(String first, String last) {
        if (first == null || last == null) return null;
        java.util.regex.Matcher m = BEGIN.matcher(first.replace(" ", ""));
        if (!m.matches()) return null;
        String x = m.group(1) != null ? m.group(1) : m.group(2);
        String end = first.replace(" ", "").replace("begin", "end");
        return last.replace(" ", "").equals(end) ? x : null;
    }

    /**
     * {@code e}, or the array element a local {@code e} names: one defined by its declaration from an element and
     * never written again ({@code const float disp = disparity[i * width + j];}).
     */
    private static ClangNode element(ClangUnit.Function fn, ClangNode e) {
        if (e == null || e.kind != CXCursor_DeclRefExpr || e.refUsr == null) return e;
        ClangNode[] init = {null};
        boolean[] written = {false};
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_VarDecl && e.refUsr.equals(x.usr) && !x.children.isEmpty())
                init[0] = withoutCasts(x.children.get(x.children.size() - 1));
            if (x.kind == CXCursor_DeclRefExpr && e.refUsr.equals(x.refUsr) && written(x)) written[0] = true;
        });
        return init[0] != null && !written[0] && init[0].kind == CXCursor_ArraySubscriptExpr ? init[0] : e;
    }

    private static boolean difference(ClangNode n) {
        return n != null && n.kind == CXCursor_BinaryOperator && n.spelling.equals("-") && n.children.size() == 2;
    }

    /** The variable {@code n} reads (its unified symbol name), or null. */
    private static String variable(ClangNode n) {
        ClangNode x = withoutCasts(n);
        return x != null && x.kind == CXCursor_DeclRefExpr ? x.refUsr : null;
    }

    /** The text of the array an element read {@code n} reads ({@code in} of {@code in[i]}), or null. */
    private static String arrayOf(ClangUnit unit, ClangNode n) {
        if (n == null || n.kind != CXCursor_ArraySubscriptExpr && n.kind != CXCursor_CallExpr) return null;
        String t = unit.text(n);
        int b = t == null ? -1 : t.indexOf('[');
        if (b <= 0 || !t.endsWith("]")) return null;
        String base = t.substring(0, b).strip();
        return base.matches("[A-Za-z_][\\w.>-]*") ? base : null;
    }

    /**
     * Whether the variable {@code usr} is {@code array}'s minimum ({@code min}) or maximum in {@code fn}: every value
     * it is given is an element of the array, and a loop keeps the extreme or {@code std::*_element} found it.
     */
    private static boolean extreme(ClangUnit unit, ClangUnit.Function fn, String usr, String array, boolean min) {
        List<ClangNode> values = new ArrayList<>();
        boolean[] other = new boolean[1];
        boolean[] kept = new boolean[1];
        int[] firstKeep = {Integer.MAX_VALUE};
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) {
                if (!x.children.isEmpty()) values.add(x.children.get(x.children.size() - 1));
            } else if ((x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                            || x.kind == CXCursor_CompoundAssignOperator)
                    && x.children.size() == 2
                    && usr.equals(variable(x.children.get(0)))) {
                if (x.kind == CXCursor_CompoundAssignOperator) other[0] = true;
                else if (keeps(unit, x, usr, array, min) || keepsByCall(unit, fn, x, usr, array, min)) {
                    kept[0] = true;
                    firstKeep[0] = Math.min(firstKeep[0], x.offset);
                } else values.add(x.children.get(1));
            } else if (x.kind == CXCursor_UnaryOperator && x.children.size() == 1) {
                ClangNode o = withoutCasts(x.children.get(0));
                if (o != null && o.kind == CXCursor_DeclRefExpr && usr.equals(o.refUsr)) other[0] = true;
            }
        });
        if (other[0] || values.isEmpty() && !kept[0]) return false;
        // a loop keeps the extreme: whatever it starts from (an element, width, HUGE_VAL), the smallest of that and
        // the elements is at most every element; a value given after the loop's first keep is another story
        if (kept[0]) {
            for (ClangNode v : values) if (v.offset > firstKeep[0]) return false;
            return true;
        }
        boolean found = false;
        for (ClangNode v : values) {
            ClangNode e = withoutCasts(v);
            if (!array.equals(arrayOf(unit, e))) {
                // *std::min_element(a.begin(), a.end())
                String t = unit.text(e);
                if (t == null
                        || !t.replace(" ", "").contains((min ? "min_element(" : "max_element(") + array)
                                && !searchesWhole(t, array, min)) {
                    return false;
                }
                found = true;
                continue;
            }
            found |= foundBySearch(unit, fn, e, min);
        }
        return found;
    }

    /** {@code t} is {@code *std::min_element(std::begin(X), std::end(X))} (a maximum: max), X is {@code array}. */
    private static boolean searchesWhole(String t, String array, boolean min) {
        String s = t.replace(" ", "");
        String call = min ? "min_element(" : "max_element(";
        int at = s.indexOf(call);
        if (at < 0 || !s.endsWith(")")) return false;
        String inner = s.substring(at + call.length(), s.length() - 1);
        int comma = -1, depth = 0;
        for (int i = 0; i < inner.length(); i++) {
            char c = inner.charAt(i);
            if (c == '(') depth++;
            else if (c == ')') depth--;
            else if (c == ',' && depth == 0) {
                if (comma >= 0) return false;
                comma = i;
            }
        }
        return comma > 0 && array.equals(wholeRange(inner.substring(0, comma), inner.substring(comma + 1)));
    }

    /**
     * {@code assign} is {@code lo = std::min(lo, a[k])} ({@code fminf}, {@code fmin}, {@code min}, either order; for
     * a maximum the max), the element perhaps through a local defined from it ({@link #element}).
     */
    private static boolean keepsByCall(
            ClangUnit unit, ClangUnit.Function fn, ClangNode assign, String usr, String array, boolean min) {
        ClangNode call = withoutCasts(assign.children.get(1));
        if (call == null || call.kind != CXCursor_CallExpr) return false;
        String name = callee(call);
        if (name.startsWith("std::")) name = name.substring(5);
        boolean right = min
                ? name.equals("min") || name.equals("fminf") || name.equals("fmin")
                : name.equals("max") || name.equals("fmaxf") || name.equals("fmax");
        List<ClangNode> args = arguments(call);
        if (!right || args.size() != 2) return false;
        for (int i = 0; i < 2; i++) {
            if (usr.equals(variable(args.get(i)))
                    && array.equals(arrayOf(unit, element(fn, withoutCasts(args.get(1 - i)))))) return true;
        }
        return false;
    }

    /** {@code assign} ({@code lo = a[k]}) is the then-branch of {@code if (a[k] < lo)} (for a maximum, {@code >}). */
    private static boolean keeps(ClangUnit unit, ClangNode assign, String usr, String array, boolean min) {
        ClangNode p = assign.parent;
        while (p != null && (p.kind == CXCursor_CompoundStmt || p.kind == CXCursor_UnexposedExpr)) p = p.parent;
        if (p == null || p.kind != CXCursor_IfStmt || p.children.isEmpty()) return false;
        ClangNode test = withoutCasts(p.children.get(0));
        if (test == null || test.kind != CXCursor_BinaryOperator || test.children.size() != 2) return false;
        String op = test.spelling;
        ClangNode l = test.children.get(0);
        ClangNode r = test.children.get(1);
        boolean elementFirst = usr.equals(variable(r)) && array.equals(arrayOf(unit, withoutCasts(l)));
        boolean variableFirst = usr.equals(variable(l)) && array.equals(arrayOf(unit, withoutCasts(r)));
        String smaller = min ? "<" : ">";
        String larger = min ? ">" : "<";
        return elementFirst && (op.equals(smaller) || op.equals(smaller + "="))
                || variableFirst && (op.equals(larger) || op.equals(larger + "="));
    }

    /**
     * The element {@code e} ({@code a[p]}) is at the position {@code std::min_element}, or the {@code first} of
     * {@code std::minmax_element}, gave (for a maximum: {@code max_element}, {@code second}).
     */
    private static boolean foundBySearch(ClangUnit unit, ClangUnit.Function fn, ClangNode e, boolean min) {
        String t = unit.text(e);
        String index = t.substring(t.indexOf('[') + 1, t.length() - 1).strip();
        String[] init = new String[1];
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_VarDecl && x.spelling.equals(index) && !x.children.isEmpty() && init[0] == null) {
                init[0] = unit.text(x.children.get(x.children.size() - 1));
            }
        });
        String how = (init[0] != null ? init[0] : index).replace(" ", "");
        if (how.contains(min ? "min_element(" : "max_element(") && !how.contains("minmax_element(")) return true;
        String all = unit.text(fn.node());
        return all != null && all.contains("minmax_element(") && how.contains(min ? ".first" : ".second");
    }

    private static final java.util.Set<String> LOGS =
            java.util.Set.of("log", "logf", "logl", "log2", "log2f", "log10", "log10f", "log1p", "log1pf");

    /**
     * Narrows the argument of a logarithm of an integer ({@code log((float)xsize)}) to [1, ...]: its log is -inf at
     * 0 and NaN below, so a finite result, which the intervals assume as everywhere, is at least 0 (session 58 round
     * E: a noise generator's octave count {@code int(log((float)n) / log(1.5707963f) + 0.5f)} was taken as possibly
     * negative; log1p of an integer is at least 0 from 0 on).
     */
    static void logOfInteger(String name, ClangNode call, java.util.List<double[]> args) {
        if (!LOGS.contains(name) || args.size() != 1 || call.children.size() != 2) return;
        ClangNode a = strip(call.children.get(1));
        while (a != null && (isExplicitCast(a) || a.kind == CXCursor_UnexposedExpr && a.children.size() == 1))
            a = strip(isExplicitCast(a) ? operandOf(a) : a.children.get(0));
        if (a == null || !integral(a.canonKind)) return;
        double floor = name.startsWith("log1p") ? 0 : 1;
        double[] x = args.get(0);
        if (x[1] >= floor) x[0] = Math.max(x[0], floor);
    }
}
