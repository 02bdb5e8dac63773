package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.NumericFacts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The sign of a product or quotient as a product of the signs of the variables it reads: {@code r / (double)(((r <<
 * 1) + (r >> 1)) / bpm)} with {@code bpm > 0} has the sign of {@code r * r}, never negative, whatever the sign of
 * {@code r} (ft2-clone's samples per tick, session 62 round F). Interval arithmetic alone cannot see it: it takes the
 * two reads of {@code r} as independent.
 *
 * <p>Each value is a sign (+1 or -1) times the signs of the variables read an odd number of times. Products and
 * quotients multiply them; a sum of two terms with the same such product keeps it (a difference of opposite ones);
 * a shift by a constant, an integer division's truncation, a conversion and {@code round}, {@code floor},
 * {@code ceil}, {@code trunc} keep it (or give 0); a constant, an unsigned value, a value whose interval has a sign
 * ({@link ClangIntervals}) and a function that is never negative ({@link NumericFacts#NON_NEGATIVE}) have a sign of
 * their own. A local defined once (its initializer, never written after it, its address never taken) is read as its
 * definition. Any other value (a call, an element, a member) is unknown, and so is the product that reads it.
 *
 * <p>A variable counts as one value across its reads when every write to it comes before all of them in the text and
 * no loop holds a write to it unless it also holds all its reads and all the definitions read through. A quotient
 * whose divisor truncates to 0 is an infinity of the dividend's sign, or NaN: not a finite negative value.
 */
final class ClangSameSigns {
    private static final int DEPTH = 12;

    private ClangSameSigns() {}

    /** A sign times the signs of the variables in {@code odd}. */
    private record Mono(int sign, Set<String> odd) {
        Mono times(Mono o) {
            Set<String> s = new HashSet<>(odd);
            for (String v : o.odd) if (!s.remove(v)) s.add(v);
            return new Mono(sign * o.sign, s);
        }

        Mono negated() {
            return new Mono(-sign, odd);
        }
    }

    /** What one evaluation read: the variables taken as one value and the definitions read through. */
    private record Reads(List<ClangNode> refs, List<ClangNode> definitions) {}

    /**
     * 1 when the product or quotient {@code e} of {@code fn} is never a negative number, -1 when never a positive one,
     * 0 when unknown; {@code intervals} gives the operands' own intervals, {@code depth} the evaluation left.
     */
    static int sign(ClangIntervals intervals, ClangNode e, ClangUnit.Function fn, int depth) {
        if (fn == null || depth < 0) return 0;
        Reads reads = new Reads(new ArrayList<>(), new ArrayList<>());
        Mono m = mono(intervals, e, fn, depth, reads, 0);
        if (m == null || !m.odd.isEmpty() || reads.refs.isEmpty()) return 0;
        return stable(fn, reads) ? m.sign : 0;
    }

    /**
     * Whether the terms of {@code a + b} ({@code plus}) or {@code a - b} have agreeing signs as products of the same
     * variables' signs ({@code r1 * ac + r2 * as} with {@code r1 = k * sqrtf(p)}, {@code r2 = k * sqrtf(q)},
     * {@code ac} and {@code as} of {@code fabsf}: both of {@code k}'s sign), so that the sum is one of magnitudes and
     * cannot cancel, whatever that sign (session 64 round A: a splat's bounding box was "its products may cancel").
     */
    static boolean agree(ClangIntervals iv, ClangNode a, ClangNode b, boolean plus, ClangUnit.Function fn, int depth) {
        if (fn == null || depth < 0) return false;
        Reads reads = new Reads(new ArrayList<>(), new ArrayList<>());
        Mono x = mono(iv, a, fn, depth, reads, 0);
        Mono y = x == null ? null : mono(iv, b, fn, depth, reads, 0);
        if (y == null) return false;
        return (plus ? x.equals(y) : x.equals(y.negated())) && stable(fn, reads);
    }

    private static Mono mono(ClangIntervals iv, ClangNode e, ClangUnit.Function fn, int depth, Reads reads, int d) {
        ClangNode n = strip(e);
        if (n == null || d > DEPTH) return null;
        Double c = folded(n);
        if (c != null) return c > 0 ? new Mono(1, Set.of()) : c < 0 ? new Mono(-1, Set.of()) : null;
        if (integral(n.canonKind) && unsignedKind(n.canonKind)) return new Mono(1, Set.of());
        switch (n.kind) {
            case CXCursor_ParenExpr, CXCursor_UnexposedExpr -> {
                return n.children.size() == 1 ? mono(iv, n.children.get(0), fn, depth, reads, d + 1) : null;
            }
            case CXCursor_CStyleCastExpr, CXCursor_CXXStaticCastExpr, CXCursor_CXXFunctionalCastExpr -> {
                return mono(iv, operandOf(n), fn, depth, reads, d + 1);
            }
            case CXCursor_UnaryOperator -> {
                if (n.children.size() != 1) return null;
                Mono x = mono(iv, n.children.get(0), fn, depth, reads, d + 1);
                if (x == null) return null;
                return n.spelling.equals("-") ? x.negated() : n.spelling.equals("+") ? x : null;
            }
            case CXCursor_BinaryOperator -> {
                if (n.children.size() != 2) return null;
                ClangNode a = n.children.get(0), b = n.children.get(1);
                // a positive constant shifted left by any amount (1 << (bitDepth - 1)): positive, a shift into the
                // sign bit being undefined behaviour
                Double one = folded(a);
                if (n.spelling.equals("<<") && one != null && one > 0 && folded(b) == null)
                    return new Mono(1, Set.of());
                if (n.spelling.equals("<<") || n.spelling.equals(">>")) {
                    Double k = folded(b);
                    return k != null && k >= 0 ? mono(iv, a, fn, depth, reads, d + 1) : null;
                }
                if (!List.of("*", "/", "+", "-").contains(n.spelling)) return null;
                Mono x = mono(iv, a, fn, depth, reads, d + 1);
                Mono y = x == null ? null : mono(iv, b, fn, depth, reads, d + 1);
                if (y == null) return null;
                return switch (n.spelling) {
                    case "*", "/" -> x.times(y);
                    case "+" -> x.equals(y) ? x : null;
                    default -> x.equals(y.negated()) ? x : null;
                };
            }
            case CXCursor_CallExpr -> {
                String f = callee(n).replace("std::", "");
                if (NumericFacts.NON_NEGATIVE.contains(f)) return new Mono(1, Set.of());
                List<ClangNode> args = arguments(n);
                return NumericFacts.ROUNDING.contains(f) && args.size() == 1
                        ? mono(iv, args.get(0), fn, depth, reads, d + 1)
                        : null;
            }
            case CXCursor_ConditionalOperator -> {
                return signOf(iv, n, fn, depth, reads, d);
            }
            case CXCursor_ArraySubscriptExpr -> {
                // an element of read-only data at a variable's or a constant's index (c[i] of a const float *c):
                // one value across its reads while the index is
                ClangNode base = n.children.size() == 2 ? strip(n.children.get(0)) : null;
                ClangNode index = base == null ? null : strip(n.children.get(1));
                if (base == null
                        || base.kind != CXCursor_DeclRefExpr
                        || base.refUsr == null
                        || !(base.type.startsWith("const ") || base.canon.startsWith("const "))
                        || index == null) return null;
                String at = folded(index) != null ? String.valueOf(folded(index)) : null;
                if (at == null && index.kind == CXCursor_DeclRefExpr && index.refUsr != null) {
                    reads.refs.add(index);
                    at = index.refUsr;
                }
                return at == null ? null : new Mono(1, Set.of(base.refUsr + "[" + at + "]"));
            }
            case CXCursor_DeclRefExpr -> {
                if (n.refUsr == null || !(floating(n.canonKind) || integral(n.canonKind))) return null;
                double[] r = iv.of(n, fn, depth - 1);
                if (r[0] >= 0) return new Mono(1, Set.of());
                if (r[1] <= 0) return new Mono(-1, Set.of());
                if (!iv.unaliasedLocals(fn).contains(n.refUsr)) return null;
                ClangIntervals.Definitions defs = iv.definitions(fn);
                ClangNode init = defs.initial().get(n.refUsr);
                if (init != null && !defs.written().contains(n.refUsr) && init.offset < n.offset) {
                    reads.definitions.add(init);
                    return mono(iv, init, fn, depth, reads, d + 1);
                }
                reads.refs.add(n);
                return new Mono(1, Set.of(n.refUsr));
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * {@code x > 0 ? 1 : -1} (a sign taken from {@code x}: either comparison with 0, either constant first): the sign
     * of {@code x} (session 75 round B: an encoder's {@code int(c * sign * factor + 0.5) * sign} rounds a
     * magnitude); null for any other conditional.
     */
    private static Mono signOf(ClangIntervals iv, ClangNode n, ClangUnit.Function fn, int depth, Reads reads, int d) {
        if (n.children.size() != 3) return null;
        Double whenTrue = folded(n.children.get(1)), whenFalse = folded(n.children.get(2));
        ClangNode t = strip(n.children.get(0));
        if (whenTrue == null || whenFalse == null || whenTrue * whenFalse >= 0) return null;
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return null;
        Double left = folded(t.children.get(0)), right = folded(t.children.get(1));
        boolean xLeft = right != null && right == 0 && left == null;
        if (!xLeft && !(left != null && left == 0 && right == null)) return null;
        String op = xLeft ? t.spelling : mirrored(t.spelling);
        boolean above = op.equals(">") || op.equals(">=");
        if (!above && !op.equals("<") && !op.equals("<=")) return null;
        Mono x = mono(iv, t.children.get(xLeft ? 0 : 1), fn, depth, reads, d + 1);
        // a variable's sign only: at x == 0 the conditional is still 1 or -1, which a product with x makes 0, but which
        // alone would contradict a known sign of x (x >= 0, x > 0 ? 1 : -1 is -1 at 0)
        if (x == null || x.odd.isEmpty()) return null;
        // the branch taken for x >= 0 (x <= 0) gives a positive constant: the sign of x, else its opposite
        return above == whenTrue > 0 ? x : x.negated();
    }

    /** Whether each variable read is one value across its reads (see the class comment). */
    private static boolean stable(ClangUnit.Function fn, Reads reads) {
        Set<String> vars = new HashSet<>();
        for (ClangNode r : reads.refs) vars.add(r.refUsr);
        List<ClangNode> writes = new ArrayList<>();
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && vars.contains(x.refUsr) && written(x)) writes.add(x);
            if (x.kind == CXCursor_VarDecl && vars.contains(x.usr) && !x.children.isEmpty()) writes.add(x);
        });
        List<ClangNode> all = new ArrayList<>(reads.refs);
        all.addAll(reads.definitions);
        for (ClangNode w : writes) {
            String v = w.kind == CXCursor_VarDecl ? w.usr : w.refUsr;
            for (ClangNode r : reads.refs) if (r.refUsr.equals(v) && w.offset >= r.offset) return false;
            for (ClangNode loop = w.parent; loop != null && loop != fn.node(); loop = loop.parent) {
                if (loop.kind != CXCursor_ForStmt && loop.kind != CXCursor_WhileStmt && loop.kind != CXCursor_DoStmt)
                    continue;
                // the reads of the variable written and the definitions that read it: a definition before the loop
                // that does not read it (const int factor = 1 << (bitDepth - 1)) is one value for every iteration
                for (ClangNode x : all) {
                    boolean[] readsV = {x.kind == CXCursor_DeclRefExpr && v.equals(x.refUsr)};
                    x.forEach(y -> readsV[0] |= y.kind == CXCursor_DeclRefExpr && v.equals(y.refUsr));
                    if (readsV[0] && (x.offset < loop.offset || x.endOffset > loop.endOffset)) return false;
                }
            }
        }
        return true;
    }
}
