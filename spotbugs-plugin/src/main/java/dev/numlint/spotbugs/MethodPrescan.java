package dev.numlint.spotbugs;

import dev.numlint.spotbugs.ConversionValues.Rng;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.Method;

/**
 * What {@link FloatConversionDetector} reads of a method before it visits it: the int registers that count loops
 * (their stores and the loop tests that bound them), the local arrays of numbers the method creates, whether it stores
 * floats into arrays, the slots of its arguments, and whether it is a setter. One instance serves the methods of a
 * detector in turn.
 */
final class MethodPrescan {
    /** Range of an int register inside a counting loop: {@code [lo, hi]} for the loads at pcs in [from, to). */
    private record CounterBound(int register, int from, int to, double lo, double hi) {}

    private final List<CounterBound> counterBounds = new ArrayList<>();
    private final Map<Integer, List<Integer>> registerStores = new HashMap<>();
    /** The method is a setter: void, straight-line, no call, one store into an array held in a field. */
    boolean setter;
    /** Local arrays of int, float or double the method creates, and stores nowhere else. */
    final Set<String> localArrays = new HashSet<>();

    boolean storesFloats;
    int argSlots;

    /**
     * One pass over the method's instructions before the visit: the stores of each int register (constant stores
     * and increments, for counting loops), the loop tests {@code i < C} that bound a counter in the loop body, and
     * whether the method is a setter (no branch, no call, one array store).
     */
    void scan(Code code, Method method, Supplier<BitSet> bytecodeSet, String methodSig) {
        counterBounds.clear();
        registerStores.clear();
        org.apache.bcel.generic.InstructionList il;
        try {
            il = new org.apache.bcel.generic.InstructionList(code.getCode());
        } catch (RuntimeException e) {
            setter = false;
            return;
        }
        org.apache.bcel.generic.InstructionHandle[] hs = il.getInstructionHandles();
        Map<Integer, Double> minStore = new HashMap<>();
        Map<Integer, Double> maxStore = new HashMap<>();
        Set<Integer> unknownStore = new HashSet<>();
        int arrayStores = 0;
        localArrays.clear();
        Set<Integer> otherAStore = new HashSet<>();
        boolean branches = false;
        boolean calls = false;
        storesFloats = false;
        for (int k = 0; k < hs.length; k++) {
            org.apache.bcel.generic.Instruction ins = hs[k].getInstruction();
            int pc = hs[k].getPosition();
            short op = ins.getOpcode();
            if (ins instanceof org.apache.bcel.generic.BranchInstruction) {
                branches = true;
            }
            if (ins instanceof org.apache.bcel.generic.InvokeInstruction) {
                calls = true;
            }
            if (ins instanceof org.apache.bcel.generic.ArrayInstruction && op >= Const.IASTORE && op <= Const.SASTORE) {
                arrayStores++;
                storesFloats |= op == Const.FASTORE || op == Const.DASTORE;
            }
            if (ins instanceof org.apache.bcel.generic.ASTORE ast) {
                org.apache.bcel.generic.Instruction prev = k > 0 ? hs[k - 1].getInstruction() : null;
                if (prev instanceof org.apache.bcel.generic.NEWARRAY na
                        && (na.getTypecode() == Const.T_INT
                                || na.getTypecode() == Const.T_FLOAT
                                || na.getTypecode() == Const.T_DOUBLE)) {
                    localArrays.add(Vars.local(ast.getIndex()));
                } else {
                    otherAStore.add(ast.getIndex());
                }
            }
            if (ins instanceof org.apache.bcel.generic.IINC inc) {
                int r = inc.getIndex();
                registerStores.computeIfAbsent(r, x -> new ArrayList<>()).add(pc);
                if (inc.getIncrement() <= 0) {
                    unknownStore.add(r);
                }
            } else if (ins instanceof org.apache.bcel.generic.ISTORE st) {
                int r = st.getIndex();
                registerStores.computeIfAbsent(r, x -> new ArrayList<>()).add(pc);
                Number c = k > 0 ? intConstant(hs[k - 1].getInstruction()) : null;
                if (c == null) {
                    unknownStore.add(r);
                } else {
                    minStore.merge(r, c.doubleValue(), Math::min);
                    maxStore.merge(r, c.doubleValue(), Math::max);
                }
            }
        }
        for (int r : otherAStore) {
            localArrays.remove(Vars.local(r));
        }
        // loop tests: iload r; <int constant>; if_icmpge/if_icmpgt forward (test at the top) or if_icmplt/if_icmple
        // backward (test at the bottom)
        for (int k = 2; k < hs.length; k++) {
            if (!(hs[k].getInstruction() instanceof org.apache.bcel.generic.IfInstruction br)
                    || !(hs[k - 2].getInstruction() instanceof org.apache.bcel.generic.ILOAD ld)) {
                continue;
            }
            Number c = intConstant(hs[k - 1].getInstruction());
            int r = ld.getIndex();
            if (c == null || unknownStore.contains(r) || !minStore.containsKey(r)) {
                continue;
            }
            int pc = hs[k].getPosition();
            int target = br.getTarget().getPosition();
            short op = br.getOpcode();
            double lo = minStore.get(r);
            if (target > pc && (op == Const.IF_ICMPGE || op == Const.IF_ICMPGT)) {
                double hi = op == Const.IF_ICMPGE ? c.doubleValue() - 1 : c.doubleValue();
                counterBounds.add(new CounterBound(r, pc, target, lo, hi));
            } else if (target < pc && (op == Const.IF_ICMPLT || op == Const.IF_ICMPLE)) {
                // a test at the bottom: the body may run once before it (do-while), with a stored constant
                double hi = op == Const.IF_ICMPLT ? c.doubleValue() - 1 : c.doubleValue();
                if (maxStore.get(r) <= hi) {
                    counterBounds.add(new CounterBound(r, target, pc, lo, hi));
                }
            }
        }
        argSlots = (method.isStatic() ? 0 : 1);
        for (org.apache.bcel.generic.Type t : method.getArgumentTypes()) {
            argSlots += t.getSize();
        }
        // a setter: void, straight-line, no call, one store into an array held in a field of the object
        BitSet ops = bytecodeSet.get();
        setter = !branches
                && !calls
                && arrayStores == 1
                && ops != null
                && ops.get(Const.GETFIELD)
                && methodSig.endsWith(")V");
    }

    private static Number intConstant(org.apache.bcel.generic.Instruction i) {
        if (i instanceof org.apache.bcel.generic.ICONST c) {
            return c.getValue();
        }
        if (i instanceof org.apache.bcel.generic.BIPUSH b) {
            return b.getValue();
        }
        if (i instanceof org.apache.bcel.generic.SIPUSH sp) {
            return sp.getValue();
        }
        return null;
    }

    /** Range of int register {@code r} loaded at {@code pc}: a counter's loop bound when no store intervenes. */
    Rng counterRange(int r, int pc) {
        for (CounterBound b : counterBounds) {
            if (b.register != r || pc < b.from || pc >= b.to) {
                continue;
            }
            boolean stored = false;
            for (int st : registerStores.getOrDefault(r, List.of())) {
                if (st >= b.from && st < pc) {
                    stored = true;
                }
            }
            if (!stored) {
                return Rng.of(b.lo, b.hi);
            }
        }
        return Rng.ALL;
    }
}
