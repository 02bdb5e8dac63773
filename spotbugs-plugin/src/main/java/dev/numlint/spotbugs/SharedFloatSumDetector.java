package dev.numlint.spotbugs;

import edu.umd.cs.findbugs.BugInstance;
import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.BytecodeScanningDetector;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Attribute;
import org.apache.bcel.classfile.BootstrapMethod;
import org.apache.bcel.classfile.BootstrapMethods;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.Constant;
import org.apache.bcel.classfile.ConstantCP;
import org.apache.bcel.classfile.ConstantInvokeDynamic;
import org.apache.bcel.classfile.ConstantMethodHandle;
import org.apache.bcel.classfile.ConstantNameAndType;
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
 *   <li>reads of a {@code DoubleAdder} ({@code sum}, {@code sumThenReset}, {@code doubleValue} ...);
 *   <li>{@code DoubleStream.sum/average/summaryStatistics}, {@code reduce} with {@code Double::sum} or an adding
 *       lambda, and {@code collect(Collectors.summingDouble/averagingDouble/summarizingDouble)} in a method that
 *       made the stream parallel ({@code parallel()}, {@code parallelStream()}) with no {@code sequential()} after;
 *   <li>{@code Arrays.parallelPrefix(double[], ...)} with {@code Double::sum} or an adding lambda.
 * </ul>
 *
 * <p>The consequence is followed within the method (for a compare-and-set: within the methods of the class that read
 * the float bits back): a float-to-integer conversion, a rounding ({@code Math.round/floor/ceil/rint}) or a float
 * comparison after the site keeps the rule's priority; otherwise the report is low priority (a note). Tasks adding
 * into shared arrays and fields, and {@code DoubleAccumulator}, are left to the source layer.
 */
@ReportsRules(
        value = {"NL009"},
        speed = "fast")
public class SharedFloatSumDetector extends BytecodeScanningDetector {
    private static final String NL009 = "NL009";
    private static final String ATOMIC = "java/util/concurrent/atomic/";
    private static final Set<String> CAS = Set.of(
            "compareAndSet",
            "weakCompareAndSet",
            "weakCompareAndSetPlain",
            "weakCompareAndSetVolatile",
            "weakCompareAndSetAcquire",
            "weakCompareAndSetRelease",
            "compareAndExchange",
            "updateAndGet",
            "getAndUpdate",
            "accumulateAndGet",
            "getAndAccumulate");
    private static final Set<String> CAS_OWNERS =
            Set.of("AtomicInteger", "AtomicIntegerArray", "AtomicLong", "AtomicLongArray");
    private static final Set<String> ADDER_READS =
            Set.of("sum", "sumThenReset", "doubleValue", "floatValue", "intValue", "longValue");
    private static final Set<String> STREAM_TERMINALS = Set.of("sum", "average", "summaryStatistics");
    private static final Set<String> SUMMING_COLLECTORS =
            Set.of("summingDouble", "averagingDouble", "summarizingDouble");
    private static final Set<String> ROUNDING = Set.of("round", "floor", "ceil", "rint");

    private final BugReporter bugReporter;

    /** Per class: name+signature of its methods that add in float/double and convert a value to bits. */
    private Map<String, Boolean> sumToBits;
    /** Per class: a method (not itself a compare-and-set loop) reads float bits back and rounds or compares them. */
    private Map<String, Boolean> bitsDecide;

    private String lastClass;

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
        return b != null && (b.get(Const.INVOKEVIRTUAL) || b.get(Const.INVOKEINTERFACE) || b.get(Const.INVOKESTATIC));
    }

    @Override
    public void visit(Code obj) {
        adds = false;
        toBits = false;
        parallelPc = -1;
        summingCollectorPc = -1;
        lastLambda = null;
        if (!getClassName().equals(lastClass)) {
            lastClass = getClassName();
            sumToBits = null;
            bitsDecide = null;
        }
        super.visit(obj);
    }

    @Override
    public void sawOpcode(int seen) {
        switch (seen) {
            case Const.FADD, Const.DADD, Const.FSUB, Const.DSUB:
                adds = true;
                return;
            case Const.INVOKEDYNAMIC:
                lastLambda = lambdaTarget();
                return;
            case Const.INVOKESTATIC, Const.INVOKEVIRTUAL, Const.INVOKEINTERFACE:
                break;
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
            String impact = name.equals("intValue") || name.equals("longValue") ? "amplified" : followed(pc);
            report(pc, impact, BugPatterns.message(NL009, "java-bc-adder", "call", "DoubleAdder." + name + "()"));
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
        for (org.apache.bcel.generic.InstructionHandle h : instructions(code)) {
            if (h.getPosition() <= pc) {
                continue;
            }
            if (decides(h.getInstruction(), cp)) {
                return "amplified";
            }
        }
        return "bounded";
    }

    private static boolean decides(org.apache.bcel.generic.Instruction ins, ConstantPool cp) {
        short op = ins.getOpcode();
        if (op == Const.D2I
                || op == Const.D2L
                || op == Const.F2I
                || op == Const.F2L
                || op == Const.DCMPG
                || op == Const.DCMPL
                || op == Const.FCMPG
                || op == Const.FCMPL) {
            return true;
        }
        if (ins instanceof org.apache.bcel.generic.INVOKESTATIC inv) {
            org.apache.bcel.generic.ConstantPoolGen g = new org.apache.bcel.generic.ConstantPoolGen(cp);
            String owner = inv.getClassName(g);
            return (owner.equals("java.lang.Math") || owner.equals("java.lang.StrictMath"))
                    && ROUNDING.contains(inv.getMethodName(g));
        }
        return false;
    }

    private static org.apache.bcel.generic.InstructionHandle[] instructions(byte[] code) {
        try {
            return new org.apache.bcel.generic.InstructionList(code).getInstructionHandles();
        } catch (RuntimeException e) {
            return new org.apache.bcel.generic.InstructionHandle[0];
        }
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
                    instructions(m.getCode().getCode())) {
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
                    instructions(m.getCode().getCode());
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
                if (readBits >= 0 && i > readBits && decides(ins, jc.getConstantPool())) {
                    decidesAfterRead = true;
                }
            }
            sumToBits.put(m.getName() + m.getSignature(), add && bits);
            bitsDecide.put(m.getName() + m.getSignature(), !cas && decidesAfterRead);
        }
    }

    /** "owner/Class.method" of the implementation method of the invokedynamic at the current pc, or null. */
    private String lambdaTarget() {
        Constant c = getConstantRefOperand();
        if (!(c instanceof ConstantInvokeDynamic indy)) {
            return null;
        }
        ConstantPool cp = getConstantPool();
        for (Attribute a : getThisClass().getAttributes()) {
            if (!(a instanceof BootstrapMethods bms)) {
                continue;
            }
            BootstrapMethod[] all = bms.getBootstrapMethods();
            int k = indy.getBootstrapMethodAttrIndex();
            if (k < 0 || k >= all.length) {
                return null;
            }
            for (int arg : all[k].getBootstrapArguments()) {
                if (cp.getConstant(arg) instanceof ConstantMethodHandle mh
                        && cp.getConstant(mh.getReferenceIndex()) instanceof ConstantCP ref) {
                    String owner = ref.getClass(cp).replace('.', '/');
                    ConstantNameAndType nt = cp.getConstant(ref.getNameAndTypeIndex(), ConstantNameAndType.class);
                    return owner + "." + nt.getName(cp) + nt.getSignature(cp);
                }
            }
        }
        return null;
    }
}
