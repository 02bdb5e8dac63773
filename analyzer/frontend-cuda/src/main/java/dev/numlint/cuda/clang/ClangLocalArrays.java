package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The elements of a local array of fixed size that the function only reads and writes element by element (no pointer
 * to it escapes, it is not static): an element read holds what a store to the array wrote, so its interval is the
 * union of the stored values' ({@code c[j] = 100 + random() % 155} in a loop, then {@code c[0]}: [100, 254]).
 *
 * <p>One store is more than its value: the normalisation of non-negative weights by their own sum, {@code for (i)
 * { w[i] = ...; acc += w[i]; } for (i) w[i] /= acc;} (a Gaussian kernel, a probability vector), leaves every element it
 * divides in [0, 1], since the sum is at least the element. It counts when the sum starts at 0, nothing else writes it,
 * it adds {@code w[j]} of the same array at its loop's counter, the summing loop and the dividing one have the same
 * header (so the same range; a bound in the condition is not written between them), the summing loop stores into the
 * array only before it adds, nothing stores into the array between the two loops, and every other store of the array
 * is non-negative. A read in a later loop of the same header, at its counter, reached by the dividing loop on every
 * path, sees only the divided elements and what was stored after the division. All-zero weights make 0/0, NaN: this
 * takes the weights to have a positive sum, as a kernel or a distribution has.
 */
final class ClangLocalArrays {
    private static final double INF = dev.numlint.knowledge.ValueBounds.INF;

    private final ClangUnit unit;
    private final ClangIntervals intervals;

    ClangLocalArrays(ClangUnit unit, ClangIntervals intervals) {
        this.unit = unit;
        this.intervals = intervals;
    }

    /**
     * A store into the array: its element ({@code w[i]}; an initializer list), the value stored (null: 0, or a division
     * in place), and the divisor of a division in place ({@code w[i] /= acc}).
     */
    private record Store(ClangNode element, ClangNode value, ClangNode divisor) {}

    /** The interval of {@code read}, an element read of a local array of {@code fn}; null when not known. */
    double[] element(ClangNode read, ClangUnit.Function fn, int depth) {
        if (depth <= 1 || read.children.size() != 2) return null;
        ClangNode base = strip(read.children.get(0));
        if (base == null || base.kind != CXCursor_DeclRefExpr || base.refUsr == null) return null;
        if (base.canonKind != CXType_ConstantArray) return null;
        List<Store> stores = stores(base.refUsr, fn);
        if (stores == null) return null;
        Store kill = null;
        for (Store s : stores) {
            if (s.divisor != null
                    && s.element.offset < read.offset
                    && (kill == null || s.element.offset > kill.element.offset)) kill = s;
        }
        double lo = INF;
        double hi = -INF;
        boolean killed = kill != null && kills(kill, read, fn);
        for (Store s : stores) {
            if (killed && s != kill && !after(s.element, loopOf(kill.element), read)) continue;
            double[] x = s.divisor != null
                    ? (normalises(s, stores, fn, depth) ? new double[] {0, 1} : null)
                    : s.value == null ? new double[] {0, 0} : intervals.of(s.value, fn, depth - 1);
            if (x == null) return null;
            lo = Math.min(lo, x[0]);
            hi = Math.max(hi, x[1]);
        }
        return lo <= hi && (lo > -INF || hi < INF) ? new double[] {lo, hi} : null;
    }

    /**
     * Every store into the local array {@code usr} of {@code fn}; null when the array is not a local of the function,
     * is static, is used otherwise than as the base of an element read or store, or is written otherwise than by
     * {@code =} and {@code /=} of a whole element of one subscript.
     */
    private List<Store> stores(String usr, ClangUnit.Function fn) {
        Optional<List<Store>> found = unit.perFunction("local-array-stores:" + usr, fn.node(), () -> {
            List<Store> out = new ArrayList<>();
            boolean[] bad = new boolean[1];
            boolean[] local = new boolean[1];
            fn.node().forEach(x -> {
                if (bad[0]) return;
                if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) {
                    local[0] = true;
                    String t = x.parent == null ? null : unit.text(x.parent);
                    if (t == null || t.strip().startsWith("static") || t.strip().startsWith("thread_local"))
                        bad[0] = true;
                    ClangNode init = x.children.isEmpty() ? null : x.children.get(x.children.size() - 1);
                    if (init != null && init.kind == CXCursor_InitListExpr) {
                        for (ClangNode v : init.children) out.add(new Store(init, v, null));
                        out.add(new Store(init, null, null)); // 0, in the elements the list leaves out
                    } else if (init != null && init.kind == CXCursor_StringLiteral) bad[0] = true;
                }
                if (x.kind != CXCursor_DeclRefExpr || !usr.equals(x.refUsr)) return;
                ClangNode c = x;
                ClangNode p = x.parent;
                while (p != null && (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_ParenExpr)) {
                    c = p;
                    p = p.parent;
                }
                if (p == null || p.kind != CXCursor_ArraySubscriptExpr || p.children.get(0) != c) {
                    bad[0] = true;
                    return;
                }
                Store s = store(p);
                if (s == BAD) bad[0] = true;
                else if (s != null) out.add(s);
            });
            return bad[0] || !local[0] ? Optional.empty() : Optional.of(out);
        });
        return found.orElse(null);
    }

    private static final Store BAD = new Store(null, null, null);

    /** The store {@code element} (a subscript of the array) takes part in: null when it is only read, BAD otherwise. */
    private static Store store(ClangNode element) {
        ClangNode c = outermost(element);
        ClangNode p = c.parent;
        if (p == null) return null;
        if (p.kind == CXCursor_ArraySubscriptExpr && p.children.get(0) == c) return BAD; // w[i][j]
        if (p.kind == CXCursor_UnaryOperator
                && (p.spelling.equals("&") || p.spelling.equals("++") || p.spelling.equals("--"))) return BAD;
        if (aliases(element)) return BAD;
        boolean lhs = p.children.size() == 2 && p.children.get(0) == c;
        if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=") && lhs)
            return new Store(element, p.children.get(1), null);
        if (p.kind == CXCursor_CompoundAssignOperator && lhs)
            return p.spelling.equals("/=") ? new Store(element, null, p.children.get(1)) : BAD;
        return null;
    }

    /**
     * Whether the division in place {@code s} ({@code w[i] /= acc}) normalises non-negative elements by their sum (the
     * class comment's conditions).
     */
    private boolean normalises(Store s, List<Store> stores, ClangUnit.Function fn, int depth) {
        ClangNode divLoop = loopOf(s.element);
        ClangNode acc = strip(s.divisor);
        if (divLoop == null || acc == null || acc.kind != CXCursor_DeclRefExpr || acc.refUsr == null) return false;
        if (!atCounter(s.element, divLoop)) return false;
        String array = squash(unit.text(s.element.children.get(0)));
        // the sum's writes: a definition to 0, then acc += array[j] in one loop of the same header
        List<ClangNode> adds = new ArrayList<>();
        List<ClangNode> zeros = new ArrayList<>();
        boolean[] other = new boolean[1];
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_VarDecl && acc.refUsr.equals(x.usr)) {
                ClangNode init = x.children.isEmpty() ? null : x.children.get(x.children.size() - 1);
                Double v = init == null ? null : folded(init);
                if (v != null && v == 0) zeros.add(x);
                else if (init != null) other[0] = true;
            }
            if (x.kind != CXCursor_DeclRefExpr || !acc.refUsr.equals(x.refUsr)) return;
            if (aliases(x)) other[0] = true;
            ClangNode p = outermost(x).parent;
            if (p == null || p.children.isEmpty() || strip(p.children.get(0)) != x) {
                if (p != null && p.kind == CXCursor_UnaryOperator && !p.spelling.equals("-")) other[0] = true;
                return;
            }
            if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=")) {
                Double v = folded(p.children.get(1));
                if (v != null && v == 0) zeros.add(p);
                else other[0] = true;
            } else if (p.kind == CXCursor_CompoundAssignOperator) {
                if (p.spelling.equals("+=")) adds.add(p);
                else other[0] = true;
            }
        });
        if (other[0] || zeros.size() != 1 || adds.size() != 1) return false;
        ClangNode add = adds.get(0);
        ClangNode sumLoop = loopOf(add);
        ClangNode term = strip(add.children.get(1));
        if (sumLoop == null || term == null || term.kind != CXCursor_ArraySubscriptExpr) return false;
        if (!array.equals(squash(unit.text(term.children.get(0)))) || !atCounter(term, sumLoop)) return false;
        if (!header(sumLoop).equals(header(divLoop)) || sumLoop.endOffset > divLoop.offset) return false;
        // in the same loop body or both outside loops: the dividing loop runs when the summing loop ran
        if (innermostLoop(sumLoop) != innermostLoop(divLoop)) return false;
        if (zeros.get(0).offset > sumLoop.offset || sumLoop.contains(zeros.get(0))) return false;
        if (boundWritten(sumLoop, sumLoop.endOffset, divLoop.offset, fn)) return false;
        for (Store o : stores) {
            if (o == s) continue;
            int at = o.element.offset;
            if (sumLoop.contains(o.element) && at > add.offset) return false;
            if (at > sumLoop.endOffset && at < divLoop.offset) return false;
            if (divLoop.contains(o.element)) return false;
            if (o.divisor != null) return false;
            if (o.value != null && intervals.of(o.value, fn, depth - 1)[0] < 0) return false;
        }
        return true;
    }

    /**
     * Whether the normalisation {@code kill} replaced every element {@code read} can see: its loop reaches the read on
     * every path, and the read is at the counter of a later loop of the same header.
     */
    private boolean kills(Store kill, ClangNode read, ClangUnit.Function fn) {
        ClangNode divLoop = loopOf(kill.element);
        ClangNode readLoop = loopOf(read);
        if (divLoop == null || readLoop == null || divLoop.contains(read) || !atCounter(read, readLoop)) return false;
        if (!header(divLoop).equals(header(readLoop)) || divLoop.endOffset > readLoop.offset) return false;
        if (boundWritten(divLoop, divLoop.endOffset, readLoop.offset, fn)) return false;
        for (ClangNode p = divLoop.parent; p != null && p != fn.node(); p = p.parent)
            if (isLoop(p) && p.contains(read)) return false;
        return dominates(divLoop, read, fn.node());
    }

    /** Whether the store {@code e} may run after {@code divLoop} and before {@code read} (or in the read's loop). */
    private static boolean after(ClangNode e, ClangNode divLoop, ClangNode read) {
        ClangNode readLoop = loopOf(read);
        return e.offset > divLoop.endOffset || readLoop != null && readLoop.contains(e);
    }

    /** The innermost for loop around {@code n}, or null when the innermost loop is not a for loop. */
    private static ClangNode loopOf(ClangNode n) {
        ClangNode l = innermostLoop(n);
        return l != null && l.kind == CXCursor_ForStmt && l.children.size() == 4 ? l : null;
    }

    /** Whether the subscript of the element {@code e} is the counter of {@code loop}, stepped only by its header. */
    private static boolean atCounter(ClangNode e, ClangNode loop) {
        ClangNode index = strip(e.children.get(1));
        String counter = loopVariable(loop);
        if (index == null || index.kind != CXCursor_DeclRefExpr || counter == null || !counter.equals(index.refUsr))
            return false;
        ClangNode body = loop.children.get(3);
        boolean[] written = new boolean[1];
        body.forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && counter.equals(x.refUsr) && written(x)) written[0] = true;
        });
        return !written[0];
    }

    /** A for loop's initialization, condition and increment, as text without blanks. */
    private String header(ClangNode loop) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 3; i++)
            b.append(squash(String.valueOf(unit.text(loop.children.get(i))))).append(';');
        return b.toString();
    }

    /**
     * Whether a variable the condition of {@code loop} reads, other than its counter, is written or aliased between the
     * offsets {@code from} and {@code to} of {@code fn}.
     */
    private static boolean boundWritten(ClangNode loop, int from, int to, ClangUnit.Function fn) {
        Set<String> bounds = new HashSet<>();
        String counter = loopVariable(loop);
        loop.children.get(1).forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && !x.refUsr.equals(counter)) bounds.add(x.refUsr);
        });
        boolean[] hit = new boolean[1];
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr
                    && bounds.contains(x.refUsr)
                    && x.offset > from
                    && x.offset < to
                    && (written(x) || aliases(x))) hit[0] = true;
        });
        return hit[0];
    }
}
