package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * Whole-number values on Clang's tree, as the hand-written front end's integer-valued products: a product of two
 * whole numbers whose magnitude stays below the type's significand (2^24 in float, 2^53 in double) is exact, so an
 * fma changes nothing. A whole number is a whole constant, a loop counter with constant bounds and a whole step that
 * its body does not write ({@code for (float i = -3; i <= 3; i++)}), an integer with a known interval converted to
 * the floating type (an {@code unsigned int} is below 2^32: times a constant below 2^21 it is exact in double, the
 * state update of a combined multiple recursive generator), or a local whose only definition is one of these
 * ({@code float fk = (float)k;}).
 */
final class ClangWholeNumbers {
    /** Float's significand: whole numbers up to 2^24 and their products below it are exact. */
    private static final double EXACT = 0x1p24;

    /** Double's significand: whole numbers up to 2^53 and their products below it are exact. */
    private static final double EXACT_DOUBLE = 0x1p53;

    private static final int DEPTH = 3;

    private ClangWholeNumbers() {}

    /**
     * Whether the floating product {@code p} multiplies two whole numbers to less than its type's limit in magnitude
     * ({@link #limit}: 2^24 in float, 2^53 in double).
     */
    static boolean exactProduct(ClangUnit unit, ClangNode p, ClangUnit.Function fn) {
        if (p.children.size() != 2) return false;
        double limit = limit(p.canonKind);
        double[] a = range(unit, p.children.get(0), fn, DEPTH, limit);
        double[] b = range(unit, p.children.get(1), fn, DEPTH, limit);
        // a whole number times a constant whose odd mantissa fits beside it: idx * 0.75 in double is exact
        if (a != null && b == null) return timesConstant(a, p.children.get(1), limit);
        if (b != null && a == null) return timesConstant(b, p.children.get(0), limit);
        if (a == null || b == null) return false;
        double m = Math.max(
                Math.max(Math.abs(a[0] * b[0]), Math.abs(a[0] * b[1])),
                Math.max(Math.abs(a[1] * b[0]), Math.abs(a[1] * b[1])));
        return m < limit;
    }

    /** Whether the whole numbers {@code w} times the constant {@code c} are exact below {@code limit}. */
    private static boolean timesConstant(double[] w, ClangNode c, double limit) {
        ClangNode x = ClangSyntax.strip(c);
        if (x == null || x.value == null) return false;
        double m = Math.max(Math.abs(w[0]), Math.abs(w[1])) * dev.numlint.knowledge.NumericFacts.oddMantissa(x.value);
        return m < limit;
    }

    /**
     * Whether the product written {@code text} at {@code line} (a hand-written contraction's site) multiplies two
     * whole numbers exactly ({@link #exactProduct}) and the sum that reads it is no contraction of Clang's own (whose
     * other operand would be an inexact product): the hand-written contraction is then no hazard.
     */
    static boolean exactAt(ClangUnit unit, int line, String text) {
        if (text == null) return false;
        boolean cut = text.endsWith(" ...");
        String want = squash(cut ? text.substring(0, text.length() - 4) : text);
        for (ClangUnit.Function fn : unit.functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            for (ClangNode n : ClangBodyIndex.of(fn).onLine(line)) {
                if (n.kind != CXCursor_BinaryOperator || !n.spelling.equals("*") || !floating(n.canonKind)) continue;
                String t = squash(unit.text(n));
                if (!(cut ? t.startsWith(want) : t.equals(want)) || !exactProduct(unit, n, fn)) continue;
                ClangNode sum = n.parent;
                while (sum != null && (sum.kind == CXCursor_ParenExpr || sum.kind == CXCursor_UnexposedExpr))
                    sum = sum.parent;
                for (ClangSites.Contraction c : unit.contractions()) if (c.node() == sum) return false;
                return true;
            }
        }
        return false;
    }

    /**
     * The magnitude below which whole numbers and their products are exact in the floating type {@code kind}: 2^53
     * for double (and long double, at least double), 2^24 for float, 2^11 for half; 0 (nothing exact) for another.
     */
    static double limit(int kind) {
        if (kind == CXType_Double || kind == CXType_LongDouble) return EXACT_DOUBLE;
        if (kind == CXType_Float) return EXACT;
        if (kind == CXType_Half || kind == CXType_Float16) return 0x1p11;
        return 0;
    }

    /** The interval of a whole-number value, or null when {@code x} is not known to be one. */
    static double[] range(ClangUnit unit, ClangNode x, ClangUnit.Function fn, int depth, double limit) {
        ClangNode n = strip(x);
        if (n == null || depth < 0) return null;
        if (n.value != null) return whole(n.value, limit) ? new double[] {n.value, n.value} : null;
        if (isExplicitCast(n)) {
            ClangNode op = operandOf(n);
            return op == null ? null : range(unit, op, fn, depth, limit);
        }
        if (integral(n.canonKind)) {
            // an integer: a loop counter's bounds, what its construction proves, what a guard around it states
            double[] r = integers(unit, n, fn, depth);
            return r != null && Math.max(Math.abs(r[0]), Math.abs(r[1])) <= limit ? r : null;
        }
        double[] w = ClangExactIntegers.arithmetic(unit, n, fn, depth, limit, ClangWholeNumbers::range);
        if (w != null) return w;
        // an element of a table of whole numbers (a __constant__ Sobel kernel {-1.0f, 0.0f, 1.0f, ...})
        double[] t = n.kind == CXCursor_ArraySubscriptExpr || n.kind == CXCursor_CallExpr
                ? ClangTables.wholeElement(unit, n)
                : null;
        if (t != null) return Math.max(Math.abs(t[0]), Math.abs(t[1])) <= limit ? t : null;
        if (n.kind != CXCursor_DeclRefExpr || n.refUsr == null) return null;
        double[] c = counter(n.refUsr, fn);
        if (c != null) return c;
        ClangNode def = onlyDefinition(n.refUsr, fn);
        if (def == null) return accumulated(unit, n.refUsr, fn, depth, limit);
        return range(unit, def, fn, depth - 1, limit);
    }

    /**
     * The interval of a floating local that starts from a whole number and is only added to or subtracted from, by
     * whole numbers, in loops of constant trip counts ({@code float gx = 0; for (ky = -1; ky <= 1; ++ky) for (kx ...)
     * gx += pixel * K[k];} of bytes and a whole-number kernel: session 85 round AL, a Sobel filter's gradients): each
     * update runs at most the product of the trip counts of the loops around it that do not hold the declaration, so
     * the sum stays within the initial value plus that many least (greatest) terms, exact while below {@code limit}.
     * Null when a write is of another kind, a loop's trip count is not constant, or the address is taken.
     */
    private static double[] accumulated(ClangUnit unit, String usr, ClangUnit.Function fn, int depth, double limit) {
        ClangBodyIndex.Variable v = ClangBodyIndex.of(fn).of(usr);
        if (v.decls().size() != 1 || v.writes().isEmpty() || depth <= 0) return null;
        ClangNode decl = v.decls().get(0);
        if (decl.kind != CXCursor_VarDecl || decl.children.isEmpty() || !floating(decl.canonKind)) return null;
        ClangNode init = decl.children.get(decl.children.size() - 1);
        double[] r = clang_isExpressionKind(init.kind) ? range(unit, init, fn, depth - 1, limit) : null;
        if (r == null) return null;
        for (ClangNode ref : v.refs()) if (aliases(ref)) return null;
        double lo = r[0], hi = r[1];
        for (ClangNode wr : v.writes()) {
            if (wr.kind != CXCursor_CompoundAssignOperator || wr.children.size() != 2) return null;
            boolean minus = wr.spelling.equals("-=");
            if (!minus && !wr.spelling.equals("+=")) return null;
            double[] term = range(unit, wr.children.get(1), fn, depth - 1, limit);
            if (term == null) return null;
            long trips = 1;
            for (ClangNode p = wr.parent; p != null && p != fn.node() && !p.contains(decl); p = p.parent) {
                if (!isLoop(p)) continue;
                long k = ClangLoops.forTrip(p);
                if (k < 0) return null;
                trips = Math.multiplyHigh(trips, k) != 0 ? Long.MAX_VALUE : trips * k;
                if (trips > (1L << 30)) return null;
            }
            double tlo = minus ? -term[1] : term[0], thi = minus ? -term[0] : term[1];
            lo += trips * Math.min(tlo, 0);
            hi += trips * Math.max(thi, 0);
            if (Math.max(Math.abs(lo), Math.abs(hi)) > limit) return null;
        }
        return new double[] {lo, hi};
    }

    /**
     * The interval of an integer expression: a loop counter's bounds, + - * of such intervals, or what the
     * expression's construction proves ({@link ClangUnit#interval}), narrowed by the conditions that guard the read
     * ({@link ClangExactIntegers#guarded}); null when nothing is known.
     */
    static double[] integers(ClangUnit unit, ClangNode x, ClangUnit.Function fn, int depth) {
        ClangNode n = strip(x);
        if (n == null || depth < 0) return null;
        if (n.value != null) return new double[] {n.value, n.value};
        double[] r = null;
        if (n.kind == CXCursor_DeclRefExpr) {
            r = counter(n.refUsr, fn);
            if (r == null) r = unit.interval(n, fn);
            // a local defined once (int p = order + 1;): what its definition proves where it is written
            ClangNode def = r != null && Double.isFinite(r[0]) && Double.isFinite(r[1]) && r[1] - r[0] < 0x1p20
                    ? null
                    : onlyDefinition(n.refUsr, fn);
            double[] d = def == null ? null : integers(unit, def, fn, depth - 1);
            if (d != null) r = r == null ? d : new double[] {Math.max(r[0], d[0]), Math.min(r[1], d[1])};
            if (r != null && r[0] > r[1]) r = d;
            if (r != null) r = ClangExactIntegers.guarded(n, r, fn);
        } else if (n.kind == CXCursor_BinaryOperator && n.children.size() == 2 && "+-*".contains(n.spelling)) {
            double[] a = integers(unit, n.children.get(0), fn, depth);
            double[] b = integers(unit, n.children.get(1), fn, depth);
            r = a == null || b == null ? null : ClangExactIntegers.combine(n.spelling, a, b);
            double[] t = dev.numlint.knowledge.ValueBounds.ofInteger(bytes(n.canonKind), unsignedKind(n.canonKind));
            // an integer operation outside its type's range wraps or overflows: the whole type
            if (r != null && t != null && (r[0] < t[0] || r[1] > t[1])) r = t;
        }
        if (r == null) r = unit.interval(n, fn);
        return r;
    }

    private static boolean whole(double v) {
        return whole(v, EXACT);
    }

    private static boolean whole(double v, double limit) {
        return v == Math.rint(v) && Math.abs(v) <= limit;
    }

    /**
     * The values of a loop counter declared in a for's init with a whole constant, tested against a constant, stepped
     * by ++, -- or a whole constant, and not written in the body; null otherwise.
     */
    private static double[] counter(String usr, ClangUnit.Function fn) {
        if (usr == null) return null;
        ClangBodyIndex index = ClangBodyIndex.of(fn);
        return index.derived("counter", usr, () -> counterIn(usr, index));
    }

    /** {@link #counter}: the loops whose init declares {@code usr}, in pre-order; the first that qualifies. */
    private static double[] counterIn(String usr, ClangBodyIndex index) {
        double[][] out = new double[1][];
        for (ClangNode v : index.of(usr).decls()) {
            ClangNode ds = v.parent;
            ClangNode f = ds == null ? null : ds.parent;
            if (f == null || f.children.isEmpty() || f.children.get(0) != ds) continue;
            forLoop(f, usr, out);
            if (out[0] != null) break;
        }
        return out[0];
    }

    private static void forLoop(ClangNode f, String usr, double[][] out) {
        if (out[0] != null || f.kind != CXCursor_ForStmt || f.children.size() < 4) return;
        ClangNode init = f.children.get(0);
        if (init.kind != CXCursor_DeclStmt || init.children.size() != 1) return;
        ClangNode d = init.children.get(0);
        if (d.kind != CXCursor_VarDecl || !usr.equals(d.usr) || d.children.isEmpty()) return;
        Double start = constant(d.children.get(d.children.size() - 1));
        ClangNode cond = strip(f.children.get(1));
        ClangNode step = strip(f.children.get(2));
        ClangNode body = f.children.get(f.children.size() - 1);
        if (start == null || !whole(start) || cond == null || step == null) return;
        if (cond.kind != CXCursor_BinaryOperator || cond.children.size() != 2) return;
        ClangNode l = strip(cond.children.get(0));
        Double bound = constant(cond.children.get(1));
        if (l == null || l.kind != CXCursor_DeclRefExpr || !usr.equals(l.refUsr) || bound == null) return;
        Double by = stepOf(step, usr);
        if (by == null || by == 0 || !whole(by) || writes(body, usr)) return;
        double lo, hi;
        switch (cond.spelling) {
            case "<" -> {
                lo = start;
                hi = Math.ceil(bound) - 1;
            }
            case "<=" -> {
                lo = start;
                hi = Math.floor(bound);
            }
            case ">" -> {
                lo = Math.floor(bound) + 1;
                hi = start;
            }
            case ">=" -> {
                lo = Math.ceil(bound);
                hi = start;
            }
            default -> {
                return;
            }
        }
        if ((by > 0) != cond.spelling.startsWith("<") || lo > hi || !whole(lo) || !whole(hi)) return;
        out[0] = new double[] {lo, hi};
    }

    /** The step of {@code i++}, {@code --i}, {@code i += c}, {@code i -= c}; null for another increment. */
    private static Double stepOf(ClangNode step, String usr) {
        if (step.children.size() == 0) return null;
        ClangNode v = strip(step.children.get(0));
        if (v == null || v.kind != CXCursor_DeclRefExpr || !usr.equals(v.refUsr)) return null;
        if (step.kind == CXCursor_UnaryOperator) {
            return step.spelling.equals("++") ? 1.0 : step.spelling.equals("--") ? -1.0 : null;
        }
        if (step.kind == CXCursor_CompoundAssignOperator && step.children.size() == 2) {
            Double c = constant(step.children.get(1));
            if (c == null) return null;
            return step.spelling.equals("+=") ? c : step.spelling.equals("-=") ? -c : null;
        }
        return null;
    }

    /** The initializer of a local that is never written after it, or null. */
    static ClangNode onlyDefinition(String usr, ClangUnit.Function fn) {
        ClangBodyIndex.Variable v = ClangBodyIndex.of(fn).of(usr);
        if (!v.writes().isEmpty()) return null;
        ClangNode def = null;
        for (ClangNode n : v.decls()) {
            if (n.kind != CXCursor_VarDecl || n.children.isEmpty()) continue;
            ClangNode init = n.children.get(n.children.size() - 1);
            if (clang_isExpressionKind(init.kind)) def = init;
        }
        if (def == null) return null;
        for (ClangNode n : v.refs()) if (aliases(n)) return null;
        return def;
    }

    /** Whether {@code n}'s subtree assigns, compound-assigns, increments or decrements the variable. */
    private static boolean writes(ClangNode n, String usr) {
        boolean[] w = {false};
        n.forEach(x -> {
            if (w[0] || x.children.isEmpty()) return;
            boolean assign = x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                    || x.kind == CXCursor_CompoundAssignOperator
                    || x.kind == CXCursor_UnaryOperator && (x.spelling.equals("++") || x.spelling.equals("--"));
            if (!assign) return;
            ClangNode l = strip(x.children.get(0));
            if (l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr)) w[0] = true;
        });
        return w[0];
    }
}
