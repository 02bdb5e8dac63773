package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Parameter intervals across calls ({@link Intervals}): a function of the translation unit whose every call the
 * analysis sees gives each parameter passed by value the union of the intervals its call sites pass.
 *
 * <p>A function qualifies when all its callers are visible:
 *
 * <ul>
 *   <li>the file is a translation unit of its own: a source file (not a header) that no scanned file includes;
 *   <li>the function is declared {@code static} (no other unit can call it) or {@code inline}/{@code
 *       __forceinline__} (a call from another unit uses that unit's own definition, another text); it is no
 *       kernel, member function or template, and no other function of the file has its name;
 *   <li>every mention of its name is a call ({@code f(...)}) inside a function body of the file, or a
 *       declaration of it outside any body: its address is never taken and nothing else names it;
 *   <li>it is in no cycle of calls (the callers are analyzed first, so their arguments' intervals are known);
 *   <li>every call was analyzed (as many calls recorded as mentions counted) with as many arguments as parameters.
 * </ul>
 *
 * A parameter is unknown when any call site's argument is unknown. Within the callee the parameter's interval is
 * its first reaching definition: an assignment in the body replaces it (see {@code FunctionAnalyzer#reach}). Calls
 * from headers the file includes are not seen; a header calling a static or inline function of its includer is
 * not a construction this rule expects.
 */
final class CallSiteRanges {
    private final Map<String, TopLevelSplitter.FunctionDef> candidates = new HashMap<>();
    /** Calls of each candidate counted in the function bodies of the file. */
    private final Map<String, Integer> expected = new HashMap<>();
    /** Calls of each candidate recorded by the analysis of its callers. */
    private final Map<String, Integer> recorded = new HashMap<>();
    /** The union of the intervals passed so far, per candidate and parameter; null where one was unknown. */
    private final Map<String, double[][]> unions = new HashMap<>();
    /** Candidates called with another number of arguments than it has parameters. */
    private final Set<String> mismatched = new HashSet<>();

    private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The file's functions that no other function of the file or its headers shares a name with. */
    private final Map<String, TopLevelSplitter.FunctionDef> unique = new HashMap<>();

    private final List<TopLevelSplitter.FunctionDef> order;

    /**
     * @param toks the translation unit's tokens (after preprocessing)
     * @param fns its functions, in file order
     * @param ownUnit whether the file is a translation unit of its own, asked only when it matters (see the class comment)
     */
    CallSiteRanges(
            List<PToken> toks, List<TopLevelSplitter.FunctionDef> fns, java.util.function.BooleanSupplier ownUnit) {
        Map<String, Integer> named = new HashMap<>();
        for (TopLevelSplitter.FunctionDef f : fns) named.merge(f.name, 1, Integer::sum);
        for (TopLevelSplitter.FunctionDef f : fns) {
            if (named.get(f.name) == 1
                    && f.className == null
                    && (f.templateParams == null || f.templateParams.isEmpty())) {
                unique.put(f.name, f);
            }
        }
        // whether the file is its own unit reads every listed file once: asked only when a candidate exists
        if (fns.stream().anyMatch(f -> f.internal && !f.global) && ownUnit.getAsBoolean()) {
            for (TopLevelSplitter.FunctionDef f : fns) {
                if (f.internal
                        && !f.global
                        && f.className == null
                        && (f.templateParams == null || f.templateParams.isEmpty())
                        && named.get(f.name) == 1
                        && !f.name.startsWith("operator")) {
                    candidates.put(f.name, f);
                }
            }
        }
        // the callers of each candidate, and whether every mention of its name is a call or a declaration
        Map<String, Set<Integer>> callers = new HashMap<>();
        if (!candidates.isEmpty()) {
            int[] starts = new int[fns.size()];
            Integer[] byStart = new Integer[fns.size()];
            for (int i = 0; i < fns.size(); i++) byStart[i] = i;
            java.util.Arrays.sort(byStart, (a, b) -> Integer.compare(fns.get(a).bodyStart, fns.get(b).bodyStart));
            for (int i = 0; i < byStart.length; i++) starts[i] = fns.get(byStart[i]).bodyStart;
            Set<String> rejected = new HashSet<>();
            for (int k = 0; k < toks.size(); k++) {
                PToken t = toks.get(k);
                if (t.getType() != CudaLexer.IDENTIFIER || !candidates.containsKey(t.getText())) continue;
                String name = t.getText();
                int prev = k > 0 ? toks.get(k - 1).getType() : -1;
                boolean call = k + 1 < toks.size()
                        && toks.get(k + 1).getType() == CudaLexer.LPAREN
                        && prev != CudaLexer.DOT
                        && prev != CudaLexer.ARROW
                        && prev != CudaLexer.SCOPE
                        && prev != CudaLexer.AMP;
                int at = java.util.Arrays.binarySearch(starts, k);
                int idx = at >= 0 ? at : -at - 2;
                int in = -1;
                if (idx >= 0) {
                    TopLevelSplitter.FunctionDef g = fns.get(byStart[idx]);
                    if (k > g.bodyStart && k <= g.bodyEnd) in = byStart[idx];
                }
                if (in >= 0) {
                    if (!call || fns.get(in) == candidates.get(name)) rejected.add(name); // not a call, or recursive
                    else {
                        expected.merge(name, 1, Integer::sum);
                        callers.computeIfAbsent(name, x -> new HashSet<>()).add(in);
                    }
                } else if (!call || !declares(toks, k - 1)) {
                    rejected.add(name); // named outside a body other than by a declaration: a pointer, an initializer
                }
            }
            rejected.forEach(candidates::remove);
            candidates.keySet().removeIf(n -> !expected.containsKey(n));
        }
        this.order = order(fns, callers);
    }

    /** Tokens that end the specifiers of a function declaration: types, qualifiers, CUDA execution spaces. */
    private static final Set<Integer> DECLARES = Set.of(
            CudaLexer.IDENTIFIER,
            CudaLexer.STAR,
            CudaLexer.GT,
            CudaLexer.VOID,
            CudaLexer.BOOL,
            CudaLexer.CHAR,
            CudaLexer.SHORT,
            CudaLexer.INT,
            CudaLexer.LONG,
            CudaLexer.SIGNED,
            CudaLexer.UNSIGNED,
            CudaLexer.FLOAT,
            CudaLexer.DOUBLE,
            CudaLexer.AUTO,
            CudaLexer.CONST,
            CudaLexer.STATIC,
            CudaLexer.INLINE,
            CudaLexer.FORCEINLINE,
            CudaLexer.NOINLINE,
            CudaLexer.DEVICE,
            CudaLexer.HOST);

    /** Whether the token before a name followed by '(' outside a body makes it a declaration (a type, a '*'). */
    private static boolean declares(List<PToken> toks, int prev) {
        return prev >= 0 && DECLARES.contains(toks.get(prev).getType());
    }

    /**
     * The functions in the order to analyze them: each candidate after all its callers, otherwise in file order. A
     * candidate in a cycle of calls is no candidate.
     */
    private List<TopLevelSplitter.FunctionDef> order(
            List<TopLevelSplitter.FunctionDef> fns, Map<String, Set<Integer>> callers) {
        if (candidates.isEmpty()) return fns;
        Map<TopLevelSplitter.FunctionDef, Integer> index = new IdentityHashMap<>();
        for (int i = 0; i < fns.size(); i++) index.put(fns.get(i), i);
        int[] waiting = new int[fns.size()];
        List<List<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < fns.size(); i++) calls.add(new ArrayList<>());
        for (Map.Entry<String, Set<Integer>> e : callers.entrySet()) {
            TopLevelSplitter.FunctionDef callee = candidates.get(e.getKey());
            if (callee == null) continue;
            int c = index.get(callee);
            for (int g : e.getValue()) {
                calls.get(g).add(c);
                waiting[c]++;
            }
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>();
        for (int i = 0; i < fns.size(); i++) if (waiting[i] == 0) ready.add(i);
        List<TopLevelSplitter.FunctionDef> out = new ArrayList<>(fns.size());
        boolean[] done = new boolean[fns.size()];
        while (!ready.isEmpty()) {
            int i = ready.poll();
            done[i] = true;
            out.add(fns.get(i));
            for (int c : calls.get(i)) if (--waiting[c] == 0) ready.add(c);
        }
        for (int i = 0; i < fns.size(); i++) {
            if (done[i]) continue;
            candidates.values().remove(fns.get(i)); // in a cycle of calls
            out.add(fns.get(i));
        }
        return out;
    }

    /** The functions of the unit in the order to analyze them (callers before the candidates they call). */
    List<TopLevelSplitter.FunctionDef> order() {
        return order;
    }

    /**
     * Whether a call of {@code name} takes its argument {@code i} by value (so the call cannot change a variable
     * passed there): the file defines the only function of that name, whose parameter is no reference.
     */
    boolean byValue(String name, int i, FileScope scope) {
        TopLevelSplitter.FunctionDef f = unique.get(name);
        if (f == null || i >= f.paramTypes.size() || f.refParams.get(i)) return false;
        List<FileScope.FuncSig> sigs = scope.functions.get(name);
        return sigs != null && sigs.size() == 1;
    }

    /** Whether calls of {@code name} are recorded. */
    boolean records(String name) {
        return candidates.containsKey(name);
    }

    /** A call of the candidate {@code name} (once per call expression) with its arguments' values. */
    void record(Object call, String name, List<E> args) {
        TopLevelSplitter.FunctionDef f = candidates.get(name);
        if (f == null || !seen.add(call)) return;
        recorded.merge(name, 1, Integer::sum);
        if (args.size() != f.paramTypes.size()) {
            mismatched.add(name);
            return;
        }
        double[][] u = unions.get(name);
        boolean first = u == null;
        if (first) {
            u = new double[args.size()][];
            unions.put(name, u);
        }
        for (int i = 0; i < args.size(); i++) {
            double[] v = passed(f.paramTypes.get(i), args.get(i));
            if (first) u[i] = v;
            else if (u[i] != null)
                u[i] = v == null ? null : new double[] {Math.min(u[i][0], v[0]), Math.max(u[i][1], v[1])};
        }
    }

    /** The interval a parameter of type {@code t} receives from {@code arg}, or null when it is unbounded. */
    private static double[] passed(CType t, E arg) {
        if (t == null || !(t.isInteger() || t.isFpScalar()) || !(arg.type.isInteger() || arg.type.isFpScalar())) {
            return null;
        }
        E held = E.of(t);
        if (t.isInteger()) {
            Intervals.set(
                    held,
                    arg.lo < 0 ? Math.ceil(arg.lo) : Math.floor(arg.lo),
                    arg.hi < 0 ? Math.ceil(arg.hi) : Math.floor(arg.hi));
        } else {
            Intervals.set(held, arg.lo, arg.hi);
        }
        if (Double.isInfinite(held.lo) || Double.isInfinite(held.hi)) return null;
        return new double[] {held.lo, held.hi};
    }

    /**
     * The parameter intervals of {@code f} from all its call sites (null entries for unknown ones), or null when
     * the function does not qualify or a call was not seen.
     */
    double[][] params(TopLevelSplitter.FunctionDef f) {
        if (candidates.get(f.name) != f || mismatched.contains(f.name)) return null;
        if (!recorded.getOrDefault(f.name, 0).equals(expected.get(f.name))) return null;
        double[][] u = unions.get(f.name);
        if (u == null) return null;
        double[][] out = new double[u.length][];
        for (int i = 0; i < u.length; i++) out[i] = f.refParams.get(i) || u[i] == null ? null : u[i].clone();
        return out;
    }
}
