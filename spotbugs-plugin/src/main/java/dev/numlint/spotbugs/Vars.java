package dev.numlint.spotbugs;

import edu.umd.cs.findbugs.OpcodeStack;
import edu.umd.cs.findbugs.ba.XField;
import edu.umd.cs.findbugs.bcel.OpcodeStackDetector;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import org.apache.bcel.Const;

/** Names of the variables values are loaded from, shared by the OpcodeStack-based detectors. */
final class Vars {
    /** At most this many source variables are tracked per value (keeps user values small). */
    static final int MAX_SOURCES = 8;

    private Vars() {}

    static String local(int register) {
        return "L" + register;
    }

    /** Variable name for a load/store instruction about to execute (or just executed for loads), or null. */
    static String operandVar(OpcodeStackDetector d, int seen) {
        switch (seen) {
            case Const.ILOAD,
                    Const.LLOAD,
                    Const.FLOAD,
                    Const.DLOAD,
                    Const.ALOAD,
                    Const.ILOAD_0,
                    Const.ILOAD_1,
                    Const.ILOAD_2,
                    Const.ILOAD_3,
                    Const.LLOAD_0,
                    Const.LLOAD_1,
                    Const.LLOAD_2,
                    Const.LLOAD_3,
                    Const.FLOAD_0,
                    Const.FLOAD_1,
                    Const.FLOAD_2,
                    Const.FLOAD_3,
                    Const.DLOAD_0,
                    Const.DLOAD_1,
                    Const.DLOAD_2,
                    Const.DLOAD_3,
                    Const.ALOAD_0,
                    Const.ALOAD_1,
                    Const.ALOAD_2,
                    Const.ALOAD_3,
                    Const.ISTORE,
                    Const.LSTORE,
                    Const.FSTORE,
                    Const.DSTORE,
                    Const.ASTORE,
                    Const.ISTORE_0,
                    Const.ISTORE_1,
                    Const.ISTORE_2,
                    Const.ISTORE_3,
                    Const.LSTORE_0,
                    Const.LSTORE_1,
                    Const.LSTORE_2,
                    Const.LSTORE_3,
                    Const.FSTORE_0,
                    Const.FSTORE_1,
                    Const.FSTORE_2,
                    Const.FSTORE_3,
                    Const.DSTORE_0,
                    Const.DSTORE_1,
                    Const.DSTORE_2,
                    Const.DSTORE_3,
                    Const.ASTORE_0,
                    Const.ASTORE_1,
                    Const.ASTORE_2,
                    Const.ASTORE_3:
                return local(d.getRegisterOperand());
            case Const.GETSTATIC, Const.PUTSTATIC:
                return "S:" + d.getClassConstantOperand() + "." + d.getNameConstantOperand();
            default:
                return null;
        }
    }

    static boolean isLoad(int seen) {
        return (seen >= Const.ILOAD && seen <= Const.ALOAD_3);
    }

    static boolean isStore(int seen) {
        return (seen >= Const.ISTORE && seen <= Const.ASTORE_3);
    }

    /** Field key for GETFIELD/PUTFIELD given the object reference's variable (null when not a variable). */
    static String field(String objectVar, String owner, String name) {
        return "F:" + objectVar + ":" + owner + "." + name;
    }

    static Set<String> union(Set<String> a, Set<String> b, String extra) {
        if ((a == null || a.isEmpty()) && (b == null || b.isEmpty()) && extra == null) {
            return Set.of();
        }
        Set<String> s = new HashSet<>();
        if (a != null) {
            s.addAll(a);
        }
        if (b != null) {
            s.addAll(b);
        }
        if (extra != null) {
            s.add(extra);
        }
        if (s.size() > MAX_SOURCES) {
            return Set.copyOf(new java.util.ArrayList<>(s).subList(0, MAX_SOURCES));
        }
        return Collections.unmodifiableSet(s);
    }

    static boolean isIntConstant(OpcodeStack.Item item, int... values) {
        Object c = item.getConstant();
        if (c instanceof Integer i) {
            for (int v : values) {
                if (i == v) {
                    return true;
                }
            }
        }
        return false;
    }

    static boolean isFloatField(XField f) {
        return f != null && ("F".equals(f.getSignature()) || "D".equals(f.getSignature()));
    }
}
