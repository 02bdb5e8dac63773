package dev.numlint.spotbugs;

import edu.umd.cs.findbugs.BugInstance;
import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.Detector;
import edu.umd.cs.findbugs.SourceLineAnnotation;
import edu.umd.cs.findbugs.ba.ClassContext;
import java.util.BitSet;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.JavaClass;
import org.apache.bcel.classfile.Method;
import org.apache.bcel.generic.InstructionHandle;
import org.apache.bcel.generic.InstructionList;

/**
 * NL005 on bytecode: a class file older than version 61 (Java 17) with float or double arithmetic in methods that
 * are not strictfp (ACC_STRICT not set). Before Java 17 such methods may be evaluated with extended exponent
 * range, which only x87 (32-bit x86 JVMs) does. One low-priority report per class, at the first arithmetic
 * instruction, with the number of affected methods.
 */
@ReportsRules(
        value = {"NL005"},
        speed = "fast")
public class ExtendedPrecisionDetector implements Detector {
    private static final String NL005 = "NL005";
    /** Java 17: all floating-point evaluation is strict (JEP 306). */
    static final int STRICT_MAJOR_VERSION = 61;

    private static final short[] ARITHMETIC = {
        Const.FADD,
        Const.FSUB,
        Const.FMUL,
        Const.FDIV,
        Const.FREM,
        Const.DADD,
        Const.DSUB,
        Const.DMUL,
        Const.DDIV,
        Const.DREM
    };

    private final BugReporter bugReporter;

    public ExtendedPrecisionDetector(BugReporter bugReporter) {
        this.bugReporter = bugReporter;
        PluginNotice.detectorLoaded();
    }

    @Override
    public void visitClassContext(ClassContext classContext) {
        JavaClass jc = classContext.getJavaClass();
        int major = jc.getMajor();
        if (major >= STRICT_MAJOR_VERSION) {
            return;
        }
        int methods = 0;
        Method first = null;
        for (Method m : jc.getMethods()) {
            if (m.isStrictfp() || m.isAbstract() || m.isNative() || m.getCode() == null) {
                continue;
            }
            BitSet b = classContext.getBytecodeSet(m);
            if (b != null && hasArithmetic(b)) {
                methods++;
                if (first == null) {
                    first = m;
                }
            }
        }
        if (first == null) {
            return;
        }
        int pc = firstArithmeticPc(first.getCode());
        String javaVersion = major >= 49 ? "Java " + (major - 44) : "Java 1." + Math.max(1, major - 44);
        // bounded: it matters only where a JVM before 17 runs on x87 (32-bit x86), so it is low priority and hidden
        // at SpotBugs' default threshold
        BugInstance bug = new BugInstance(this, BugPatterns.type(NL005), BugPatterns.priority(NL005, "bounded"))
                .addClass(jc)
                .addMethod(jc, first)
                .addString(BugPatterns.message(
                        NL005,
                        "java-bc-class",
                        "methods",
                        methods + (methods == 1 ? " method" : " methods"),
                        "major",
                        major,
                        "java",
                        javaVersion));
        if (pc >= 0) {
            bug.addSourceLine(SourceLineAnnotation.fromVisitedInstruction(classContext, first, pc));
        } else {
            bug.addSourceLine(SourceLineAnnotation.forEntireMethod(jc, first));
        }
        bugReporter.reportBug(bug);
    }

    private static boolean hasArithmetic(BitSet b) {
        for (short op : ARITHMETIC) {
            if (b.get(op)) {
                return true;
            }
        }
        return false;
    }

    private static int firstArithmeticPc(Code code) {
        try {
            InstructionList il = new InstructionList(code.getCode());
            for (InstructionHandle h : il.getInstructionHandles()) {
                short op = h.getInstruction().getOpcode();
                for (short a : ARITHMETIC) {
                    if (op == a) {
                        return h.getPosition();
                    }
                }
            }
        } catch (RuntimeException e) {
            // malformed code: report at method level
        }
        return -1;
    }

    @Override
    public void report() {
        // nothing collected across classes
    }
}
