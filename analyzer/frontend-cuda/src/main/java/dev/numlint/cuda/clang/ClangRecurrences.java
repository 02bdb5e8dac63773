package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether a sum is a recurrence (the {@code recurrence} of a {@link ClangSites.Sum}), by Clang's def-use, as the
 * hand-written front end's {@code AccumulationSites.recurrence}: the added terms read the accumulator's storage (the
 * variable with its members, without its indices: {@code J[k]} is {@code J}, {@code f.rem} is {@code f}'s member
 * {@code rem}, {@code p->x} is {@code p}'s {@code x}), directly or through values assigned anywhere in the carrying
 * loops (in any order: a value of the previous iteration counts; {@code D = dN[k] + dS[k]} with {@code dN[k] = J[k-1]
 * - Jc} in the same time step). Every step then needs the value the previous one produced, so no port can reorder its
 * terms. A struct member is told apart from its siblings ({@code f.t += len} does not depend on {@code f.rem}); an
 * array is one storage. Welford's running mean ({@code m += (x - m) / n} with {@code n} changed by the loop) is the
 * sum of the {@code x} over their count, no recurrence. The carrying loops are those around the update inside the
 * accumulator's declaration.
 */
final class ClangRecurrences {
    /** Separates a storage's variable from its members (unified symbol names hold '.' and '@'). */
    private static final char MEMBER = '\u0001';

    private ClangRecurrences() {}

    /** Whether {@code terms}, added to {@code lhs} by {@code update} in {@code fn}, make the sum a recurrence. */
    static boolean of(ClangNode lhs, List<ClangNode> terms, ClangNode update, ClangUnit.Function fn) {
        String acc = storage(lhs);
        if (acc == null) return false;
        ClangNode loop = outermostCarrying(lhs, update, fn);
        if (loop == null) return false;
        if (!dependsOn(acc, terms, loop)) return feedback(acc, loop);
        return !(terms.size() == 1 && runningMean(acc, terms.get(0), loop));
    }

    /**
     * {@link #of} over {@code loop}, the outermost loop that carries the sum once resets are counted
     * ({@link ClangLoops#carriedBy}): a value the accumulator feeds outside that loop (a later iteration of an outer
     * loop that resets the accumulator first) starts a new sum, not a recurrence.
     */
    static boolean in(ClangNode lhs, List<ClangNode> terms, ClangNode loop) {
        String acc = storage(lhs);
        if (acc == null || loop == null) return false;
        if (!dependsOn(acc, terms, loop)) return feedback(acc, loop);
        return !(terms.size() == 1 && runningMean(acc, terms.get(0), loop));
    }

    /**
     * Whether another update of the storage {@code acc} in {@code loop} subtracts or adds a value computed from it:
     * error feedback ({@code error += c[i] * s; q = lround(error); error -= q;}, a quantiser that carries what it
     * rounded away, session 58's FLAC LPC coefficients). The sum stays within a step of what was kept, and every step
     * needs the previous one.
     */
    private static boolean feedback(String acc, ClangNode loop) {
        List<ClangNode> others = new ArrayList<>();
        loop.forEach(x -> {
            if (x.kind == CXCursor_CompoundAssignOperator
                    && x.children.size() == 2
                    && (x.spelling.equals("-=") || x.spelling.equals("+="))
                    && acc.equals(storage(x.children.get(0)))) others.add(x.children.get(1));
        });
        // one def-use closure for all of them: a loop of many updates of one sum stays linear
        return !others.isEmpty() && dependsOn(acc, others, loop);
    }

    private static ClangNode outermostCarrying(ClangNode lhs, ClangNode update, ClangUnit.Function fn) {
        List<ClangNode> loops = carryingLoops(lhs, update, fn);
        return loops.isEmpty() ? null : loops.get(loops.size() - 1);
    }

    /**
     * {@code acc += (x - acc) / n} where {@code x} owes nothing to {@code acc} and the loop changes {@code n} (its
     * counter, {@code i + 1}, a count it increments).
     */
    private static boolean runningMean(String acc, ClangNode term, ClangNode loop) {
        ClangNode t = strip(term);
        if (t == null || t.kind != CXCursor_BinaryOperator || !t.spelling.equals("/") || t.children.size() != 2)
            return false;
        ClangNode num = strip(t.children.get(0));
        if (num == null || num.kind != CXCursor_BinaryOperator || !num.spelling.equals("-") || num.children.size() != 2)
            return false;
        if (!acc.equals(storage(num.children.get(1)))) return false;
        if (dependsOn(acc, List.of(num.children.get(0)), loop)) return false;
        Set<String> divisor = new HashSet<>();
        reads(t.children.get(1), divisor);
        for (String d : divisor) {
            String v = root(d);
            boolean[] changed = new boolean[1];
            loop.forEach(x -> {
                if (ClangLoops.writes(x, v)) changed[0] = true;
            });
            if (changed[0]) return true;
        }
        return false;
    }

    /** Whether {@code exprs} read the storage {@code acc}, directly or through values assigned anywhere in {@code loop}. */
    private static boolean dependsOn(String acc, List<ClangNode> exprs, ClangNode loop) {
        Set<String> needed = new HashSet<>();
        for (ClangNode e : exprs) reads(e, needed);
        List<String> keys = new ArrayList<>();
        List<Set<String>> from = new ArrayList<>();
        assignments(loop, keys, from);
        Map<String, List<Integer>> byRoot = new HashMap<>();
        for (int k = 0; k < keys.size(); k++)
            byRoot.computeIfAbsent(root(keys.get(k)), r -> new ArrayList<>()).add(k);
        boolean[] used = new boolean[keys.size()];
        ArrayDeque<String> work = new ArrayDeque<>(needed);
        while (!work.isEmpty()) {
            String n = work.poll();
            if (overlaps(n, acc)) return true;
            for (int k : byRoot.getOrDefault(root(n), List.of())) {
                if (used[k] || !overlaps(n, keys.get(k))) continue;
                used[k] = true;
                for (String r : from.get(k)) if (needed.add(r)) work.add(r);
            }
        }
        return false;
    }

    /** The assignments and initialised declarations in {@code loop}: the storage each writes, and what it reads. */
    private static void assignments(ClangNode loop, List<String> keys, List<Set<String>> from) {
        loop.forEach(x -> {
            String key = null;
            Set<String> r = new HashSet<>();
            if ((x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                            || x.kind == CXCursor_CompoundAssignOperator)
                    && x.children.size() == 2) {
                key = storage(x.children.get(0));
                reads(x.children.get(1), r);
                if (x.kind == CXCursor_CompoundAssignOperator && key != null) r.add(key);
            } else if (x.kind == CXCursor_VarDecl && x.usr != null && !x.children.isEmpty()) {
                ClangNode init = x.children.get(x.children.size() - 1);
                if (!clang_isExpressionKind(init.kind) && init.kind != CXCursor_InitListExpr) return;
                key = x.usr;
                reads(init, r);
            }
            if (key == null) return;
            keys.add(key);
            from.add(r);
        });
    }

    /**
     * The storage an lvalue or value names: the variable with its members and without its indices; null for
     * anything else.
     */
    static String storage(ClangNode e) {
        ClangNode x = strip(e);
        if (x == null) return null;
        switch (x.kind) {
            case CXCursor_ArraySubscriptExpr:
                return x.children.size() == 2 ? storage(x.children.get(0)) : null;
            case CXCursor_MemberRefExpr: {
                if (x.children.isEmpty()) return null;
                String b = storage(x.children.get(0));
                return b == null ? null : b + MEMBER + x.spelling;
            }
            case CXCursor_UnaryOperator:
                return x.spelling.equals("*") && x.children.size() == 1 ? storage(x.children.get(0)) : null;
            case CXCursor_DeclRefExpr:
                return x.refUsr;
            default:
                return null;
        }
    }

    /** The storages {@code t} reads, with those its indices read. */
    private static void reads(ClangNode t, Set<String> out) {
        if (t.kind == CXCursor_LambdaExpr) return;
        String st = storage(t);
        if (st != null) {
            out.add(st);
            indexReads(t, out);
            return;
        }
        for (ClangNode c : t.children) reads(c, out);
    }

    private static void indexReads(ClangNode e, Set<String> out) {
        ClangNode x = strip(e);
        if (x == null) return;
        if (x.kind == CXCursor_ArraySubscriptExpr && x.children.size() == 2) {
            reads(x.children.get(1), out);
            indexReads(x.children.get(0), out);
        } else if (x.kind == CXCursor_MemberRefExpr || x.kind == CXCursor_UnaryOperator && x.spelling.equals("*")) {
            if (!x.children.isEmpty()) indexReads(x.children.get(0), out);
        }
    }

    private static String root(String storage) {
        int m = storage.indexOf(MEMBER);
        return m < 0 ? storage : storage.substring(0, m);
    }

    private static boolean overlaps(String x, String y) {
        return x.equals(y) || memberOf(x, y) || memberOf(y, x);
    }

    private static boolean memberOf(String x, String y) {
        return x.length() > y.length() && x.charAt(y.length()) == MEMBER && x.startsWith(y);
    }

    /**
     * Whether {@code loop} also multiplies or divides the accumulator {@code lhs} in place ({@code m *= tc0}): the sum
     * is a recursive filter's state, each step's value a function of the last, in one order on every port.
     */
    static boolean scaled(ClangNode lhs, ClangNode loop) {
        String key = ClangGuards.Path.key(strip(lhs));
        if (key == null) return false;
        boolean[] hit = {false};
        loop.forEach(n -> {
            if (hit[0] || n.kind != CXCursor_CompoundAssignOperator || n.children.size() != 2) return;
            if (!n.spelling.equals("*=") && !n.spelling.equals("/=")) return;
            if (key.equals(ClangGuards.Path.key(strip(n.children.get(0))))) hit[0] = true;
        });
        return hit[0];
    }
}
