package dev.numlint.spotbugs;

import edu.umd.cs.findbugs.BugInstance;
import edu.umd.cs.findbugs.BugReporter;
import edu.umd.cs.findbugs.OpcodeStack;
import edu.umd.cs.findbugs.bcel.OpcodeStackDetector;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.bcel.Const;
import org.apache.bcel.classfile.Code;
import org.apache.bcel.classfile.LineNumberTable;

/**
 * NL001 and NL011 on bytecode: a float or double converted to int/long (F2I, D2I, F2L, D2L + L2I, or Math.round)
 * and then narrowed without a range guard.
 * <ul>
 * <li>NL001: to char (I2C), or narrowed (I2B/I2S) and read back as unsigned with {@code & 0xff}/{@code & 0xffff}
 * (directly or after a round trip through a local or an array element of the same method). A converted int masked
 * directly ({@code (int) v & 0xff}) is a deliberate wrap and not reported.</li>
 * <li>NL011: to byte or short (I2B, I2S) when the value is not read back as unsigned.</li>
 * </ul>
 * Range guards: values computed from Math.min/Math.max, values whose variables (every float variable they were
 * computed from, or the int variable holding the converted value) a compare-and-branch examined earlier in the
 * method; a comparison of only some of the operands (a divisor tested against an epsilon) is no guard.
 *
 * <p>The value flow is tracked with OpcodeStack user values ({@link Val}) through the operand stack and locals.
 */
@OpcodeStack.CustomUserValue
@ReportsRules(
        value = {"NL001", "NL011"},
        speed = "fast")
public class FloatConversionDetector extends OpcodeStackDetector {
    private static final String NL001 = "NL001";
    private static final String NL011 = "NL011";

    /**
     * What is known about a stack value.
     *
     * @param var        variable it was last loaded from (L3, S:owner.name, F:L0:owner.name) or null
     * @param sources    variables it was computed from
     * @param clamped    computed from a Math.min/Math.max result
     * @param convPc     pc of the float-to-integer conversion that produced it, or -1
     * @param convFrom   "float" or "double" when convPc is set
     * @param convOp     the conversion, e.g. "F2I" or "Math.round"
     * @param narrowPc   pc of the I2B/I2S that narrowed a converted value, or -1
     * @param narrowTo   "byte" or "short"
     * @param narrowArr  array variable whose elements hold narrowed float values (for BALOAD/SALOAD results)
     */
    record Val(
            String var,
            Set<String> sources,
            boolean clamped,
            int convPc,
            String convFrom,
            String convOp,
            int narrowPc,
            String narrowTo,
            String narrowArr) {
        static final Val EMPTY = new Val(null, Set.of(), false, -1, null, null, -1, null, null);

        Val withVar(String v) {
            return new Val(
                    v, Vars.union(sources, null, v), clamped, convPc, convFrom, convOp, narrowPc, narrowTo, narrowArr);
        }
    }

    /** A pending NL011 (byte/short narrowing), upgraded to NL001 when the narrowed value is masked as unsigned. */
    private record Narrowing(int pc, String from, String to, String conv, String var) {}

    private final BugReporter bugReporter;

    // per-method state
    private final Set<String> compared = new HashSet<>();
    private final Map<Integer, Narrowing> pending = new LinkedHashMap<>();
    private final Map<Integer, Narrowing> unsigned = new LinkedHashMap<>();
    private final Map<String, Set<Integer>> arrayNarrowings = new HashMap<>();
    private final Set<Integer> reportedChar = new HashSet<>();
    private final Set<Integer> floatCompareLines = new HashSet<>();
    private final Set<String> bitFields = new HashSet<>();
    private Val result;
    private int resultPc = -1;

    public FloatConversionDetector(BugReporter bugReporter) {
        this.bugReporter = bugReporter;
    }

    @Override
    public boolean shouldVisitCode(Code obj) {
        BitSet b = getClassContext().getBytecodeSet(getMethod());
        if (b == null) {
            return false;
        }
        if (isNumberConversionMethod()) {
            return false;
        }
        boolean narrows = b.get(Const.I2B) || b.get(Const.I2S) || b.get(Const.I2C) || b.get(Const.IAND);
        boolean converts = b.get(Const.F2I)
                || b.get(Const.D2I)
                || b.get(Const.F2L)
                || b.get(Const.D2L)
                || b.get(Const.INVOKESTATIC);
        return narrows && converts;
    }

    /**
     * Number.byteValue()/shortValue() (and a charValue()) are specified to perform exactly this narrowing primitive
     * conversion; the implementation cannot guard it, so it is not reported (its callers are).
     */
    private boolean isNumberConversionMethod() {
        String name = getMethodName();
        String sig = getMethodSig();
        return ("byteValue".equals(name) && "()B".equals(sig))
                || ("shortValue".equals(name) && "()S".equals(sig))
                || ("charValue".equals(name) && "()C".equals(sig));
    }

    @Override
    public void visit(Code obj) {
        compared.clear();
        pending.clear();
        unsigned.clear();
        arrayNarrowings.clear();
        reportedChar.clear();
        floatCompareLines.clear();
        bitFields.clear();
        result = null;
        resultPc = -1;
        super.visit(obj);
        for (Narrowing n : unsigned.values()) {
            if (n.var != null && bitFields.contains(n.var)) {
                continue; // (arg & 0xff0000) >> 16 ... arg & 0xff: a packed int unpacked, not a number narrowed
            }
            report(
                    NL001,
                    n.pc,
                    BugPatterns.message(
                            NL001,
                            "java-bc-unsigned",
                            "to",
                            n.to,
                            "conv",
                            n.conv,
                            "from",
                            n.from,
                            "max",
                            "byte".equals(n.to) ? "255" : "65535"));
        }
        for (Narrowing n : pending.values()) {
            report(
                    NL011,
                    n.pc,
                    BugPatterns.message(NL011, "java-bc-signed", "to", n.to, "conv", n.conv, "from", n.from));
        }
    }

    private static Val val(OpcodeStack.Item item) {
        return item.getUserValue() instanceof Val v ? v : null;
    }

    private Val item(int depth) {
        if (stack.getStackDepth() <= depth) {
            return null;
        }
        return val(stack.getStackItem(depth));
    }

    private void produce(Val v) {
        result = v;
        resultPc = getPC();
    }

    @Override
    public void sawOpcode(int seen) {
        result = null;
        resultPc = -1;
        switch (seen) {
            case Const.FCMPL,
                    Const.FCMPG,
                    Const.DCMPL,
                    Const.DCMPG,
                    Const.LCMP,
                    Const.IF_ICMPEQ,
                    Const.IF_ICMPNE,
                    Const.IF_ICMPLT,
                    Const.IF_ICMPGE,
                    Const.IF_ICMPGT,
                    Const.IF_ICMPLE:
                noteCompared(0);
                noteCompared(1);
                if (seen != Const.LCMP && seen < Const.IF_ICMPEQ) {
                    floatCompareLines.add(line(getPC()));
                }
                break;
            case Const.IFEQ, Const.IFNE, Const.IFLT, Const.IFGE, Const.IFGT, Const.IFLE:
                noteCompared(0);
                break;
            case Const.FADD,
                    Const.FSUB,
                    Const.FMUL,
                    Const.FDIV,
                    Const.FREM,
                    Const.DADD,
                    Const.DSUB,
                    Const.DMUL,
                    Const.DDIV,
                    Const.DREM: {
                Val a = item(1);
                Val b = item(0);
                produce(combine(a, b));
                break;
            }
            case Const.FNEG, Const.DNEG, Const.F2D, Const.D2F, Const.I2F, Const.I2D, Const.L2F, Const.L2D: {
                Val a = item(0);
                if (a != null) {
                    produce(new Val(null, a.sources, a.clamped, -1, null, null, -1, null, null));
                }
                break;
            }
            case Const.F2I, Const.D2I, Const.F2L, Const.D2L:
                conversion(
                        seen == Const.F2I || seen == Const.F2L ? "float" : "double",
                        Const.getOpcodeName(seen).toUpperCase(java.util.Locale.ROOT));
                break;
            case Const.L2I: {
                Val a = item(0);
                if (a != null && a.convPc >= 0) {
                    produce(new Val(null, a.sources, false, a.convPc, a.convFrom, a.convOp + ", L2I", -1, null, null));
                }
                break;
            }
            case Const.INVOKESTATIC:
                invokeStatic();
                break;
            case Const.I2C:
                i2c();
                break;
            case Const.I2B, Const.I2S:
                narrow(seen == Const.I2B ? "byte" : "short");
                break;
            case Const.IAND:
                mask();
                break;
            case Const.ISHR, Const.IUSHR:
                noteBitField(true);
                break;
            case Const.BASTORE, Const.SASTORE: {
                Val v = item(0);
                Val arr = item(2);
                if (v != null && v.narrowPc >= 0 && arr != null && arr.var != null && pending.containsKey(v.narrowPc)) {
                    arrayNarrowings
                            .computeIfAbsent(arr.var, k -> new LinkedHashSet<>())
                            .add(v.narrowPc);
                }
                break;
            }
            case Const.BALOAD, Const.SALOAD: {
                Val arr = item(1);
                if (arr != null && arr.var != null && arrayNarrowings.containsKey(arr.var)) {
                    produce(new Val(null, Set.of(), false, -1, null, null, -1, null, arr.var));
                }
                break;
            }
            case Const.GETFIELD: {
                Val obj = item(0);
                String objVar = obj == null ? null : obj.var;
                produce(loaded(null, Vars.field(objVar, getClassConstantOperand(), getNameConstantOperand())));
                break;
            }
            default:
                if (Vars.isLoad(seen) || seen == Const.GETSTATIC) {
                    int reg = Vars.isLoad(seen) ? getRegisterOperand() : -1;
                    Val existing = reg >= 0 ? val(stack.getLVValue(reg)) : null;
                    produce(loaded(existing, Vars.operandVar(this, seen)));
                }
                break;
        }
    }

    private static Val loaded(Val existing, String var) {
        return (existing == null ? Val.EMPTY : existing).withVar(var);
    }

    private static Val combine(Val a, Val b) {
        if (a == null && b == null) {
            return null;
        }
        Val x = a == null ? Val.EMPTY : a;
        Val y = b == null ? Val.EMPTY : b;
        return new Val(
                null, Vars.union(x.sources, y.sources, null), x.clamped || y.clamped, -1, null, null, -1, null, null);
    }

    private void noteCompared(int depth) {
        Val v = item(depth);
        if (v != null) {
            if (v.var != null) {
                compared.add(v.var);
            }
            compared.addAll(v.sources);
        }
    }

    private int line(int pc) {
        LineNumberTable t = getCode().getLineNumberTable();
        return t == null ? -1 : t.getSourceLine(pc);
    }

    /** True when the converted operand is range-guarded. */
    private boolean guarded(Val v) {
        if (v != null && v.clamped) {
            return true;
        }
        if (v == null || (v.var == null && v.sources.isEmpty())) {
            // no provenance (e.g. merged at the end of a conditional expression): a float comparison earlier on the
            // same line is taken as a clamp, as in (byte) (v < 0 ? 0 : v > 127 ? 127 : v)
            int line = line(getPC());
            return line >= 0 && floatCompareLines.contains(line);
        }
        if (v.clamped) {
            return true;
        }
        if (v.var != null && compared.contains(v.var)) {
            return true;
        }
        // a guard must bound the converted value: every variable it is computed from was examined by a
        // compare-and-branch (v < 0 ... v > 1 before (byte) (v * 255)); a test of one operand alone, such as
        // if (w < EPS) before (byte) (x / w), bounds nothing
        if (v.sources.isEmpty()) {
            return false;
        }
        for (String s : v.sources) {
            if (!compared.contains(s)) {
                return false;
            }
        }
        return true;
    }

    private void conversion(String from, String op) {
        if (stack.getStackDepth() == 0) {
            return;
        }
        OpcodeStack.Item operand = stack.getStackItem(0);
        if (operand.getConstant() != null) {
            return; // a constant converts the same everywhere
        }
        Val v = val(operand);
        if (guarded(v)) {
            return;
        }
        Set<String> sources = v == null ? Set.of() : v.sources;
        produce(new Val(null, sources, false, getPC(), from, op, -1, null, null));
    }

    private void invokeStatic() {
        String cls = getClassConstantOperand();
        if (!"java/lang/Math".equals(cls) && !"java/lang/StrictMath".equals(cls)) {
            return;
        }
        String name = getNameConstantOperand();
        String sig = getSigConstantOperand();
        switch (name) {
            case "min", "max" -> {
                Val a = item(1);
                Val b = item(0);
                Val c = combine(a, b);
                produce(new Val(null, c == null ? Set.of() : c.sources, true, -1, null, null, -1, null, null));
            }
            case "round" -> {
                if (stack.getStackDepth() > 0 && stack.getStackItem(0).getConstant() == null) {
                    Val v = item(0);
                    if (!guarded(v)) {
                        produce(new Val(
                                null,
                                v == null ? Set.of() : v.sources,
                                false,
                                getPC(),
                                sig.startsWith("(F)") ? "float" : "double",
                                "Math.round",
                                -1,
                                null,
                                null));
                    }
                }
            }
            default -> {
                // other math functions: result derived from the arguments
                int args = sig.startsWith("(DD)") || sig.startsWith("(FF)") ? 2 : 1;
                Val a = item(0);
                Val b = args == 2 ? item(1) : null;
                Val c = combine(a, b);
                if (c != null) {
                    produce(c);
                }
            }
        }
    }

    private void i2c() {
        Val v = item(0);
        if (v == null || v.convPc < 0 || intGuarded(v) || !reportedChar.add(getPC())) {
            return;
        }
        report(NL001, getPC(), BugPatterns.message(NL001, "java-bc-char", "conv", v.convOp, "from", v.convFrom));
    }

    private boolean intGuarded(Val v) {
        return v.var != null && compared.contains(v.var);
    }

    private void narrow(String to) {
        Val v = item(0);
        if (v == null || v.convPc < 0 || intGuarded(v)) {
            return;
        }
        int pc = getPC();
        pending.putIfAbsent(
                pc, new Narrowing(pc, v.convFrom, to, v.convOp + ", I2" + ("byte".equals(to) ? "B" : "S"), null));
        produce(new Val(null, v.sources, false, -1, null, null, pc, to, null));
    }

    /** An int variable masked with another constant or shifted right is a packed bit field (e.g. RGB). */
    private void noteBitField(boolean shift) {
        if (stack.getStackDepth() < 2) {
            return;
        }
        if (shift) {
            Val v = item(1);
            if (v != null && v.var != null) {
                bitFields.add(v.var);
            }
            return;
        }
        for (int i = 0; i < 2; i++) {
            Object c = stack.getStackItem(i).getConstant();
            Val v = item(1 - i);
            if (c instanceof Integer k && k != 0xff && k != 0xffff && v != null && v.var != null) {
                bitFields.add(v.var);
            }
        }
    }

    private void mask() {
        noteBitField(false);
        if (stack.getStackDepth() < 2) {
            return;
        }
        for (int i = 0; i < 2; i++) {
            OpcodeStack.Item constant = stack.getStackItem(i);
            if (!Vars.isIntConstant(constant, 0xff, 0xffff)) {
                continue;
            }
            Val v = item(1 - i);
            if (v == null) {
                continue;
            }
            if (v.narrowPc >= 0) {
                upgrade(v.narrowPc);
            } else if (v.narrowArr != null) {
                for (int pc : arrayNarrowings.getOrDefault(v.narrowArr, Set.of())) {
                    upgrade(pc);
                }
            }
            // a converted int masked directly ((int) v & 0xff) is a deliberate wrap, the & 0xff idiom: not reported
            return;
        }
    }

    private void upgrade(int narrowPc) {
        Narrowing n = pending.remove(narrowPc);
        if (n != null) {
            unsigned.put(narrowPc, n);
        }
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

    private void report(String rule, int pc, String message) {
        BugInstance bug = new BugInstance(this, BugPatterns.type(rule), BugPatterns.priority(rule))
                .addClassAndMethod(this)
                .addString(message)
                .addSourceLine(this, pc);
        bugReporter.reportBug(bug);
    }
}
