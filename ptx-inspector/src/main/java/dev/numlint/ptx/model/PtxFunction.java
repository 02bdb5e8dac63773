package dev.numlint.ptx.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code .entry} (kernel) or {@code .func}. Instructions are indexed 0..n-1 in program order; labels map to the
 * index of the first instruction after them ({@link #labelTarget}); branch operands are {@link Operand.Label}s
 * with resolved targets. CFG, dominators, natural loops, reaching definitions and def-use chains are computed
 * lazily on first use and are then immutable (safe to share between threads once computed).
 */
public final class PtxFunction {
    private final String name;
    private final boolean entry;
    private final String linkage;
    private final List<Param> params;
    private final List<Param> returnParams;
    private final Map<String, List<Long>> directives;
    private final List<RegisterDecl> registers;
    private final List<Variable> locals;
    private final List<Instruction> instructions;
    private final Map<String, Integer> labels;
    private final boolean declarationOnly;
    private final int ptxLine;
    DebugLoc firstLoc;

    private List<BasicBlock> blocks;
    private List<Loop> loops;
    private int[] idom;
    private DefUse defUse;

    public PtxFunction(
            String name,
            boolean entry,
            String linkage,
            List<Param> params,
            List<Param> returnParams,
            Map<String, List<Long>> directives,
            List<RegisterDecl> registers,
            List<Variable> locals,
            List<Instruction> instructions,
            Map<String, Integer> labels,
            boolean declarationOnly,
            int ptxLine,
            DebugLoc firstLoc) {
        this.name = name;
        this.entry = entry;
        this.linkage = linkage;
        this.params = List.copyOf(params);
        this.returnParams = List.copyOf(returnParams);
        this.directives = Collections.unmodifiableMap(new LinkedHashMap<>(directives));
        this.registers = List.copyOf(registers);
        this.locals = List.copyOf(locals);
        this.instructions = Collections.unmodifiableList(instructions);
        this.labels = Collections.unmodifiableMap(labels);
        this.declarationOnly = declarationOnly;
        this.ptxLine = ptxLine;
        this.firstLoc = firstLoc;
        for (int i = 0; i < instructions.size(); i++) {
            instructions.get(i).index = i;
        }
    }

    /** Mangled name as in the PTX. */
    public String name() {
        return name;
    }
    /** True for .entry (kernel), false for .func. */
    public boolean isEntry() {
        return entry;
    }
    /** visible / extern / weak, or null. */
    public String linkage() {
        return linkage;
    }
    /** Parameters with layout (offset, size, alignment). */
    public List<Param> params() {
        return params;
    }
    /** Return parameters of a .func (func_retval0 ...). */
    public List<Param> returnParams() {
        return returnParams;
    }

    public Param param(String n) {
        for (Param p : params) if (p.name().equals(n)) return p;
        for (Param p : returnParams) if (p.name().equals(n)) return p;
        return null;
    }
    /** Total size of the parameter buffer in bytes. */
    public int paramBufferSize() {
        int end = 0;
        for (Param p : params) end = Math.max(end, p.offset() + p.size());
        return end;
    }
    /** Performance directives: maxntid, reqntid, minnctapersm, maxnreg, noreturn (values as given). */
    public Map<String, List<Long>> directives() {
        return directives;
    }

    public List<RegisterDecl> registers() {
        return registers;
    }
    /** Declared type of a register (f32, b64, pred ...) or null. */
    public String registerType(String reg) {
        for (RegisterDecl d : registers) if (d.declares(reg)) return d.type();
        return null;
    }
    /** Function-level .local/.shared/.param variables (e.g. {@code __local_depot0}). */
    public List<Variable> locals() {
        return locals;
    }

    public List<Instruction> instructions() {
        return instructions;
    }

    public Instruction instruction(int i) {
        return instructions.get(i);
    }
    /** Label -> index of the instruction it precedes (== size() for a label at the end). */
    public Map<String, Integer> labels() {
        return labels;
    }

    public int labelTarget(String label) {
        return labels.getOrDefault(label, -1);
    }
    /** A prototype without body ({@code .extern .func foo(...);}). */
    public boolean isDeclarationOnly() {
        return declarationOnly;
    }

    public int ptxLine() {
        return ptxLine;
    }
    /** The first .loc in the body (the function's own definition line), or null. */
    public DebugLoc firstLoc() {
        return firstLoc;
    }

    // ------------------------------------------------------------------------------------------------ CFG

    /** Basic blocks in program order; block 0 is the entry. */
    public synchronized List<BasicBlock> blocks() {
        if (blocks == null) buildCfg();
        return blocks;
    }

    public BasicBlock blockOf(int instruction) {
        return blocks().get(instructions.get(instruction).block);
    }

    private void buildCfg() {
        int n = instructions.size();
        BitSet leader = new BitSet(n + 1);
        if (n > 0) leader.set(0);
        for (int t : labels.values()) if (t < n) leader.set(t);
        for (int i = 0; i < n; i++) {
            Instruction in = instructions.get(i);
            if (in.isTerminator() && i + 1 < n) leader.set(i + 1);
        }
        Map<Integer, String> labelAt = new HashMap<>();
        for (Map.Entry<String, Integer> e : labels.entrySet()) labelAt.putIfAbsent(e.getValue(), e.getKey());
        List<BasicBlock> bs = new ArrayList<>();
        for (int s = leader.nextSetBit(0); s >= 0 && s < n; ) {
            int e = leader.nextSetBit(s + 1);
            int last = (e < 0 || e > n ? n : e) - 1;
            BasicBlock b = new BasicBlock(bs.size(), s, last, labelAt.get(s));
            for (int i = s; i <= last; i++) instructions.get(i).block = b.index();
            bs.add(b);
            s = e;
        }
        for (BasicBlock b : bs) {
            Instruction lastIn = instructions.get(b.last());
            if (lastIn.opcode().equals("bra")) {
                for (Operand o : lastIn.operands()) {
                    if (o instanceof Operand.Label l && l.target() >= 0 && l.target() < n) {
                        addEdge(bs, b.index(), instructions.get(l.target()).block);
                    }
                }
            } else if (lastIn.opcode().equals("brx")) {
                // brx.idx %r, table: targets are in a .branchtargets list we do not resolve; be conservative.
                for (Operand o : lastIn.operands()) {
                    if (o instanceof Operand.Label l && l.target() >= 0 && l.target() < n) {
                        addEdge(bs, b.index(), instructions.get(l.target()).block);
                    }
                }
            }
            if (lastIn.fallsThrough() && b.index() + 1 < bs.size()) addEdge(bs, b.index(), b.index() + 1);
        }
        blocks = Collections.unmodifiableList(bs);
    }

    private static void addEdge(List<BasicBlock> bs, int from, int to) {
        if (!bs.get(from).successors.contains(to)) {
            bs.get(from).successors.add(to);
            bs.get(to).predecessors.add(from);
        }
    }

    /** Immediate dominator of each block (-1 for the entry and unreachable blocks). */
    public synchronized int[] immediateDominators() {
        if (idom == null) idom = computeIdom(blocks());
        return idom;
    }

    public boolean dominates(int a, int b) {
        if (a == b) return true;
        int[][] iv = dominatorIntervals();
        int[] pre = iv[0];
        int[] post = iv[1];
        if (a < 0 || b < 0 || a >= pre.length || b >= pre.length || pre[a] < 0 || pre[b] < 0) return false;
        return pre[a] <= pre[b] && post[b] <= post[a];
    }

    /** Pre- and post-order numbers of the dominator tree (-1 off it): a dominates b iff b's interval is in a's. */
    private int[][] domIntervals;

    private synchronized int[][] dominatorIntervals() {
        if (domIntervals != null) return domIntervals;
        int[] d = immediateDominators();
        int n = d.length;
        // children lists of the dominator tree (walking idom chains per query was quadratic on long functions)
        int[] childCount = new int[n + 1];
        for (int x = 0; x < n; x++) if (d[x] >= 0) childCount[d[x] + 1]++;
        for (int i = 0; i < n; i++) childCount[i + 1] += childCount[i];
        int[] children = new int[Math.max(0, childCount[n])];
        int[] fill = java.util.Arrays.copyOf(childCount, n + 1);
        for (int x = 0; x < n; x++) if (d[x] >= 0) children[fill[d[x]]++] = x;
        int[] pre = new int[n];
        int[] post = new int[n];
        java.util.Arrays.fill(pre, -1);
        java.util.Arrays.fill(post, -1);
        if (n > 0) {
            int[] stack = new int[n];
            int[] next = new int[n];
            int sp = 0;
            int clock = 0;
            stack[sp++] = 0;
            pre[0] = clock++;
            next[0] = childCount[0];
            while (sp > 0) {
                int x = stack[sp - 1];
                if (next[x] < childCount[x + 1]) {
                    int c = children[next[x]++];
                    if (pre[c] >= 0) continue;
                    pre[c] = clock++;
                    next[c] = childCount[c];
                    stack[sp++] = c;
                } else {
                    post[x] = clock++;
                    sp--;
                }
            }
        }
        domIntervals = new int[][] {pre, post};
        return domIntervals;
    }

    /** Cooper-Harvey-Kennedy iterative dominators over reverse post-order. */
    private static int[] computeIdom(List<BasicBlock> bs) {
        int n = bs.size();
        int[] idom = new int[n];
        java.util.Arrays.fill(idom, -1);
        if (n == 0) return idom;
        int[] rpo = new int[n];
        int[] order = new int[n];
        java.util.Arrays.fill(order, -1);
        int count = 0;
        // iterative DFS post-order
        int[] stack = new int[n];
        int[] next = new int[n];
        boolean[] seen = new boolean[n];
        int sp = 0;
        stack[sp++] = 0;
        seen[0] = true;
        List<Integer> post = new ArrayList<>(n);
        while (sp > 0) {
            int b = stack[sp - 1];
            List<Integer> succ = bs.get(b).successors();
            if (next[b] < succ.size()) {
                int s = succ.get(next[b]++);
                if (!seen[s]) {
                    seen[s] = true;
                    stack[sp++] = s;
                }
            } else {
                sp--;
                post.add(b);
            }
        }
        for (int i = post.size() - 1; i >= 0; i--) {
            rpo[count] = post.get(i);
            order[post.get(i)] = count++;
        }
        idom[0] = 0;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int k = 1; k < count; k++) {
                int b = rpo[k];
                int newIdom = -1;
                for (int p : bs.get(b).predecessors()) {
                    if (order[p] < 0 || idom[p] < 0) continue;
                    if (newIdom < 0) newIdom = p;
                    else {
                        int f1 = p, f2 = newIdom;
                        while (f1 != f2) {
                            while (order[f1] > order[f2]) f1 = idom[f1];
                            while (order[f2] > order[f1]) f2 = idom[f2];
                        }
                        newIdom = f1;
                    }
                }
                if (newIdom >= 0 && idom[b] != newIdom) {
                    idom[b] = newIdom;
                    changed = true;
                }
            }
        }
        idom[0] = -1;
        return idom;
    }

    /** Natural loops, one per header (back edges to the same header are merged), outermost first by size. */
    public synchronized List<Loop> loops() {
        if (loops == null) loops = LoopFinder.find(this);
        return loops;
    }

    /** The innermost loop containing block {@code b}, or null. */
    public Loop innermostLoop(int block) {
        Loop best = null;
        for (Loop l : loops()) {
            if (l.contains(block)
                    && (best == null || l.body().cardinality() < best.body().cardinality())) best = l;
        }
        return best;
    }

    /** Reaching definitions and def-use chains. */
    public synchronized DefUse defUse() {
        if (defUse == null) defUse = new DefUse(this);
        return defUse;
    }

    /** Worklist helper for analyses: blocks in reverse post-order are not needed by callers; exposed for tests. */
    static ArrayDeque<Integer> allBlocks(int n) {
        ArrayDeque<Integer> q = new ArrayDeque<>(n);
        for (int i = 0; i < n; i++) q.add(i);
        return q;
    }

    @Override
    public String toString() {
        return (entry ? ".entry " : ".func ") + name + " (" + instructions.size() + " instructions)";
    }
}
