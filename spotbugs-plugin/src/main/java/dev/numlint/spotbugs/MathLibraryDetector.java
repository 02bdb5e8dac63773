package dev.numlint.spotbugs;

import edu.umd.cs.findbugs.BugInstance;
import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.BytecodeScanningDetector;
import java.util.BitSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;

/**
 * NL010 on bytecode: calls to java.lang.Math transcendental functions, whose results are not correctly rounded and
 * differ between Java, C libm and CUDA's math library. One low-priority report per method, with the count of calls
 * (StrictMath is reproducible and not reported).
 */
@ReportsRules(value = {"NL010"}, speed = "fast")
public class MathLibraryDetector extends BytecodeScanningDetector {
    private static final String NL010 = "NL010";
    static final Set<String> TRANSCENDENTAL = Set.of("sin", "cos", "tan", "asin", "acos", "atan", "atan2", "exp",
            "log", "log10", "pow", "sinh", "cosh", "tanh", "cbrt", "expm1", "log1p", "hypot");

    private final BugReporter bugReporter;
    private final Map<String, Integer> calls = new TreeMap<>();
    private int firstPc;

    public MathLibraryDetector(BugReporter bugReporter) {
        this.bugReporter = bugReporter;
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
                .addString(total + (total == 1 ? " call" : " calls") + " to java.lang.Math transcendental functions ("
                        + list + "): results are not correctly rounded and differ from C libm and CUDA's math"
                        + " library (CUDA sinf: 2 ulp); StrictMath is reproducible")
                .addSourceLine(this, firstPc);
        bugReporter.reportBug(bug);
    }

    @Override
    public void sawOpcode(int seen) {
        if (seen == Const.INVOKESTATIC && "java/lang/Math".equals(getClassConstantOperand())
                && TRANSCENDENTAL.contains(getNameConstantOperand())) {
            calls.merge(getNameConstantOperand(), 1, Integer::sum);
            if (firstPc < 0) {
                firstPc = getPC();
            }
        }
    }
}
