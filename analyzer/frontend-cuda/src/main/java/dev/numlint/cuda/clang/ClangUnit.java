package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One file as Clang read it, with its facts as named analyses: each is computed on its first request from the
 * copied cursors and cached ({@link #functions()}, {@link #conversions()}, {@link #atomics()},
 * {@link #intrinsics()}, {@link #divisions()}, {@link #loops()}, {@link #sums()}, {@link #promotions()},
 * {@link #contractions()}, {@link #mathCalls()}, and, beside it, {@link ClangLoops}, {@link ClangDefUse},
 * {@link ClangSites} and {@link ClangUses}). A new rule
 * adds an analysis here (or in a class beside it) without opening a walker.
 */
public final class ClangUnit {
    /** Function-like declarations that can have a body. */
    static final Set<Integer> FUNCTION_KINDS = Set.of(
            CXCursor_FunctionDecl,
            CXCursor_CXXMethod,
            CXCursor_Constructor,
            CXCursor_Destructor,
            CXCursor_ConversionFunction,
            CXCursor_FunctionTemplate);
    /** Declarations that hold functions: namespaces, classes, extern "C" blocks. */
    static final Set<Integer> CONTAINER_KINDS = Set.of(
            CXCursor_Namespace,
            CXCursor_StructDecl,
            CXCursor_ClassDecl,
            CXCursor_UnionDecl,
            CXCursor_ClassTemplate,
            CXCursor_ClassTemplatePartialSpecialization,
            CXCursor_LinkageSpec,
            CXCursor_UnexposedDecl);
    /** The atomic adds whose pointee type decides NL009. */
    public static final Set<String> ATOMIC_ADDS =
            Set.of("atomicAdd", "atomicAdd_block", "atomicAdd_system", "unsafeAtomicAdd", "safeAtomicAdd");
    /** The fast hardware approximations (__fdividef is the division; the rest are math functions). */
    public static final Set<String> APPROXIMATE_INTRINSICS = Set.of(
            "__fdividef",
            "__sinf",
            "__cosf",
            "__tanf",
            "__expf",
            "__exp10f",
            "__logf",
            "__log2f",
            "__log10f",
            "__powf",
            "__sincosf");
    /** Calls whose result is bounded: a conversion of an operand that contains one is guarded. */
    static final Set<String> CLAMPS = Set.of(
            "fminf",
            "fmaxf",
            "fmin",
            "fmax",
            "min",
            "max",
            "__saturatef",
            "saturate",
            "clamp",
            "clampf",
            "umin",
            "umax");
    /** The floating type of a dependent operand that calls a {@link #floatingMath} function ({@link #floatingType}). */
    static final String GUESSED_FLOATING = "floating (template)";
    /**
     * Whether {@code name} is a function of the C math library ({@link dev.numlint.knowledge.NumericFacts#MATH_LIBRARY})
     * or its float version: in a template pattern a call of one is floating whatever its argument is (C++'s {@code
     * <cmath>} overloads return double for an integer argument: {@code std::log2(size.half)} of a {@code size_t}).
     */
    static boolean floatingMath(String name) {
        java.util.Set<String> library = dev.numlint.knowledge.NumericFacts.MATH_LIBRARY;
        return library.contains(name) || name.endsWith("f") && library.contains(name.substring(0, name.length() - 1));
    }

    private final Path file;
    private final List<ClangNode> top;
    private final Map<String, List<List<String>>> templateArgs;
    private final int errors;
    private final String firstError;
    private final String failure;
    private final long parseNanos;
    private final long walkNanos;
    private final byte[] text;

    ClangUnit(
            Path file,
            List<ClangNode> top,
            Map<String, List<List<String>>> templateArgs,
            int errors,
            String firstError,
            long parseNanos,
            long walkNanos,
            byte[] text) {
        this(file, top, templateArgs, errors, firstError, null, parseNanos, walkNanos, text);
    }

    private ClangUnit(
            Path file,
            List<ClangNode> top,
            Map<String, List<List<String>>> templateArgs,
            int errors,
            String firstError,
            String failure,
            long parseNanos,
            long walkNanos,
            byte[] text) {
        this.file = file;
        this.top = top;
        this.templateArgs = templateArgs;
        this.errors = errors;
        this.firstError = firstError;
        this.failure = failure;
        this.parseNanos = parseNanos;
        this.walkNanos = walkNanos;
        this.text = text;
    }

    static ClangUnit failed(Path file, String why) {
        return new ClangUnit(file, List.of(), Map.of(), 0, null, why, 0, 0, new byte[0]);
    }

    /** libclang cannot run in this process's workers: the scan says so once and goes on without Clang. */
    static ClangUnit unavailable(Path file, String why) {
        ClangUnit u = failed(file, why);
        u.unavailable = true;
        return u;
    }

    private boolean unavailable;
    /** Project headers' units read from the same parse, by path in the order asked for ({@link ClangIncludes}). */
    Map<Path, ClangUnit> includes = Map.of();
    /** Every unit read from the same parse as this one, this one among them ({@link ClangIncludes#sameParse}). */
    List<ClangUnit> sameParse = List.of();
    /** The min and max helpers of other files its calls name, by name ({@link ClangHeaderHelpers}). */
    Map<String, String> helpers = Map.of();

    private Map<String, List<Integer>> unknownTypes = Map.of();

    /** This unit with the type names Clang did not know, and their lines in this file (see ClangParser). */
    ClangUnit withUnknownTypes(Map<String, List<Integer>> types) {
        unknownTypes = Map.copyOf(types);
        return this;
    }

    private Map<String, Double> memberConstants = Map.of();

    /** This unit with the constant static members of the classes its templates are called with (see ClangParser). */
    ClangUnit withMemberConstants(Map<String, Double> constants) {
        memberConstants = Map.copyOf(constants);
        return this;
    }

    /** "Type::member" to a constant static member's value ({@link ClangLoops}), "table:USR:lo|hi" to a table's bounds. */
    Map<String, Double> memberConstants() {
        return memberConstants;
    }

    /** The type names Clang did not know, with the lines of this file that use them (for the worker's wire format). */
    Map<String, List<Integer>> unknownTypes() {
        return unknownTypes;
    }

    /**
     * The types no file Clang read defines, each with the number of places of this file that use them: the
     * functions whose bodies or signatures hold one of its lines, and each line outside every function.
     */
    public Map<String, Integer> undefinedTypes() {
        return ClangDiagnostics.undefinedTypes(this, unknownTypes);
    }

    /**
     * The identifiers Clang found undeclared in this file ({@code undeclared}), or the type names it did not know, each
     * with its lines.
     */
    public Map<String, List<Integer>> diagnosed(boolean undeclared) {
        Map<String, List<Integer>> out = new java.util.TreeMap<>();
        unknownTypes.forEach((k, v) -> {
            if (ClangDiagnostics.ownKey(k)) return;
            if (k.startsWith(ClangDiagnostics.UNDECLARED) == undeclared) out.put(undeclared ? k.substring(1) : k, v);
        });
        return out;
    }

    /** The arguments that have Clang keep the main file's inactive regions ({@link #inactiveLines()}). */
    public static final List<String> KEEP_INACTIVE = List.of("-Xclang", "-detailed-preprocessing-record");

    /** The first and last line of each region the preprocessor skipped, in pairs, when the parse kept them. */
    public List<Integer> inactiveLines() {
        return unknownTypes.getOrDefault(ClangDiagnostics.INACTIVE, List.of());
    }

    /** The libraries whose numlint declarations the parse read, by index in LibraryStubs.LIBRARIES, or null. */
    public List<Integer> stubsRead() {
        return unknownTypes.get(ClangDiagnostics.STUBS);
    }

    /** The lines of this file Clang's errors are located on (their expansion), in the order reported. */
    public List<Integer> errorLines() {
        return unknownTypes.getOrDefault(ClangDiagnostics.ERRORS, List.of());
    }

    /** Whether Clang cannot run at all (libclang did not load in a worker), rather than this file failing. */
    public boolean unavailable() {
        return unavailable;
    }

    /** The main file's top-level cursors (for the worker's wire format). */
    List<ClangNode> top() {
        return top;
    }

    /** Per function template (its USR): the type arguments it is called with (for the worker's wire format). */
    Map<String, List<List<String>>> templateArguments() {
        return templateArgs;
    }

    /** Why Clang gave nothing for this file, or null when it parsed (possibly with errors). */
    public String failure() {
        return failure;
    }

    /** The number of errors Clang reported; what it recovered is analyzed all the same. */
    public int errors() {
        return errors;
    }

    /** "line N: message" of the first error (the position only when it is in this file), or null. */
    public String firstError() {
        return firstError;
    }

    public long parseNanos() {
        return parseNanos;
    }

    public long walkNanos() {
        return walkNanos;
    }

    public Path file() {
        return file;
    }

    /** The main file's text (null when not kept). */
    byte[] source() {
        return text;
    }

    /** The source text of a node's extent (what the file holds there), or the node's spelling. */
    public String text(ClangNode n) {
        if (n.offset < 0 || n.endOffset > text.length || n.endOffset <= n.offset) return n.spelling;
        return new String(text, n.offset, n.endOffset - n.offset, StandardCharsets.UTF_8);
    }

    /** The text a message quotes for {@code n} ({@link ClangQuotes}). */
    public String quoted(ClangNode n) {
        return ClangQuotes.quoted(text(n), text, n.offset);
    }

    /** A node's column in UTF-16 code units from 1, as every location counts it ({@link ClangColumns}). */
    public int utf16Column(ClangNode n) {
        return ClangColumns.utf16(text, n.offset, n.column);
    }

    /** The same for the node's end; 0 when it ends on another line, as the sites say. */
    public int utf16EndColumn(ClangNode n) {
        return n.endLine != n.line ? 0 : ClangColumns.utf16(text, n.endOffset, n.endColumn);
    }

    // ------------------------------------------------------------------ named analyses, cached

    private final ClangMemo<List<Function>> functions = new ClangMemo<>(this::computeFunctions);
    private final ClangMemo<List<Conversion>> conversions = new ClangMemo<>(this::computeConversions);
    private final ClangMemo<List<Atomic>> atomics = new ClangMemo<>(this::computeAtomics);
    private final ClangMemo<List<ClangAtomicCalls.AtomicCall>> atomicCalls =
            new ClangMemo<>(() -> ClangAtomicCalls.compute(this));
    private final ClangMemo<List<Call>> intrinsics = new ClangMemo<>(this::computeIntrinsics);
    private final ClangMemo<List<ClangNode>> divisions = new ClangMemo<>(this::computeDivisions);
    private final ClangMemo<List<Loop>> loops = new ClangMemo<>(this::computeLoops);

    /** The size of the file's text in bytes (0 when not kept). */
    public int textBytes() {
        return text == null ? 0 : text.length;
    }

    private final ClangMemo.PerFunction perFunction = new ClangMemo.PerFunction();

    /** One function's analysis named {@code analysis}, computed once per function ({@link ClangMemo.PerFunction}). */
    <T> T perFunction(String analysis, ClangNode fn, Supplier<T> compute) {
        return perFunction.get(analysis, fn, compute);
    }

    /**
     * A function definition written in this file. A template is one function, at its written line (its
     * instantiations share the pattern's positions); {@code instantiations} are the type arguments it is called with
     * in this file; {@code instantiatedAt} the line each comes from, where known ({@link ClangTemplates#deduce}).
     */
    public record Function(
            String name,
            int line,
            int startLine,
            int endLine,
            boolean template,
            boolean device,
            boolean host,
            ClangNode node,
            List<List<String>> instantiations,
            Map<List<String>, Integer> instantiatedAt) {
        public Function(
                String name,
                int line,
                int startLine,
                int endLine,
                boolean template,
                boolean device,
                boolean host,
                ClangNode node,
                List<List<String>> instantiations) {
            this(name, line, startLine, endLine, template, device, host, node, instantiations, Map.of());
        }

        /** Whether {@code n} lies in this function's body. */
        public boolean contains(ClangNode n) {
            return node.contains(n);
        }
    }

    /**
     * A floating value converted to an integer type.
     *
     * @param node     the cast or the implicit conversion's node
     * @param operand  the converted expression
     * @param how      "(unsigned int)", "static_cast<unsigned>", "unsigned(...)" or "implicit"
     * @param from     the operand's canonical type, or "T (float, double)" for a template parameter
     * @param to       the target's canonical type
     * @param unsigned whether the target is unsigned
     * @param bytes    the target's width in bytes
     * @param guarded  the operand contains a clamp (min, max, fminf, __saturatef ...) or a conditional, or a test
     *                 on its variables guards it ({@link ClangGuards})
     * @param guard    what limits the operand when {@code guarded} ("fminf()", "the test 'x < 0' (line 9)"), or null
     * @param viaTemplate the operand's type is a template parameter (floating in the instantiations or by its math)
     * @param unseen   the destination as written when it is a template parameter with no instantiation in view
     * @param instantiations a template pattern's conversion: the type arguments of the instantiations that make it
     *                 one (its operand's interval is theirs, {@link ClangTypeArguments#hull}); else null
     */
    public record Conversion(
            ClangNode node,
            ClangNode operand,
            String how,
            String from,
            String to,
            boolean unsigned,
            int bytes,
            boolean explicit,
            boolean guarded,
            String guard,
            boolean viaTemplate,
            Function in,
            String unseen,
            List<List<String>> instantiations) {}

    /**
     * An atomic add; {@code type} is the canonical pointee type ("float", "double"), {@code addend} a constant. In a
     * template, one per floating type its parameter is instantiated with, {@code instantiatedAt} the line of the
     * instantiation (null when not known or not a template's), {@code with} the instantiation named when the added
     * type is not its argument ("member x of T = float2"), else null.
     */
    public record Atomic(
            ClangNode node,
            String name,
            String type,
            boolean floating,
            boolean viaTemplate,
            Double addend,
            Function in,
            Integer instantiatedAt,
            String with) {
        public Atomic(
                ClangNode node,
                String name,
                String type,
                boolean floating,
                boolean viaTemplate,
                Double addend,
                Function in) {
            this(node, name, type, floating, viaTemplate, addend, in, null, null);
        }
    }

    /** A call of an approximate intrinsic. */
    public record Call(ClangNode node, String name, Function in) {}

    /** A loop with its constant trip count, or -1. */
    public record Loop(ClangNode node, long trip) {}

    public List<Function> functions() {
        return functions.get();
    }

    public List<Conversion> conversions() {
        return conversions.get();
    }

    public List<Atomic> atomics() {
        return atomics.get();
    }

    /** Every atomic read-modify-write of a value, with what Clang knows of its type ({@link ClangAtomicCalls}). */
    public List<ClangAtomicCalls.AtomicCall> atomicCalls() {
        return atomicCalls.get();
    }

    public List<Call> intrinsics() {
        return intrinsics.get();
    }

    /** Floating divisions (a / b, a /= b) outside intrinsics. */
    public List<ClangNode> divisions() {
        return divisions.get();
    }

    public List<Loop> loops() {
        return loops.get();
    }

    /** The function whose body holds {@code n}, or null. */
    public Function functionOf(ClangNode n) {
        for (Function f : functions()) if (f.contains(n)) return f;
        return null;
    }

    private List<Function> computeFunctions() {
        return ClangFunctions.of(this, top, templateArgs, text);
    }

    /** Every node below the functions' bodies, in source order, with its function. */
    void eachInFunctions(java.util.function.BiConsumer<Function, ClangNode> f) {
        for (Function fn : functions()) fn.node.forEach(n -> f.accept(fn, n));
    }

    /**
     * The operand's floating type: its canonical type when floating; in a template pattern (dependent type), the
     * types it is instantiated with when it is a template parameter, or "floating" when it calls a floating math
     * function; else null.
     */
    String floatingType(ClangNode op, Function in) {
        if (op == null) return null;
        if (floating(op.canonKind)) return op.canon;
        // the implicit conversion's operand below an unexposed wrapper
        ClangNode s = strip(op);
        if (s != null && floating(s.canonKind)) return s.canon;
        if (in == null || !ClangTemplates.pattern(in)) return null;
        // an operand of a resolved integer type (int(std::ceil(x)) in a template, an explicit conversion that is
        // itself the floating one) or an address ((size_t) p of a T* p): no floating value, whatever floating math or
        // pointee it has; the pattern's guesses are for dependent operands only
        if (s != null && (integral(s.canonKind) || address(s.canonKind))) return null;
        if (ClangDependentTypes.integerRounding(s == null ? op : s)) return null;
        // arithmetic with a double (zMin + d[i]) is double whatever the parameter's instantiation
        String arithmetic = ClangTemplateArithmetic.arithmeticFloating(s == null ? op : s);
        if ("double".equals(arithmetic)) return arithmetic;
        String param = ClangMemberTemplates.param(this, in, s == null ? op : s);
        String inst = param == null ? null : ClangTemplates.floatingInstantiations(this, in, param, op);
        if (inst != null) return ClangRequiresClauses.integralOnly(this, in, param) ? null : inst;
        if (arithmetic != null) return arithmetic;
        boolean[] fp = new boolean[1];
        (s == null ? op : s).forEach(n -> {
            if (n.kind == CXCursor_OverloadedDeclRef && floatingMath(n.spelling)) fp[0] = true;
            if (n.kind == CXCursor_CallExpr && floatingMath(n.spelling)) fp[0] = true;
        });
        // the parameter's instantiations are not in view: floating, as its math says, of a type not known here
        if (fp[0]) return GUESSED_FLOATING;
        return null;
    }

    /** "type-parameter-0-K" of a dependent operand (or one in it), or null. */
    static String templateParam(ClangNode op) {
        if (ClangDependentTypes.integerRounding(op)) return null;
        String[] found = new String[1];
        op.forEach(n -> {
            // a type named in a value's place is none (m_w * m_h * sizeof(T) is an integer, whatever T is)
            if (n.kind == CXCursor_TypeRef || ClangSyntax.inSizeof(n, op)) return;
            if (found[0] == null && n.canon != null && n.canon.matches("(const )?type-parameter-0-\\d+")) {
                found[0] = n.canon.replace("const ", "");
            }
            // a T * passed to a call is a buffer, not the value (gzread(in, m_data[i], n) returns int)
            if (found[0] == null
                    && n.pointee != null
                    && n.pointee.matches("(const )?type-parameter-0-\\d+")
                    && !ClangSyntax.callArgument(n, op)) {
                found[0] = n.pointee.replace("const ", "");
            }
        });
        return found[0];
    }

    private List<Conversion> computeConversions() {
        List<Conversion> out = new ArrayList<>();
        ClangDependentTypes.Resolver dependent = new ClangDependentTypes.Resolver(this);
        ClangDefaultArguments.eachInFunctionsAndDefaults(this, (fn, n) -> {
            // uint16_t((e - lo) / step) of a dependent operand is an unresolved construction, not a functional cast
            boolean construct = ClangTemplates.construction(n);
            boolean explicit = n.kind == CXCursor_CStyleCastExpr
                    || n.kind == CXCursor_CXXStaticCastExpr
                    || n.kind == CXCursor_CXXFunctionalCastExpr
                    || construct
                    || ClangNarrowCasts.is(n);
            boolean implicit = n.kind == CXCursor_UnexposedExpr && n.children.size() == 1;
            String param = ClangTemplates.destination(n);
            if (param != null) ClangTemplates.conversions(this, fn, n, param, out);
            else if (!integral(n.canonKind)) dependent.conversions(fn, n, out);
            ClangTemplateAssignments.of(this, fn, n, out); // dst[i] = x * s with D *dst
            ClangEigenCasts.conversions(this, fn, n, out); // Eigen's cast<unsigned int>() of floating coefficients
            if (!explicit && !implicit || !integral(n.canonKind)) return;
            // a cast to a reference, (uint32_t&)f, reads the object's bits as another type: no value conversion
            if (explicit && ClangSyntax.referenceCast(n, text(n))) return;
            ClangNode op = explicit ? operandOf(n) : n.children.get(0);
            // an explicit cast's own implicit conversion (static_cast<unsigned>(x): an unexposed x) is the cast's
            if (implicit && n.parent != null && isExplicitCast(n.parent)) return;
            if (explicit && op != null && op.kind == CXCursor_UnexposedExpr && integral(op.canonKind)) {
                op = op.children.isEmpty() ? op : op.children.get(0);
            }
            String from = ClangSyntax.inTemplateParameter(n, fn.node()) ? "" : floatingType(op, fn);
            String recovered = from == null && explicit ? ClangRecoveredOperands.floatingType(this, op, fn) : null;
            if (recovered != null) from = recovered;
            if (from == null || from.isEmpty()) {
                if (from == null && explicit && unsignedKind(n.canonKind))
                    ClangTemplates.operandUnseen(this, n, op, fn, n.canon, bytes(n.canonKind), out);
                return;
            }
            ClangNode bare = strip(op);
            boolean viaTemplate =
                    recovered == null && !floating(op.canonKind) && (bare == null || !floating(bare.canonKind));
            String how =
                    switch (n.kind) {
                        case CXCursor_CStyleCastExpr -> "(" + n.type + ")";
                        case CXCursor_CXXStaticCastExpr -> "static_cast<" + n.type + ">";
                        case CXCursor_CXXFunctionalCastExpr -> n.type;
                        default -> construct ? n.type : ClangNarrowCasts.is(n) ? ClangNarrowCasts.how(n) : "implicit";
                    };
            String guard = ClangGuards.of(this, n, op, fn);
            // a clamp down to a negative value bounds a signed target, not the negative side an unsigned one wraps
            boolean guarded = guard != null && !(unsignedKind(n.canonKind) && ClangGuards.belowZero(guard));
            out.add(new Conversion(
                    n,
                    op,
                    how,
                    from,
                    n.canon,
                    unsignedKind(n.canonKind),
                    bytes(n.canonKind),
                    explicit,
                    guarded,
                    guard,
                    viaTemplate,
                    fn,
                    null,
                    null));
        });
        return List.copyOf(out);
    }

    private List<Atomic> computeAtomics() {
        return ClangAtomics.compute(this);
    }

    private List<Call> computeIntrinsics() {
        List<Call> out = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        eachInFunctions((fn, n) -> {
            // the approximate instructions written by hand in an asm statement of device code (ex2.approx.f32)
            if (n.kind == CXCursor_GCCAsmStmt && fn.device())
                dev.numlint.knowledge.InlinePtx.approximate(text(n)).forEach(i -> out.add(new Call(n, i.name(), fn)));
            if (n.kind != CXCursor_CallExpr) return;
            String name = callee(n);
            // CUDA's C++ overload rsqrt(float) is rsqrtf (rsqrt.approx.f32): of a float, or of a template
            // parameter's value in a template instantiated with float
            if (fn.device() && name.equals("rsqrt") && floatArgument(n, fn)) name = "rsqrtf";
            boolean approximate = APPROXIMATE_INTRINSICS.contains(name)
                    || fn.device() && dev.numlint.knowledge.NumericFacts.APPROXIMATE_DEVICE_FUNCTIONS.containsKey(name);
            if (approximate && seen.add(n.offset)) out.add(new Call(n, name, fn));
        });
        return List.copyOf(out);
    }

    /**
     * Whether the one argument of the call {@code n} is a float: by its type, or, in a template pattern, a value of a
     * type parameter that an instantiation in view binds to float.
     */
    private static boolean floatArgument(ClangNode n, Function fn) {
        List<ClangNode> args = arguments(n);
        if (args.size() != 1 || args.get(0) == null) return false;
        ClangNode a = strip(args.get(0));
        return a != null && (a.canonKind == CXType_Float || ClangTypeArguments.instantiatedFloat(a, fn));
    }

    private List<ClangNode> computeDivisions() {
        List<ClangNode> out = new ArrayList<>();
        eachInFunctions((fn, n) -> {
            if ((n.kind == CXCursor_BinaryOperator && n.spelling.equals("/")
                            || n.kind == CXCursor_CompoundAssignOperator && n.spelling.equals("/="))
                    && (floatQuotient(n) || !floating(n.canonKind) && ClangTypeArguments.instantiatedFloat(n, fn))) {
                out.add(n);
            }
        });
        return List.copyOf(out);
    }

    /**
     * Whether a division computes a float quotient, the one -prec-div=false and --use_fast_math make approximate
     * (nvcc keeps div.rn.f64 for double): a float result, and for {@code f /= d} a divisor that is no double (the
     * division is then computed in double and rounded into the float), as the hand-written front end decides.
     */
    private static boolean floatQuotient(ClangNode n) {
        if (n.canonKind != CXType_Float) return false;
        if (n.kind != CXCursor_CompoundAssignOperator || n.children.size() != 2) return true;
        int divisor = n.children.get(1).canonKind;
        return divisor != CXType_Double && divisor != CXType_LongDouble;
    }

    private List<Loop> computeLoops() {
        List<Loop> out = new ArrayList<>();
        eachInFunctions((fn, n) -> {
            if (n.kind == CXCursor_ForStmt) out.add(new Loop(n, ClangLoops.forTrip(n)));
            else if (n.kind == CXCursor_WhileStmt || n.kind == CXCursor_DoStmt) out.add(new Loop(n, -1));
        });
        return List.copyOf(out);
    }

    // ------------------------------------------------------------------ loops and def-use (ClangLoops, ClangDefUse)

    private final ClangLoops loopFacts = new ClangLoops(this);
    private final ClangDefUse defUse = new ClangDefUse(this);

    // ------------------------------------------------------------------ arithmetic sites (ClangSites, ClangUses)

    private final ClangSites sites = new ClangSites(this);
    private final ClangUses uses = new ClangUses(this);
    private final ClangMemo<List<ClangSites.Sum>> sums = new ClangMemo<>(sites::sums);
    private final ClangMemo<List<ClangSites.Promotion>> promotions = new ClangMemo<>(sites::promotions);
    private final ClangMemo<List<ClangSites.Contraction>> contractions = new ClangMemo<>(sites::contractions);
    private final ClangMemo<List<ClangSites.MathCall>> mathCalls = new ClangMemo<>(sites::mathCalls);
    private final ClangMemo<List<ClangSites.WidenedLiteral>> widenedLiterals = new ClangMemo<>(sites::widenedLiterals);
    final ClangIntervals intervals = new ClangIntervals(this);
    private final ClangMemo<List<ClangLongDoubles.LongDouble>> longDoubles =
            new ClangMemo<>(new ClangLongDoubles(this)::compute);

    /** The long double declarations and casts of the functions ({@link ClangLongDoubles}). */
    List<ClangLongDoubles.LongDouble> longDoubles() {
        return longDoubles.get();
    }

    private final ClangStores stores = new ClangStores(this);

    /**
     * What every store of this file to the field or static global {@code ref} reads proves ({@link ClangStores}),
     * computed once per field or global; null when unknown.
     */
    ClangStores.Stored stores(ClangNode ref) {
        return stores.of(ref);
    }

    /** {@link ClangStores#evidence}: the non-negative stores {@code operand} reads, for a message, or null. */
    String storedEvidence(ClangNode operand) {
        return stores.evidence(operand);
    }

    /** The interval the construction of {@code n} proves for its value ({@link ClangIntervals}). */
    double[] interval(ClangNode n, Function fn) {
        double[] r = intervals.of(n, fn);
        // the locals' signs where the interval has no lower bound: a product of positive factors a loop keeps in a
        // local (result = 1.0; result *= (double)(n - i) / (double)(i + 1);), which no interval of a loop follows
        return r[0] < 0 && fn != null && signs().nonNegativeIn(fn, n) ? new double[] {0, Math.max(0, r[1])} : r;
    }

    /** Float literals widened to double whose value reaches a double target ({@link ClangSites#widenedLiterals}). */
    List<ClangSites.WidenedLiteral> widenedLiterals() {
        return widenedLiterals.get();
    }

    /** Floating sums updated inside a loop ({@link ClangSites#sums}). */
    List<ClangSites.Sum> sums() {
        return sums.get();
    }

    /** Float expressions evaluated in double and rounded to float ({@link ClangSites#promotions}). */
    List<ClangSites.Promotion> promotions() {
        return promotions.get();
    }

    /** Multiply-adds a compiler may contract, exact products left out ({@link ClangSites#contractions}). */
    List<ClangSites.Contraction> contractions() {
        return contractions.get();
    }

    /** Calls of math-library functions ({@link ClangSites#mathCalls}). */
    List<ClangSites.MathCall> mathCalls() {
        return mathCalls.get();
    }

    private final ClangRandom random = new ClangRandom(this);

    /** {@link ClangRandom#drawn}: the value of {@code n} in {@code fn} is computed from a random draw. */
    public boolean drawn(ClangNode n, Function fn) {
        return random.drawn(n, fn);
    }

    private final ClangVariateLines variateLines = new ClangVariateLines(this, random);

    /** {@link ClangVariateLines}: the lines of {@code fn} whose arithmetic computes continuous random variates. */
    public Set<Integer> variateLines(Function fn) {
        return variateLines.of(fn);
    }

    /** {@link ClangUses#of}: where the value computed at {@code n} in {@code fn} goes. */
    List<dev.numlint.cuda.facts.ValueUse> uses(ClangNode n, Function fn) {
        return uses.of(n, fn);
    }

    /** {@link ClangLoops#carriedBy}: which loops carry the sum into the accumulator updated at {@code line}. */
    ClangLoops.Carried carriedBy(int line, int column, String target) {
        return loopFacts.carriedBy(line, column, target);
    }

    /** {@link ClangDefUse#cancelsNearlyEqualTerms}. */
    boolean cancelsNearlyEqualTerms(int line, String text) {
        return defUse.cancelsNearlyEqualTerms(line, text);
    }

    /** {@link ClangDefUse#evaluatedInDouble}: evaluated in double or long double. */
    boolean evaluatedInDouble(int line, String text) {
        return defUse.evaluatedInDouble(line, text);
    }

    /** {@link ClangDefUse#inDoubleRoundedToFloat}: evaluated in double, rounded to float right away. */
    boolean inDoubleRoundedToFloat(int line, String text) {
        return defUse.inDoubleRoundedToFloat(line, text);
    }

    private final ClangSigns signs = new ClangSigns(this);

    /** {@link ClangSigns#neverNegativeLocal}: the local {@code name} of the function spanning {@code line}. */
    public boolean neverNegative(int line, String name) {
        return signs.neverNegativeLocal(line, name);
    }

    /** The signs of this unit's values (ClangSigns): never-negative locals, sums of magnitudes. */
    ClangSigns signs() {
        return signs;
    }

    /** {@link ClangDefUse#overwrittenBefore}: the value stored at {@code defLine} no longer reaches the use. */
    boolean overwrittenBefore(int defLine, String defText, int useLine, String useText) {
        return defUse.overwrittenBefore(defLine, defText, useLine, useText);
    }

    private final ClangAgreeingSides agreeingSides = new ClangAgreeingSides(this);

    /** {@link ClangAgreeingSides}: the if or ?: that the comparison {@code cmp} decides agrees where it flips. */
    boolean sidesAgree(ClangNode cmp, ClangNode fn) {
        return agreeingSides.agree(cmp, fn);
    }

    /** {@link ClangAgreeingSides#agreeAt}: the same for the comparison spelled {@code text} at {@code line}. */
    boolean sidesAgreeAt(int line, String text) {
        return agreeingSides.agreeAt(line, text);
    }

    /** {@link ClangDefUse#deadAfter}: no read sees a value of the local {@code usr} left by {@code stmt}. */
    boolean deadAfter(ClangNode stmt, String usr, ClangNode fn) {
        return defUse.deadAfter(stmt, usr, fn);
    }
}
