package dev.numlint.spotbugs;

import dev.numlint.knowledge.ConcurrentFloatApis;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Attribute;
import org.apache.bcel.classfile.BootstrapMethod;
import org.apache.bcel.classfile.BootstrapMethods;
import org.apache.bcel.classfile.ConstantCP;
import org.apache.bcel.classfile.ConstantInvokeDynamic;
import org.apache.bcel.classfile.ConstantMethodHandle;
import org.apache.bcel.classfile.ConstantNameAndType;
import org.apache.bcel.classfile.ConstantPool;
import org.apache.bcel.classfile.JavaClass;
import org.apache.bcel.classfile.Method;

/**
 * Stateless reading of class files for {@link SharedFloatSumDetector}: which instructions decide (round, convert,
 * compare), a method's instructions, what runs a class on other threads, the implementation method of a lambda, and
 * whether a method adds to a {@code DoubleAdder}.
 */
final class SharedSumBytecode {
    private SharedSumBytecode() {}

    static boolean decides(org.apache.bcel.generic.Instruction ins, ConstantPool cp) {
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
                    && SharedFloatSumDetector.ROUNDING.contains(inv.getMethodName(g));
        }
        return false;
    }

    static org.apache.bcel.generic.InstructionHandle[] instructions(byte[] code) {
        try {
            return new org.apache.bcel.generic.InstructionList(code).getInstructionHandles();
        } catch (RuntimeException e) {
            return new org.apache.bcel.generic.InstructionHandle[0];
        }
    }

    /** The method {@code nameAndSig} of the class calls {@code DoubleAdder.add}. */
    static boolean callsAdderAdd(JavaClass jc, String nameAndSig, org.apache.bcel.generic.ConstantPoolGen g) {
        for (Method m : jc.getMethods()) {
            if (m.getCode() == null || !(m.getName() + m.getSignature()).equals(nameAndSig)) {
                continue;
            }
            for (org.apache.bcel.generic.InstructionHandle h :
                    instructions(m.getCode().getCode())) {
                if (h.getInstruction() instanceof org.apache.bcel.generic.InvokeInstruction inv
                        && inv.getClassName(g).equals("java.util.concurrent.atomic.DoubleAdder")
                        && inv.getMethodName(g).equals("add")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** What runs a class's instances on other threads, from its superclass and interfaces; null for none. */
    static String taskClassLabel(JavaClass jc) {
        String sup = jc.getSuperclassName();
        String simple = sup.substring(sup.lastIndexOf('.') + 1);
        if (sup.startsWith("java.") && ConcurrentFloatApis.TASK_SUPERCLASSES.contains(simple)) {
            return simple.equals("Thread") ? "threads" : "fork/join tasks";
        }
        for (String i : jc.getInterfaceNames()) {
            if (i.startsWith("java.")
                    && ConcurrentFloatApis.TASK_INTERFACES.contains(i.substring(i.lastIndexOf('.') + 1))) {
                return "pool tasks";
            }
        }
        return null;
    }

    /** "owner.Class.method(sig)" (dotted owner) of the implementation method of an invokedynamic, or null. */
    static String lambdaTarget(JavaClass jc, int indyIndex) {
        return jc.getConstantPool().getConstant(indyIndex) instanceof ConstantInvokeDynamic indy
                ? lambdaTarget(jc, indy, false)
                : null;
    }

    /** The same for {@code indy}, the owner written with slashes ("owner/Class") when {@code slashed}. */
    static String lambdaTarget(JavaClass jc, ConstantInvokeDynamic indy, boolean slashed) {
        ConstantPool cp = jc.getConstantPool();
        for (Attribute a : jc.getAttributes()) {
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
                    String owner = slashed
                            ? ref.getClass(cp).replace('.', '/')
                            : ref.getClass(cp).replace('/', '.');
                    ConstantNameAndType nt = cp.getConstant(ref.getNameAndTypeIndex(), ConstantNameAndType.class);
                    return owner + "." + nt.getName(cp) + nt.getSignature(cp);
                }
            }
        }
        return null;
    }
}
