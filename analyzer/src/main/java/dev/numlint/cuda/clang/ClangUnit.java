package dev.numlint.cuda.clang;

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
 * {@link #intrinsics()}, {@link #divisions()}, {@link #loops()}, {@link #carriedBy(int, int, String)}). A new rule
 * adds an analysis here (or in a class beside it) without opening a walker.
 */
public final class ClangUnit {
    /** Function-like declarations that can have a body. */
    private static final Set<Integer> FUNCTION_KINDS = Set.of(
            CXCursor_FunctionDecl,
            CXCursor_CXXMethod,
            CXCursor_Constructor,
            CXCursor_Destructor,
            CXCursor_ConversionFunction,
            CXCursor_FunctionTemplate);
    /** Declarations that hold functions: namespaces, classes, extern "C" blocks. */
    private static final Set<Integer> CONTAINER_KINDS = Set.of(
            CXCursor_Namespace,
            CXCursor_StructDecl,
            CXCursor_ClassDecl,
            CXCursor_UnionDecl,
            CXCursor_ClassTemplate,
            CXCursor_ClassTemplatePartialSpecialization,
            CXCursor_LinkageSpec,
            CXCursor_UnexposedDecl);
    /** The atomic adds whose pointee type decides NL009. */
    static final Set<String> ATOMIC_ADDS =
            Set.of("atomicAdd", "atomicAdd_block", "atomicAdd_system", "unsafeAtomicAdd", "safeAtomicAdd");
    /** The fast hardware approximations (__fdividef is the division; the rest are math functions). */
    static final Set<String> APPROXIMATE_INTRINSICS = Set.of(
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
    /** Math functions of a floating argument: in a template pattern, a call of one is floating whatever T is. */
    static final Set<String> FLOATING_MATH = Set.of(
            "ceil",
            "floor",
            "round",
            "rint",
            "trunc",
            "sqrt",
            "exp",
            "log",
            "pow",
            "fabs",
            "sin",
            "cos",
            "tan",
            "ceilf",
            "floorf",
            "roundf",
            "rintf",
            "truncf",
            "sqrtf",
            "expf",
            "logf",
            "powf",
            "fabsf",
            "sinf",
            "cosf",
            "tanf",
            "nearbyint",
            "nearbyintf");

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

    private Map<String, List<Integer>> unknownTypes = Map.of();

    /** This unit with the type names Clang did not know, and their lines in this file (see ClangParser). */
    ClangUnit withUnknownTypes(Map<String, List<Integer>> types) {
        unknownTypes = Map.copyOf(types);
        return this;
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
        Map<String, Integer> out = new java.util.TreeMap<>();
        for (Map.Entry<String, List<Integer>> e : unknownTypes.entrySet()) {
            java.util.Set<Object> places = new java.util.HashSet<>();
            for (int line : e.getValue()) {
                Function in = null;
                for (Function f : functions()) {
                    if (line >= f.startLine() && line <= f.endLine()) {
                        in = f;
                        break;
                    }
                }
                places.add(in == null ? (Object) line : in);
            }
            out.put(e.getKey(), places.size());
        }
        return out;
    }

    /** Whether Clang cannot run at all (libclang did not load in a worker), rather than this file failing. */
    public boolean unavailable() {
        return unavailable;
    }

    static ClangUnit overBudget(Path file, long ms) {
        return failed(
                file,
                "over the Clang front end's per-file budget of " + ms
                        + " ms (set -Dnumlint.clang.fileBudgetMs to raise it)");
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

    /** The source text of a node's extent (what the file holds there), or the node's spelling. */
    public String text(ClangNode n) {
        if (n.offset < 0 || n.endOffset > text.length || n.endOffset <= n.offset) return n.spelling;
        return new String(text, n.offset, n.endOffset - n.offset, StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------ named analyses, cached

    private final Memo<List<Function>> functions = new Memo<>(this::computeFunctions);
    private final Memo<List<Conversion>> conversions = new Memo<>(this::computeConversions);
    private final Memo<List<Atomic>> atomics = new Memo<>(this::computeAtomics);
    private final Memo<List<Call>> intrinsics = new Memo<>(this::computeIntrinsics);
    private final Memo<List<ClangNode>> divisions = new Memo<>(this::computeDivisions);
    private final Memo<List<Loop>> loops = new Memo<>(this::computeLoops);

    /** A value computed once, on first request (thread-safe). */
    static final class Memo<T> {
        private final Supplier<T> f;
        private volatile T v;

        Memo(Supplier<T> f) {
            this.f = f;
        }

        T get() {
            T x = v;
            if (x == null) {
                synchronized (this) {
                    if (v == null) v = f.get();
                    x = v;
                }
            }
            return x;
        }
    }

    /**
     * A function definition written in this file. A template is one function, at its written line (its
     * instantiations share the pattern's positions); {@code instantiations} are the type arguments it is called with
     * in this file.
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
            List<List<String>> instantiations) {
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
     * @param guarded  the operand contains a clamp (min, max, fminf, __saturatef ...) or a conditional
     * @param viaTemplate the operand's type is a template parameter (floating in the instantiations or by its math)
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
            boolean viaTemplate,
            Function in) {}

    /** An atomic add; {@code type} is the canonical pointee type ("float", "double"), {@code addend} a constant. */
    public record Atomic(
            ClangNode node,
            String name,
            String type,
            boolean floating,
            boolean viaTemplate,
            Double addend,
            Function in) {}

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
        List<Function> out = new ArrayList<>();
        java.util.ArrayDeque<ClangNode> todo = new java.util.ArrayDeque<>(top);
        while (!todo.isEmpty()) {
            ClangNode n = todo.poll();
            if (CONTAINER_KINDS.contains(n.kind)) {
                todo.addAll(n.children);
                continue;
            }
            if (!FUNCTION_KINDS.contains(n.kind)) continue;
            ClangNode body = null;
            boolean device = false;
            boolean global = false;
            boolean host = false;
            for (ClangNode c : n.children) {
                if (c.kind == CXCursor_CompoundStmt) body = c;
                else if (c.kind == CXCursor_CUDADeviceAttr) device = true;
                else if (c.kind == CXCursor_CUDAGlobalAttr) global = true;
                else if (c.kind == CXCursor_CUDAHostAttr) host = true;
            }
            if (body == null) continue;
            if (!device && !global && !host && n.offset >= 0 && body.offset > n.offset && body.offset <= text.length) {
                // a template's attributes are not among its cursor's children: the words of its head
                String head = new String(text, n.offset, body.offset - n.offset, StandardCharsets.UTF_8);
                global = head.matches("(?s).*\\b__global__\\b.*");
                device = head.matches("(?s).*\\b__device__\\b.*");
                host = head.matches("(?s).*\\b__host__\\b.*");
            }
            String name = n.spelling;
            ClangNode p = n.parent;
            while (p != null) {
                if (p.kind == CXCursor_StructDecl || p.kind == CXCursor_ClassDecl || p.kind == CXCursor_ClassTemplate) {
                    name = p.spelling + "::" + name;
                }
                p = p.parent;
            }
            if (n.ref != null && !n.ref.isEmpty() && !name.contains("::")) name = n.ref + "::" + name;
            boolean dev = device || global;
            out.add(new Function(
                    name,
                    n.line,
                    n.line,
                    n.endLine,
                    n.kind == CXCursor_FunctionTemplate,
                    dev,
                    host || !dev,
                    n,
                    n.usr == null ? List.of() : templateArgs.getOrDefault(n.usr, List.of())));
        }
        return List.copyOf(out);
    }

    /** Every node below the functions' bodies, in source order, with its function. */
    private void eachInFunctions(java.util.function.BiConsumer<Function, ClangNode> f) {
        for (Function fn : functions()) fn.node.forEach(n -> f.accept(fn, n));
    }

    static boolean floating(int canonKind) {
        return canonKind == CXType_Float
                || canonKind == CXType_Double
                || canonKind == CXType_LongDouble
                || canonKind == CXType_Half
                || canonKind == CXType_Float16
                || canonKind == CXType_Float128;
    }

    static boolean integral(int canonKind) {
        return canonKind >= CXType_Bool && canonKind <= CXType_Int128 && canonKind != CXType_Bool
                || canonKind == CXType_Char_S;
    }

    static boolean unsignedKind(int k) {
        return k >= CXType_Char_U && k <= CXType_UInt128;
    }

    static int bytes(int k) {
        if (k == CXType_Char_U || k == CXType_UChar || k == CXType_Char_S || k == CXType_SChar) return 1;
        if (k == CXType_UShort || k == CXType_Short || k == CXType_Char16) return 2;
        if (k == CXType_UInt || k == CXType_Int || k == CXType_Char32 || k == CXType_WChar) return 4;
        if (k == CXType_UInt128 || k == CXType_Int128) return 16;
        return 8;
    }

    /** The expression under casts' type references and unexposed wrappers (an implicit conversion's operand). */
    static ClangNode operandOf(ClangNode cast) {
        ClangNode op = null;
        for (ClangNode c : cast.children) {
            if (c.kind == CXCursor_TypeRef || c.kind == CXCursor_TemplateRef || c.kind == CXCursor_NamespaceRef)
                continue;
            op = c;
        }
        return op;
    }

    /** Skips implicit-conversion and paren wrappers that keep the operand's type. */
    static ClangNode strip(ClangNode n) {
        while (n != null
                && (n.kind == CXCursor_UnexposedExpr || n.kind == CXCursor_ParenExpr)
                && n.children.size() == 1) {
            n = n.children.get(0);
        }
        return n;
    }

    /**
     * The operand's floating type: its canonical type when floating; in a template pattern (dependent type), the
     * types it is instantiated with when it is a template parameter, or "floating" when it calls a floating math
     * function; else null.
     */
    private String floatingType(ClangNode op, Function in) {
        if (op == null) return null;
        if (floating(op.canonKind)) return op.canon;
        // the implicit conversion's operand below an unexposed wrapper
        ClangNode s = strip(op);
        if (s != null && floating(s.canonKind)) return s.canon;
        if (in == null || !in.template()) return null;
        String param = templateParam(s == null ? op : s);
        if (param != null) {
            String inst = instantiatedWith(in, param, true);
            if (inst != null) return inst;
        }
        boolean[] fp = new boolean[1];
        (s == null ? op : s).forEach(n -> {
            if (n.kind == CXCursor_OverloadedDeclRef && FLOATING_MATH.contains(n.spelling)) fp[0] = true;
            if (n.kind == CXCursor_CallExpr && FLOATING_MATH.contains(n.spelling)) fp[0] = true;
        });
        if (fp[0]) return (param == null ? "floating" : param) + " (template)";
        return null;
    }

    /** "type-parameter-0-K" of a dependent operand (or one in it), or null. */
    private static String templateParam(ClangNode op) {
        String[] found = new String[1];
        op.forEach(n -> {
            if (found[0] == null && n.canon != null && n.canon.matches("(const )?type-parameter-0-\\d+")) {
                found[0] = n.canon.replace("const ", "");
            }
            if (found[0] == null && n.pointee != null && n.pointee.matches("(const )?type-parameter-0-\\d+")) {
                found[0] = n.pointee.replace("const ", "");
            }
        });
        return found[0];
    }

    /**
     * The floating types a template parameter ("type-parameter-0-K") is instantiated with in this file
     * ("float, double"), or null when none is known or (with {@code floatingOnly}) none is floating.
     */
    private static String instantiatedWith(Function in, String param, boolean floatingOnly) {
        int k;
        try {
            k = Integer.parseInt(param.substring(param.lastIndexOf('-') + 1));
        } catch (RuntimeException e) {
            return null;
        }
        Set<String> types = new java.util.TreeSet<>();
        for (List<String> args : in.instantiations()) {
            if (k >= args.size() || args.get(k) == null) continue;
            String t = args.get(k);
            if (!floatingOnly || t.equals("float") || t.equals("double") || t.equals("long double")) types.add(t);
        }
        return types.isEmpty() ? null : String.join(", ", types);
    }

    private List<Conversion> computeConversions() {
        List<Conversion> out = new ArrayList<>();
        eachInFunctions((fn, n) -> {
            boolean explicit = n.kind == CXCursor_CStyleCastExpr
                    || n.kind == CXCursor_CXXStaticCastExpr
                    || n.kind == CXCursor_CXXFunctionalCastExpr;
            boolean implicit = n.kind == CXCursor_UnexposedExpr && n.children.size() == 1;
            if (!explicit && !implicit) return;
            if (!integral(n.canonKind)) return;
            ClangNode op = explicit ? operandOf(n) : n.children.get(0);
            // an explicit cast's own implicit conversion (static_cast<unsigned>(x) holds an unexposed x of the
            // target type) is the cast's, not a second conversion
            if (implicit && n.parent != null && isExplicitCast(n.parent)) return;
            if (explicit && op != null && op.kind == CXCursor_UnexposedExpr && integral(op.canonKind)) {
                op = op.children.isEmpty() ? op : op.children.get(0);
            }
            String from = floatingType(op, fn);
            if (from == null) return;
            ClangNode bare = strip(op);
            boolean viaTemplate = !floating(op.canonKind) && (bare == null || !floating(bare.canonKind));
            String how =
                    switch (n.kind) {
                        case CXCursor_CStyleCastExpr -> "(" + n.type + ")";
                        case CXCursor_CXXStaticCastExpr -> "static_cast<" + n.type + ">";
                        case CXCursor_CXXFunctionalCastExpr -> n.type;
                        default -> "implicit";
                    };
            boolean[] guarded = new boolean[1];
            op.forEach(x -> {
                if ((x.kind == CXCursor_CallExpr || x.kind == CXCursor_OverloadedDeclRef)
                        && CLAMPS.contains(x.spelling)) guarded[0] = true;
                if (x.kind == CXCursor_ConditionalOperator) guarded[0] = true;
            });
            out.add(new Conversion(
                    n,
                    op,
                    how,
                    from,
                    n.canon,
                    unsignedKind(n.canonKind),
                    bytes(n.canonKind),
                    explicit,
                    guarded[0],
                    viaTemplate,
                    fn));
        });
        return List.copyOf(out);
    }

    private static boolean isExplicitCast(ClangNode n) {
        return n.kind == CXCursor_CStyleCastExpr
                || n.kind == CXCursor_CXXStaticCastExpr
                || n.kind == CXCursor_CXXFunctionalCastExpr;
    }

    /** The callee's name of a call: its spelling, or the name its (overloaded, dependent) reference spells. */
    static String callee(ClangNode call) {
        if (call.spelling != null && !call.spelling.isEmpty()) return call.spelling;
        String[] name = new String[1];
        call.forEach(n -> {
            if (name[0] == null
                    && (n.kind == CXCursor_OverloadedDeclRef || n.kind == CXCursor_DeclRefExpr)
                    && !n.spelling.isEmpty()) {
                name[0] = n.spelling;
            }
        });
        return name[0] == null ? "" : name[0];
    }

    /** The call's arguments: its children after the callee reference. */
    static List<ClangNode> arguments(ClangNode call) {
        List<ClangNode> ch = call.children;
        return ch.isEmpty() ? List.of() : ch.subList(1, ch.size());
    }

    private List<Atomic> computeAtomics() {
        List<Atomic> out = new ArrayList<>();
        eachInFunctions((fn, n) -> {
            if (n.kind != CXCursor_CallExpr && !(n.kind == CXCursor_UnexposedExpr && !n.children.isEmpty())) return;
            if (n.kind == CXCursor_UnexposedExpr) return; // dependent calls show as CallExpr too
            String name = callee(n);
            if (!ATOMIC_ADDS.contains(name)) return;
            List<ClangNode> args = arguments(n);
            if (args.size() < 2) return;
            ClangNode ptr = args.get(0);
            ClangNode sp = strip(ptr);
            String type = ptr.pointee != null ? ptr.pointee : sp == null ? null : sp.pointee;
            int kind = ptr.pointee != null ? ptr.pointeeKind : sp == null ? 0 : sp.pointeeKind;
            boolean viaTemplate = false;
            boolean fp =
                    floating(kind) || type != null && (type.startsWith("__half") || type.startsWith("__nv_bfloat"));
            if (!fp && fn.template()) {
                // a dependent pointer (&grid[i] with REAL *grid) has no canonical pointee: the parameter in it
                String param = type != null ? type.replace("const ", "") : templateParam(ptr);
                if (param == null) param = "";
                if (param.matches("type-parameter-0-\\d+")) {
                    String inst = instantiatedWith(fn, param, true);
                    if (inst != null) {
                        type = inst;
                        fp = true;
                        viaTemplate = true;
                    }
                }
            }
            if (!fp && kind == CXType_Vector) fp = type != null && type.contains("float");
            if (!fp) return;
            ClangNode addend = args.get(1);
            Double v = addend.value != null ? addend.value : strip(addend) == null ? null : strip(addend).value;
            out.add(new Atomic(n, name, type == null ? "" : type.replace("const ", ""), true, viaTemplate, v, fn));
        });
        return List.copyOf(out);
    }

    private List<Call> computeIntrinsics() {
        List<Call> out = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        eachInFunctions((fn, n) -> {
            if (n.kind != CXCursor_CallExpr) return;
            String name = callee(n);
            if (APPROXIMATE_INTRINSICS.contains(name) && seen.add(n.offset)) out.add(new Call(n, name, fn));
        });
        return List.copyOf(out);
    }

    private List<ClangNode> computeDivisions() {
        List<ClangNode> out = new ArrayList<>();
        eachInFunctions((fn, n) -> {
            if ((n.kind == CXCursor_BinaryOperator && n.spelling.equals("/")
                            || n.kind == CXCursor_CompoundAssignOperator && n.spelling.equals("/="))
                    && floating(n.canonKind)) {
                out.add(n);
            }
        });
        return List.copyOf(out);
    }

    private List<Loop> computeLoops() {
        List<Loop> out = new ArrayList<>();
        eachInFunctions((fn, n) -> {
            if (n.kind == CXCursor_ForStmt) out.add(new Loop(n, forTrip(n)));
            else if (n.kind == CXCursor_WhileStmt || n.kind == CXCursor_DoStmt) out.add(new Loop(n, -1));
        });
        return List.copyOf(out);
    }

    /**
     * The trip count of {@code for (i = a; i < b; i++)} (also {@code <=}, {@code ++i}, {@code i += 1}) with
     * constant a and b, else -1.
     */
    static long forTrip(ClangNode loop) {
        ClangNode init = null;
        ClangNode cond = null;
        ClangNode inc = null;
        List<ClangNode> ch = loop.children;
        // children: init, condition, increment, body (absent parts are simply missing)
        for (ClangNode c : ch) {
            if (c.kind == CXCursor_DeclStmt && init == null && cond == null) init = c;
            else if (c.kind == CXCursor_BinaryOperator && cond == null && isComparison(c.spelling)) cond = c;
            else if (cond != null
                    && inc == null
                    && (c.kind == CXCursor_UnaryOperator || c.kind == CXCursor_CompoundAssignOperator)) inc = c;
            else if (c.kind == CXCursor_BinaryOperator && init == null && c.spelling.equals("=")) init = c;
        }
        if (init == null || cond == null || inc == null) return -1;
        Double a = null;
        String var = null;
        if (init.kind == CXCursor_DeclStmt && init.children.size() == 1) {
            ClangNode vd = init.children.get(0);
            var = vd.usr;
            ClangNode v = vd.children.isEmpty() ? null : vd.children.get(vd.children.size() - 1);
            a = constant(v);
        } else if (init.kind == CXCursor_BinaryOperator && init.children.size() == 2) {
            ClangNode l = strip(init.children.get(0));
            var = l == null ? null : l.refUsr;
            a = constant(init.children.get(1));
        }
        if (a == null || var == null || cond.children.size() != 2) return -1;
        ClangNode lhs = strip(cond.children.get(0));
        if (lhs == null || !var.equals(lhs.refUsr)) return -1;
        Double b = constant(cond.children.get(1));
        if (b == null) return -1;
        String step = inc.spelling;
        boolean up = step.equals("++")
                || inc.kind == CXCursor_CompoundAssignOperator
                        && step.equals("+=")
                        && inc.children.size() == 2
                        && Double.valueOf(1.0).equals(inc.children.get(1).value);
        if (!up) return -1;
        double n =
                switch (cond.spelling) {
                    case "<", "!=" -> b - a;
                    case "<=" -> b - a + 1;
                    default -> -1;
                };
        return n < 0 || n > 1e15 ? (n < 0 && n != -1 ? 0 : -1) : (long) n;
    }

    /**
     * The constant value of a loop bound: Clang's evaluation, or, in a template pattern (which is not evaluated), a
     * literal, a negated literal ({@code -1}) or either in parentheses or an implicit conversion.
     */
    private static Double constant(ClangNode n) {
        for (int depth = 0; n != null && depth < 8; depth++) {
            if (n.value != null) return n.value;
            if ((n.kind == CXCursor_UnexposedExpr || n.kind == CXCursor_ParenExpr) && n.children.size() == 1) {
                n = n.children.get(0);
            } else if (n.kind == CXCursor_UnaryOperator
                    && n.children.size() == 1
                    && ("-".equals(n.spelling) || "+".equals(n.spelling))) {
                Double v = constant(n.children.get(0));
                return v == null ? null : "-".equals(n.spelling) ? -v : v;
            } else {
                return null;
            }
        }
        return null;
    }

    private static boolean isComparison(String op) {
        return op.equals("<") || op.equals("<=") || op.equals("!=") || op.equals(">") || op.equals(">=");
    }

    // ------------------------------------------------------------------ def-use: accumulator resets

    /**
     * Which loops really carry the sum into the accumulator updated at {@code line} (the compound assignment or
     * {@code s = s + x} whose left side is {@code target}): the loops around it inside the innermost one that resets
     * the accumulator before the update ({@code s = 0}, {@code s = <expression without s>}, {@code memset(&s, ...)},
     * a declaration) in each of its iterations. Null when the update is not found.
     */
    public Carried carriedBy(int line, int column, String target) {
        String want = squash(target);
        ClangNode acc = null;
        for (Function fn : functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            ClangNode[] hit = new ClangNode[1];
            fn.node.forEach(n -> {
                if (hit[0] != null || n.line != line) return;
                boolean update = n.kind == CXCursor_CompoundAssignOperator
                        || n.kind == CXCursor_BinaryOperator && n.spelling.equals("=");
                if (update
                        && !n.children.isEmpty()
                        && squash(text(n.children.get(0))).equals(want)) hit[0] = n;
            });
            if (hit[0] != null) {
                acc = hit[0];
                break;
            }
        }
        if (acc == null) return null;
        ClangNode lhs = acc.children.get(0);
        String root = rootUsr(lhs);
        if (root == null) return null;
        List<ClangNode> chain = new ArrayList<>(); // outermost first
        for (ClangNode p = acc.parent; p != null; p = p.parent) {
            if (p.kind == CXCursor_ForStmt || p.kind == CXCursor_WhileStmt || p.kind == CXCursor_DoStmt)
                chain.add(0, p);
            if (FUNCTION_KINDS.contains(p.kind)) break;
        }
        if (chain.isEmpty()) return null;
        ClangNode accNode = acc;
        int resetDepth = -1;
        int resetLine = 0;
        for (int i = chain.size() - 1; i >= 0 && resetDepth < 0; i--) {
            ClangNode loop = chain.get(i);
            ClangNode inner = i + 1 < chain.size() ? chain.get(i + 1) : null;
            ClangNode[] found = new ClangNode[1];
            loop.forEach(n -> {
                if (found[0] != null || n.offset < 0 || n.offset >= accNode.offset) return;
                if (n == loop || inner != null && inner.contains(n)) return;
                if (innermostLoop(n) != loop || !unconditional(n, loop)) return;
                if (resets(n, root, want)) found[0] = n;
            });
            if (found[0] != null) {
                resetDepth = i;
                resetLine = found[0].line;
            }
        }
        List<Integer> lines = new ArrayList<>();
        long trip = 1;
        Set<String> indexes = new HashSet<>();
        lhs.forEach(x -> {
            if (x.refUsr != null) indexes.add(x.refUsr);
        });
        for (int i = resetDepth + 1; i < chain.size(); i++) {
            // a loop whose variable indexes the accumulator (m[i][j] in the i and j loops) moves to another element
            String var = loopVariable(chain.get(i));
            if (var != null && indexes.contains(var) && resetDepth >= 0) continue;
            lines.add(chain.get(i).line);
            long t = chain.get(i).kind == CXCursor_ForStmt ? forTrip(chain.get(i)) : -1;
            trip = trip < 0 || t < 0 ? -1 : trip * t;
        }
        List<Integer> all = new ArrayList<>();
        for (ClangNode l : chain) all.add(l.line);
        return new Carried(all, lines, resetDepth < 0 ? 0 : resetLine, lines.isEmpty() ? 0 : trip);
    }

    /**
     * The loops around an update (outermost first), the ones that carry its sum, the line of the reset that ends the
     * others (0 when none), and the carrying loops' trip count (-1 unknown, 0 when none carries it: the accumulator
     * is reset in every iteration of the innermost loop).
     */
    public record Carried(List<Integer> loopLines, List<Integer> carrying, int resetLine, long trip) {}

    /** Whether {@code n} runs in every iteration of {@code loop}: no branch or short circuit between them. */
    private static boolean unconditional(ClangNode n, ClangNode loop) {
        for (ClangNode p = n.parent; p != null && p != loop; p = p.parent) {
            if (p.kind == CXCursor_IfStmt
                    || p.kind == CXCursor_SwitchStmt
                    || p.kind == CXCursor_CaseStmt
                    || p.kind == CXCursor_DefaultStmt
                    || p.kind == CXCursor_ConditionalOperator
                    || p.kind == CXCursor_LambdaExpr
                    || p.kind == CXCursor_BinaryOperator && (p.spelling.equals("&&") || p.spelling.equals("||"))) {
                return false;
            }
        }
        return true;
    }

    /** The variable a {@code for} loop declares or assigns in its initialization, by its USR, or null. */
    static String loopVariable(ClangNode loop) {
        if (loop.kind != CXCursor_ForStmt || loop.children.isEmpty()) return null;
        ClangNode init = loop.children.get(0);
        if (init.kind == CXCursor_DeclStmt && !init.children.isEmpty()) return init.children.get(0).usr;
        if (init.kind == CXCursor_BinaryOperator && init.spelling.equals("=") && !init.children.isEmpty()) {
            ClangNode l = strip(init.children.get(0));
            return l == null ? null : l.refUsr;
        }
        return null;
    }

    private static ClangNode innermostLoop(ClangNode n) {
        for (ClangNode p = n.parent; p != null; p = p.parent) {
            if (p.kind == CXCursor_ForStmt || p.kind == CXCursor_WhileStmt || p.kind == CXCursor_DoStmt) return p;
        }
        return null;
    }

    /** Whether {@code n} restarts the accumulator: an assignment not reading it, a memset of it, a declaration. */
    private boolean resets(ClangNode n, String root, String target) {
        if (n.kind == CXCursor_VarDecl) return root.equals(n.usr);
        if (n.kind == CXCursor_BinaryOperator && n.spelling.equals("=") && n.children.size() == 2) {
            ClangNode l = n.children.get(0);
            String lt = squash(text(l));
            if (!root.equals(rootUsr(l))) return false;
            // the whole variable, or the same element
            if (!lt.equals(target) && strip(l).kind != CXCursor_DeclRefExpr) return false;
            boolean[] reads = new boolean[1];
            n.children.get(1).forEach(x -> {
                if (root.equals(x.refUsr)) reads[0] = true;
            });
            return !reads[0];
        }
        if (n.kind == CXCursor_CallExpr) {
            String name = callee(n);
            if (!name.equals("memset") && !name.equals("std::memset") && !name.equals("__builtin_memset")) return false;
            List<ClangNode> args = arguments(n);
            if (args.size() != 3) return false;
            ClangNode v = args.get(1).value != null ? args.get(1) : strip(args.get(1));
            if (v == null || v.value == null || v.value != 0) return false;
            return root.equals(rootUsr(args.get(0)));
        }
        return false;
    }

    // ------------------------------------------------------------------ cancellation of nearly equal terms

    /**
     * Whether the expression {@code text} at {@code line} holds a floating subtraction of nearly equal terms:
     * {@code x - (x + c)}, {@code x - (x - c)} or {@code (x + c) - x} with the same {@code x} (a variable, member or
     * element, no call) and a constant {@code c}. In float {@code x + c} rounds back to {@code x} whenever {@code c}
     * is below half an ulp of {@code x}, so the difference is 0 there and {@code -c} in double.
     */
    public boolean cancelsNearlyEqualTerms(int line, String text) {
        String want = squash(text);
        boolean[] hit = new boolean[1];
        for (Function fn : functions()) {
            if (line < fn.startLine() || line > fn.endLine()) continue;
            fn.node.forEach(n -> {
                if (hit[0] || n.line != line || n.kind != CXCursor_BinaryOperator || !n.spelling.equals("-")) return;
                if (n.children.size() != 2 || !floating(n.canonKind)) return;
                if (!want.contains(squash(text(n)))) return;
                ClangNode a = strip(n.children.get(0));
                ClangNode b = strip(n.children.get(1));
                if (sumWithConstant(b, a) || sumWithConstant(a, b)) hit[0] = true;
            });
        }
        return hit[0];
    }

    /** Whether {@code s} is {@code x + c} or {@code x - c} (or {@code c + x}) with {@code x} written as {@code x}. */
    private boolean sumWithConstant(ClangNode s, ClangNode x) {
        if (s == null || x == null || s.kind != CXCursor_BinaryOperator || s.children.size() != 2) return false;
        if (!s.spelling.equals("+") && !s.spelling.equals("-")) return false;
        boolean[] call = new boolean[1];
        x.forEach(q -> {
            if (q.kind == CXCursor_CallExpr) call[0] = true;
        });
        if (call[0] || x.value != null) return false;
        String xt = squash(text(x));
        ClangNode l = strip(s.children.get(0));
        ClangNode r = strip(s.children.get(1));
        if (l == null || r == null) return false;
        boolean lx = squash(text(l)).equals(xt);
        boolean rx = squash(text(r)).equals(xt);
        if (lx && r.value != null && r.value != 0) return true;
        return s.spelling.equals("+") && rx && l.value != null && l.value != 0;
    }

    // ------------------------------------------------------------------ def-use: a value overwritten before a use

    /**
     * Whether the value computed by the expression {@code defText} at {@code defLine} (stored into a variable by its
     * declaration or an assignment) no longer reaches the use {@code useText} at {@code useLine}: the use reads the
     * variable only after a write that replaces it whole on every path from the definition to the use ({@code v =
     * expression without v}, {@code memcpy(&v, src, sizeof v)}, {@code memset(&v, ...)}), and reads no other
     * variable written in between (which could carry the value). False when any of it is not found.
     */
    public boolean overwrittenBefore(int defLine, String defText, int useLine, String useText) {
        if (useLine <= defLine) return false;
        String dt = squash(defText);
        String ut = squash(useText);
        for (Function fn : functions()) {
            if (defLine < fn.startLine() || useLine > fn.endLine()) continue;
            ClangNode[] def = new ClangNode[1];
            ClangNode[] use = new ClangNode[1];
            fn.node.forEach(n -> {
                if (n.offset >= 0 && clang_isExpressionKind(n.kind)) {
                    if (def[0] == null && n.line == defLine && squash(text(n)).equals(dt)) def[0] = n;
                    if (use[0] == null && n.line == useLine && squash(text(n)).equals(ut)) use[0] = n;
                }
            });
            if (def[0] == null || use[0] == null) return false;
            String v = storedInto(def[0]);
            if (v == null) return false;
            ClangNode d = def[0];
            ClangNode u = use[0];
            boolean[] readsV = new boolean[1];
            Set<String> reads = new HashSet<>();
            u.forEach(x -> {
                if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null) {
                    reads.add(x.refUsr);
                    if (x.refUsr.equals(v)) readsV[0] = true;
                }
            });
            if (!readsV[0]) return false;
            boolean[] killed = new boolean[1];
            boolean[] carried = new boolean[1];
            fn.node.forEach(k -> {
                if (k.offset < 0 || k.offset < d.endOffset || k.offset >= u.offset) return;
                // another variable the use reads, written in between, may carry the value
                String w = written(k);
                if (w != null && !w.equals(v) && reads.contains(w)) carried[0] = true;
                if (!killed[0] && replaces(k, v) && dominates(k, u, fn.node)) killed[0] = true;
            });
            return killed[0] && !carried[0];
        }
        return false;
    }

    private static boolean clang_isExpressionKind(int kind) {
        return kind >= CXCursor_FirstExpr && kind <= CXCursor_LastExpr;
    }

    /** The variable (USR) a declaration's initializer or an assignment's right side stores {@code e} into, or null. */
    private static String storedInto(ClangNode e) {
        ClangNode c = e;
        for (ClangNode p = e.parent; p != null; c = p, p = p.parent) {
            if (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_ParenExpr || p.kind == CXCursor_CStyleCastExpr)
                continue;
            if (p.kind == CXCursor_VarDecl) return p.usr;
            if (p.kind == CXCursor_BinaryOperator
                    && p.spelling.equals("=")
                    && p.children.size() == 2
                    && p.children.get(1) == c) {
                ClangNode l = strip(p.children.get(0));
                return l != null && l.kind == CXCursor_DeclRefExpr ? l.refUsr : null;
            }
            return null;
        }
        return null;
    }

    /** The variable a declaration or an assignment to a plain variable writes, or null. */
    private static String written(ClangNode k) {
        if (k.kind == CXCursor_VarDecl) return k.usr;
        if ((k.kind == CXCursor_BinaryOperator && k.spelling.equals("=") || k.kind == CXCursor_CompoundAssignOperator)
                && !k.children.isEmpty()) {
            ClangNode l = strip(k.children.get(0));
            return l != null && l.kind == CXCursor_DeclRefExpr ? l.refUsr : null;
        }
        return null;
    }

    /** Whether {@code k} replaces the whole variable {@code v} without reading it. */
    private boolean replaces(ClangNode k, String v) {
        if (k.kind == CXCursor_BinaryOperator && k.spelling.equals("=") && k.children.size() == 2) {
            ClangNode l = strip(k.children.get(0));
            if (l == null || l.kind != CXCursor_DeclRefExpr || !v.equals(l.refUsr)) return false;
            boolean[] reads = new boolean[1];
            k.children.get(1).forEach(x -> {
                if (v.equals(x.refUsr)) reads[0] = true;
            });
            return !reads[0];
        }
        if (k.kind != CXCursor_CallExpr) return false;
        String name = callee(k);
        boolean copy = name.equals("memcpy") || name.equals("std::memcpy") || name.equals("__builtin_memcpy");
        boolean set = name.equals("memset") || name.equals("std::memset") || name.equals("__builtin_memset");
        if (!copy && !set) return false;
        List<ClangNode> args = arguments(k);
        if (args.size() != 3) return false;
        // the destination is &v itself, the size the variable's whole size
        ClangNode dst = strip(args.get(0));
        if (dst == null || dst.kind != CXCursor_UnaryOperator || !dst.spelling.equals("&") || dst.children.size() != 1)
            return false;
        ClangNode var = strip(dst.children.get(0));
        if (var == null || var.kind != CXCursor_DeclRefExpr || !v.equals(var.refUsr)) return false;
        ClangNode size = args.get(2).value != null ? args.get(2) : strip(args.get(2));
        if (size == null || size.value == null) return false;
        int whole = floating(var.canonKind) || integral(var.canonKind) ? bytes(var.canonKind) : -1;
        if (var.canonKind == CXType_Float) whole = 4;
        else if (var.canonKind == CXType_Double) whole = 8;
        else if (var.canonKind == CXType_Half || var.canonKind == CXType_Float16) whole = 2;
        if (whole < 0 || size.value != whole) return false;
        // memcpy from another object: the value is replaced; memset: replaced by a constant pattern
        return true;
    }

    /**
     * Whether {@code k} runs on every path that reaches {@code u}: for every branch, loop or short circuit around
     * {@code k} (inside the function), {@code u} lies in the same branch or body as {@code k}.
     */
    private static boolean dominates(ClangNode k, ClangNode u, ClangNode function) {
        ClangNode c = k;
        for (ClangNode p = k.parent; p != null && p != function; c = p, p = p.parent) {
            boolean conditional = p.kind == CXCursor_IfStmt
                    || p.kind == CXCursor_SwitchStmt
                    || p.kind == CXCursor_CaseStmt
                    || p.kind == CXCursor_DefaultStmt
                    || p.kind == CXCursor_ConditionalOperator
                    || p.kind == CXCursor_LambdaExpr
                    || p.kind == CXCursor_ForStmt
                    || p.kind == CXCursor_WhileStmt
                    || p.kind == CXCursor_DoStmt
                    || p.kind == CXCursor_BinaryOperator && (p.spelling.equals("&&") || p.spelling.equals("||"));
            if (conditional && !c.contains(u)) return false;
        }
        return true;
    }

    /** The variable an lvalue or address expression is rooted in (m for m.a[i][j], &m, p->x), by its USR. */
    static String rootUsr(ClangNode n) {
        ClangNode x = n;
        for (int guard = 0; x != null && guard < 64; guard++) {
            if (x.kind == CXCursor_DeclRefExpr) return x.refUsr;
            if (x.children.isEmpty()) return null;
            x = x.children.get(0);
        }
        return null;
    }

    static String squash(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) if (!Character.isWhitespace(s.charAt(i))) b.append(s.charAt(i));
        return b.toString();
    }
}
