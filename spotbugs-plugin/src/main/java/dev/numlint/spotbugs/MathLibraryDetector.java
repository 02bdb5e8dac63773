package dev.numlint.spotbugs;

import dev.numlint.knowledge.JavaMathFunctions;
import edu.umd.cs.findbugs.BugInstance;
import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.OpcodeStack;
import edu.umd.cs.findbugs.bcel.OpcodeStackDetector;
import java.util.BitSet;
import java.util.Map;
import java.util.TreeMap;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;

/**
 * NL010 on bytecode: calls to java.lang.Math transcendental functions, whose results are not correctly rounded and
 * may differ between JVMs and CPUs. One low-priority report per method, with the count of calls (StrictMath is
 * reproducible and not reported). Calls the specification makes exact are not counted: Math.pow with integer
 * arguments (an int converted with I2D/L2D, or an integral constant) whose result is representable, exp(0), log(1).
 */
@OpcodeStack.CustomUserValue
@ReportsRules(
        value = {"NL010"},
        speed = "fast")
public class MathLibraryDetector extends OpcodeStackDetector {
    private static final String NL010 = "NL010";
    /** User value of a double converted from an int or long. */
    private static final String FROM_INTEGER = "integer";

    private final BugReporter bugReporter;
    private final Map<String, Integer> calls = new TreeMap<>();
    private int firstPc;
    private boolean converted;

    public MathLibraryDetector(BugReporter bugReporter) {
        this.bugReporter = bugReporter;
        PluginNotice.detectorLoaded();
    }

    @Override
    public boolean shouldVisitCode(Code obj) {
        BitSet b = getClassContext().getBytecodeSet(getMethod());
        return b != null && b.get(Const.INVOKESTATIC);
    }

    @Override
    public void visit(Code obj) {
        calls.clear();
        firstPc = -1;
        super.visit(obj);
        if (calls.isEmpty()) {
            return;
        }
        int total = 0;
        StringBuilder list = new StringBuilder();
        for (Map.Entry<String, Integer> e : calls.entrySet()) {
            total += e.getValue();
            if (list.length() > 0) {
                list.append(", ");
            }
            list.append("Math.").append(e.getKey());
            if (e.getValue() > 1) {
                list.append(" x").append(e.getValue());
            }
        }
        BugInstance bug = new BugInstance(this, BugPatterns.type(NL010), Math.max(3, BugPatterns.priority(NL010)))
                .addClassAndMethod(this)
                .addString(BugPatterns.message(
                        NL010, "java-bc-calls", "count", total + (total == 1 ? " call" : " calls"), "list", list))
                .addSourceLine(this, firstPc);
        bugReporter.reportBug(bug);
    }

    @Override
    public void sawOpcode(int seen) {
        converted = seen == Const.I2D || seen == Const.L2D;
        if (seen == Const.INVOKESTATIC
                && "java/lang/Math".equals(getClassConstantOperand())
                && JavaMathFunctions.TRANSCENDENTAL.contains(getNameConstantOperand())
                && !exact(getNameConstantOperand())) {
            calls.merge(getNameConstantOperand(), 1, Integer::sum);
            if (firstPc < 0) {
                firstPc = getPC();
            }
        }
    }

    @Override
    public void afterOpcode(int seen) {
        super.afterOpcode(seen);
        if (converted && !stack.isTop() && stack.getStackDepth() > 0) {
            stack.getStackItem(0).setUserValue(FROM_INTEGER);
        }
        converted = false;
    }

    private boolean exact(String name) {
        if ("pow".equals(name) && stack.getStackDepth() >= 2) {
            OpcodeStack.Item base = stack.getStackItem(1);
            OpcodeStack.Item exponent = stack.getStackItem(0);
            Double b = constant(base);
            Double e = constant(exponent);
            return JavaMathFunctions.powIsExact(integral(base, b), b, integral(exponent, e), e);
        }
        if (stack.getStackDepth() >= 1 && "(D)D".equals(getSigConstantOperand())) {
            return JavaMathFunctions.exactAt(name, constant(stack.getStackItem(0)));
        }
        return false;
    }

    private static Double constant(OpcodeStack.Item item) {
        return item.getConstant() instanceof Number n ? n.doubleValue() : null;
    }

    private static boolean integral(OpcodeStack.Item item, Double value) {
        return FROM_INTEGER.equals(item.getUserValue())
                || value != null && value == Math.rint(value) && !Double.isInfinite(value);
    }
}
