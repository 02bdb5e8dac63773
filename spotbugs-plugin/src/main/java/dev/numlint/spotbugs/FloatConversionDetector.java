package dev.numlint.spotbugs;

import static dev.numlint.spotbugs.ConversionValues.combine;
import static dev.numlint.spotbugs.ConversionValues.loaded;
import static dev.numlint.spotbugs.ConversionValues.term;

import dev.numlint.spotbugs.ConversionValues.Lerp;
import dev.numlint.spotbugs.ConversionValues.Rng;
import dev.numlint.spotbugs.ConversionValues.Val;
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

    /** A pending NL011 (byte/short narrowing), upgraded to NL001 when the narrowed value is masked as unsigned. */
    /**
     * A pending NL011 (byte/short narrowing). {@code signedOk}: the value's range fits the signed type or the unsigned
     * range of its bits (a value in 0..255 stored as a byte), so only a read-back as unsigned can matter;
     * {@code setter}: the narrowed value is a parameter stored by a setter (the range is the callers' contract).
     */
    private record Narrowing(
            int pc, String from, String to, String conv, String var, boolean signedOk, boolean setter) {
        Narrowing(int pc, String from, String to, String conv, String var) {
            this(pc, from, to, conv, var, false, false);
        }
    }

    private final BugReporter bugReporter;
    /** The pass over the method's instructions before the visit. */
    private final MethodPrescan scan = new MethodPrescan();

    // per-method state
    private final Set<String> compared = new HashSet<>();
    private final Map<Integer, Narrowing> pending = new LinkedHashMap<>();
    private final Map<Integer, Narrowing> unsigned = new LinkedHashMap<>();
    private final Map<String, Set<Integer>> arrayNarrowings = new HashMap<>();
    private final Set<Integer> reportedChar = new HashSet<>();
    private final Set<Integer> floatCompareLines = new HashSet<>();
    private final Set<String> bitFields = new HashSet<>();
    /** Registers that only ever hold a numeric array created in this method (ASTORE right after NEWARRAY). */
    /** Element ranges of local arrays from the first pass: the union of every value stored, for arrays not leaked. */
    private final Map<String, Rng> arrayRanges = new HashMap<>();

    private final Map<String, Rng> collecting = new HashMap<>();
    private final Set<String> arrayLeaked = new HashSet<>();
    private boolean collectingPass;
    private Val result;
    private int resultPc = -1;

    public FloatConversionDetector(BugReporter bugReporter) {
        this.bugReporter = bugReporter;
        PluginNotice.detectorLoaded();
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

    /** Clears what one pass over a method's code collects (the first pass of two, or the only one). */
    private void resetPassState() {
        compared.clear();
        pending.clear();
        unsigned.clear();
        arrayNarrowings.clear();
        reportedChar.clear();
        floatCompareLines.clear();
        bitFields.clear();
        result = null;
        resultPc = -1;
    }

    @Override
    public void visit(Code obj) {
        resetPassState();
        scan.scan(obj, getMethod(), () -> getClassContext().getBytecodeSet(getMethod()), getMethodSig());
        arrayRanges.clear();
        if (!scan.localArrays.isEmpty()) {
            // a first pass collects what the method stores into its own arrays; the second one reads their elements
            // with those ranges
            collecting.clear();
            arrayLeaked.clear();
            collectingPass = true;
            super.visit(obj);
            collectingPass = false;
            collecting.forEach((k, v) -> {
                if (!arrayLeaked.contains(k) && v.finite()) {
                    arrayRanges.put(k, v);
                }
            });
            resetPassState();
        }
        super.visit(obj);
        for (Narrowing n : unsigned.values()) {
            if (n.var() != null && bitFields.contains(n.var())) {
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
            if (n.signedOk) {
                continue;
            }
            boolean b8 = "byte".equals(n.to);
            boolean dbl = "double".equals(n.from);
            // an example above the signed range, of the narrowed type and the converted type
            String example = (b8 ? "200.7" : "40000.7") + (dbl ? "" : "f");
            int wrapped = b8 ? (byte) 200 : (short) 40000;
            report(
                    NL011,
                    n.pc,
                    BugPatterns.message(
                            NL011,
                            "java-bc-signed",
                            "to",
                            n.to,
                            "conv",
                            n.conv,
                            "from",
                            n.from,
                            "example",
                            example,
                            "result",
                            wrapped),
                    n.setter ? 3 : BugPatterns.priority(NL011));
        }
    }

    /** What is known about the range of the stack item at {@code depth}: its constant, user value or type. */
    private Rng rangeOf(int depth) {
        if (stack.getStackDepth() <= depth) {
            return Rng.ALL;
        }
        OpcodeStack.Item it = stack.getStackItem(depth);
        Object c = it.getConstant();
        if (c instanceof Number n) {
            return Rng.of(n.doubleValue(), n.doubleValue());
        }
        if (c instanceof Character ch) {
            return Rng.of(ch, ch);
        }
        Val v = val(it);
        if (v != null && v.range() != null && v.range() != Rng.ALL) {
            return v.range();
        }
        switch (it.getSignature()) {
            case "B":
                return Rng.of(Byte.MIN_VALUE, Byte.MAX_VALUE);
            case "S":
                return Rng.of(Short.MIN_VALUE, Short.MAX_VALUE);
            case "C":
                return Rng.of(0, Character.MAX_VALUE);
            case "Z":
                return Rng.of(0, 1);
            default:
                return Rng.ALL;
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
        if (!scan.localArrays.isEmpty()) {
            trackLocalArrays(seen);
        }
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
                arithmetic(seen);
                break;
            }
            case Const.IADD, Const.ISUB, Const.IMUL: {
                Rng r = seen == Const.IADD
                        ? rangeOf(1).add(rangeOf(0))
                        : seen == Const.ISUB
                                ? rangeOf(1).sub(rangeOf(0))
                                : rangeOf(1).mul(rangeOf(0));
                if (r.within(Integer.MIN_VALUE, Integer.MAX_VALUE)) {
                    Val c = combine(item(1), item(0));
                    produce((c == null ? Val.EMPTY : c).withRange(r));
                }
                break;
            }
            case Const.FNEG, Const.DNEG, Const.F2D, Const.D2F, Const.I2F, Const.I2D, Const.L2F, Const.L2D: {
                Val a = item(0);
                Rng r = rangeOf(0);
                if (seen == Const.FNEG || seen == Const.DNEG) {
                    r = Rng.of(-r.hi(), -r.lo());
                }
                if (a != null || r != Rng.ALL) {
                    Val src = a == null ? Val.EMPTY : a;
                    produce(new Val(null, src.sources(), src.clamped(), -1, null, null, -1, null, null)
                            .withRange(r)
                            .withLerp(src.lerp()));
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
                if (a != null && a.convPc() >= 0) {
                    Rng r = a.range().within(Integer.MIN_VALUE, Integer.MAX_VALUE) ? a.range() : Rng.ALL;
                    produce(new Val(
                                    null,
                                    a.sources(),
                                    false,
                                    a.convPc(),
                                    a.convFrom(),
                                    a.convOp() + ", L2I",
                                    -1,
                                    null,
                                    null)
                            .withRange(r));
                }
                break;
            }
            case Const.INVOKEVIRTUAL:
                if ("java/awt/Color".equals(getClassConstantOperand())
                        && "()I".equals(getSigConstantOperand())
                        && Set.of("getRed", "getGreen", "getBlue", "getAlpha").contains(getNameConstantOperand())) {
                    produce(Val.EMPTY.withRange(Rng.of(0, 255)));
                }
                break;
            case Const.INVOKESTATIC:
                invokeStatic();
                break;
            case Const.I2C:
                i2c();
                break;
            case Const.I2B, Const.I2S:
                narrow(seen == Const.I2B ? "byte" : "short");
                break;
            case Const.IAND: {
                Rng a = rangeOf(1);
                Rng b = rangeOf(0);
                mask();
                // x & k with k >= 0 is in 0..k
                double hi = Math.min(
                        a.lo() >= 0 ? a.hi() : Double.POSITIVE_INFINITY,
                        b.lo() >= 0 ? b.hi() : Double.POSITIVE_INFINITY);
                if (hi != Double.POSITIVE_INFINITY) {
                    produce(Val.EMPTY.withRange(Rng.of(0, hi)));
                }
                break;
            }
            case Const.ISHR, Const.IUSHR: {
                noteBitField(true);
                Rng v = rangeOf(1);
                Rng k = rangeOf(0);
                if (v.lo() >= 0 && v.finite() && k.lo() == k.hi() && k.lo() >= 0 && k.lo() < 32) {
                    int sh = (int) k.lo();
                    produce(Val.EMPTY.withRange(Rng.of((long) v.lo() >> sh, (long) v.hi() >> sh)));
                }
                break;
            }
            case Const.BASTORE, Const.SASTORE: {
                Val v = item(0);
                Val arr = item(2);
                if (v != null
                        && v.narrowPc() >= 0
                        && arr != null
                        && arr.var() != null
                        && pending.containsKey(v.narrowPc())) {
                    arrayNarrowings
                            .computeIfAbsent(arr.var(), k -> new LinkedHashSet<>())
                            .add(v.narrowPc());
                }
                break;
            }
            case Const.BALOAD, Const.SALOAD, Const.CALOAD: {
                Val arr = item(1);
                Rng r = seen == Const.BALOAD
                        ? Rng.of(Byte.MIN_VALUE, Byte.MAX_VALUE)
                        : seen == Const.SALOAD ? Rng.of(Short.MIN_VALUE, Short.MAX_VALUE) : Rng.of(0, 65535);
                if (arr != null && arr.var() != null && arrayNarrowings.containsKey(arr.var())) {
                    produce(new Val(null, Set.of(), false, -1, null, null, -1, null, arr.var()).withRange(r));
                } else {
                    produce(Val.EMPTY.withRange(r));
                }
                break;
            }
            case Const.FALOAD, Const.IALOAD, Const.DALOAD: {
                // an element of java.awt.Color.RGBtoHSB's result (hue, saturation, brightness: 0..1), when the method
                // stores into no float array; an element of an array of this method whose stores are all bounded
                Val arr = item(1);
                if (seen == Const.FALOAD && arr != null && arr.unitArray() && !scan.storesFloats) {
                    produce(Val.EMPTY.withRange(Rng.of(0, 1)));
                } else if (arr != null && arr.var() != null && arrayRanges.containsKey(arr.var())) {
                    produce(Val.EMPTY.withRange(arrayRanges.get(arr.var())));
                }
                break;
            }
            case Const.GETFIELD: {
                Val obj = item(0);
                String objVar = obj == null ? null : obj.var();
                produce(loaded(null, Vars.field(objVar, getClassConstantOperand(), getNameConstantOperand())));
                break;
            }
            default:
                if (Vars.isLoad(seen) || seen == Const.GETSTATIC) {
                    int reg = Vars.isLoad(seen) ? getRegisterOperand() : -1;
                    Val existing = reg >= 0 ? val(stack.getLVValue(reg)) : null;
                    Val v = loaded(existing, Vars.operandVar(this, seen));
                    if (seen == Const.ILOAD || seen >= Const.ILOAD_0 && seen <= Const.ILOAD_3) {
                        Rng c = scan.counterRange(reg, getPC());
                        if (c != Rng.ALL) {
                            v = v.withRange(c);
                        }
                    }
                    produce(v);
                }
                break;
        }
    }

    /**
     * The first pass over a method with arrays of its own: the union of the ranges stored into each, and whether
     * one leaves the method's hands (passed to a call, stored in a field or another array, returned), after which
     * anything may be stored into it.
     */
    private void trackLocalArrays(int seen) {
        switch (seen) {
            case Const.IASTORE, Const.FASTORE, Const.DASTORE -> {
                Val arr = item(2);
                if (collectingPass && arr != null && arr.var() != null && scan.localArrays.contains(arr.var())) {
                    collecting.merge(arr.var(), rangeOf(0), Rng::or);
                }
            }
            case Const.INVOKEVIRTUAL,
                    Const.INVOKESPECIAL,
                    Const.INVOKESTATIC,
                    Const.INVOKEINTERFACE,
                    Const.INVOKEDYNAMIC,
                    Const.PUTFIELD,
                    Const.PUTSTATIC,
                    Const.AASTORE,
                    Const.ARETURN -> {
                for (int d = 0; d < stack.getStackDepth(); d++) {
                    Val v = item(d);
                    if (v != null && v.var() != null && scan.localArrays.contains(v.var())) {
                        arrayLeaked.add(v.var());
                    }
                }
            }
            default -> {}
        }
    }

    /** FADD ... DREM: sources, range and the parts of a linear interpolation. */
    private void arithmetic(int seen) {
        Val a = item(1);
        Val b = item(0);
        Rng ra = rangeOf(1);
        Rng rb = rangeOf(0);
        Rng r;
        Lerp lerp = null;
        switch (seen) {
            case Const.FADD, Const.DADD -> {
                r = ra.add(rb);
                Lerp la = a == null ? null : a.lerp();
                Lerp lb = b == null ? null : b.lerp();
                if (la != null
                        && lb != null
                        && la.weight().equals(lb.weight())
                        && la.kind() + lb.kind() == 5
                        && la.kind() >= 2) {
                    // (1 - f) * a + f * b: between a and b
                    r = la.term().or(lb.term());
                }
            }
            case Const.FSUB, Const.DSUB -> {
                r = ra.sub(rb);
                if (ra.lo() == 1 && ra.hi() == 1 && b != null && b.var() != null && b.lerp() == null) {
                    lerp = new Lerp(b.var(), 1, null);
                }
            }
            case Const.FMUL, Const.DMUL -> {
                r = ra.mul(rb);
                lerp = term(a, b, rb);
                if (lerp == null) {
                    lerp = term(b, a, ra);
                }
            }
            case Const.FDIV, Const.DDIV -> r = ra.div(rb);
            default -> r = Rng.ALL;
        }
        Val c = combine(a, b);
        if (c == null && r == Rng.ALL && lerp == null) {
            return;
        }
        produce((c == null ? Val.EMPTY : c).withRange(r).withLerp(lerp));
    }

    private void noteCompared(int depth) {
        Val v = item(depth);
        if (v != null) {
            if (v.var() != null) {
                compared.add(v.var());
            }
            compared.addAll(v.sources());
        }
    }

    private int line(int pc) {
        LineNumberTable t = getCode().getLineNumberTable();
        return t == null ? -1 : t.getSourceLine(pc);
    }

    /** True when the converted operand is range-guarded. */
    private boolean guarded(Val v) {
        if (v != null && v.clamped()) {
            return true;
        }
        if (v == null || (v.var() == null && v.sources().isEmpty())) {
            // no provenance (e.g. merged at the end of a conditional expression): a float comparison earlier on the
            // same line is taken as a clamp, as in (byte) (v < 0 ? 0 : v > 127 ? 127 : v)
            int line = line(getPC());
            return line >= 0 && floatCompareLines.contains(line);
        }
        if (v.clamped()) {
            return true;
        }
        if (v.var() != null && compared.contains(v.var())) {
            return true;
        }
        // a guard must bound the converted value: every variable it is computed from was examined by a
        // compare-and-branch (v < 0 ... v > 1 before (byte) (v * 255)); a test of one operand alone, such as
        // if (w < EPS) before (byte) (x / w), bounds nothing
        if (v.sources().isEmpty()) {
            return false;
        }
        for (String s : v.sources()) {
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
        Set<String> sources = v == null ? Set.of() : v.sources();
        produce(new Val(null, sources, false, getPC(), from, op, -1, null, null)
                .withRange(rangeOf(0).truncate()));
    }

    private void invokeStatic() {
        String cls = getClassConstantOperand();
        String name = getNameConstantOperand();
        String sig = getSigConstantOperand();
        if ("java/awt/Color".equals(cls) && "RGBtoHSB".equals(name)) {
            // hue, saturation and brightness in 0..1 (java.awt.Color's contract)
            produce(new Val(null, Set.of(), false, -1, null, null, -1, null, null, Rng.ALL, null, true));
            return;
        }
        if (!"java/lang/Math".equals(cls) && !"java/lang/StrictMath".equals(cls)) {
            return;
        }
        switch (name) {
            case "min", "max" -> {
                Val a = item(1);
                Val b = item(0);
                Val c = combine(a, b);
                Rng ra = rangeOf(1);
                Rng rb = rangeOf(0);
                Rng r = "min".equals(name)
                        ? Rng.of(Math.min(ra.lo(), rb.lo()), Math.min(ra.hi(), rb.hi()))
                        : Rng.of(Math.max(ra.lo(), rb.lo()), Math.max(ra.hi(), rb.hi()));
                produce(new Val(null, c == null ? Set.of() : c.sources(), true, -1, null, null, -1, null, null)
                        .withRange(r));
            }
            case "round" -> {
                if (stack.getStackDepth() > 0 && stack.getStackItem(0).getConstant() == null) {
                    Val v = item(0);
                    Rng a = rangeOf(0);
                    if (!guarded(v)) {
                        produce(new Val(
                                        null,
                                        v == null ? Set.of() : v.sources(),
                                        false,
                                        getPC(),
                                        sig.startsWith("(F)") ? "float" : "double",
                                        "Math.round",
                                        -1,
                                        null,
                                        null)
                                .withRange(Rng.of(Math.floor(a.lo() + 0.5), Math.floor(a.hi() + 0.5))));
                    }
                }
            }
            default -> {
                // other math functions: result derived from the arguments
                int args = sig.startsWith("(DD)") || sig.startsWith("(FF)") ? 2 : 1;
                Val a = item(0);
                Val b = args == 2 ? item(1) : null;
                Val c = combine(a, b);
                Rng x = rangeOf(0);
                Rng r =
                        switch (name) {
                            case "floor" -> Rng.of(Math.floor(x.lo()), Math.floor(x.hi()));
                            case "ceil" -> Rng.of(Math.ceil(x.lo()), Math.ceil(x.hi()));
                            case "rint" -> Rng.of(Math.rint(x.lo()), Math.rint(x.hi()));
                            case "abs" -> Rng.of(
                                    x.lo() <= 0 && x.hi() >= 0 ? 0 : Math.min(Math.abs(x.lo()), Math.abs(x.hi())),
                                    Math.max(Math.abs(x.lo()), Math.abs(x.hi())));
                            case "sin", "cos" -> Rng.of(-1, 1);
                            default -> Rng.ALL;
                        };
                if (c != null || r != Rng.ALL) {
                    produce((c == null ? Val.EMPTY : c).withRange(r));
                }
            }
        }
    }

    private void i2c() {
        Val v = item(0);
        if (collectingPass
                || v == null
                || v.convPc() < 0
                || intGuarded(v)
                || v.range().within(0, 65535)
                || !reportedChar.add(getPC())) {
            return;
        }
        report(NL001, getPC(), BugPatterns.message(NL001, "java-bc-char", "conv", v.convOp(), "from", v.convFrom()));
    }

    private boolean intGuarded(Val v) {
        return v.var() != null && compared.contains(v.var());
    }

    private void narrow(String to) {
        Val v = item(0);
        boolean b8 = "byte".equals(to);
        Rng typeRange = b8 ? Rng.of(Byte.MIN_VALUE, Byte.MAX_VALUE) : Rng.of(Short.MIN_VALUE, Short.MAX_VALUE);
        if (v == null || v.convPc() < 0 || intGuarded(v)) {
            Rng r = rangeOf(0);
            produce(Val.EMPTY.withRange(r.within(typeRange.lo(), typeRange.hi()) ? r : typeRange));
            return;
        }
        Rng r = v.range();
        int max = b8 ? 255 : 65535;
        if (r.within(0, max)) {
            // in 0..255 (0..65535): the bits are the unsigned value, exact whether read back signed-stored or masked
            produce(Val.EMPTY.withRange(typeRange));
            return;
        }
        boolean signedOk = r.within(typeRange.lo(), max);
        int pc = getPC();
        pending.putIfAbsent(
                pc,
                new Narrowing(
                        pc,
                        v.convFrom(),
                        to,
                        v.convOp() + ", I2" + (b8 ? "B" : "S"),
                        null,
                        signedOk,
                        scan.setter && isParameter(v)));
        produce(new Val(null, v.sources(), false, -1, null, null, pc, to, null));
    }

    /**
     * Whether the value is one parameter of the method, possibly combined with constants ({@code v + 0.5f}): what a
     * setter stores as it was given.
     */
    private boolean isParameter(Val v) {
        if (v.sources().size() != 1) {
            return false;
        }
        for (String src : v.sources()) {
            if (!src.startsWith("L")) {
                return false;
            }
            int r;
            try {
                r = Integer.parseInt(src.substring(1));
            } catch (NumberFormatException e) {
                return false;
            }
            if (r >= scan.argSlots || r == 0 && !getMethod().isStatic()) {
                return false;
            }
        }
        return true;
    }

    /** An int variable masked with another constant or shifted right is a packed bit field (e.g. RGB). */
    private void noteBitField(boolean shift) {
        if (stack.getStackDepth() < 2) {
            return;
        }
        if (shift) {
            Val v = item(1);
            if (v != null && v.var() != null) {
                bitFields.add(v.var());
            }
            return;
        }
        for (int i = 0; i < 2; i++) {
            Object c = stack.getStackItem(i).getConstant();
            Val v = item(1 - i);
            if (c instanceof Integer k && k != 0xff && k != 0xffff && v != null && v.var() != null) {
                bitFields.add(v.var());
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
            if (v.narrowPc() >= 0) {
                upgrade(v.narrowPc());
            } else if (v.narrowArr() != null) {
                for (int pc : arrayNarrowings.getOrDefault(v.narrowArr(), Set.of())) {
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
        report(rule, pc, message, BugPatterns.priority(rule));
    }

    private void report(String rule, int pc, String message, int priority) {
        BugInstance bug = new BugInstance(this, BugPatterns.type(rule), priority)
                .addClassAndMethod(this)
                .addString(message)
                .addSourceLine(this, pc);
        bugReporter.reportBug(bug);
    }
}
