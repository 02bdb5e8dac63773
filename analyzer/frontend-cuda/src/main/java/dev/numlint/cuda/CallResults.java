package dev.numlint.cuda;

import static dev.numlint.cuda.parser.CudaParser.*;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.SourceDialect;
import java.util.List;
import java.util.Set;

/**
 * The facts and the typed result of a call by name in a function body: fast divisions and math calls
 * ({@link FunctionFacts.Division}, {@link FunctionFacts.MathCall}), atomic additions ({@link FunctionFacts.Atomic}),
 * the conversions of arguments to a project function's parameters, the call sites whose arguments give a function's
 * parameter ranges ({@link CallSiteRanges}), and the value the call returns (the CUDA math table, the float overloads
 * of C++, clamps and bounded functions, constants folded, random draws). {@link FunctionAnalyzer} calls it with the
 * typed arguments it computed.
 */
final class CallResults {
    private static final Set<String> ATOMIC_ADDS =
            Set.of("atomicAdd", "atomicAdd_block", "atomicAdd_system", "unsafeAtomicAdd", "safeAtomicAdd");

    private final FunctionBody b;
    private final ConversionSites conversions;
    /** Where this body's calls of functions of the translation unit are recorded, or null. */
    private final CallSiteRanges calls;

    private final SourceDialect dialect;

    CallResults(FunctionBody b, ConversionSites conversions, CallSiteRanges calls, SourceDialect dialect) {
        this.b = b;
        this.conversions = conversions;
        this.calls = calls;
        this.dialect = dialect;
    }

    /** The call {@code c} of {@code name} with the values {@code args} of its argument expressions {@code argCtx}. */
    E result(CallExprContext c, String name, List<E> args, List<ExpressionContext> argCtx) {
        FileScope scope = b.scope;
        FunctionFacts facts = b.facts;
        boolean device = b.device;
        if (calls != null && calls.records(name) && b.lookup(name) == null) calls.record(c, name, args);
        String shortName = name.startsWith("std::") ? name.substring(5) : name;
        if (args.isEmpty() && shortName.startsWith("numeric_limits::")) {
            // std::numeric_limits<float>::infinity() and its kin are a value of the type argument
            String arg = ParseTrees.numericLimitsArgument(c.expression());
            CType t = arg == null
                    ? null
                    : arg.equals("float") ? CType.FLOAT : arg.equals("double") ? CType.DOUBLE : scope.lookupType(arg);
            if (t != null && (t.kind == CType.Kind.FLOAT || t.kind == CType.Kind.DOUBLE)) return E.of(t);
        }
        // facts about the call itself
        if (shortName.equals("__fdividef") || shortName.equals("fdividef")) {
            facts.divisions.add(new FunctionFacts.Division(b.site(c), shortName));
        } else {
            boolean fast = Builtins.FAST_INTRINSICS.contains(shortName);
            String mapped = device ? fastMapped(shortName, args) : null;
            boolean fsqrt = device && isFloatSqrt(shortName, args);
            boolean transcendental = Builtins.TRANSCENDENTAL.contains(name);
            if (fast || mapped != null || fsqrt || transcendental) {
                facts.calls.add(
                        new FunctionFacts.MathCall(b.site(c), name, shortName, fast, mapped, fsqrt, transcendental));
            }
        }
        if (ATOMIC_ADDS.contains(shortName) && !args.isEmpty()) atomic(c, args);
        // result type
        if (Builtins.CONVERSION_INTRINSICS.contains(shortName)) {
            E r = E.of(Builtins.FUNCS.get(shortName));
            r.guarded = true;
            r.guard = shortName;
            return r;
        }
        if (Builtins.SAME_AS_ARG.contains(name)
                || Builtins.SAME_AS_ARG.contains(shortName) && name.startsWith("std::")) {
            E first = args.isEmpty() ? E.UNKNOWN : args.get(0);
            CType t = first.type;
            if (ATOMIC_ADDS.contains(shortName) || shortName.startsWith("atomic") || shortName.startsWith("__ld")) {
                t = t.kind == CType.Kind.POINTER ? t.elem : CType.UNKNOWN;
            } else if (args.size() >= 2 && (shortName.equals("min") || shortName.equals("max"))) {
                t = CType.arith(args.get(0).type, args.get(1).type);
            }
            if (shortName.startsWith("__shfl") && args.size() >= 2)
                t = args.get(shortName.endsWith("_sync") ? 1 : 0).type;
            E r = ValueModel.leafCall(t, args);
            Intervals.call(r, shortName, args);
            if (Builtins.CLAMPS.contains(name) || Builtins.CLAMPS.contains(shortName)) ValueModel.guard(r, shortName);
            if (shortName.equals("fabs") || shortName.equals("abs")) r.nonNeg = true;
            if (args.size() == 1 && args.get(0).cval != null && (shortName.equals("fabs") || shortName.equals("abs"))) {
                r.cval = Math.abs(args.get(0).cval);
            }
            return r;
        }
        CType bt = Builtins.FUNCS.get(shortName);
        if (bt != null && b.lookup(shortName) == null && !scope.functions.containsKey(shortName)) {
            E r = ValueModel.drawResult(ValueModel.leafCall(bt, args), shortName, scope);
            Intervals.call(r, shortName, args);
            // a comparison of the argument narrows nothing the fixed interval of sin, tanh, ... does not hold
            if (Intervals.fixed(shortName)) r.compared = false;
            if (Builtins.CLAMPS.contains(shortName)) ValueModel.guard(r, shortName);
            if (Builtins.BOUNDED.contains(shortName)) ValueModel.guard(r, shortName); // sin, cos, tanh, erf: in [-1, 1]
            if (dev.numlint.knowledge.NumericFacts.NON_NEGATIVE.contains(shortName)) r.nonNeg = true;
            if (bt.kind == CType.Kind.DOUBLE && Builtins.DOUBLE_MATH.contains(shortName)) {
                boolean floatArg = false;
                boolean dblArg = false;
                // float data made double inside the argument (exp(-d * s / (1.0 + t * 0.4))): the double overload
                // runs on it, and its result is the same promotion, not double data of the code
                boolean promotedArg = false;
                String fv = null;
                for (E a : args) {
                    if (a.type.kind == CType.Kind.FLOAT && a.f32Leaf) {
                        floatArg = true;
                        if (fv == null) fv = a.var;
                    }
                    if (a.type.kind == CType.Kind.DOUBLE && a.f32Leaf && a.promoter != null) {
                        promotedArg = true;
                        if (fv == null) fv = a.promotedVar;
                    }
                    if (a.dblVar) dblArg = true;
                    if (a.promoter != null && r.promoter == null) r.promoter = a.promoter;
                }
                if (floatArg && !dblArg && dialect.floatOverloads() && allFloat(shortName, args)) {
                    // C++ and CUDA: sin(float) is the float overload, no double involved
                    r.type = CType.FLOAT;
                    r.f32Leaf = true;
                    r.dblVar = false;
                    r.fpLeaf = true;
                } else if (floatArg && !dblArg) {
                    r.f32Leaf = true;
                    r.dblVar = false; // a float promoted by the call, not deliberate double data
                    r.promoter = shortName + "(), not " + shortName + "f()";
                    r.promotedVar = fv;
                } else if (promotedArg && !dblArg) {
                    r.f32Leaf = true;
                    r.dblVar = false; // the argument's promoter (its double literal) promoted the call too
                    r.promotedVar = fv;
                }
                if (dblArg) r.promoter = null;
            }
            boolean allConst = !args.isEmpty();
            for (E a : args) if (a.cval == null) allConst = false;
            if (allConst && args.size() == 1) {
                r.fpLeaf = r.f32Leaf = r.dblVar = false;
                r.cval = ValueModel.constMath(shortName, args.get(0).cval);
                // a double function of a double constant (rsqrt(2.0), sqrt(2.0)) is a double constant: a float
                // combined with it is computed in double, as with a double literal (1/sqrt(2) is no float)
                if (bt.kind == CType.Kind.DOUBLE
                        && Builtins.DOUBLE_MATH.contains(shortName)
                        && args.get(0).type.kind == CType.Kind.DOUBLE
                        && r.promoter == null) {
                    r.promoter = "the double constant " + shortName + "(" + constantText(args.get(0)) + ")";
                }
            }
            // copysign(1.0, u) is -1 or 1 whatever u is
            if ((shortName.equals("copysign") || shortName.equals("copysignf")) && args.size() == 2 && r.cval == null)
                r.set = ValueSets.copysign(ValueSets.of(args.get(0)));
            return r;
        }
        if (Builtins.TYPES.containsKey(name) || scope.isTypeName(name)) { // functional cast / constructor: float2(...)
            CType t = scope.lookupType(name);
            if (args.size() == 1 && t != null && t.kind == CType.Kind.INT && argCtx.get(0) != null) {
                return conversions.cast(t, args.get(0), c, argCtx.get(0), () -> name);
            }
            return E.of(t == null ? CType.UNKNOWN : t);
        }
        List<FileScope.FuncSig> sigs = scope.functions.get(shortName);
        if (sigs == null && b.cls != null) {
            CType mt = b.cls.methods.get(shortName);
            if (mt != null) return ValueModel.codeCall(mt, args);
        }
        if (sigs != null) {
            FileScope.FuncSig sig = null;
            for (FileScope.FuncSig s : sigs) {
                if (s.params().size() == args.size()) {
                    if (sig != null && !sig.ret().name.equals(s.ret().name)) {
                        sig = null;
                        break;
                    }
                    sig = s;
                }
            }
            // an overloaded name (two parameter lists, whatever their arity: default arguments and packs make the
            // count no guide) leaves the parameter each argument binds to to overload resolution, which this front end
            // does not do: its arguments' conversions are not claimed (session 17's evaluation: 22 false NL001 errors
            // from same-arity member overloads, a default argument and a variadic template)
            boolean overloaded = sigs.stream()
                            .map(s -> s.params().stream().map(t -> t.name).toList())
                            .distinct()
                            .count()
                    > 1;
            if (sig != null) {
                for (int i = 0; i < args.size() && !overloaded; i++) {
                    if (argCtx.get(i) != null) {
                        int ai = i + 1;
                        conversions.convert(
                                sig.params().get(i),
                                args.get(i),
                                argCtx.get(i),
                                () -> "argument " + ai + " of " + shortName + "()",
                                false);
                    }
                }
                return ValueModel.drawResult(ValueModel.codeCall(sig.ret(), args), shortName, scope);
            }
        }
        return E.UNKNOWN;
    }

    /** How a constant argument is written: its double literal, else its value. */
    private static String constantText(E a) {
        if (a.dblLiteral != null) return a.dblLiteral;
        double v = a.cval;
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) + ".0" : String.valueOf(v);
    }

    private static String fastMapped(String n, List<E> args) {
        String m = Builtins.FAST_MATH_MAPPED.get(n);
        if (m != null) return m;
        if (!args.isEmpty() && args.get(0).type.kind == CType.Kind.FLOAT) {
            return Builtins.FAST_MATH_MAPPED.get(n + "f");
        }
        return null;
    }

    private static boolean isFloatSqrt(String n, List<E> args) {
        return n.equals("sqrtf") || (n.equals("sqrt") && !args.isEmpty() && args.get(0).type.kind == CType.Kind.FLOAT);
    }

    /** Whether every argument is a float (so C++ overload resolution picks the float version). */
    /** Functions whose float overload takes an int value besides its float ones: ldexp(float, int), jn(int, float). */
    private static final java.util.Set<String> INT_PARAMETER =
            java.util.Set.of("ldexp", "scalbn", "scalbln", "jn", "yn");

    /**
     * Whether C++ overload resolution picks the float overload (nvcc's PTX of such calls holds no f64): every argument
     * float, or an out-parameter of the float overload, or the int parameter of {@link #INT_PARAMETER}'s functions.
     */
    private static boolean allFloat(String name, List<E> args) {
        for (E a : args) {
            if (a.type.kind == CType.Kind.FLOAT) continue;
            if (a.type.kind == CType.Kind.INT && INT_PARAMETER.contains(name)) continue;
            // an out-parameter of the float overload: modf(float, float*), frexp(float, int*), remquo(.., int*); a
            // double* selects the double one
            CType to = a.type.kind == CType.Kind.POINTER ? a.type.elem : null;
            if (to != null && (to.kind == CType.Kind.FLOAT || to.kind == CType.Kind.INT)) continue;
            return false;
        }
        return !args.isEmpty();
    }

    private void atomic(CallExprContext c, List<E> args) {
        CType target = args.get(0).type;
        CType elem = target.kind == CType.Kind.POINTER ? target.elem : null;
        boolean inferred = false;
        if (elem == null || elem.isUnknown()) {
            if (args.size() > 1 && args.get(1).type.isFpScalar() && args.get(1).fpLeaf) {
                elem = args.get(1).type;
                inferred = true;
            } else {
                // atomicAdd(out + keys[i], vals[i]) on a template's ValueT: floating or not is decided where it is
                // instantiated; Clang's typed fact replaces this one where an instantiation is in view
                if (elem != null && args.size() > 1 && args.get(1).type.isUnknown())
                    b.facts.atomics.add(new FunctionFacts.Atomic(b.site(c), elem.toString(), false, true, null, true));
                return;
            }
        }
        // a struct (a user's vec3): a call of the project's own overload, whose adds Clang reads in its body
        // (ClangAtomics)
        if (elem.kind == CType.Kind.STRUCT) return;
        boolean fp = elem.isFloating() || (elem.kind == CType.Kind.VECTOR && elem.elem.isFloating());
        Double addend = args.size() > 1 ? args.get(1).cval : null;
        // a typedef of a floating type (Scalar) is named by what it is: a double sum is a note (FloatAtomic)
        String type = elem.kind == CType.Kind.FLOAT
                ? "float"
                : elem.kind == CType.Kind.DOUBLE
                        ? "double"
                        : elem.kind == CType.Kind.LONG_DOUBLE ? "long double" : null;
        b.facts.atomics.add(
                new FunctionFacts.Atomic(b.site(c), type == null ? elem.toString() : type, fp, inferred, addend));
    }
}
