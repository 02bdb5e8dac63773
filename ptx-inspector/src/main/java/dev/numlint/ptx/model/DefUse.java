package dev.numlint.ptx.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reaching definitions over the CFG and def-use chains. A definition is an (instruction, register) pair; a guarded
 * (predicated) definition generates but does not kill. For very large functions (blocks x definitions above
 * {@link #MAX_BITS}) no bit vector per block is solved ({@link #approximate()} is true): a query walks back from the
 * use over the predecessors, per register, to the definitions that reach it (cached per block and register), with
 * the same answers. Before session 69 such functions got flow-insensitive chains (every definition of a register
 * reached every use): nvcc's PTX of a path tracer's whole-frame kernel reuses one register for the constant
 * {@code 1.0f} of {@code 1 - c*c} and for the {@code powf} result computed from it, and that made {@code 1 - c*c} a
 * "sum" carried around the bounce loop (seven false NL004 warnings of session 68's round E).
 */
public final class DefUse {
    static final long MAX_BITS = 64L * 1024 * 1024;

    private final PtxFunction fn;
    private final Map<String, Integer> regIds = new HashMap<>();
    private final List<String> regNames = new ArrayList<>();
    /** site -> instruction index; site -> register id. */
    private int[] siteInstr;

    private int[] siteReg;
    /** register id -> sites defining it (ascending by instruction). */
    private int[][] defsOfReg;

    private BitSet[] in;
    private final boolean approximate;
    private int[][] users;
    /** Without the bit vectors: (block << 32 | register id) -> the definitions reaching the block's entry. */
    private final java.util.concurrent.ConcurrentHashMap<Long, int[]> entryDefs =
            new java.util.concurrent.ConcurrentHashMap<>();

    DefUse(PtxFunction fn) {
        this(fn, MAX_BITS);
    }

    /** {@code maxBits}: the largest blocks x definitions solved with bit vectors (tests pass 0 to walk instead). */
    DefUse(PtxFunction fn, long maxBits) {
        this.fn = fn;
        List<Instruction> ins = fn.instructions();
        int nSites = 0;
        int[] tmpInstr = new int[Math.max(16, ins.size())];
        int[] tmpReg = new int[tmpInstr.length];
        for (Instruction in : ins) {
            for (String r : in.defs()) {
                if (nSites == tmpInstr.length) {
                    tmpInstr = Arrays.copyOf(tmpInstr, nSites * 2);
                    tmpReg = Arrays.copyOf(tmpReg, nSites * 2);
                }
                tmpInstr[nSites] = in.index();
                tmpReg[nSites] = regId(r);
                nSites++;
            }
        }
        siteInstr = Arrays.copyOf(tmpInstr, nSites);
        siteReg = Arrays.copyOf(tmpReg, nSites);
        // sites per register, ascending (two passes over primitive arrays: no boxed lists for large functions)
        int[] count = new int[regNames.size()];
        for (int s = 0; s < nSites; s++) count[siteReg[s]]++;
        defsOfReg = new int[regNames.size()][];
        for (int r = 0; r < count.length; r++) defsOfReg[r] = new int[count[r]];
        Arrays.fill(count, 0);
        for (int s = 0; s < nSites; s++) defsOfReg[siteReg[s]][count[siteReg[s]]++] = s;
        List<BasicBlock> bs = fn.blocks();
        approximate = (long) bs.size() * nSites > maxBits;
        if (!approximate) solve(bs, nSites);
    }

    private int regId(String r) {
        Integer id = regIds.get(r);
        if (id == null) {
            id = regNames.size();
            regIds.put(r, id);
            regNames.add(r);
        }
        return id;
    }

    private void solve(List<BasicBlock> bs, int nSites) {
        int n = bs.size();
        in = new BitSet[n];
        BitSet[] out = new BitSet[n];
        for (int i = 0; i < n; i++) {
            in[i] = new BitSet(nSites);
            out[i] = new BitSet(nSites);
        }
        // first site index of each instruction
        int[] firstSite = new int[fn.instructions().size() + 1];
        Arrays.fill(firstSite, -1);
        for (int s = siteInstr.length - 1; s >= 0; s--) firstSite[siteInstr[s]] = s;
        boolean[] queued = new boolean[n];
        java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            work.add(i);
            queued[i] = true;
        }
        BitSet tmp = new BitSet(nSites);
        while (!work.isEmpty()) {
            dev.numlint.model.WorkBudget.check();
            int b = work.poll();
            queued[b] = false;
            BasicBlock bb = bs.get(b);
            BitSet inB = in[b];
            inB.clear();
            for (int p : bb.predecessors()) inB.or(out[p]);
            tmp.clear();
            tmp.or(inB);
            for (int i = bb.first(); i <= bb.last(); i++) {
                int s = firstSite[i];
                if (s < 0) continue;
                boolean guarded = fn.instruction(i).guard() != null;
                for (; s < siteInstr.length && siteInstr[s] == i; s++) {
                    if (!guarded) for (int k : defsOfReg[siteReg[s]]) tmp.clear(k);
                    tmp.set(s);
                }
            }
            if (!tmp.equals(out[b])) {
                out[b].clear();
                out[b].or(tmp);
                for (int sc : bb.successors()) {
                    if (!queued[sc]) {
                        queued[sc] = true;
                        work.add(sc);
                    }
                }
            }
        }
    }

    /** True when the function is too large for the bit-vector analysis (queries walk back over the CFG). */
    public boolean approximate() {
        return approximate;
    }

    /** Instruction indices of all definitions of {@code reg} in the function. */
    public int[] allDefs(String reg) {
        Integer id = regIds.get(reg);
        if (id == null) return new int[0];
        int[] sites = defsOfReg[id];
        int[] r = new int[sites.length];
        for (int i = 0; i < sites.length; i++) r[i] = siteInstr[sites[i]];
        return r;
    }

    /**
     * Instruction indices of the definitions of {@code reg} at instructions {@code from} to {@code to} (both included),
     * ascending: a binary search over the register's sites, so a query per block of a loop costs the block, not every
     * definition of the register (40,000 one-block loops over one counter register were 1.6 billion steps).
     */
    public int[] defsWithin(String reg, int from, int to) {
        Integer id = regIds.get(reg);
        if (id == null || from > to) return new int[0];
        int[] sites = defsOfReg[id];
        int lo = firstSiteAtOrAfter(sites, from);
        int hi = firstSiteAtOrAfter(sites, to + 1);
        int[] r = new int[hi - lo];
        for (int i = lo; i < hi; i++) r[i - lo] = siteInstr[sites[i]];
        return r;
    }

    /** The position in {@code sites} (ascending instruction order) of the first site at or after {@code instr}. */
    private int firstSiteAtOrAfter(int[] sites, int instr) {
        int lo = 0;
        int hi = sites.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (siteInstr[sites[mid]] < instr) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /**
     * Instruction indices of the definitions of {@code reg} that reach the point just before instruction
     * {@code instr} (empty when the register is only defined outside the function, e.g. never written).
     */
    public int[] reachingDefs(int instr, String reg) {
        Integer id = regIds.get(reg);
        if (id == null) return new int[0];
        Instruction at = fn.instruction(instr);
        BasicBlock bb = fn.blocks().get(at.block());
        int[] buf = new int[4];
        int n = 0;
        // the register's own definitions before instr in its block, latest first (a binary search in its ascending
        // sites, not a walk back over the block: a generated kernel's one block of 10,000 instructions made every
        // query walk it, quadratic in the block's size)
        int[] sites = defsOfReg[id];
        int lo = 0, hi = sites.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (siteInstr[sites[mid]] < instr) lo = mid + 1;
            else hi = mid;
        }
        for (int k = lo - 1; k >= 0; k--) {
            int i = siteInstr[sites[k]];
            if (i < bb.first()) break;
            if (n > 0 && buf[n - 1] == i) continue; // the register twice in one instruction's definitions
            if (n == buf.length) buf = Arrays.copyOf(buf, n * 2);
            buf[n++] = i;
            if (fn.instruction(i).guard() == null) return Arrays.copyOf(buf, n);
        }
        if (approximate) {
            int[] entry = entryDefs(bb.index(), id);
            int[] r = Arrays.copyOf(buf, n + entry.length);
            System.arraycopy(entry, 0, r, n, entry.length);
            return r;
        }
        BitSet inB = in[bb.index()];
        for (int s : defsOfReg[id]) {
            if (inB.get(s)) {
                if (n == buf.length) buf = Arrays.copyOf(buf, n * 2);
                buf[n++] = siteInstr[s];
            }
        }
        return Arrays.copyOf(buf, n);
    }

    /**
     * The definitions of register {@code reg} that reach the entry of block {@code block}, found by walking back over
     * the predecessors: a predecessor's last unguarded definition of the register stops the walk there (with the
     * guarded ones after it); a predecessor without one passes its guarded ones and the walk on. A register defined
     * once reaches every use of it (a use before the definition reads an undefined value, nothing to chain).
     */
    private int[] entryDefs(int block, int reg) {
        int[] sites = defsOfReg[reg];
        if (sites.length == 0) return sites;
        if (sites.length == 1) return new int[] {siteInstr[sites[0]]};
        long key = ((long) block << 32) | reg;
        int[] cached = entryDefs.get(key);
        if (cached != null) return cached;
        List<BasicBlock> bs = fn.blocks();
        BitSet seen = new BitSet(bs.size());
        java.util.ArrayDeque<Integer> work =
                new java.util.ArrayDeque<>(bs.get(block).predecessors());
        java.util.TreeSet<Integer> found = new java.util.TreeSet<>();
        while (!work.isEmpty()) {
            dev.numlint.model.WorkBudget.check();
            int p = work.poll();
            if (seen.get(p)) continue;
            seen.set(p);
            BasicBlock pb = bs.get(p);
            // the register's definitions in p, latest first
            int lo = 0, hi = sites.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (siteInstr[sites[mid]] <= pb.last()) lo = mid + 1;
                else hi = mid;
            }
            boolean killed = false;
            for (int k = lo - 1; k >= 0 && siteInstr[sites[k]] >= pb.first() && !killed; k--) {
                int i = siteInstr[sites[k]];
                found.add(i);
                killed = fn.instruction(i).guard() == null;
            }
            if (!killed) work.addAll(pb.predecessors());
        }
        int[] r = found.stream().mapToInt(Integer::intValue).toArray();
        entryDefs.put(key, r);
        return r;
    }

    /** The single reaching definition of {@code reg} at {@code instr}, or -1 when there are none or several. */
    public int uniqueDef(int instr, String reg) {
        int[] d = reachingDefs(instr, reg);
        return d.length == 1 ? d[0] : -1;
    }

    /** Instructions that read a value defined by {@code instr} (def-use chain). */
    public synchronized int[] users(int instr) {
        if (users == null) buildUsers();
        int[] u = users[instr];
        return u == null ? new int[0] : u;
    }

    private void buildUsers() {
        int n = fn.instructions().size();
        List<List<Integer>> tmp = new ArrayList<>(n);
        for (int i = 0; i < n; i++) tmp.add(null);
        for (Instruction in : fn.instructions()) {
            List<String> uses = in.uses();
            for (int k = 0; k < uses.size(); k++) {
                String r = uses.get(k);
                if (uses.indexOf(r) != k) continue;
                for (int d : reachingDefs(in.index(), r)) {
                    List<Integer> l = tmp.get(d);
                    if (l == null) tmp.set(d, l = new ArrayList<>(2));
                    if (!l.contains(in.index())) l.add(in.index());
                }
            }
        }
        users = new int[n][];
        for (int i = 0; i < n; i++) {
            List<Integer> l = tmp.get(i);
            if (l != null) users[i] = l.stream().mapToInt(Integer::intValue).toArray();
        }
    }
}
