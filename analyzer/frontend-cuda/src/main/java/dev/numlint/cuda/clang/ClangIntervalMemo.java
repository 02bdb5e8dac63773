package dev.numlint.cuda.clang;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The intervals one query of {@link ClangIntervals} has evaluated, by node and depth left, per thread: a value that
 * several definitions read ({@code r0 = m ? v : r0; g0 = m ? min0 : g0; ...}, each read of {@code min0} and of the
 * previous {@code r0} evaluated again) is evaluated once. Without it the work grew with the number of paths through the
 * definitions, not with their number: an image library's colour conversions (session 80, ppl.cv's 3,115-line
 * {@code cvtcolor_compute.hpp}) ran past their 20 s budget, 120 functions not analyzed, and took minutes without it.
 *
 * <p>The memo gives the answer evaluation gives: an interval is kept only where it depends on nothing but its node,
 * function, depth and the guards it met. Nothing is kept while parameters or a receiver are bound
 * ({@link ClangIntervals#binding}) or a local array is assumed non-negative ({@link ClangLocalArrays#assuming}). Where
 * a cycle guard ({@link #enter}: a definition that reads itself, a field stored from itself, a mean of its own sum, a
 * call cycle) opened above an evaluation cut it short below, what it gave depends on that guard being open: it is used
 * again only while that opening lasts.
 */
final class ClangIntervalMemo {
    /** An interval kept, and the guard it depends on: its level and the serial of that opening, or level -1. */
    private record Kept(double[] value, int level, long serial) {}

    private record Entry(ClangUnit.Function fn, Kept[] byDepth) {}

    private static final ThreadLocal<Map<ClangNode, Entry>> CURRENT = new ThreadLocal<>();

    /**
     * The cycle guards open on this thread, each (its owner, its key) with its level (the number open before it), the
     * serial of each level's opening, and the least level that a cut met since {@link #of} last looked.
     */
    private static final class Guards {
        final Map<List<Object>, Integer> open = new HashMap<>();
        final List<Long> serials = new ArrayList<>();
        long next;
        int lowestCut = Integer.MAX_VALUE;

        boolean holds(Kept k) {
            return k.level() < 0 || k.level() < serials.size() && serials.get(k.level()) == k.serial();
        }
    }

    private static final ThreadLocal<Guards> GUARDS = ThreadLocal.withInitial(Guards::new);

    private ClangIntervalMemo() {}

    /** Runs {@code query} with a memo, the outermost query's on this thread, dropped when that query ends. */
    static double[] query(Supplier<double[]> query) {
        if (CURRENT.get() != null) return query.get();
        CURRENT.set(new IdentityHashMap<>());
        try {
            return query.get();
        } finally {
            CURRENT.remove();
        }
    }

    /**
     * Opens the cycle guard {@code key} of {@code owner} (a definition, a field, a mean, a function's parameters being
     * evaluated): false, a cut, when it is open already on this thread, and the value that asked for it must be
     * unknown there. Each true is closed by {@link #exit} in a finally block, the last opened first.
     */
    static boolean enter(Object owner, Object key) {
        Guards g = GUARDS.get();
        List<Object> k = List.of(owner, key);
        Integer level = g.open.get(k);
        if (level != null) {
            g.lowestCut = Math.min(g.lowestCut, level);
            return false;
        }
        g.open.put(k, g.open.size());
        g.serials.add(g.next++);
        return true;
    }

    static void exit(Object owner, Object key) {
        Guards g = GUARDS.get();
        g.open.remove(List.of(owner, key));
        g.serials.remove(g.serials.size() - 1);
    }

    /**
     * The interval of {@code n} in {@code fn} with {@code depth} left: the memo's, else {@code compute}'s. One that met
     * a cut at a guard opened above it is used again only while that guard is still the same opening.
     */
    static double[] of(ClangNode n, ClangUnit.Function fn, int depth, Supplier<double[]> compute) {
        Map<ClangNode, Entry> memo = CURRENT.get();
        if (memo == null || ClangIntervals.binding() || ClangLocalArrays.assuming()) return compute.get();
        Guards g = GUARDS.get();
        Entry e = memo.get(n);
        if (e != null && e.fn() != fn) return compute.get(); // one node read in two functions' terms: not kept
        Kept k = e == null || depth >= e.byDepth().length ? null : e.byDepth()[depth];
        if (k != null && g.holds(k)) return k.value().clone();
        int level = g.open.size();
        int above = g.lowestCut;
        g.lowestCut = Integer.MAX_VALUE;
        double[] r;
        int below;
        try {
            r = compute.get();
        } finally {
            below = g.lowestCut;
            g.lowestCut = Math.min(above, below);
        }
        if (e == null || depth >= e.byDepth().length) {
            Kept[] byDepth = new Kept[depth + 1];
            if (e != null) System.arraycopy(e.byDepth(), 0, byDepth, 0, e.byDepth().length);
            e = new Entry(fn, byDepth);
            memo.put(n, e);
        }
        e.byDepth()[depth] =
                below >= level ? new Kept(r.clone(), -1, 0) : new Kept(r.clone(), below, g.serials.get(below));
        return r;
    }
}
