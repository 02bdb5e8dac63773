package dev.numlint.spotbugs;

import edu.umd.cs.findbugs.BugInstance;
import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.LocalVariableAnnotation;
import edu.umd.cs.findbugs.OpcodeStack;
import edu.umd.cs.findbugs.SystemProperties;
import edu.umd.cs.findbugs.bcel.OpcodeStackDetector;
import edu.umd.cs.findbugs.visitclass.DismantleBytecode;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;

/**
 * NL004 on bytecode: a float (FADD/FSUB) or double (DADD/DSUB, low priority) accumulator that is read from a local
 * or field, added to, and stored back into the same local or field inside a loop (a backward branch), where the
 * accumulator is carried across iterations (not reassigned on every path of the loop) and the loop is not a short constant
 * loop (induction variable compared with a constant, fewer than {@code min-trip-count} iterations). Loops with a
 * compensation step (Kahan/Neumaier: a subtraction of the old sum from the new sum) are not reported.
 */
@OpcodeStack.CustomUserValue
@ReportsRules(
        value = {"NL004"},
        speed = "fast")
public class FloatAccumulationDetector extends OpcodeStackDetector {
    private static final String NL004 = "NL004";

    /**
     * A constant trip count up to which a float sum is short: its worst-case relative error, n * 2^-24, is
     * at most 2^-16 and does not grow with the data (a 256-bin histogram); the same bound as the source analyzer's.
     */
    static final int SHORT_SUM = 256;

    /**
     * @param var     variable the value was last loaded from, or null
     * @param addends variables added into the value through FADD/FSUB chains (the left operand only for FSUB)
     * @param addPc   pc of the first addition of the chain, or -1
     * @param integral the value is integer-valued (converted from an int/long, or a sum/product of such values);
     *                 for an addition chain: every term is integer-valued or a variable (the accumulator)
     */
    record Val(String var, Set<String> addends, int addPc, boolean integral) {
        Val(String var, Set<String> addends, int addPc) {
            this(var, addends, addPc, false);
        }
    }

    /**
     * A store into a variable: an accumulation (addPc >= 0) or a plain assignment; {@code integerTerms} when every
     * added term is integer-valued (exact while the sum stays below 2^24 / 2^53).
     */
    private record Store(String var, int pc, int addPc, boolean isDouble, String objectVar, boolean integerTerms) {
        Store(String var, int pc, int addPc, boolean isDouble, String objectVar) {
            this(var, pc, addPc, isDouble, objectVar, false);
        }
    }

    private record Loop(int start, int end) {
        boolean contains(int pc) {
            return start <= pc && pc <= end;
        }
    }

    /** A conditional branch comparing an int variable with a constant. */
    private record Bound(int pc, int target, String var, int constant) {}

    private final BugReporter bugReporter;
    private final int minTripCount;

    private final List<Store> stores = new ArrayList<>();
    private final Map<Integer, Integer> backEdges = new HashMap<>();
    private final List<Bound> bounds = new ArrayList<>();
    private final List<int[]> constantIntStores = new ArrayList<>(); // {pc, register, value}
    private final Set<String> incremented = new HashSet<>();
    private final List<Integer> incrementPcs = new ArrayList<>();
    private final List<String> incrementVars = new ArrayList<>();
    private final List<Integer> compensations = new ArrayList<>();
    /** Forward branches {pc, target}: a plain store they jump over runs on one path only. */
    private final List<int[]> forwardBranches = new ArrayList<>();

    private Val result;
    private int resultPc = -1;
    /** Per class, computed on the first report: private methods called per element (see perElementMethods). */
    private Set<String> perElement;

    private String perElementClass;

    public FloatAccumulationDetector(BugReporter bugReporter) {
        this.bugReporter = bugReporter;
        PluginNotice.detectorLoaded();
        this.minTripCount = SystemProperties.getInt(
                "numlint.NL004.min-trip-count", BugPatterns.intOption(NL004, "min-trip-count", 16));
    }

    @Override
    public boolean shouldVisitCode(Code obj) {
        BitSet b = getClassContext().getBytecodeSet(getMethod());
        return b != null
                && (b.get(Const.FADD) || b.get(Const.FSUB) || b.get(Const.DADD) || b.get(Const.DSUB))
                && (b.get(Const.GOTO)
                        || b.get(Const.GOTO_W)
                        || b.get(Const.IF_ICMPLT)
                        || b.get(Const.IFNE)
                        || b.get(Const.IF_ICMPLE)
                        || b.get(Const.IFLT)
                        || b.get(Const.IFGT)
                        || b.get(Const.IF_ICMPNE));
    }

    @Override
    public void visit(Code obj) {
        stores.clear();
        backEdges.clear();
        bounds.clear();
        constantIntStores.clear();
        incremented.clear();
        incrementPcs.clear();
        incrementVars.clear();
        compensations.clear();
        forwardBranches.clear();
        result = null;
        resultPc = -1;
        super.visit(obj);
        if (!backEdges.isEmpty()) {
            analyze();
        }
    }

    private static Val val(OpcodeStack.Item item) {
        return item.getUserValue() instanceof Val v ? v : null;
    }

    private Val item(int depth) {
        return stack.getStackDepth() <= depth ? null : val(stack.getStackItem(depth));
    }

    @Override
    public void sawOpcode(int seen) {
        result = null;
        resultPc = -1;
        int pc = getPC();
        if (DismantleBytecode.isBranch(seen)) {
            int target = getBranchTarget();
            if (target <= pc) {
                backEdges.merge(target, pc, Math::max);
            } else {
                forwardBranches.add(new int[] {pc, target});
            }
            if (seen >= Const.IF_ICMPEQ && seen <= Const.IF_ICMPLE) {
                bound(pc, target, 1, 0);
                bound(pc, target, 0, 1);
            } else if (seen >= Const.IFEQ && seen <= Const.IFLE && stack.getStackDepth() > 0) {
                Val v = item(0);
                if (v != null && v.var != null) {
                    bounds.add(new Bound(pc, target, v.var, 0));
                }
            }
        }
        switch (seen) {
            case Const.FADD, Const.FSUB, Const.DADD, Const.DSUB: {
                Val a = item(1);
                Val b = item(0);
                boolean sub = seen == Const.FSUB || seen == Const.DSUB;
                if (sub && compensates(a, b)) {
                    compensations.add(pc);
                }
                Set<String> add = Vars.union(
                        a == null ? null : a.addends, sub || b == null ? null : b.addends, a == null ? null : a.var);
                if (!sub && b != null && b.var != null) {
                    add = Vars.union(add, null, b.var);
                }
                int first = a != null && a.addPc >= 0 ? a.addPc : (!sub && b != null && b.addPc >= 0 ? b.addPc : pc);
                boolean integral = integralOrVar(1) && integralOrVar(0);
                produce(new Val(null, add, first, integral));
                break;
            }
            case Const.FMUL, Const.DMUL:
                if (integral(1) && integral(0)) {
                    produce(new Val(null, Set.of(), -1, true));
                }
                break;
            case Const.I2F, Const.I2D, Const.L2F, Const.L2D:
                produce(new Val(null, Set.of(), -1, true));
                break;
            case Const.IINC:
                incrementPcs.add(pc);
                incrementVars.add(Vars.local(getRegisterOperand()));
                break;
            case Const.GETFIELD: {
                Val obj = item(0);
                produce(new Val(
                        Vars.field(obj == null ? null : obj.var, getClassConstantOperand(), getNameConstantOperand()),
                        Set.of(),
                        -1));
                break;
            }
            case Const.PUTFIELD: {
                Val obj = item(1);
                String objVar = obj == null ? null : obj.var;
                if (Vars.isFloatField(getXFieldOperand())) {
                    store(
                            Vars.field(objVar, getClassConstantOperand(), getNameConstantOperand()),
                            pc,
                            item(0),
                            "D".equals(getSigConstantOperand()),
                            objVar);
                }
                break;
            }
            case Const.PUTSTATIC:
                if (Vars.isFloatField(getXFieldOperand())) {
                    store(Vars.operandVar(this, seen), pc, item(0), "D".equals(getSigConstantOperand()), null);
                }
                break;
            default:
                if (Vars.isLoad(seen) || seen == Const.GETSTATIC) {
                    Val existing = Vars.isLoad(seen) ? val(stack.getLVValue(getRegisterOperand())) : null;
                    // the addends survive a round trip through a local (t = sum + y; ... t - sum is a
                    // compensation); the position does not: an accumulation is reported at its own addition
                    produce(new Val(Vars.operandVar(this, seen), existing == null ? Set.of() : existing.addends, -1));
                } else if (Vars.isStore(seen)) {
                    String var = Vars.operandVar(this, seen);
                    boolean fp = seen == Const.FSTORE
                            || seen == Const.DSTORE
                            || (seen >= Const.FSTORE_0 && seen <= Const.DSTORE_3);
                    if (fp) {
                        boolean dbl = seen == Const.DSTORE || (seen >= Const.DSTORE_0 && seen <= Const.DSTORE_3);
                        store(var, pc, item(0), dbl, null);
                    } else {
                        if (stack.getStackDepth() > 0
                                && stack.getStackItem(0).getConstant() instanceof Integer c
                                && (seen == Const.ISTORE || (seen >= Const.ISTORE_0 && seen <= Const.ISTORE_3))) {
                            constantIntStores.add(new int[] {pc, getRegisterOperand(), c});
                        }
                        stores.add(new Store(var, pc, -1, false, null));
                    }
                }
                break;
        }
    }

    /** The stack item is integer-valued: converted from an integer, or an integral constant. */
    private boolean integral(int depth) {
        if (stack.getStackDepth() <= depth) {
            return false;
        }
        Val v = item(depth);
        if (v != null && v.integral && v.addPc < 0) {
            return true;
        }
        Object c = stack.getStackItem(depth).getConstant();
        return c instanceof Number n
                && n.doubleValue() == Math.rint(n.doubleValue())
                && !Double.isInfinite(n.doubleValue());
    }

    /** Integer-valued, a variable (the accumulator itself; checked at the store), or an integer addition chain. */
    private boolean integralOrVar(int depth) {
        if (integral(depth)) {
            return true;
        }
        Val v = item(depth);
        return v != null && (v.var != null || v.addPc >= 0 && v.integral);
    }

    private void bound(int pc, int target, int varDepth, int constDepth) {
        if (stack.getStackDepth() < 2) {
            return;
        }
        Val v = item(varDepth);
        Object c = stack.getStackItem(constDepth).getConstant();
        if (v != null && v.var != null && c instanceof Integer k) {
            bounds.add(new Bound(pc, target, v.var, k));
        }
    }

    /** new - old (or old - new) where new was computed as old + y: the compensation step of a Kahan sum. */
    private static boolean compensates(Val a, Val b) {
        if (a == null || b == null) {
            return false;
        }
        return (b.var != null && a.addends.contains(b.var)) || (a.var != null && b.addends.contains(a.var));
    }

    private void store(String var, int pc, Val v, boolean isDouble, String objectVar) {
        if (var == null) {
            return;
        }
        boolean accumulates = v != null && v.addPc >= 0 && v.addends.contains(var);
        boolean integerTerms = accumulates && v.integral && v.addends.equals(Set.of(var));
        stores.add(new Store(var, pc, accumulates ? v.addPc : -1, isDouble, objectVar, integerTerms));
    }

    private void produce(Val v) {
        result = v;
        resultPc = getPC();
    }

    @Override
    public void afterOpcode(int seen) {
        super.afterOpcode(seen);
        if (result != null && resultPc == getPC() && !stack.isTop() && stack.getStackDepth() > 0) {
            stack.getStackItem(0).setUserValue(result);
        }
        result = null;
        resultPc = -1;
    }

    private void analyze() {
        List<Loop> loops = new ArrayList<>();
        backEdges.forEach((start, end) -> loops.add(new Loop(start, end)));
        // innermost first
        loops.sort((x, y) -> Integer.compare(x.end - x.start, y.end - y.start));
        // one report per accumulator and loop: a sum reused by a second loop is reported there too
        Set<String> reported = new HashSet<>();
        for (Store s : stores) {
            if (s.addPc < 0 || s.integerTerms && s.isDouble) {
                continue; // a double sum of integers is exact below 2^53: a count, not a rounding accumulation
            }
            for (Loop loop : loops) {
                if (!loop.contains(s.pc)) {
                    continue;
                }
                if (!carried(s, loop)) {
                    // reset in every iteration of the innermost loop around the addition: whatever the loops
                    // around it do, the value added to always starts from that reset (a conditional branch of the
                    // inner loop, such as its exit test, must not make the reset look conditional for an outer loop)
                    break;
                }
                if (reported.contains(s.var + "@" + loop.start)) {
                    break;
                }
                if (hasCompensation(loop)) {
                    break;
                }
                int trips = tripCount(loop);
                if (trips >= 0 && trips < minTripCount) {
                    continue; // short constant loop; an enclosing loop may still carry the sum
                }
                reported.add(s.var + "@" + loop.start);
                report(s, trips, windowed(s, loop, loops));
                break;
            }
        }
    }

    /**
     * The accumulator keeps its value from one iteration to the next: no plain assignment that runs in every
     * iteration of the loop (one that a branch inside the loop can jump over, a reset on one path, does not count).
     */
    private boolean carried(Store acc, Loop loop) {
        for (Store s : stores) {
            if (!loop.contains(s.pc)) {
                continue;
            }
            if (s.var.equals(acc.var) && s.addPc < 0 && !conditional(s.pc, loop)) {
                return false;
            }
            if (acc.objectVar != null && s.var.equals(acc.objectVar) && !"L0".equals(acc.objectVar)) {
                return false; // accumulates into a field of a different object each iteration
            }
        }
        return !acc.var.startsWith("F:null:");
    }

    /**
     * The sum starts afresh in every iteration of a loop around the carrying one (a plain store of the variable in
     * the outer loop, outside the inner one, on every path): a per-element sum (convolution, bin, row), which a
     * thread-per-element port keeps serial and in the same order.
     */
    private boolean windowed(Store acc, Loop inner, List<Loop> loops) {
        for (Loop outer : loops) {
            if (outer == inner || outer.start > inner.start || outer.end < inner.end) {
                continue;
            }
            for (Store s : stores) {
                if (s.var.equals(acc.var)
                        && s.addPc < 0
                        && outer.contains(s.pc)
                        && !inner.contains(s.pc)
                        && !conditional(s.pc, outer)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A forward branch inside the loop, before {@code pc}, jumps over it to a point still inside the loop:
     * {@code pc} runs on some paths of an iteration only (branches that leave the loop, such as javac's loop test
     * at the top, do not count).
     */
    private boolean conditional(int pc, Loop loop) {
        for (int[] b : forwardBranches) {
            if (b[0] >= loop.start && b[0] < pc && b[1] > pc && b[1] <= loop.end) {
                return true;
            }
        }
        return false;
    }

    private boolean hasCompensation(Loop loop) {
        for (int pc : compensations) {
            if (loop.contains(pc)) {
                return true;
            }
        }
        return false;
    }

    /** Constant trip count of the loop, or -1 when unknown. */
    private int tripCount(Loop loop) {
        for (Bound b : bounds) {
            boolean exits = b.target > loop.end || b.target < loop.start;
            boolean backEdge = b.pc == loop.end && b.target == loop.start;
            if (!loop.contains(b.pc) || !(exits || backEdge) || !inductionVariable(b.var, loop)) {
                continue;
            }
            Integer init = initialValue(b.var, loop.start);
            long trips = init == null ? Math.abs((long) b.constant) : Math.abs((long) b.constant - init);
            if (init == null && b.constant == 0) {
                continue;
            }
            return (int) Math.min(Integer.MAX_VALUE, trips);
        }
        return -1;
    }

    private boolean inductionVariable(String var, Loop loop) {
        for (int i = 0; i < incrementPcs.size(); i++) {
            if (loop.contains(incrementPcs.get(i)) && incrementVars.get(i).equals(var)) {
                return true;
            }
        }
        return false;
    }

    private Integer initialValue(String var, int loopStart) {
        Integer value = null;
        for (int[] s : constantIntStores) {
            if (s[0] < loopStart && Vars.local(s[1]).equals(var)) {
                value = s[2];
            }
        }
        return value;
    }

    private void report(Store s, int trips, boolean windowed) {
        String name = describe(s);
        String type = s.isDouble ? "double" : "float";
        String op = s.isDouble ? "DADD/DSUB" : "FADD/FSUB";
        // a float sum of integer values is exact below 2^24 (bounded); a double sum keeps ~16 digits: both low
        // so is a float sum over a short constant loop: at most SHORT_SUM * 2^-24 relative, a fixed bound
        boolean shortSum = trips >= 0 && trips <= SHORT_SUM;
        boolean bounded = s.isDouble || s.integerTerms || windowed || shortSum || perElementLocal(s);
        int priority = BugPatterns.priority(NL004, bounded ? "bounded" : "growing");
        String loopText = trips < 0 ? "a loop with an unknown trip count" : "a loop of " + trips + " iterations";
        String message = s.integerTerms
                ? BugPatterns.message(NL004, "java-bc-integer-sum", "name", name, "loop", loopText)
                : BugPatterns.message(NL004, "java-bc-sum", "type", type, "name", name, "op", op, "loop", loopText);
        BugInstance bug = new BugInstance(this, BugPatterns.type(NL004), priority)
                .addClassAndMethod(this)
                .addString(message)
                .addSourceLine(this, s.addPc);
        bugReporter.reportBug(bug);
    }

    /**
     * A sum in a local of a private method that every call in its class makes inside a loop, with that loop's counter
     * loaded right before the call ({@code setf(x, y, average(ip, x, y))}): the sum starts afresh for each element of
     * the caller's loop, a per-element window as a sum declared inside that loop.
     */
    private boolean perElementLocal(Store s) {
        if (!s.var.startsWith("L") || !getMethod().isPrivate() || getMethod().getArgumentTypes().length == 0) {
            return false;
        }
        String cls = getClassName();
        if (perElement == null || !cls.equals(perElementClass)) {
            perElement = perElementMethods(getThisClass());
            perElementClass = cls;
        }
        return perElement.contains(getMethodName() + getMethodSig());
    }

    /** Name + signature of the methods of {@code jc} that are called only inside loops, with a loop counter. */
    private static Set<String> perElementMethods(org.apache.bcel.classfile.JavaClass jc) {
        Map<String, Boolean> verdict = new HashMap<>();
        String self = jc.getClassName();
        org.apache.bcel.generic.ConstantPoolGen cp = new org.apache.bcel.generic.ConstantPoolGen(jc.getConstantPool());
        for (org.apache.bcel.classfile.Method m : jc.getMethods()) {
            Code code = m.getCode();
            if (code == null) {
                continue;
            }
            org.apache.bcel.generic.InstructionHandle[] hs;
            try {
                hs = new org.apache.bcel.generic.InstructionList(code.getCode()).getInstructionHandles();
            } catch (RuntimeException e) {
                continue;
            }
            // loops: [target, pc] of backward branches, and the registers incremented inside each
            List<int[]> loops = new ArrayList<>();
            for (org.apache.bcel.generic.InstructionHandle h : hs) {
                if (h.getInstruction() instanceof org.apache.bcel.generic.BranchInstruction b
                        && b.getTarget() != null
                        && b.getTarget().getPosition() <= h.getPosition()) {
                    loops.add(new int[] {b.getTarget().getPosition(), h.getPosition()});
                }
            }
            for (int k = 0; k < hs.length; k++) {
                if (!(hs[k].getInstruction() instanceof org.apache.bcel.generic.InvokeInstruction inv)
                        || !self.equals(inv.getClassName(cp))) {
                    continue;
                }
                String key = inv.getMethodName(cp) + inv.getSignature(cp);
                int pc = hs[k].getPosition();
                int args = inv.getArgumentTypes(cp).length;
                boolean withCounter = false;
                for (int[] l : loops) {
                    if (pc < l[0] || pc > l[1]) {
                        continue;
                    }
                    Set<Integer> counters = new HashSet<>();
                    for (org.apache.bcel.generic.InstructionHandle h : hs) {
                        if (h.getPosition() >= l[0]
                                && h.getPosition() <= l[1]
                                && h.getInstruction() instanceof org.apache.bcel.generic.IINC inc
                                && inc.getIncrement() > 0) {
                            counters.add(inc.getIndex());
                        }
                    }
                    // the instructions that push the arguments end right before the call
                    for (int j = k - 1; j >= Math.max(0, k - args); j--) {
                        if (hs[j].getInstruction() instanceof org.apache.bcel.generic.ILOAD ld
                                && counters.contains(ld.getIndex())) {
                            withCounter = true;
                        }
                    }
                }
                verdict.merge(key, withCounter, Boolean::logicalAnd);
            }
        }
        Set<String> out = new HashSet<>();
        verdict.forEach((k, v) -> {
            if (v) {
                out.add(k);
            }
        });
        return out;
    }

    private String describe(Store s) {
        if (s.var.startsWith("L")) {
            int reg = Integer.parseInt(s.var.substring(1));
            LocalVariableAnnotation lva =
                    LocalVariableAnnotation.getLocalVariableAnnotation(getMethod(), reg, s.pc, s.pc);
            String n = lva.getName();
            return n == null || n.startsWith("?") ? "in local " + reg : "'" + n + "'";
        }
        int dot = s.var.lastIndexOf('.');
        return "field '" + s.var.substring(dot + 1) + "'";
    }
}
