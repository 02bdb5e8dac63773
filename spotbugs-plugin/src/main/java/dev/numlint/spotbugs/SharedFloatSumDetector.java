package dev.numlint.spotbugs;

import dev.numlint.knowledge.ConcurrentFloatApis;
import edu.umd.cs.findbugs.BugInstance;
import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.BytecodeScanningDetector;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.ConstantInvokeDynamic;
import org.apache.bcel.classfile.ConstantPool;
import org.apache.bcel.classfile.JavaClass;
import org.apache.bcel.classfile.Method;

/**
 * NL009 on bytecode: float and double sums shared between threads, whose order of addition varies.
 *
 * <ul>
 *   <li>a compare-and-set on {@code java.util.concurrent.atomic.Atomic(Integer|Long)(Array)} in a method that adds
 *       (FADD/DADD) and converts the sum to bits ({@code Float.floatToIntBits}, {@code Double.doubleToLongBits}),
 *       or whose update function (an invokedynamic lambda) does: a compare-and-set of a maximum (no addition) is
 *       not reported;
 *   <li>reads of a {@code DoubleAdder} ({@code sum}, {@code sumThenReset}, {@code doubleValue} ...): of a field, or
 *       of a local when a task of the class adds to a DoubleAdder (a local added to in one thread adds in order);
 *   <li>{@code DoubleStream.sum/average/summaryStatistics}, {@code reduce} with {@code Double::sum} or an adding
 *       lambda, and {@code collect(Collectors.summingDouble/averagingDouble/summarizingDouble)} in a method that
 *       made the stream parallel ({@code parallel()}, {@code parallelStream()}) with no {@code sequential()} after;
 *   <li>{@code Arrays.parallelPrefix(double[], ...)} with {@code Double::sum} or an adding lambda.
 * </ul>
 *
 * <p>The consequence is followed within the method (for a compare-and-set: within the methods of the class that read
 * the float bits back): a float-to-integer conversion, a rounding ({@code Math.round/floor/ceil/rint}) or a float
 * comparison after the site keeps the rule's priority; otherwise the report is low priority (a note).
 *
 * <p>Also: reads of a {@code DoubleAccumulator} built with an addition ({@code Double::sum} or an adding lambda), and
 * tasks (lambdas given to an executor, a thread or a parallel stream's {@code forEach}; {@code run}/{@code call}/
 * {@code compute} of Runnable, Callable, Thread and fork/join classes) that add floats or doubles into a field or
 * into an element of an array from outside the task whose index is not the task's own (also under
 * {@code synchronized}); a field read elsewhere in the class before a rounding, conversion or comparison keeps the
 * rule's priority. The API names are {@link ConcurrentFloatApis}, shared with the source check.
 */
@ReportsRules(
        value = {"NL009"},
        speed = "fast")
public class SharedFloatSumDetector extends BytecodeScanningDetector {
    private static final String NL009 = "NL009";
    private static final String ATOMIC = "java/util/concurrent/atomic/";
    private static final String ACCUMULATOR_SIG = "L" + ATOMIC + "DoubleAccumulator;";
    private static final String ADDER_SIG = "L" + ATOMIC + "DoubleAdder;";
    // the JDK's shared-sum APIs: one list for this detector and the Java source check (rules module, knowledge)
    private static final Set<String> CAS = ConcurrentFloatApis.COMPARE_AND_SET;
    private static final Set<String> CAS_OWNERS = ConcurrentFloatApis.BIT_HOLDERS;
    private static final Set<String> ADDER_READS = ConcurrentFloatApis.ADDER_READS;
    private static final Set<String> STREAM_TERMINALS = ConcurrentFloatApis.STREAM_SUMS;
    private static final Set<String> SUMMING_COLLECTORS = ConcurrentFloatApis.SUMMING_COLLECTORS;
    static final Set<String> ROUNDING = Set.of("round", "floor", "ceil", "rint");

    private final BugReporter bugReporter;

    /** Per class: name+signature of its methods that add in float/double and convert a value to bits. */
    private Map<String, Boolean> sumToBits;
    /** Per class: a method (not itself a compare-and-set loop) reads float bits back and rounds or compares them. */
    private Map<String, Boolean> bitsDecide;

    private String lastClass;
    /** Per class: task methods (name+signature) to what runs them ("pool tasks" ...), see {@link #scanTasks}. */
    private Map<String, Task> tasks;
    /** Per class: fields assigned a {@code new DoubleAccumulator(adding function, ...)}. */
    private Set<String> additiveAccumulatorFields;
    /** Per class: instance array fields that the class only ever assigns arrays it allocates itself. */
    private Set<String> ownArrays = Set.of();
    /** Per class: methods that hand a task adding to a DoubleAdder to a pool, a thread or a parallel stream. */
    private final Set<String> adderTaskMethods = new java.util.HashSet<>();

    private static final String OWN = "<own>";

    /** A method of the class that runs on other threads; {@code captured} leading parameters come from outside. */
    private record Task(String label, int captured, boolean ownFields) {}

    // per method: locals assigned an adding DoubleAccumulator; the last accumulator loaded (field name or local)
    private final Set<Integer> additiveAccumulatorLocals = new java.util.HashSet<>();
    private boolean accumulatorAdds;
    private String lastAccumulator;

    // per method
    private boolean adds;
    private boolean toBits;
    private int parallelPc;
    private int summingCollectorPc;
    private String lastLambda;

    public SharedFloatSumDetector(BugReporter bugReporter) {
        this.bugReporter = bugReporter;
        PluginNotice.detectorLoaded();
    }

    @Override
    public boolean shouldVisitCode(Code obj) {
        BitSet b = getClassContext().getBytecodeSet(getMethod());
        return b != null
                && (b.get(Const.INVOKEVIRTUAL)
                        || b.get(Const.INVOKEINTERFACE)
                        || b.get(Const.INVOKESTATIC)
                        || b.get(Const.FADD)
                        || b.get(Const.DADD)
                        || b.get(Const.FSUB)
                        || b.get(Const.DSUB));
    }

    @Override
    public void visit(Code obj) {
        adds = false;
        toBits = false;
        parallelPc = -1;
        summingCollectorPc = -1;
        lastLambda = null;
        additiveAccumulatorLocals.clear();
        accumulatorAdds = false;
        lastAccumulator = null;
        if (!getClassName().equals(lastClass)) {
            lastClass = getClassName();
            sumToBits = null;
            bitsDecide = null;
            tasks = null;
            additiveAccumulatorFields = null;
        }
        super.visit(obj);
        if (tasks == null) {
            scanTasks();
        }
        Task task = tasks.get(getMethodName() + getMethodSig());
        if (task != null) {
            taskSums(task);
        }
    }

    @Override
    public void sawOpcode(int seen) {
        if (accumulatorAdds) {
            // the value just constructed goes to a field or a local
            accumulatorAdds = false;
            if (seen == Const.PUTFIELD || seen == Const.PUTSTATIC) {
                return;
            }
            if (seen >= Const.ASTORE_0 && seen <= Const.ASTORE_3 || seen == Const.ASTORE) {
                additiveAccumulatorLocals.add(getRegisterOperand());
            }
        }
        if ((seen == Const.GETFIELD || seen == Const.GETSTATIC)
                && (ACCUMULATOR_SIG.equals(getSigConstantOperand()) || ADDER_SIG.equals(getSigConstantOperand()))) {
            lastAccumulator = "field " + getNameConstantOperand();
        } else if (seen >= Const.ALOAD_0 && seen <= Const.ALOAD_3 || seen == Const.ALOAD) {
            lastAccumulator = "local " + getRegisterOperand();
        }
        switch (seen) {
            case Const.FADD, Const.DADD, Const.FSUB, Const.DSUB:
                adds = true;
                return;
            case Const.INVOKEDYNAMIC:
                lastLambda = lambdaTarget();
                return;
            case Const.INVOKESTATIC, Const.INVOKEVIRTUAL, Const.INVOKEINTERFACE:
                break;
            case Const.INVOKESPECIAL:
                if ((ATOMIC + "DoubleAccumulator").equals(getClassConstantOperand())
                        && lastLambda != null
                        && adding(lastLambda)) {
                    accumulatorAdds = true;
                }
                return;
            default:
                return;
        }
        String cls = getClassConstantOperand();
        String name = getNameConstantOperand();
        String sig = getSigConstantOperand();
        int pc = getPC();
        if (("java/lang/Float".equals(cls) && name.startsWith("floatTo"))
                || ("java/lang/Double".equals(cls) && name.startsWith("doubleTo"))) {
            if (adds) {
                toBits = true;
            }
            return;
        }
        if (name.equals("parallel") && cls.startsWith("java/util/stream/")
                || name.equals("parallelStream") && !cls.startsWith("java/util/stream/")) {
            parallelPc = pc;
            return;
        }
        if (name.equals("sequential") && cls.startsWith("java/util/stream/")) {
            parallelPc = -1;
            return;
        }
        if ("java/util/stream/Collectors".equals(cls) && SUMMING_COLLECTORS.contains(name)) {
            summingCollectorPc = pc;
            return;
        }
        if (cls.startsWith(ATOMIC) && CAS_OWNERS.contains(cls.substring(ATOMIC.length())) && CAS.contains(name)) {
            boolean viaLambda = lastLambda != null && sumsToBits(lastLambda);
            if (toBits || viaLambda) {
                String type = cls.contains("Long") ? "double" : "float";
                String call = cls.substring(ATOMIC.length()) + "." + name;
                report(
                        pc,
                        bitsReadDecides() ? "amplified" : "bounded",
                        BugPatterns.message(NL009, "java-bc-cas", "type", type, "call", call));
            }
            return;
        }
        if ((ATOMIC + "DoubleAdder").equals(cls) && ADDER_READS.contains(name)) {
            if (tasks == null) {
                scanTasks();
            }
            if (lastAccumulator != null
                    && lastAccumulator.startsWith("local ")
                    && !adderTaskMethods.contains(getMethodName() + getMethodSig())) {
                return; // a local adder that no task of this method adds to: added in one thread, in order
            }
            String impact = ConcurrentFloatApis.TRUNCATING_READS.contains(name) ? "amplified" : followed(pc);
            report(pc, impact, BugPatterns.message(NL009, "java-bc-adder", "call", "DoubleAdder." + name + "()"));
            return;
        }
        if ((ATOMIC + "DoubleAccumulator").equals(cls)
                && ConcurrentFloatApis.ACCUMULATOR_READS.contains(name)
                && additiveAccumulator(lastAccumulator)) {
            String impact = ConcurrentFloatApis.TRUNCATING_READS.contains(name) ? "amplified" : followed(pc);
            report(pc, impact, BugPatterns.message(NL009, "java-bc-adder", "call", "DoubleAccumulator." + name + "()"));
            return;
        }
        if (parallelPc >= 0 && parallelPc < pc) {
            boolean doubleTerminal = "java/util/stream/DoubleStream".equals(cls)
                    && (STREAM_TERMINALS.contains(name)
                            || name.equals("reduce") && lastLambda != null && adding(lastLambda));
            boolean boxedReduce = "java/util/stream/Stream".equals(cls)
                    && name.equals("reduce")
                    && lastLambda != null
                    && (lastLambda.startsWith("java/lang/Double.sum(")
                            || lastLambda.startsWith("java/lang/Float.sum("));
            boolean collect = name.equals("collect") && summingCollectorPc >= 0 && summingCollectorPc < pc;
            if (doubleTerminal || boxedReduce || collect) {
                String call = (cls.substring(cls.lastIndexOf('/') + 1)) + "." + name + "()";
                report(pc, followed(pc), BugPatterns.message(NL009, "java-bc-stream", "call", call));
                summingCollectorPc = -1;
            }
        }
        if ("java/util/Arrays".equals(cls)
                && name.equals("parallelPrefix")
                && sig.startsWith("([D")
                && lastLambda != null
                && adding(lastLambda)) {
            report(pc, followed(pc), BugPatterns.message(NL009, "java-bc-prefix", "type", "double"));
        }
    }

    private void report(int pc, String impact, String message) {
        BugInstance bug = new BugInstance(this, BugPatterns.type(NL009), BugPatterns.priority(NL009, impact))
                .addClassAndMethod(this)
                .addString(message)
                .addSourceLine(this, pc);
        bugReporter.reportBug(bug);
    }

    /**
     * "amplified" when, after {@code pc} in this method, a float value is converted to an integer, rounded or
     * compared (the sum's value can decide something); "bounded" otherwise.
     */
    private String followed(int pc) {
        byte[] code = getCode().getCode();
        ConstantPool cp = getConstantPool();
        for (org.apache.bcel.generic.InstructionHandle h : SharedSumBytecode.instructions(code)) {
            if (h.getPosition() <= pc) {
                continue;
            }
            if (SharedSumBytecode.decides(h.getInstruction(), cp)) {
                return "amplified";
            }
        }
        return "bounded";
    }

    /** A method of this class, other than a compare-and-set loop, reads float bits back and rounds or compares. */
    private boolean bitsReadDecides() {
        if (bitsDecide == null) {
            scanClass();
        }
        return bitsDecide.containsValue(Boolean.TRUE);
    }

    private boolean sumsToBits(String target) {
        if (sumToBits == null) {
            scanClass();
        }
        String self = getDottedClassName().replace('.', '/') + ".";
        return target.startsWith(self) && Boolean.TRUE.equals(sumToBits.get(target.substring(self.length())));
    }

    /** {@code Double::sum}, {@code Float::sum}, or a lambda of this class that adds and calls no max/min. */
    private boolean adding(String target) {
        if (target.startsWith("java/lang/Double.sum(") || target.startsWith("java/lang/Float.sum(")) {
            return true;
        }
        String self = getDottedClassName().replace('.', '/') + ".";
        if (!target.startsWith(self)) {
            return false;
        }
        String method = target.substring(self.length());
        JavaClass jc = getThisClass();
        ConstantPool cp = jc.getConstantPool();
        org.apache.bcel.generic.ConstantPoolGen g = null;
        for (Method m : jc.getMethods()) {
            if (!(m.getName() + m.getSignature()).startsWith(method) || m.getCode() == null) {
                continue;
            }
            boolean add = false;
            for (org.apache.bcel.generic.InstructionHandle h :
                    SharedSumBytecode.instructions(m.getCode().getCode())) {
                short op = h.getInstruction().getOpcode();
                if (op == Const.DADD || op == Const.FADD) {
                    add = true;
                }
                if (h.getInstruction() instanceof org.apache.bcel.generic.InvokeInstruction inv) {
                    if (g == null) {
                        g = new org.apache.bcel.generic.ConstantPoolGen(cp);
                    }
                    String n = inv.getMethodName(g);
                    if (n.equals("max") || n.equals("min")) {
                        return false;
                    }
                }
            }
            return add;
        }
        return false;
    }

    private void scanClass() {
        sumToBits = new HashMap<>();
        bitsDecide = new HashMap<>();
        JavaClass jc = getThisClass();
        org.apache.bcel.generic.ConstantPoolGen g = new org.apache.bcel.generic.ConstantPoolGen(jc.getConstantPool());
        for (Method m : jc.getMethods()) {
            if (m.getCode() == null) {
                continue;
            }
            boolean add = false;
            boolean bits = false;
            boolean cas = false;
            int readBits = -1;
            boolean decidesAfterRead = false;
            org.apache.bcel.generic.InstructionHandle[] hs =
                    SharedSumBytecode.instructions(m.getCode().getCode());
            for (int i = 0; i < hs.length; i++) {
                org.apache.bcel.generic.Instruction ins = hs[i].getInstruction();
                short op = ins.getOpcode();
                if (op == Const.FADD || op == Const.DADD || op == Const.FSUB || op == Const.DSUB) {
                    add = true;
                }
                if (ins instanceof org.apache.bcel.generic.InvokeInstruction inv) {
                    String owner = inv.getClassName(g);
                    String n = inv.getMethodName(g);
                    if (owner.equals("java.lang.Float") && n.startsWith("floatTo")
                            || owner.equals("java.lang.Double") && n.startsWith("doubleTo")) {
                        bits = bits || add;
                    }
                    if (owner.equals("java.lang.Float") && n.equals("intBitsToFloat")
                            || owner.equals("java.lang.Double") && n.equals("longBitsToDouble")) {
                        readBits = i;
                    }
                    if (owner.startsWith("java.util.concurrent.atomic.") && CAS.contains(n)) {
                        cas = true;
                    }
                }
                if (readBits >= 0 && i > readBits && SharedSumBytecode.decides(ins, jc.getConstantPool())) {
                    decidesAfterRead = true;
                }
            }
            sumToBits.put(m.getName() + m.getSignature(), add && bits);
            bitsDecide.put(m.getName() + m.getSignature(), !cas && decidesAfterRead);
        }
    }

    private boolean additiveAccumulator(String loaded) {
        if (loaded == null) {
            return false;
        }
        if (loaded.startsWith("local ")) {
            return additiveAccumulatorLocals.contains(Integer.parseInt(loaded.substring("local ".length())));
        }
        if (tasks == null) {
            scanTasks();
        }
        return additiveAccumulatorFields.contains(loaded.substring("field ".length()));
    }

    /**
     * The class's task methods and its additive DoubleAccumulator fields. Tasks: {@code run}/{@code call}/
     * {@code compute} of a class that extends a fork/join task or Thread or implements Runnable/Callable, and the
     * lambdas of the class passed to an executor ({@code submit}, {@code execute} ...), to {@code new Thread}, or to
     * {@code forEach} of a stream made parallel earlier in the method.
     */
    private void scanTasks() {
        tasks = new HashMap<>();
        additiveAccumulatorFields = new java.util.HashSet<>();
        adderTaskMethods.clear();
        JavaClass jc = getThisClass();
        String label = SharedSumBytecode.taskClassLabel(jc);
        if (label != null) {
            for (Method m : jc.getMethods()) {
                if (ConcurrentFloatApis.TASK_METHODS.contains(m.getName())
                        && m.getSignature().startsWith("()")
                        && !m.isStatic()
                        && (m.getAccessFlags() & Const.ACC_BRIDGE) == 0) {
                    tasks.put(m.getName() + m.getSignature(), new Task(label, 0, true));
                }
            }
        }
        org.apache.bcel.generic.ConstantPoolGen g = new org.apache.bcel.generic.ConstantPoolGen(jc.getConstantPool());
        String self = jc.getClassName();
        Set<String> fresh = new java.util.HashSet<>();
        Set<String> other = new java.util.HashSet<>();
        for (Method m : jc.getMethods()) {
            if (m.getCode() == null) {
                continue;
            }
            org.apache.bcel.generic.InstructionHandle[] hs =
                    SharedSumBytecode.instructions(m.getCode().getCode());
            for (int i = 0; i < hs.length; i++) {
                if (hs[i].getInstruction() instanceof org.apache.bcel.generic.PUTFIELD put
                        && put.getReferenceType(g).toString().equals(self)) {
                    short before = i > 0 ? hs[i - 1].getInstruction().getOpcode() : -1;
                    boolean allocated =
                            before == Const.NEWARRAY || before == Const.ANEWARRAY || before == Const.MULTIANEWARRAY;
                    (allocated ? fresh : other).add(put.getFieldName(g));
                }
            }
        }
        fresh.removeAll(other);
        ownArrays = fresh;
        for (Method m : jc.getMethods()) {
            if (m.getCode() == null) {
                continue;
            }
            org.apache.bcel.generic.InstructionHandle[] hs =
                    SharedSumBytecode.instructions(m.getCode().getCode());
            String lambda = null;
            int captured = 0;
            boolean parallel = false;
            for (int i = 0; i < hs.length; i++) {
                org.apache.bcel.generic.Instruction ins = hs[i].getInstruction();
                if (ins instanceof org.apache.bcel.generic.INVOKEDYNAMIC indy) {
                    String target = SharedSumBytecode.lambdaTarget(jc, indy.getIndex());
                    lambda = target;
                    captured = indy.getArgumentTypes(g).length;
                    continue;
                }
                if (!(ins instanceof org.apache.bcel.generic.InvokeInstruction inv)) {
                    continue;
                }
                String owner = inv.getClassName(g);
                String n = inv.getMethodName(g);
                if (owner.startsWith("java.util.stream.") && n.equals("parallel") || n.equals("parallelStream")) {
                    parallel = true;
                } else if (owner.startsWith("java.util.stream.") && n.equals("sequential")) {
                    parallel = false;
                }
                if (owner.equals("java.util.concurrent.atomic.DoubleAccumulator") && n.equals("<init>")) {
                    if (lambda != null
                            && adding(lambda.replace('.', '/').replaceFirst("/(?=[^/]*\\()", "."))
                            && i + 1 < hs.length
                            && hs[i + 1].getInstruction() instanceof org.apache.bcel.generic.FieldInstruction f) {
                        additiveAccumulatorFields.add(f.getFieldName(g));
                    }
                    lambda = null;
                    continue;
                }
                if (lambda == null) {
                    continue;
                }
                String runs = null;
                if (ConcurrentFloatApis.SUBMIT.contains(n)) {
                    runs = "pool tasks";
                } else if (owner.equals("java.lang.Thread") && n.equals("<init>")) {
                    runs = "threads";
                } else if (parallel && (n.equals("forEach") || n.equals("forEachOrdered"))) {
                    runs = "parallel stream tasks";
                }
                if (runs != null && lambda.startsWith(self + ".")) {
                    String method = lambda.substring(self.length() + 1);
                    tasks.putIfAbsent(method, new Task(runs, captured, false));
                    if (SharedSumBytecode.callsAdderAdd(jc, method, g)) {
                        adderTaskMethods.add(m.getName() + m.getSignature());
                    }
                } else if (runs != null && lambda.startsWith("java.util.concurrent.atomic.DoubleAdder.add(")) {
                    adderTaskMethods.add(m.getName() + m.getSignature()); // forEach(sum::add) on a parallel stream
                }
                lambda = null;
            }
        }
    }

    /**
     * In a task method: float or double additions stored into a field or into an array element that is not the
     * task's own (the array comes from a field or from outside the lambda, and no index is the task's parameter or
     * a loop counter of the task). {@code x[i] += v} and {@code f += v} compile to a load of the same element or field,
     * the addition and the store; whole numbers added into a double ({@code I2D}) are exact in any order.
     */
    private void taskSums(Task task) {
        Method method = getMethod();
        org.apache.bcel.generic.ConstantPoolGen g = new org.apache.bcel.generic.ConstantPoolGen(getConstantPool());
        org.apache.bcel.generic.InstructionHandle[] hs =
                SharedSumBytecode.instructions(getCode().getCode());
        int params = method.isStatic() ? 0 : 1;
        int capturedSlots = params;
        org.apache.bcel.generic.Type[] args = method.getArgumentTypes();
        for (int k = 0; k < args.length; k++) {
            params += args[k].getSize();
            if (k < task.captured()) {
                capturedSlots = params;
            }
        }
        if (task.captured() > 0 && !method.isStatic()) {
            // an instance lambda: this (slot 0) is the enclosing object, shared like any captured value
            capturedSlots = Math.max(capturedSlots, 1);
        }
        Set<Integer> counters = new java.util.HashSet<>();
        for (org.apache.bcel.generic.InstructionHandle h : hs) {
            if (h.getInstruction() instanceof org.apache.bcel.generic.IINC inc) {
                counters.add(inc.getIndex());
            }
        }
        Set<String> reported = new java.util.HashSet<>();
        for (int i = 1; i < hs.length; i++) {
            org.apache.bcel.generic.Instruction ins = hs[i].getInstruction();
            short op = ins.getOpcode();
            short prev = hs[i - 1].getInstruction().getOpcode();
            boolean added = prev == Const.FADD || prev == Const.DADD || prev == Const.FSUB || prev == Const.DSUB;
            if (!added) {
                continue;
            }
            String target = null;
            String field = null;
            String type = prev == Const.FADD || prev == Const.FSUB ? "float" : "double";
            int term = start(hs, i - 2, type.equals("double") ? 2 : 1, g);
            if (type.equals("double") && term >= 0 && i - 2 >= 0) {
                short last = hs[i - 2].getInstruction().getOpcode();
                if (last == Const.I2D || last == Const.L2D) {
                    continue; // whole numbers: exact in any order below 2^53
                }
            }
            if ((op == Const.FASTORE || op == Const.DASTORE) && term > 0) {
                // ... arrayref index DUP2 xALOAD <term> xADD xASTORE
                int load = term - 1;
                if (load < 1 || hs[load - 1].getInstruction().getOpcode() != Const.DUP2) {
                    continue;
                }
                target = sharedArray(hs, load - 2, params, capturedSlots, counters, g);
                if (OWN.equals(target) && task.ownFields()) {
                    target = null;
                } else if (target != null) {
                    target = "the array " + (OWN.equals(target) ? "field" : target);
                }
            } else if (op == Const.PUTFIELD || op == Const.PUTSTATIC) {
                org.apache.bcel.generic.FieldInstruction f = (org.apache.bcel.generic.FieldInstruction) ins;
                boolean own = op == Const.PUTFIELD
                        && task.ownFields()
                        && f.getReferenceType(g).toString().equals(getDottedClassName());
                if (!own
                        && term > 0
                        && hs[term - 1].getInstruction() instanceof org.apache.bcel.generic.FieldInstruction r
                        && r.getFieldName(g).equals(f.getFieldName(g))) {
                    field = f.getFieldName(g);
                    target = "the field " + field;
                }
            }
            if (target != null && reported.add(target)) {
                report(
                        hs[i].getPosition(),
                        field != null && fieldReadDecides(field) ? "amplified" : "bounded",
                        BugPatterns.message(
                                NL009, "java-bc-task", "type", type, "target", target, "tasks", task.label()));
            }
        }
    }

    /**
     * The array of an element store whose index expression ends at instruction {@code end}: its name when it is
     * shared (a field, or a value captured from outside the task), null when the task owns it or the element.
     */
    private String sharedArray(
            org.apache.bcel.generic.InstructionHandle[] hs,
            int end,
            int params,
            int capturedSlots,
            Set<Integer> counters,
            org.apache.bcel.generic.ConstantPoolGen g) {
        int index = start(hs, end, 1, g);
        if (index < 1) {
            return null;
        }
        if (index == end && hs[index].getInstruction() instanceof org.apache.bcel.generic.ILOAD l) {
            int r = l.getIndex();
            if (r >= capturedSlots && r < params || counters.contains(r)) {
                return null; // the task's own element: its parameter, or a counter of its loop
            }
        }
        int array = index - 1;
        org.apache.bcel.generic.Instruction a = hs[array].getInstruction();
        if (a.getOpcode() == Const.AALOAD) {
            return sharedArray(hs, array - 1, params, capturedSlots, counters, g); // a row of a 2-D array
        }
        if (a instanceof org.apache.bcel.generic.GETFIELD f
                && f.getReferenceType(g).toString().equals(getDottedClassName())
                && ownArrays.contains(f.getFieldName(g))) {
            return OWN; // the task object's own array, allocated by itself
        }
        if (a instanceof org.apache.bcel.generic.GETFIELD || a instanceof org.apache.bcel.generic.GETSTATIC) {
            return ((org.apache.bcel.generic.FieldInstruction) a).getFieldName(g);
        }
        if (a instanceof org.apache.bcel.generic.ALOAD l && l.getIndex() < capturedSlots) {
            LocalVariableName name = localName(l.getIndex(), hs[array].getPosition());
            return name == null ? "captured by the task" : name.name();
        }
        return null;
    }

    private record LocalVariableName(String name) {}

    private LocalVariableName localName(int register, int pc) {
        org.apache.bcel.classfile.LocalVariableTable t = getMethod().getLocalVariableTable();
        if (t == null) {
            return null;
        }
        org.apache.bcel.classfile.LocalVariable v = t.getLocalVariable(register, pc);
        return v == null ? null : new LocalVariableName(v.getName());
    }

    /**
     * The index of the first instruction of the straight-line expression that leaves {@code words} stack words
     * ending at instruction {@code end}, or -1 (a branch, a duplication or an unknown stack effect in between).
     */
    private static int start(
            org.apache.bcel.generic.InstructionHandle[] hs,
            int end,
            int words,
            org.apache.bcel.generic.ConstantPoolGen g) {
        int need = words;
        for (int i = end; i >= 0; i--) {
            org.apache.bcel.generic.Instruction ins = hs[i].getInstruction();
            if (ins instanceof org.apache.bcel.generic.BranchInstruction) {
                return -1;
            }
            int produced = ins.produceStack(g);
            int consumed = ins.consumeStack(g);
            if (produced < 0 || consumed < 0) {
                return -1;
            }
            need -= produced;
            if (need < 0) {
                return -1;
            }
            need += consumed;
            if (need == 0) {
                return i;
            }
        }
        return -1;
    }

    /** A method of this class that is not a task reads the field and rounds, converts or compares after the read. */
    private boolean fieldReadDecides(String field) {
        JavaClass jc = getThisClass();
        org.apache.bcel.generic.ConstantPoolGen g = new org.apache.bcel.generic.ConstantPoolGen(jc.getConstantPool());
        for (Method m : jc.getMethods()) {
            if (m.getCode() == null || tasks.containsKey(m.getName() + m.getSignature())) {
                continue;
            }
            boolean read = false;
            for (org.apache.bcel.generic.InstructionHandle h :
                    SharedSumBytecode.instructions(m.getCode().getCode())) {
                org.apache.bcel.generic.Instruction ins = h.getInstruction();
                if ((ins instanceof org.apache.bcel.generic.GETFIELD
                                || ins instanceof org.apache.bcel.generic.GETSTATIC)
                        && ((org.apache.bcel.generic.FieldInstruction) ins)
                                .getFieldName(g)
                                .equals(field)) {
                    read = true;
                } else if (read && SharedSumBytecode.decides(ins, jc.getConstantPool())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** "owner/Class.method" of the implementation method of the invokedynamic at the current pc, or null. */
    private String lambdaTarget() {
        return getConstantRefOperand() instanceof ConstantInvokeDynamic indy
                ? SharedSumBytecode.lambdaTarget(getThisClass(), indy, true)
                : null;
    }
}
