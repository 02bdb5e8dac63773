package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Atomic adds of a kernel into an element no other thread adds to, where the index is built from the digits of the
 * thread's one-dimensional global index {@code g} ({@code blockIdx.x * blockDim.x + threadIdx.x}) in a mixed radix:
 * {@code ow = g % W}, {@code oh = (g / W) % H}, {@code c = (g / (W * H)) % C}, {@code n = g / (W * H * C)}, each digit
 * in its own place of the index, perhaps with an offset below the place's scale that the thread picks ({@code max_h}
 * assigned only {@code h_start} or {@code h_start + i} with {@code i} in [0, 1]). Session 80 round G: the backward
 * pass of a 2x2, stride-2 max-pool adds into {@code grad_input[((n * C + c) * h + max_h) * w + max_w]} with {@code
 * max_h} in {@code [2 * oh, 2 * oh + 1]} and {@code max_w} in {@code [2 * ow, 2 * ow + 1]}: the windows do not
 * overlap, so each element takes at most one thread's add, and no order varies (two false NL009 warnings).
 *
 * <p>The proof: the digits are a complete chain (the divisors 1, W, W * H, W * H * C, the last digit a quotient), so
 * distinct threads have distinct digit tuples; the index is {@code sum_k c_k * d_k + s_k * e_k} (and terms the same
 * for every thread) with each offset {@code e_k} in {@code [0, a_k)} where {@code c_k = a_k * s_k}, so place k's value
 * is a multiple of {@code s_k} in {@code [0, M_k * c_k)}; the places, in some order with the quotient last, have each
 * scale at least the extent of the place below it. Sizes (parameters, {@code blockDim}) are taken as not negative and
 * moduli as positive, as a kernel that divides its index by them assumes; a size halved ({@code w / 2}) is {@code q}
 * with {@code w = 2 * q + r}, {@code r} in [0, 1], so {@code 2 * (w / 2) <= w} is known.
 */
final class ClangThreadDigits {
    /** A digit of the global index: {@code (g / divisor) % modulus}, or {@code g / divisor} (modulus null). */
    private record Digit(Poly divisor, Poly modulus) {}

    /** A size divided by a constant: {@code size / k}. */
    private record Halved(String size, long k) {}

    /** A place of the index: its scale and its extent (null for the quotient's, which has none). */
    private record Place(Poly scale, Poly extent) {}

    private static final int MOST_PLACES = 6;

    private final ClangUnit unit;
    private final ClangUnit.Function fn;
    private final Map<String, Digit> digits = new HashMap<>();
    private final Map<String, Halved> halved = new HashMap<>();
    /** Offsets, by symbol: their interval {lo, hi}; bounded reads (inside a definition) likewise. */
    private final Map<String, long[]> ranges = new HashMap<>();

    private final Map<String, Poly> assignedBase = new HashMap<>();
    private final Set<String> resolving = new HashSet<>();
    private final Map<String, Poly> locals = new HashMap<>();
    private int definitions;

    private ClangThreadDigits(ClangUnit unit, ClangUnit.Function fn) {
        this.unit = unit;
        this.fn = fn;
    }

    /** Why {@code a} (in the kernel {@code fn}, in no loop) adds into its thread's own element, or null. */
    static String distinct(ClangUnit unit, ClangUnit.Function fn, ClangUnit.Atomic a) {
        for (String d : ClangThreadElements.readDims(unit, fn)) if (!d.equals("x")) return null;
        ClangThreadDigits dg = new ClangThreadDigits(unit, fn);
        ClangThreadElements.Target t = ClangThreadElements.target(unit, fn, a.node(), dg);
        if (t == null) return null;
        for (ClangUnit.Atomic other : unit.atomics()) {
            if (other == a || other.in() == null || other.in().node() != fn.node()) continue;
            ClangThreadElements.Target o = ClangThreadElements.target(unit, fn, other.node(), dg);
            if (o == null) return null; // an add the analysis cannot place may be into the same memory
            if (o.base().equals(t.base()) && !o.index().terms.equals(t.index().terms)) return null;
        }
        try {
            return dg.injective(t.index()) ? "the index '" + t.text() + "' differs from thread to thread" : null;
        } catch (ArithmeticException overflow) {
            return null;
        }
    }

    /** {@code a / b} or {@code a % b} as a digit of the global index or a halved size, or null. */
    Poly divide(Poly a, Poly b, String op) {
        if (varies(b)) return null;
        String symbol = a.single();
        Digit quotient = symbol == null ? null : digits.get(symbol);
        Poly divisor = null;
        if (a.terms.equals(ClangThreadElements.global("x").terms)) divisor = Poly.constant(1);
        else if (quotient != null && quotient.modulus() == null) divisor = quotient.divisor();
        try {
            if (divisor != null) {
                return op.equals("/") ? digit(divisor.times(b), null) : digit(divisor, b);
            }
        } catch (ArithmeticException overflow) {
            return null;
        }
        // a size halved (w / 2): a symbol of its own, with w = 2 * q + r
        String size = symbol;
        Long k = b.terms.size() == 1 ? b.terms.get("") : null;
        if (!op.equals("/") || size == null || varies(a) || size.startsWith("#") || k == null || k <= 0) return null;
        String sym = "#V" + size + "|" + k;
        for (var e : halved.entrySet())
            if (e.getValue().size().equals(size) && e.getValue().k() != k) return null; // one divisor per size
        halved.put(sym, new Halved(size, k));
        return Poly.symbol(sym);
    }

    /**
     * A local that {@code fn} assigns more than once, each time the same value plus an offset in a known interval:
     * that value plus an offset symbol; null otherwise.
     */
    Poly assigned(String usr, int depth) {
        String sym = "#O" + usr;
        if (assignedBase.containsKey(sym)) return assignedBase.get(sym).plus(Poly.symbol(sym), 1);
        if (ClangThreadElements.parameter(fn, usr) || !resolving.add(usr)) return null;
        try {
            List<ClangNode> decls = new ArrayList<>();
            List<ClangNode> values = new ArrayList<>();
            int[] assignments = new int[1];
            fn.node().forEach(x -> {
                if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) {
                    decls.add(x);
                    ClangNode init = x.children.isEmpty() ? null : x.children.get(x.children.size() - 1);
                    if (init != null && clang_isExpressionKind(init.kind)) values.add(init);
                } else if (x.kind == CXCursor_BinaryOperator && x.spelling.equals("=") && x.children.size() == 2) {
                    ClangNode l = strip(x.children.get(0));
                    if (l != null && l.kind == CXCursor_DeclRefExpr && usr.equals(l.refUsr)) {
                        values.add(x.children.get(1));
                        assignments[0]++;
                    }
                }
            });
            if (decls.size() != 1
                    || decls.get(0).type.contains("&")
                    || decls.get(0).type.contains("static")) return null;
            // every write a plain assignment (no increment, no compound assignment, no address taken)
            if (values.isEmpty() || ClangStepBounds.writes(fn.node(), usr) != assignments[0]) return null;
            List<Poly> polys = new ArrayList<>();
            definitions++;
            try {
                for (ClangNode v : values) {
                    Poly p = ClangThreadElements.poly(unit, fn, v, depth + 1, this);
                    if (p == null) return null;
                    polys.add(p);
                }
            } finally {
                definitions--;
            }
            Poly base = polys.get(0);
            if (bounded(base)) return null;
            long lo = 0;
            long hi = 0;
            for (Poly p : polys) {
                long[] r = range(p.plus(base, -1));
                if (r == null) return null;
                lo = Math.min(lo, r[0]);
                hi = Math.max(hi, r[1]);
            }
            if (hi - lo > 1 << 20) return null;
            ranges.put(sym, new long[] {lo, hi});
            assignedBase.put(sym, base);
            return base.plus(Poly.symbol(sym), 1);
        } catch (ArithmeticException overflow) {
            return null;
        } finally {
            resolving.remove(usr);
        }
    }

    /**
     * Inside a definition of an assigned local, a variable the analysis cannot follow (a loop's counter) as a symbol
     * with the integer interval Clang's intervals give it at {@code ref}; null elsewhere or without one.
     */
    Poly bounded(ClangNode ref, int depth) {
        if (definitions == 0 || ref.refUsr == null) return null;
        double[] r = unit.interval(ref, fn);
        if (r == null
                || !(r[0] >= -(1 << 20))
                || !(r[1] <= 1 << 20)
                || r[0] != Math.rint(r[0])
                || r[1] != Math.rint(r[1])) return null;
        String sym = "#B" + ref.refUsr + "@" + ref.line + ":" + ref.column;
        ranges.put(sym, new long[] {(long) r[0], (long) r[1]});
        return Poly.symbol(sym);
    }

    /** The polynomial of the local {@code usr}, defined once, when known. */
    Poly local(String usr) {
        return locals.get(usr);
    }

    /** Keeps {@code p}, the polynomial of the local {@code usr} defined once (not a value read inside a definition). */
    void local(String usr, Poly p) {
        if (p != null && !bounded(p)) locals.put(usr, p);
    }

    /** Whether the index {@code t} takes distinct values for distinct threads (see the class comment). */
    private boolean injective(Poly t) {
        Map<String, Poly> coef = new LinkedHashMap<>();
        for (var e : t.terms.entrySet()) {
            String owner = null;
            Poly rest = Poly.constant(e.getValue());
            for (String s : Poly.symbols(e.getKey())) {
                if (s.startsWith("T.") || s.startsWith("B.") || s.startsWith("#B")) return false;
                if (digits.containsKey(s) || s.startsWith("#O")) {
                    if (owner != null) return false;
                    owner = s;
                } else {
                    rest = rest.times(Poly.symbol(s));
                }
            }
            if (owner != null) coef.merge(owner, rest, (x, y) -> x.plus(y, 1));
        }
        coef.values().removeIf(Poly::zero);
        // the digits, a complete chain from the divisor 1 to a quotient
        List<String> chain = new ArrayList<>();
        Poly divisor = Poly.constant(1);
        while (true) {
            String next = null;
            for (String s : coef.keySet())
                if (digits.containsKey(s) && digits.get(s).divisor().terms.equals(divisor.terms)) next = s;
            if (next == null || chain.contains(next)) return false;
            chain.add(next);
            Digit d = digits.get(next);
            if (d.modulus() == null) break;
            divisor = divisor.times(d.modulus());
        }
        Set<String> offsets = new HashSet<>();
        for (String s : coef.keySet()) {
            if (s.startsWith("#O")) offsets.add(s);
            else if (!chain.contains(s)) return false;
        }
        List<Place> places = new ArrayList<>();
        for (String s : chain) {
            Poly c = coef.get(s);
            Poly scale = c;
            for (String o : List.copyOf(offsets)) {
                Poly so = coef.get(o);
                Long a = ratio(c, so);
                long[] r = ranges.get(o);
                if (a == null || a < r[1] - r[0] + 1) continue;
                if (scale != c) return false; // two offsets in one place
                scale = so;
                offsets.remove(o);
            }
            Poly m = digits.get(s).modulus();
            places.add(new Place(scale, m == null ? null : m.times(c)));
        }
        if (!offsets.isEmpty() || places.size() > MOST_PLACES) return false; // an offset in no place
        Place top = places.remove(places.size() - 1);
        return ordered(places, top, new ArrayList<>(), new boolean[places.size()]);
    }

    /** Whether the places, in some order, each start at or past the extent of the one before, the quotient's last. */
    private boolean ordered(List<Place> places, Place top, List<Place> order, boolean[] taken) {
        if (order.size() == places.size()) {
            Place below = null;
            for (Place p : order) {
                if (below == null
                        ? !positive(p.scale())
                        : !notNegative(p.scale().plus(below.extent(), -1))) return false;
                below = p;
            }
            return below == null
                    ? positive(top.scale())
                    : notNegative(top.scale().plus(below.extent(), -1));
        }
        for (int i = 0; i < places.size(); i++) {
            if (taken[i]) continue;
            taken[i] = true;
            order.add(places.get(i));
            boolean ok = ordered(places, top, order, taken);
            order.remove(order.size() - 1);
            taken[i] = false;
            if (ok) return true;
        }
        return false;
    }

    private boolean positive(Poly p) {
        return !p.zero() && notNegative(p);
    }

    /** Whether {@code p} is not negative for sizes that are not negative (halved sizes written out). */
    private boolean notNegative(Poly p) {
        Map<String, Poly> bind = new HashMap<>();
        for (var e : halved.entrySet()) {
            Halved h = e.getValue();
            bind.put(
                    h.size(),
                    Poly.symbol(e.getKey()).times(Poly.constant(h.k())).plus(Poly.symbol("#r" + h.size()), 1));
        }
        for (long v : p.substitute(bind).terms.values()) if (v < 0) return false;
        return true;
    }

    /** The constant a with {@code c = a * s}, or null. */
    private static Long ratio(Poly c, Poly s) {
        if (s.zero() || c.terms.size() != s.terms.size()) return null;
        var first = s.terms.firstEntry();
        Long num = c.terms.get(first.getKey());
        if (num == null || num % first.getValue() != 0) return null;
        long a = num / first.getValue();
        return a > 0 && s.times(Poly.constant(a)).terms.equals(c.terms) ? a : null;
    }

    /** The interval of {@code p}, a constant plus bounded symbols with constant coefficients; null otherwise. */
    private long[] range(Poly p) {
        long lo = 0;
        long hi = 0;
        for (var e : p.terms.entrySet()) {
            long c = e.getValue();
            if (e.getKey().isEmpty()) {
                lo = Math.addExact(lo, c);
                hi = Math.addExact(hi, c);
                continue;
            }
            long[] r = ranges.get(e.getKey());
            if (r == null) return null;
            long x = Math.multiplyExact(c, r[0]);
            long y = Math.multiplyExact(c, r[1]);
            lo = Math.addExact(lo, Math.min(x, y));
            hi = Math.addExact(hi, Math.max(x, y));
        }
        return new long[] {lo, hi};
    }

    private boolean bounded(Poly p) {
        for (String m : p.terms.keySet()) for (String s : Poly.symbols(m)) if (s.startsWith("#B")) return true;
        return false;
    }

    /** Whether {@code p} differs from thread to thread (or within one: offsets, bounded reads). */
    private boolean varies(Poly p) {
        for (String m : p.terms.keySet())
            for (String s : Poly.symbols(m))
                if (s.startsWith("T.") || s.startsWith("B.") || digits.containsKey(s) || ranges.containsKey(s))
                    return true;
        return false;
    }

    private Poly digit(Poly divisor, Poly modulus) {
        String sym = "#D" + key(divisor) + "|" + (modulus == null ? "" : key(modulus));
        digits.put(sym, new Digit(divisor, modulus));
        return Poly.symbol(sym);
    }

    private static String key(Poly p) {
        return p.terms.toString().replace(Poly.SEP, "\u0002");
    }
}
