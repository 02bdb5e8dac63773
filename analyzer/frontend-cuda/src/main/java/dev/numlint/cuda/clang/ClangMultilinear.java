package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The exact range of a floating sum or product that is multilinear in its operands ({@link ClangIntervals}): a
 * polynomial in which no operand is raised past the first power attains its least and greatest value over a box at a
 * corner of the box, so evaluating it at every corner of its operands' intervals bounds it exactly, where interval
 * arithmetic, which takes each occurrence of an operand as a value of its own, does not. Bilinear weights are the case
 * (session 84 round AE, a paint program's resampling: {@code k4 = fox * foy; k3 = foy - k4; k2 = fox - k4; k1 = 1 -
 * fox - foy + k4;} of fractions in [0, 1), each weight a product of non-negative factors once expanded, bytes blended
 * by them and converted back to bytes: "as low as -510", three false NL001 errors).
 *
 * <p>The polynomial is {@link Poly}'s, integer coefficients only. Its symbols: a read of a local or value parameter whose
 * address is never taken, keyed by the definition that reaches it (the nearest earlier statement of an enclosing block
 * that assigns it whole; no write of it between, no loop around the read that writes it, no label), or by the
 * variable where no statement before the read writes it, so that two reads share a symbol exactly where they see one
 * stored value; any other operand (an element, a member, a call, an integer expression converted, a read whose
 * definition is not known) is a symbol of its own at each occurrence, which can only widen the range. A floating
 * local is replaced by the polynomial of its reaching definition where that bounds it no worse than its own interval
 * does, so locals defined from locals ({@code k3 = foy - k4}) expand too. A constant that is no integer (0.5), a repeated operand ({@code x * x}), more than 12
 * symbols or an unbounded one: no answer. The range is widened by the rounding as a convex combination's is ({@link
 * ClangConvexWeights#rounded}): relative to its bounds, since what the range decides is a truncation to an integer,
 * which moves by a whole unit; a weight that rounds a few ulps below 0 leaves a byte in (-1, 0], which truncates to 0
 * everywhere.
 */
final class ClangMultilinear {
    private static final int SYMBOLS = 12;
    private static final int DEPTH = 6;

    private final ClangIntervals iv;
    private final ClangUnit.Function fn;
    private final ClangNode at;
    private final Function<ClangNode, double[]> eval;
    /** Each symbol's interval: a USR's at one of its reads, an occurrence's own. */
    private final Map<String, double[]> bounds = new HashMap<>();

    private ClangMultilinear(
            ClangIntervals iv, ClangUnit.Function fn, ClangNode at, Function<ClangNode, double[]> eval) {
        this.iv = iv;
        this.fn = fn;
        this.at = at;
        this.eval = eval;
    }

    /**
     * The range of the floating {@code + - *} expression {@code n} of {@code fn} when it is a multilinear polynomial of
     * its operands after the substitutions above, else null. {@code eval} gives an operand's interval.
     */
    static double[] bound(ClangIntervals iv, ClangNode n, ClangUnit.Function fn, Function<ClangNode, double[]> eval) {
        if (fn == null || !floating(n.canonKind)) return null;
        ClangMultilinear m = new ClangMultilinear(iv, fn, n, eval);
        try {
            Poly p = m.poly(n, DEPTH);
            if (p == null || !p.symbolic()) return null;
            double[] r = m.range(p);
            if (r == null) return null;
            return ClangConvexWeights.rounded(r[0], r[1], n.canonKind);
        } catch (ArithmeticException overflow) {
            return null;
        }
    }

    /** {@code n} as a polynomial, or null. */
    private Poly poly(ClangNode n, int depth) {
        ClangNode s = strip(n);
        if (s == null || depth < 0) return null;
        if (!floating(s.canonKind)) return atom(s, null);
        Double c = folded(s);
        if (c != null) {
            if (c != Math.rint(c) || Math.abs(c) >= 0x1p53) return null;
            return Poly.constant(c.longValue());
        }
        switch (s.kind) {
            case CXCursor_BinaryOperator -> {
                if (s.children.size() != 2 || s.spelling.length() != 1 || "+-*".indexOf(s.spelling.charAt(0)) < 0)
                    return atom(s, null);
                Poly a = poly(s.children.get(0), depth), b = poly(s.children.get(1), depth);
                return a == null || b == null ? null : Poly.binary(s.spelling, a, b);
            }
            case CXCursor_UnaryOperator -> {
                if (s.children.size() != 1 || !(s.spelling.equals("-") || s.spelling.equals("+"))) return atom(s, null);
                Poly a = poly(s.children.get(0), depth);
                return a == null ? null : Poly.unary(s.spelling, a);
            }
            case CXCursor_CStyleCastExpr, CXCursor_CXXStaticCastExpr, CXCursor_CXXFunctionalCastExpr -> {
                // a floating value converted to a floating type: the same value, rounded (the margin)
                ClangNode op = s.children.isEmpty() ? null : strip(s.children.get(s.children.size() - 1));
                return op != null && floating(op.canonKind) ? poly(op, depth) : atom(s, null);
            }
            case CXCursor_DeclRefExpr -> {
                if (s.refUsr == null || !iv.unaliasedLocals(fn).contains(s.refUsr)) return atom(s, null);
                return local(s, depth);
            }
            default -> {
                return atom(s, null);
            }
        }
    }

    /** {@link #reaching}'s answer for a read no write precedes on any path: the value the function began with. */
    private static final ClangNode[] ENTRY = new ClangNode[0];

    /**
     * The local {@code ref} reads: its reaching definition's polynomial where that bounds it no worse, else a symbol
     * keyed by that definition (every read it reaches sees the one value it stored), by the variable where no write
     * precedes the read, or by the read itself where the definition is not known.
     */
    private Poly local(ClangNode ref, int depth) {
        ClangNode[] def = reaching(ref);
        String key = def == null ? null : def == ENTRY ? ref.refUsr : ref.refUsr + "#" + def[0].offset;
        Poly self = atom(ref, key);
        if (def == null || def == ENTRY || depth == 0) return self;
        Poly p = poly(def[1], depth - 1);
        if (p == null || !p.symbolic()) return self;
        double[] own = bounds.get(self.single()), r = range(p);
        // the local's own interval clearly narrower (a fractional part, x - floor(x), of symbols of its own): kept
        if (r == null || own != null && own[1] - own[0] < (r[1] - r[0]) * 0.999) return self;
        return p;
    }

    /** A symbol for {@code n}: {@code key} when given (one value at every read it names), else this occurrence's own. */
    private Poly atom(ClangNode n, String key) {
        String k = key != null ? key : "@" + n.offset + ":" + n.endOffset + ":" + n.kind;
        double[] x = eval.apply(n);
        double[] old = bounds.get(k);
        if (old != null) x = new double[] {Math.max(old[0], x[0]), Math.min(old[1], x[1])};
        bounds.put(k, x);
        return Poly.symbol(k);
    }

    /**
     * The statement that defines {@code ref}'s variable before the read and the value it stores, when nothing between
     * writes the variable; {@link #ENTRY} when no statement before the read writes it (a parameter not yet
     * assigned); null otherwise.
     */
    private ClangNode[] reaching(ClangNode ref) {
        String usr = ref.refUsr;
        ClangNode cur = ref;
        for (ClangNode p = ref.parent; p != null && p != fn.node(); cur = p, p = p.parent) {
            if (isLoop(p) && writesIn(p, usr)) return null;
            if (p.kind != CXCursor_CompoundStmt) continue;
            if (labelled(cur) != cur) return null;
            for (int j = p.children.indexOf(cur) - 1; j >= 0; j--) {
                ClangNode st = p.children.get(j);
                if (labelled(st) != st) return null;
                ClangNode d = ClangAllDefinitions.definition(st, usr);
                if (d != null) {
                    boolean once = st.kind == CXCursor_DeclStmt && iv.lasting(st);
                    return once ? null : new ClangNode[] {st, d};
                }
                if (writesIn(st, usr) || declares(st, usr)) return null;
            }
        }
        return ENTRY;
    }

    /** The least and greatest value of {@code p} over the corners of its symbols' intervals, or null. */
    private double[] range(Poly p) {
        List<String> syms = new ArrayList<>(p.allSymbols());
        if (syms.size() > SYMBOLS) return null;
        for (String m : p.terms.keySet()) {
            List<String> f = Poly.symbols(m);
            if (f.size() != new java.util.HashSet<>(f).size()) return null; // x * x: not multilinear
        }
        double[][] box = new double[syms.size()][];
        for (int i = 0; i < box.length; i++) {
            box[i] = bounds.get(syms.get(i));
            if (box[i] == null || Double.isInfinite(box[i][0]) || Double.isInfinite(box[i][1])) return null;
            if (Double.isNaN(box[i][0]) || Double.isNaN(box[i][1])) return null;
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < syms.size(); i++) index.put(syms.get(i), i);
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (int corner = 0; corner < 1 << box.length; corner++) {
            double v = 0;
            for (var t : p.terms.entrySet()) {
                double x = t.getValue();
                for (String s : Poly.symbols(t.getKey())) {
                    int i = index.get(s);
                    x *= box[i][(corner >> i) & 1];
                }
                v += x;
            }
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return new double[] {lo, hi};
    }
}
