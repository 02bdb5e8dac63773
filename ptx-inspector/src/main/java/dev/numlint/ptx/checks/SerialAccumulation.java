package dev.numlint.ptx.checks;

import com.google.auto.service.AutoService;
import dev.numlint.model.Confidence;
import dev.numlint.model.Impact;
import dev.numlint.ptx.facts.Consequences;
import dev.numlint.ptx.facts.Consequences.Consequence;
import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.model.BasicBlock;
import dev.numlint.ptx.model.DebugLoc;
import dev.numlint.ptx.model.DefUse;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Loop;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.SourcePos;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.ptx.rules.SourceText;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * NL004 in PTX: a float add/sub/fma whose result is carried around a loop back into itself (a serial accumulator)
 * when the loop's trip count is unknown or at least {@code min-trip-count}. Compensated (Kahan) sums and exact
 * integral steps (a float counter) are not accumulations of rounding error. The updates of one accumulator in
 * several branches of a loop body are one finding (the others are its related locations); a loop-invariant step
 * ({@code t += dt}) is an arithmetic progression, not a sum of data: a note. The message names the loop's source
 * line, never a PTX line.
 */
@AutoService(PtxCheck.class)
public final class SerialAccumulation implements PtxCheck {
    @Override
    public String ruleId() {
        return "NL004";
    }

    /** One accumulator: its first update, the instructions of its loop-carried cycle, its other updates. */
    private static final class Group {
        final Loop loop;
        final Instruction first;
        final Set<Integer> cycle;
        final List<Instruction> sites = new ArrayList<>();
        boolean step;
        /** Every update's added term is computed from the accumulator in the same iteration ({@link #recurrence}). */
        boolean recurrence;

        Group(Loop loop, Instruction first, Set<Integer> cycle, boolean step) {
            this.loop = loop;
            this.first = first;
            this.cycle = cycle;
            this.step = step;
        }
    }

    @Override
    public void check(PtxFacts facts, Consumer<PtxHit> out) {
        PtxFunction fn = facts.function();
        List<Loop> loops = fn.loops();
        if (loops.isEmpty()) {
            return;
        }
        int min = facts.settings().nl004MinTripCount();
        List<Group> groups = new ArrayList<>();
        // the loops around each block and the groups of each loop header, built once (a scan of every loop and
        // every group per instruction was quadratic on long functions)
        java.util.Map<Integer, List<Loop>> loopsOf = new java.util.HashMap<>();
        for (Loop l : loops) {
            Loop.Blocks body = l.body();
            for (int b = body.nextSetBit(0); b >= 0; b = body.nextSetBit(b + 1)) {
                dev.numlint.model.WorkBudget.check();
                loopsOf.computeIfAbsent(b, k -> new ArrayList<>()).add(l);
            }
        }
        java.util.Map<Integer, List<Group>> groupsOf = new java.util.HashMap<>();
        for (Instruction in : fn.instructions()) {
            dev.numlint.model.WorkBudget.check();
            String op = in.opcode();
            boolean acc = op.equals("add") || op.equals("sub") || op.equals("fma") || op.equals("mad");
            if (!acc || !PtxFacts.isF(in.type()) || in.defs().isEmpty() || integralStep(in) || doubling(in)) {
                continue;
            }
            List<Loop> enclosing = new ArrayList<>(loopsOf.getOrDefault(in.block(), List.of()));
            enclosing.sort(
                    (a, b) -> Integer.compare(a.body().cardinality(), b.body().cardinality()));
            for (Loop l : enclosing) {
                Set<Integer> cycle = new HashSet<>();
                if (!carriedAround(facts, in, l.body(), cycle)) {
                    continue;
                }
                if (l.tripCountKnown() && l.tripCount() < min) {
                    break;
                }
                if (shuffleTree(facts, in, l)) {
                    break;
                }
                if (compensated(facts, in) || cycle.stream().anyMatch(x -> compensated(facts, fn.instruction(x)))) {
                    break;
                }
                boolean step = constantStep(facts, in, l, cycle);
                boolean recurrence = !step && recurrence(facts, in, l, cycle);
                Group same = null;
                for (Group g : groupsOf.getOrDefault(l.header(), List.of())) {
                    if (g.cycle.contains(in.index()) && cycle.contains(g.first.index())) {
                        same = g;
                        break;
                    }
                }
                if (same != null) {
                    // another update of the same accumulator (one per branch of the loop body): one finding
                    same.sites.add(in);
                    same.step &= step;
                    same.recurrence &= recurrence;
                } else {
                    Group g = new Group(l, in, cycle, step);
                    g.recurrence = recurrence;
                    groups.add(g);
                    groupsOf.computeIfAbsent(l.header(), k -> new ArrayList<>()).add(g);
                }
                break;
            }
        }
        for (Group g : groups) {
            Group r = representative(facts, g);
            if (r != null) out.accept(hit(facts, r));
        }
    }

    /**
     * {@code add x, r, r}: the value doubled, exact in binary floating point (barring overflow), no sum of terms:
     * nvcc compiles {@code scale *= 2.0f} (a noise octave's lacunarity) so (session 59 round C: three false warnings).
     */
    static boolean doubling(Instruction in) {
        return in.opcode().equals("add")
                && in.operands().size() == 3
                && in.operand(1) instanceof Operand.Reg a
                && in.operand(2) instanceof Operand.Reg b
                && a.name().equals(b.name());
    }

    /**
     * The group with its accumulator first: the first update (in PTX order) whose accumulator operand is its own
     * previous value, moved or selected but not recomputed ({@code time = time + tau}). An update that only lies on
     * the cycle, recomputed from another accumulator ({@code tau = stop - time} before {@code time += tau}), is not
     * the sum: it comes first in the PTX, but the finding names the update that carries itself, the other is a
     * related location. A cycle without such an update (two partial updates {@code s += a; s += b}) keeps its first;
     * null when the cycle runs through such an update that is not the group's (it is reported with its own loop).
     */
    private static Group representative(PtxFacts facts, Group g) {
        if (selfCarried(facts, g.first)) return g;
        for (Instruction x : g.sites) {
            if (selfCarried(facts, x)) {
                Group r = new Group(g.loop, x, g.cycle, g.step);
                r.recurrence = g.recurrence;
                r.sites.add(g.first);
                for (Instruction y : g.sites) {
                    if (y != x) r.sites.add(y);
                }
                return r;
            }
        }
        for (int i : g.cycle) {
            // the cycle runs through another update that carries itself, grouped at another loop (an inner one):
            // this value is recomputed from that accumulator (TNL's currentTau = stop - time), reported there
            Instruction x = facts.function().instruction(i);
            boolean update = x.opcode().equals("add")
                    || x.opcode().equals("sub")
                    || x.opcode().equals("fma")
                    || x.opcode().equals("mad");
            if (update && PtxFacts.isF(x.type()) && selfCarried(facts, x)) return null;
        }
        return g;
    }

    /** The accumulator operand of {@code in} holds {@code in}'s own result, through moves and selections only. */
    private static boolean selfCarried(PtxFacts facts, Instruction in) {
        PtxFunction fn = facts.function();
        boolean fma = in.opcode().equals("fma") || in.opcode().equals("mad");
        for (int k = fma ? 3 : 1; k <= (fma ? 3 : 2); k++) {
            if (!(in.operand(k) instanceof Operand.Reg r)) continue;
            ArrayDeque<int[]> work = new ArrayDeque<>();
            Set<Integer> seen = new HashSet<>();
            for (int d : facts.defUse().reachingDefs(in.index(), r.name())) work.add(new int[] {d});
            int steps = 0;
            while (!work.isEmpty() && steps++ < 64) {
                int d = work.poll()[0];
                if (d == in.index()) return true;
                if (!seen.add(d)) continue;
                Instruction x = fn.instruction(d);
                if (!x.opcode().equals("mov") && !x.opcode().equals("selp")) continue;
                int last = x.opcode().equals("selp") ? 2 : 1;
                for (int j = 1; j <= last; j++) {
                    if (x.operand(j) instanceof Operand.Reg m) {
                        for (int e : facts.defUse().reachingDefs(x.index(), m.name())) work.add(new int[] {e});
                    }
                }
            }
        }
        return false;
    }

    private PtxHit hit(PtxFacts facts, Group g) {
        PtxFunction fn = facts.function();
        Loop l = g.loop;
        Instruction in = g.first;
        String trip = l.tripCountKnown()
                ? (l.tripCountBound() ? "at most " : "") + l.tripCount() + " iterations"
                : "an unknown trip count";
        String loop = loopText(facts, l, in);
        // PTX is device code: one thread's loop. A loop stepping by the grid or block size is that thread's share
        // of a parallel sum (about n/threads terms, combined across threads afterwards); any other loop sums in the
        // order of the serial loop it ports (as the CUDA source layer judges). Either is a note unless its value
        // decides something
        Consequence c;
        String key;
        if (g.step) {
            c = new Consequence(Impact.Kind.BOUNDED, Consequences.phrase("ptx-use-step"), null);
            key = "ptx-step";
        } else if (g.recurrence) {
            c = new Consequence(Impact.Kind.BOUNDED, Consequences.phrase("ptx-use-recurrence"), null);
            key = "ptx-recurrence";
        } else {
            boolean grid = gridStride(facts, l);
            Consequence use = facts.consequences().of(in);
            boolean decides = use.kind() == Impact.Kind.AMPLIFIED || use.kind() == Impact.Kind.CANCELLATION;
            if (decides
                    && "f64".equals(in.type())
                    && use.sink() != null
                    && use.sink().opcode().equals("setp")) {
                // a double sum (error n*2^-53) flips a comparison only within n*2^-53 of the threshold, as the
                // CUDA source layer rules; a conversion, rounding, index or atomic it reaches still decides
                decides = false;
            }
            c = decides
                    ? use
                    : new Consequence(
                            Impact.Kind.BOUNDED,
                            Consequences.phrase(grid ? "ptx-use-grid-share" : "ptx-use-one-thread"),
                            null);
            key = grid
                    ? decides ? "ptx-acc-grid-use" : "ptx-acc-grid"
                    : decides ? "ptx-acc-thread-use" : "ptx-acc-thread";
        }
        return new PtxHit(
                ruleId(),
                fn,
                in,
                PtxMessages.message(ruleId(), key, "instr", in.text(), "trip", trip, "loop", loop),
                Confidence.HIGH,
                List.of(),
                in.mnemonic() + (g.step ? "-step" : "-loop"),
                c,
                g.sites);
    }

    /**
     * Where the loop is written: the back edge's branch (a for or while loop's condition), else the header's first
     * located instruction, else any located instruction of the loop's body; only an instruction of the code the loop
     * is written in (user code at the accumulation's inlining level or further out, never a helper inlined into the
     * loop body, such as an operator+=), and only a line that holds a loop statement ({@code for}, {@code while},
     * {@code do}): nvcc may give the back edge the line of an {@code if (...) break;} or of a call in the body, which
     * is no loop. Null when no such line is known ({@link #NO_SOURCE_LOOP} when lines are known but none is a loop's).
     */
    private static DebugLoc loopLoc(PtxFacts facts, Loop l, Instruction acc) {
        if (acc.loc() == null) {
            return null;
        }
        List<SourcePos> chain = acc.loc().inlinedAt();
        PtxFunction fn = facts.function();
        List<Instruction> candidates = new ArrayList<>();
        for (int latch : l.latches()) {
            candidates.add(fn.instruction(fn.blocks().get(latch).last()));
        }
        BasicBlock header = fn.blocks().get(l.header());
        for (int i = header.first(); i <= header.last(); i++) {
            candidates.add(fn.instruction(i));
        }
        for (Instruction x : fn.instructions()) {
            if (l.contains(x.block())) candidates.add(x);
        }
        boolean placed = false;
        for (Instruction x : candidates) {
            DebugLoc d = x.loc();
            if (d == null || d.pos().line() <= 0 || !d.pos().equals(facts.writtenPos(x))) {
                continue; // unlocated, or in a toolkit header
            }
            List<SourcePos> c = d.inlinedAt();
            if (c.size() <= chain.size()
                    && chain.subList(chain.size() - c.size(), chain.size()).equals(c)) {
                String text = facts.sourceLine(x);
                if (text == null || SourceText.holdsLoop(text)) return d;
                placed = true;
            }
        }
        return placed ? NO_SOURCE_LOOP : null;
    }

    /** The loop's lines are known and none of them is a loop statement. */
    private static final DebugLoc NO_SOURCE_LOOP = new DebugLoc(new SourcePos(-1, null, -1, 0), null, List.of());

    /** " (loop at line N)", with the file's name when the loop is in another file than the accumulation. */
    private String loopText(PtxFacts facts, Loop l, Instruction acc) {
        DebugLoc d = loopLoc(facts, l, acc);
        SourcePos at = facts.writtenPos(acc);
        if (d == NO_SOURCE_LOOP) {
            return PtxMessages.format(ruleId(), "ptx-loop-unplaced");
        }
        if (d == null || at == null) {
            return "";
        }
        if (d.pos().fileIndex() == at.fileIndex()) {
            return PtxMessages.format(ruleId(), "ptx-loop", "line", d.pos().line());
        }
        String f = d.pos().file() == null ? "" : d.pos().file().replace('\\', '/');
        String name = f.substring(f.lastIndexOf('/') + 1);
        if (name.isEmpty() || name.length() > 28) {
            return ""; // the message stays one short line; the related locations name the call site
        }
        return PtxMessages.format(
                ruleId(), "ptx-loop-in", "file", name, "line", d.pos().line());
    }

    /**
     * The update adds a loop-invariant step ({@code t += dt}, {@code a = fma(k, h, a)} with {@code k} and {@code h}
     * defined before the loop): the accumulator is an arithmetic progression, not a sum of data. Its error is a
     * drift of the step's rounding, the same on every iteration.
     */
    private static boolean constantStep(PtxFacts facts, Instruction in, Loop l, Set<Integer> cycle) {
        List<Integer> steps = new ArrayList<>();
        if (in.opcode().equals("fma") || in.opcode().equals("mad")) {
            steps.add(1);
            steps.add(2);
        } else {
            for (int k = 1; k <= 2; k++) {
                if (!carried(facts, in, k, cycle)) {
                    steps.add(k);
                }
            }
            if (steps.size() != 1 || (in.opcode().equals("sub") && steps.get(0) == 1)) {
                return false; // both or neither operand carried, or step - acc (alternating sign)
            }
        }
        for (int k : steps) {
            if (!invariant(facts, in, k, l)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The added term is computed from the accumulator in the same iteration: a register operand that is not the
     * accumulator reaches, through definitions inside the loop, the update itself or its loop-carried cycle (sphere
     * tracing's {@code t += map(origin + t * dir)}, session 64 round H: a ray marcher's step was a warning, while the
     * CUDA source layer calls such a recurrence a note). Every step needs the previous one, so any port takes the same
     * steps in the same order; what a step's rounding changes, the next evaluation sees.
     */
    private static boolean recurrence(PtxFacts facts, Instruction in, Loop l, Set<Integer> cycle) {
        boolean fma = in.opcode().equals("fma") || in.opcode().equals("mad");
        ArrayDeque<Integer> work = new ArrayDeque<>();
        boolean any = false;
        for (int k = 1; k <= 2; k++) {
            if (!fma && carried(facts, in, k, cycle)) continue;
            if (!(in.operand(k) instanceof Operand.Reg r)) continue;
            any = true;
            for (int d : facts.defUse().reachingDefs(in.index(), r.name())) work.add(d);
        }
        if (!any) return false;
        PtxFunction fn = facts.function();
        Set<Integer> seen = new HashSet<>();
        int steps = 0;
        while (!work.isEmpty() && steps++ < 512) {
            int d = work.poll();
            if (d == in.index() || cycle.contains(d)) return true;
            if (!seen.add(d)) continue;
            Instruction x = fn.instruction(d);
            if (!l.contains(x.block())) continue; // defined before the loop: the same in every iteration
            for (int j = 1; j < x.operands().size(); j++) {
                if (x.operand(j) instanceof Operand.Reg m) {
                    for (int e : facts.defUse().reachingDefs(x.index(), m.name())) work.add(e);
                }
            }
        }
        return false;
    }

    /** Operand {@code k} is the accumulator: one of its definitions lies on the loop-carried cycle. */
    private static boolean carried(PtxFacts facts, Instruction in, int k, Set<Integer> cycle) {
        if (!(in.operand(k) instanceof Operand.Reg r)) {
            return false;
        }
        for (int d : facts.defUse().reachingDefs(in.index(), r.name())) {
            if (d == in.index() || cycle.contains(d)) {
                return true;
            }
        }
        return false;
    }

    /** Operand {@code k} has the same value in every iteration: a constant, or defined only before the loop. */
    private static boolean invariant(PtxFacts facts, Instruction in, int k, Loop l) {
        Operand o = in.operand(k);
        if (o instanceof Operand.FloatImm || o instanceof Operand.IntImm) {
            return true;
        }
        if (!(o instanceof Operand.Reg r)) {
            return false;
        }
        int[] defs = facts.defUse().reachingDefs(in.index(), r.name());
        if (defs.length == 0) {
            return false;
        }
        for (int d : defs) {
            Instruction x = facts.function().instruction(d);
            // a kernel parameter read in the loop (nvcc may load it again in each iteration): read-only, the same
            // value every time (session 76 round F: a shallow-water solver's 'programRuntime += dt' of a parameter)
            if (l.contains(x.block()) && !kernelParameter(facts, x)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code ld.param} of a parameter of the kernel itself at a fixed address ({@code [k_param_7]}): read-only. A
     * call's return parameter ({@code [retval0]}) is written by each call, and is no parameter of the kernel.
     */
    private static boolean kernelParameter(PtxFacts facts, Instruction x) {
        if (!x.opcode().equals("ld")
                || !"param".equals(x.space())
                || x.operands().size() < 2) return false;
        if (!facts.function().isEntry()) return false;
        Operand a = x.operand(1);
        Operand base = a instanceof Operand.Address ad && ad.extra().isEmpty() ? ad.base() : a;
        if (!(base instanceof Operand.Symbol sym)) return false;
        for (dev.numlint.ptx.model.Param p : facts.function().params())
            if (p.name().equals(sym.name())) return true;
        return false;
    }

    /**
     * Whether the loop steps an integer by the grid or block size ({@code i += blockDim.x * gridDim.x}): an
     * integer add in the loop that carries its own result ({@code add %r, %r, %step}) with a step computed from
     * {@code %nctaid} or {@code %ntid}.
     */
    static boolean gridStride(PtxFacts facts, Loop l) {
        for (Instruction x : facts.function().instructions()) {
            if (!l.contains(x.block()) || !x.opcode().equals("add") || !PtxFacts.isInteger(x.type())) {
                continue;
            }
            if (x.defs().isEmpty()) {
                continue;
            }
            String self = x.defs().get(0);
            for (int k = 1; k <= 2; k++) {
                int other = 3 - k;
                if (x.operand(k) instanceof Operand.Reg r
                        && r.name().equals(self)
                        && readsLaunchSize(facts, x, other, 0)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean readsLaunchSize(PtxFacts facts, Instruction at, int k, int depth) {
        Operand o = at.operand(k);
        if (o instanceof Operand.Reg r && r.isSpecial()) {
            return r.name().equals("%nctaid") || r.name().equals("%ntid");
        }
        if (!(o instanceof Operand.Reg) || depth > 5) {
            return false;
        }
        Instruction d = facts.defOf(at, k);
        if (d == null) {
            return false;
        }
        switch (d.opcode()) {
            case "mov", "cvt", "mul", "mad", "shl", "add", "sub" -> {
                for (int j = 1; j < d.operands().size(); j++) {
                    if (readsLaunchSize(facts, d, j, depth + 1)) {
                        return true;
                    }
                }
                return false;
            }
            default -> {
                return false;
            }
        }
    }

    private static boolean integralStep(Instruction in) {
        if (!in.opcode().equals("add") && !in.opcode().equals("sub")) {
            return false;
        }
        for (int k = 1; k <= 2; k++) {
            if (in.operand(k) instanceof Operand.FloatImm f) {
                double v = f.value();
                if (v == Math.rint(v) && Math.abs(v) <= 16777216) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The value defined by {@code start} flows (through float add/sub/fma-addend/mov/selp) back into it; {@code seen}
     * collects every instruction it flows through in the loop body.
     */
    /**
     * Whether the update adds a partner lane's partial sum: one of its operands is the value of a {@code shfl} (through
     * {@code mov}) of its own accumulator operand, at a lane offset that the loop halves or doubles in each iteration
     * ({@code shr}/{@code shl} by 1, {@code div}/{@code mul} by 2): {@code for (o = warpSize/2; o > 0; o /= 2) v +=
     * __shfl_down_sync(m, v, o)}. A halving or doubling offset runs through at most 32 values (5 across a warp), and
     * each step adds two partial sums of as many lanes: a butterfly (tree) reduction, whose depth is log2 of the lanes,
     * not one thread's sum of terms one after another. Nothing is reported.
     */
    static boolean shuffleTree(PtxFacts facts, Instruction in, Loop l) {
        PtxFunction fn = facts.function();
        DefUse du = facts.defUse();
        for (int k = 1; k < in.operands().size(); k++) {
            if (!(in.operand(k) instanceof Operand.Reg r)) continue;
            Instruction shfl = origin(fn, du, in.index(), r.name()).def();
            if (shfl == null || !shfl.opcode().equals("shfl") || shfl.operands().size() < 3) continue;
            if (!(shfl.operand(1) instanceof Operand.Reg value)) continue;
            String own = origin(fn, du, shfl.index(), value.name()).reg();
            boolean ownSum = false;
            for (int j = 1; j < in.operands().size(); j++) {
                if (j != k && in.operand(j) instanceof Operand.Reg a && a.name().equals(own)) ownSum = true;
            }
            if (!ownSum || !(shfl.operand(2) instanceof Operand.Reg offset)) continue;
            Instruction step = origin(fn, du, shfl.index(), offset.name()).def();
            if (step != null && l.contains(step.block()) && halvesOrDoubles(step)) return true;
        }
        return false;
    }

    /**
     * Where the value {@code reg} holds at {@code at} comes from, through plain register moves: the last register of
     * the chain and the instruction that defines it (null when it has no single definition or the chain is long).
     */
    private record Origin(String reg, Instruction def) {}

    private static Origin origin(PtxFunction fn, DefUse du, int at, String reg) {
        for (int guard = 0; guard < 8; guard++) {
            int d = du.uniqueDef(at, reg);
            if (d < 0) return new Origin(reg, null);
            Instruction di = fn.instruction(d);
            if (!di.opcode().equals("mov") || !(di.operand(1) instanceof Operand.Reg next)) return new Origin(reg, di);
            at = d;
            reg = next.name();
        }
        return new Origin(reg, null);
    }

    /** {@code shr x, y, 1}, {@code shl x, y, 1}, {@code div x, y, 2} or {@code mul x, y, 2} on integers. */
    private static boolean halvesOrDoubles(Instruction i) {
        if (i.operands().size() != 3 || !(i.operand(2) instanceof Operand.IntImm c)) return false;
        return switch (i.opcode()) {
            case "shr", "shl" -> c.value() == 1;
            case "div", "mul" -> c.value() == 2 && !PtxFacts.isF(i.type());
            default -> false;
        };
    }

    private static boolean carriedAround(PtxFacts facts, Instruction start, Loop.Blocks body, Set<Integer> seen) {
        PtxFunction fn = facts.function();
        ArrayDeque<Integer> work = new ArrayDeque<>();
        work.add(start.index());
        boolean found = false;
        while (!work.isEmpty()) {
            int cur = work.poll();
            List<String> curDefs = fn.instruction(cur).defs();
            for (int u : facts.defUse().users(cur)) {
                Instruction ui = fn.instruction(u);
                if (!body.get(ui.block())) {
                    continue;
                }
                if (u == start.index()) {
                    // carried around; the walk goes on to collect every update the value flows through
                    found |= accumulatorOperand(start, curDefs);
                    continue;
                }
                String op = ui.opcode();
                boolean pass = (op.equals("add")
                                || op.equals("sub")
                                || op.equals("mov")
                                || op.equals("selp")
                                || ((op.equals("fma") || op.equals("mad")) && usesAt(ui, 3, curDefs)))
                        && PtxFacts.isF(ui.type());
                if (pass && seen.add(u)) {
                    work.add(u);
                }
            }
        }
        return found;
    }

    private static boolean accumulatorOperand(Instruction acc, List<String> regs) {
        if (acc.opcode().equals("fma") || acc.opcode().equals("mad")) {
            return usesAt(acc, 3, regs);
        }
        return usesAt(acc, 1, regs) || usesAt(acc, 2, regs);
    }

    private static boolean usesAt(Instruction in, int k, List<String> regs) {
        return in.operand(k) instanceof Operand.Reg r && regs.contains(r.name());
    }

    private static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    /**
     * Kahan/compensated summation: the new sum and one of its inputs' old values meet in a subtraction
     * ({@code (t - sum) - y}).
     */
    private static boolean compensated(PtxFacts facts, Instruction add) {
        if (!add.opcode().equals("add") && !add.opcode().equals("sub")) {
            return false;
        }
        Set<String> inputs = new HashSet<>();
        for (int k = 1; k <= 2; k++) {
            if (add.operand(k) instanceof Operand.Reg r) {
                inputs.add(r.name());
            }
        }
        for (int u : facts.defUse().users(add.index())) {
            Instruction s = facts.function().instruction(u);
            if (!s.opcode().equals("sub") || u == add.index()) {
                continue; // the update itself in the next iteration (sum -= v) is no compensation
            }
            boolean newSum = false;
            for (int k = 1; k <= 2; k++) {
                if (s.operand(k) instanceof Operand.Reg r
                        && add.defs().contains(r.name())
                        && contains(facts.defUse().reachingDefs(s.index(), r.name()), add.index())) {
                    newSum = true;
                }
            }
            if (!newSum) {
                continue;
            }
            for (int k = 1; k <= 2; k++) {
                // an input's old value, still live beside the new sum (not the sum itself in a register the update
                // reuses: sum -= v after sum += w in another branch of the loop is no compensation)
                if (s.operand(k) instanceof Operand.Reg r
                        && inputs.contains(r.name())
                        && !contains(facts.defUse().reachingDefs(s.index(), r.name()), add.index())) {
                    return true;
                }
            }
        }
        return false;
    }
}
