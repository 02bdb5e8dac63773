package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The elements of a local array of fixed size, or of a heap buffer a local pointer holds from its initialization
 * ({@code double *dk = malloc(...)}, {@code calloc}, {@code aligned_alloc}, {@code new double[n]}, with {@code ()} or
 * a list), that the function only reads and writes element by element (no pointer to it escapes: the pointer is
 * never assigned, copied, offset or passed to a call but {@code free} and {@code delete[]}; the variable is not
 * static): an element read holds what a store to the array wrote, so its interval is the union of the stored values'
 * ({@code c[j] = 100 + random() % 155} in a loop, then {@code c[0]}: [100, 254]); calloc's and {@code new T[n]()}'s
 * zeros count as a store of 0, malloc's indeterminate elements as none (as a local array's without an initializer).
 *
 * <p>One store is more than its value: the normalisation of non-negative weights by their own sum, {@code for (i)
 * w[i] = ...; for (i) acc += w[i]; for (i) w[i] /= acc;} (a Gaussian kernel, a probability vector; the fill and the
 * sum may share a loop), leaves every element it divides in [0, 1], since the sum is at least the element. It counts
 * when:
 *
 * <ul>
 *   <li>the sum starts at 0 before the summing loop, and nothing else writes it than {@code acc += w[i]}, one
 *       statement of the summing loop's body that runs on every trip (not under an if, a nested loop or another
 *       expression), adding the element of the same array at the loop's counter;
 *   <li>the division {@code w[i] /= acc} is likewise a statement of the dividing loop's body at its counter;
 *   <li>the summing loop and the dividing loop run over <b>the same range</b> ({@link #sameRange}: the same header
 *       text, blanks aside, whose names other than the counter are constants or unaliased locals and value parameters
 *       nothing writes from the first loop's start to the second's end, with no call, dereference, member or
 *       subscript in a header and no break, continue, goto or return in either body), so the sum adds every element
 *       that is divided;
 *   <li>both loops are outside any loop, the summing loop is reached on every path to the dividing one, and the
 *       function has no goto;
 *   <li>the sum's floating type is at least as wide as the elements' (a float sum of doubles may round below one);
 *   <li>the summing loop stores into the array only at its counter and before it adds, nothing stores into it between
 *       the two loops or in the dividing loop, and every other store of the array is non-negative.
 * </ul>
 *
 * A read in a later loop of the same range, at its counter, reached by the dividing loop on every path, sees only the
 * divided elements and what was stored after the division (those stores' values join the interval). All-zero
 * weights make 0/0, NaN, and an infinite weight inf/inf: this takes the weights to have a finite positive sum, as a
 * kernel or a distribution has (the intervals leave NaN out everywhere).
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
    private record Store(ClangNode element, ClangNode value, ClangNode divisor, boolean adds) {
        Store(ClangNode element, ClangNode value, ClangNode divisor) {
            this(element, value, divisor, false);
        }
    }

    /** The interval of {@code read}, an element read of a local array of {@code fn}; null when not known. */
    double[] element(ClangNode read, ClangUnit.Function fn, int depth) {
        if (depth <= 1 || read.children.size() != 2) return null;
        ClangNode base = strip(read.children.get(0));
        if (base == null || base.kind != CXCursor_DeclRefExpr || base.refUsr == null) return null;
        if (base.canonKind != CXType_ConstantArray && base.canonKind != CXType_Pointer) return null;
        if (ASSUMED.get().contains(base.refUsr)) return new double[] {0, INF};
        double[] initial = ClangInitialElements.of(unit, read, base, fn, e -> intervals.of(e, fn, depth - 1));
        if (initial != null) return initial;
        List<Store> stores = stores(base.refUsr, fn);
        if (stores == null) return null;
        double[] r = union(read, stores, fn, depth);
        if ((r == null || r[0] < 0) && inductive(base.refUsr, stores, fn, depth)) {
            // an integer element: up to its type's largest value (a count incremented past it would be undefined)
            double top = integral(read.canonKind)
                    ? dev.numlint.knowledge.ValueBounds.ofInteger(bytes(read.canonKind), unsignedKind(read.canonKind))[
                            1]
                    : INF;
            return new double[] {0, r == null ? top : Math.min(top, Math.max(0, r[1]))};
        }
        return r;
    }

    /**
     * Local arrays taken as never negative while their stores are checked ({@link #inductive}), per thread: while any
     * is, no memoised interval is consulted or kept ({@link #assuming}).
     */
    private static final ThreadLocal<Set<String>> ASSUMED = ThreadLocal.withInitial(HashSet::new);

    /** Whether an array is taken as never negative on this thread (memoised intervals are then left alone). */
    static boolean assuming() {
        return !ASSUMED.get().isEmpty();
    }

    /**
     * Whether every store into the array {@code usr} is non-negative when its elements are (an induction over the
     * stores in the order they run: a running sum of non-negative terms in the array itself, {@code acc[0] =
     * hist[0]; acc[i] = acc[i - 1] + hist[i] / (double)n;} with unsigned counts, session 53's histogram
     * equalisation); an element read before any store is indeterminate and, as everywhere here, not taken into
     * account. A division in place keeps the sign when its divisor is non-negative.
     */
    private boolean inductive(String usr, List<Store> stores, ClangUnit.Function fn, int depth) {
        Set<String> assumed = ASSUMED.get();
        if (stores.isEmpty() || !assumed.add(usr)) return false;
        try {
            for (Store s : stores) {
                // =, += and /= of a non-negative value (++ adds one, memset and calloc store zeros)
                ClangNode v = s.divisor != null ? s.divisor : s.value;
                if (v != null && intervals.of(v, fn, depth - 1)[0] < 0) return false;
            }
            return true;
        } finally {
            assumed.remove(usr);
        }
    }

    /** The union of the values the stores that reach {@code read} wrote, or null. */
    private double[] union(ClangNode read, List<Store> stores, ClangUnit.Function fn, int depth) {
        for (Store s : stores) if (s.adds) return null; // an addition in place has no value of its own
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
     * is static, is used otherwise than as the base of an element read or store (or as {@code memset}'s buffer with a
     * zero value, or under {@code sizeof}), or is written otherwise than by {@code =}, {@code /=}, {@code +=} and
     * {@code ++} of a whole element of one subscript ({@code +=} and {@code ++} count only for {@link #inductive}).
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
                    if (x.canonKind == CXType_Pointer) {
                        ClangNode a = allocation(init);
                        if (a == null) bad[0] = true;
                        else if (a.kind == CXCursor_CallExpr
                                ? callee(a).equals("calloc")
                                : !unit.text(a).strip().endsWith("]")) {
                            a.forEach(v -> {
                                if (v.kind == CXCursor_InitListExpr)
                                    for (ClangNode e : v.children) out.add(new Store(a, e, null));
                            });
                            out.add(new Store(a, null, null)); // calloc's, new T[n]()'s and new T[n]{...}'s zeros
                        }
                    } else if (init != null && init.kind == CXCursor_InitListExpr) {
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
                if (p != null && released(p, c)) return;
                if (p != null && p.kind == CXCursor_UnaryExpr) return; // sizeof hist, alignof: no element read
                if (p != null && zeroed(p, c)) {
                    out.add(new Store(p, null, null)); // memset(a, 0, sizeof a): zeros
                    return;
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

    /**
     * The allocation that initializes a heap buffer's pointer, through parentheses and casts: {@code malloc(...)},
     * {@code calloc(...)}, {@code aligned_alloc(...)}, {@code new T[n]} with or without an initializer; null for
     * any other initializer ({@code realloc} keeps the old elements, another pointer may alias them).
     */
    private ClangNode allocation(ClangNode init) {
        ClangNode x = init;
        while (x != null
                && (x.kind == CXCursor_UnexposedExpr || x.kind == CXCursor_ParenExpr || isExplicitCast(x))
                && !x.children.isEmpty()) x = x.children.get(x.children.size() - 1);
        if (x == null) return null;
        // placement new (new (buf) double[n]) reuses memory another pointer holds
        if (x.kind == CXCursor_CXXNewExpr) return squash(unit.text(x)).matches("(::)?new\\(.*") ? null : x;
        if (x.kind != CXCursor_CallExpr) return null;
        String name = callee(x);
        return name.equals("malloc") || name.equals("calloc") || name.equals("aligned_alloc") ? x : null;
    }

    /** Whether the use {@code c} of the array is the buffer of {@code memset(c, 0, n)}, its user {@code p}. */
    private static boolean zeroed(ClangNode p, ClangNode c) {
        if (p.kind != CXCursor_CallExpr || !callee(p).equals("memset") || p.children.size() != 4) return false;
        ClangNode v = strip(p.children.get(2));
        return p.children.get(1) == c && v != null && v.value != null && v.value == 0;
    }

    /** Whether the use {@code c} of a heap buffer's pointer, whose user is {@code p}, frees it. */
    private static boolean released(ClangNode p, ClangNode c) {
        if (p.kind == CXCursor_CXXDeleteExpr) return true;
        return p.kind == CXCursor_CallExpr
                && callee(p).equals("free")
                && p.children.size() == 2
                && p.children.get(1) == c;
    }

    /** The store {@code element} (a subscript of the array) takes part in: null when it is only read, BAD otherwise. */
    private static Store store(ClangNode element) {
        ClangNode c = outermost(element);
        ClangNode p = c.parent;
        if (p == null) return null;
        if (p.kind == CXCursor_ArraySubscriptExpr && p.children.get(0) == c) return BAD; // w[i][j]
        if (p.kind == CXCursor_UnaryOperator && p.spelling.equals("++")) return new Store(element, null, null, true);
        if (p.kind == CXCursor_UnaryOperator && (p.spelling.equals("&") || p.spelling.equals("--"))) return BAD;
        if (aliases(element)) return BAD;
        boolean lhs = p.children.size() == 2 && p.children.get(0) == c;
        if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=") && lhs)
            return new Store(element, p.children.get(1), null);
        if (p.kind == CXCursor_CompoundAssignOperator && lhs)
            return p.spelling.equals("/=")
                    ? new Store(element, null, p.children.get(1))
                    : p.spelling.equals("+=") ? new Store(element, p.children.get(1), null, true) : BAD;
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
        // a local (a global's sum could be changed by a call between the loops)
        if (!intervals.unaliasedLocals(fn).contains(acc.refUsr)) return false;
        if (!atCounter(s.element, divLoop)) return false;
        String array = strip(s.element.children.get(0)).refUsr;
        if (array == null) return false;
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
        ClangNode termBase = strip(term.children.get(0));
        if (termBase == null || !array.equals(termBase.refUsr) || !atCounter(term, sumLoop)) return false;
        if (!sameRange(sumLoop, divLoop, fn, true) || sumLoop.endOffset > divLoop.offset) return false;
        if (!everyTrip(add, sumLoop)
                || !everyTrip(outermost(s.element).parent, divLoop)
                || jumps(fn.node(), CXCursor_GotoStmt)) return false;
        // outside loops (a later trip of an enclosing loop could store between a division and the read), the
        // summing loop runs whenever the dividing loop runs
        if (innermostLoop(sumLoop) != null || innermostLoop(divLoop) != null) return false;
        if (!dominates(sumLoop, divLoop, fn.node())) return false;
        // a narrower sum rounds below an element it adds (a float sum of doubles)
        int elementKind = s.element.canonKind;
        if (!floating(acc.canonKind) || !floating(elementKind) || width(acc.canonKind) < width(elementKind))
            return false;
        if (zeros.get(0).offset > sumLoop.offset || sumLoop.contains(zeros.get(0))) return false;
        for (Store o : stores) {
            if (o == s) continue;
            int at = o.element.offset;
            if (sumLoop.contains(o.element) && (at > add.offset || !atCounter(o.element, sumLoop))) return false;
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
        if (!sameRange(divLoop, readLoop, fn, false) || divLoop.endOffset > readLoop.offset) return false;
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
     * Whether the for loops {@code first} and {@code later} (after it) run over the same range, the same sequence of
     * counter values: their headers (initialization, condition, increment) are the same text once blanks are
     * removed, and its names other than the counter (each loop may declare its own) name the same variables in both;
     * a header has no call, dereference, member access or subscript; every variable it reads other than the counter
     * is a compile-time constant, or a local or value parameter of {@code fn} whose address is never taken and that
     * nothing writes from the start of {@code first} to the end of {@code later} (their bodies included). With
     * {@code whole}, both loops also run the whole range: neither body has a break, continue, goto or return (a loop
     * that reads may stop early or skip: it reads no element outside the range).
     */
    private boolean sameRange(ClangNode first, ClangNode later, ClangUnit.Function fn, boolean whole) {
        if (!header(first).equals(header(later))) return false;
        String counter = loopVariable(first);
        String laterCounter = loopVariable(later);
        if (counter == null || laterCounter == null) return false;
        Set<String> reads = new HashSet<>();
        Set<String> laterReads = new HashSet<>();
        Set<String> locals = intervals.unaliasedLocals(fn);
        for (int i = 0; i < 3; i++) {
            if (!stable(first.children.get(i), counter, locals, reads)) return false;
            if (!stable(later.children.get(i), laterCounter, locals, laterReads)) return false;
        }
        if (!reads.equals(laterReads)) return false; // the same names, the same variables (none shadowed)
        for (ClangNode l : whole ? List.of(first, later) : List.<ClangNode>of()) {
            ClangNode body = l.children.get(3);
            if (jumps(body, CXCursor_BreakStmt) || jumps(body, CXCursor_ContinueStmt)) return false;
            if (jumps(body, CXCursor_GotoStmt) || jumps(body, CXCursor_ReturnStmt)) return false;
        }
        boolean[] hit = new boolean[1];
        fn.node().forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr
                    && reads.contains(x.refUsr)
                    && x.offset >= first.offset
                    && x.offset < later.endOffset
                    && (written(x) || aliases(x))) hit[0] = true;
        });
        return !hit[0];
    }

    /**
     * Whether the header part {@code n} reads only constants, the counter and the unaliased locals {@code locals}
     * (whose USRs it adds to {@code reads}), without a call, dereference, member access or subscript.
     */
    private static boolean stable(ClangNode n, String counter, Set<String> locals, Set<String> reads) {
        if (n.value != null) return true;
        if (n.kind == CXCursor_CallExpr
                || n.kind == CXCursor_MemberRefExpr
                || n.kind == CXCursor_ArraySubscriptExpr
                || n.kind == CXCursor_CXXThisExpr
                || n.kind == CXCursor_UnaryOperator && (n.spelling.equals("*") || n.spelling.equals("&"))) return false;
        if (n.kind == CXCursor_DeclRefExpr && !counter.equals(n.refUsr)) {
            if (n.refUsr == null || !locals.contains(n.refUsr)) return false;
            reads.add(n.refUsr);
        }
        for (ClangNode c : n.children) if (!stable(c, counter, locals, reads)) return false;
        return true;
    }

    /** Whether {@code n} holds a statement of the kind {@code kind} (a break, a continue, a goto, a return). */
    private static boolean jumps(ClangNode n, int kind) {
        boolean[] hit = new boolean[1];
        n.forEach(x -> hit[0] |= x.kind == kind || kind == CXCursor_GotoStmt && x.kind == CXCursor_IndirectGotoStmt);
        return hit[0];
    }

    /** The width of a floating type's kind, in bytes (long double and __float128 as 16). */
    private static int width(int kind) {
        if (kind == CXType_Half || kind == CXType_Float16) return 2;
        if (kind == CXType_Float) return 4;
        return kind == CXType_Double ? 8 : 16;
    }

    /**
     * Whether the statement {@code stmt} (an assignment) runs on every trip of {@code loop}: it is the loop's body or a
     * statement of it or of blocks in it, not under a condition, a nested loop or another expression.
     */
    private static boolean everyTrip(ClangNode stmt, ClangNode loop) {
        ClangNode c = stmt;
        for (ClangNode p = c.parent; p != loop; c = p, p = p.parent)
            if (p == null || p.kind != CXCursor_CompoundStmt) return false;
        return loop.children.get(3) == c;
    }
}
