package dev.numlint.ptx.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Natural loops from back edges (edge u->h where h dominates u) and a trip-count estimate. */
final class LoopFinder {
    private LoopFinder() {}

    static List<Loop> find(PtxFunction fn) {
        List<BasicBlock> bs = fn.blocks();
        Map<Integer, List<Integer>> latches = new LinkedHashMap<>();
        for (BasicBlock b : bs) {
            for (int s : b.successors()) {
                if (fn.dominates(s, b.index()))
                    latches.computeIfAbsent(s, k -> new ArrayList<>()).add(b.index());
            }
        }
        List<Loop> loops = new ArrayList<>();
        for (Map.Entry<Integer, List<Integer>> e : latches.entrySet()) {
            int h = e.getKey();
            BitSet body = new BitSet();
            body.set(h);
            ArrayDeque<Integer> work = new ArrayDeque<>();
            for (int l : e.getValue()) {
                if (!body.get(l)) {
                    body.set(l);
                    work.add(l);
                }
            }
            while (!work.isEmpty()) {
                dev.numlint.model.WorkBudget.check();
                int x = work.poll();
                for (int p : bs.get(x).predecessors()) {
                    if (!body.get(p)) {
                        body.set(p);
                        work.add(p);
                    }
                }
            }
            long[] trip = {-1, 0};
            String[] ind = {null};
            estimateTrip(fn, h, e.getValue(), body, trip, ind);
            loops.add(new Loop(h, List.copyOf(e.getValue()), Loop.Blocks.of(body), trip[0], trip[1] != 0, ind[0]));
        }
        loops.sort((a, b) -> Integer.compare(b.body().cardinality(), a.body().cardinality()));
        return List.copyOf(loops);
    }

    /** Tries each conditional branch that leaves the loop or returns to the header. */
    private static void estimateTrip(
            PtxFunction fn, int header, List<Integer> latchList, BitSet body, long[] trip, String[] ind) {
        List<BasicBlock> bs = fn.blocks();
        DefUse du = fn.defUse();
        for (int b = body.nextSetBit(0); b >= 0; b = body.nextSetBit(b + 1)) {
            BasicBlock bb = bs.get(b);
            Instruction br = fn.instruction(bb.last());
            if (!br.opcode().equals("bra") || br.guard() == null) continue;
            Operand.Label target = null;
            for (Operand o : br.operands()) if (o instanceof Operand.Label l) target = l;
            if (target == null
                    || target.target() < 0
                    || target.target() >= fn.instructions().size()) continue;
            int tb = fn.instruction(target.target()).block();
            boolean targetInside = body.get(tb);
            boolean fallInside = b + 1 < bs.size() && body.get(b + 1);
            if (targetInside == fallInside) continue;
            int setpIdx = du.uniqueDef(br.index(), br.guard().name());
            if (setpIdx < 0) continue;
            Instruction setp = fn.instruction(setpIdx);
            if (!setp.opcode().equals("setp")
                    || setp.compare() == null
                    || setp.operands().size() < 3) continue;
            // Condition under which the loop continues.
            String cmp = setp.compare();
            boolean continueWhenTrue = targetInside != br.guardNegated();
            if (!continueWhenTrue) cmp = negate(cmp);
            if (cmp == null) continue;
            Operand a = setp.operand(1);
            Operand c = setp.operand(2);
            Long ca = constValue(fn, du, setpIdx, a, body);
            Long cc = constValue(fn, du, setpIdx, c, body);
            Operand.Reg iv;
            long bound;
            if (a instanceof Operand.Reg ra && ca == null && cc != null) {
                iv = ra;
                bound = cc;
            } else if (c instanceof Operand.Reg rc && cc == null && ca != null) {
                iv = rc;
                bound = ca;
                cmp = swap(cmp);
            } else {
                continue;
            }
            // induction: exactly one def in the loop, "add iv, iv, step"
            int stepDef = -1;
            for (int lb = body.nextSetBit(0); lb >= 0 && stepDef != -2; lb = body.nextSetBit(lb + 1)) {
                BasicBlock in = bs.get(lb);
                for (int d : du.defsWithin(iv.name(), in.first(), in.last())) {
                    if (stepDef >= 0) {
                        stepDef = -2;
                        break;
                    }
                    stepDef = d;
                }
            }
            if (stepDef < 0) continue;
            Instruction add = fn.instruction(stepDef);
            long step;
            if ((add.opcode().equals("add") || add.opcode().equals("sub"))
                    && add.operands().size() == 3
                    && add.operand(1) instanceof Operand.Reg r1
                    && r1.name().equals(iv.name())
                    && whole(add.operand(2)) != null) {
                long im = whole(add.operand(2));
                step = add.opcode().equals("sub") ? -im : im;
            } else {
                continue;
            }
            if (step == 0) continue;
            // initial value: the definitions reaching the header from outside the loop
            long[] init = initialValue(fn, du, header, iv.name(), body);
            if (init == null) continue;
            boolean pre = add.block() == setp.block() && setpIdx < stepDef;
            long t = count(cmp, init[0], step, bound);
            if (t < 0 && init[1] != 0) continue;
            if (t < 0) continue;
            if (pre) t += 1;
            trip[0] = Math.max(1, t);
            trip[1] = init[1];
            ind[0] = iv.name();
            return;
        }
    }

    /** {value, isBound}: the constant initial value, or for "and r, x, MASK" counting down, the mask as bound. */
    private static long[] initialValue(PtxFunction fn, DefUse du, int header, String reg, BitSet body) {
        BasicBlock h = fn.blocks().get(header);
        int[] defs = du.reachingDefs(h.first(), reg);
        Long value = null;
        boolean bound = false;
        for (int d : defs) {
            Instruction di = fn.instruction(d);
            if (body.get(di.block())) continue;
            long v;
            boolean isBound = false;
            if (di.opcode().equals("mov") && whole(di.operand(1)) != null) {
                v = whole(di.operand(1));
            } else if (di.opcode().equals("and") && di.operand(2) instanceof Operand.IntImm im && im.value() >= 0) {
                v = im.value();
                isBound = true;
            } else {
                Long c = constValue(fn, du, d, di.operand(1), null);
                if (di.opcode().equals("mov") && c != null) v = c;
                else return null;
            }
            if (value != null && value != v) return null;
            value = v;
            bound |= isBound;
        }
        return value == null ? null : new long[] {value, bound ? 1 : 0};
    }

    private static long count(String cmp, long init, long step, long bound) {
        long d = bound - init;
        switch (cmp) {
            case "lt", "lo":
                if (step <= 0 || d <= 0) return step > 0 ? 1 : -1;
                return (d + step - 1) / step;
            case "le", "ls":
                if (step <= 0 || d < 0) return step > 0 ? 1 : -1;
                return d / step + 1;
            case "gt", "hi":
                if (step >= 0 || d >= 0) return step < 0 ? 1 : -1;
                return (-d + (-step) - 1) / (-step);
            case "ge", "hs":
                if (step >= 0 || d > 0) return step < 0 ? 1 : -1;
                return (-d) / (-step) + 1;
            case "ne":
                if (d % step != 0 || d / step <= 0) return -1;
                return d / step;
            default:
                return -1;
        }
    }

    /**
     * An integer immediate, or a float immediate holding a whole number below 2^24: a float counter that starts,
     * steps and ends at such values ({@code for (float i = -300; i <= 300; i++)}) counts exactly like an integer.
     */
    static Long whole(Operand o) {
        if (o instanceof Operand.IntImm im) return im.value();
        if (o instanceof Operand.FloatImm f) {
            double v = f.value();
            if (v == Math.rint(v) && Math.abs(v) <= 16777216.0) return (long) v;
        }
        return null;
    }

    private static Long constValue(PtxFunction fn, DefUse du, int at, Operand o, BitSet loopBody) {
        if (whole(o) != null) return whole(o);
        if (o instanceof Operand.Reg r) {
            int d = du.uniqueDef(at, r.name());
            if (d < 0) return null;
            Instruction di = fn.instruction(d);
            if (loopBody != null && !loopBody.get(di.block())) {
                if (di.opcode().equals("mov")) return whole(di.operand(1));
                return null;
            }
            if (di.opcode().equals("mov")) return whole(di.operand(1));
        }
        return null;
    }

    private static String negate(String c) {
        return switch (c) {
            case "lt" -> "ge";
            case "ge" -> "lt";
            case "le" -> "gt";
            case "gt" -> "le";
            case "lo" -> "hs";
            case "hs" -> "lo";
            case "ls" -> "hi";
            case "hi" -> "ls";
            case "eq" -> "ne";
            case "ne" -> "eq";
                // float comparisons true for NaN: their negation is the ordered one (whole-number counters are no NaN)
            case "ltu" -> "ge";
            case "leu" -> "gt";
            case "gtu" -> "le";
            case "geu" -> "lt";
            default -> null;
        };
    }

    private static String swap(String c) {
        return switch (c) {
            case "lt" -> "gt";
            case "gt" -> "lt";
            case "le" -> "ge";
            case "ge" -> "le";
            case "lo" -> "hi";
            case "hi" -> "lo";
            case "ls" -> "hs";
            case "hs" -> "ls";
            default -> c;
        };
    }
}
