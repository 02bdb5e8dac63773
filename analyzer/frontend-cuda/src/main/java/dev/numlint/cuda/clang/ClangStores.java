package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.ValueBounds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The stored values of a {@link ClangUnit} (session 30, issue #26): for a structure field (by its USR, the field
 * within its record type), a {@code static} or {@code const} global (in a namespace too), a {@code static} local, or
 * the elements of any of them,
 * the interval that covers every value a store of this file writes to it ({@code s->snr[i] = getbitu(b, p, 6) *
 * 0.25}: non-negative), so that a read of it in another function of the file has that interval. A decoder fills a
 * record from unsigned bit fields in one function and converts the field back to an integer field in another: the
 * conversion cannot see a negative value. A constant's value is its initializer's ({@code static const double PI =
 * 3.14159...;} in a library's namespace: {@code static_cast<size_t>(PI * sqrt(r))} is not negative).
 *
 * <p>Conservative: unknown when the file takes the address of the field or global ({@code &s->snr}, an array of it
 * decaying to a pointer anywhere but a subscript), when a pointer to its record is cast to another pointer type,
 * passed to a function this file does not define ({@code memcpy}, an external decoder) other than {@code memset}
 * with 0, when a function returns it by a reference that is not const or a non-const reference is bound to it, or
 * when any store's value is unknown or can be negative. A global that is neither {@code static} nor
 * {@code const} can be written by another file: never known. A field's stores in other files are not seen: the
 * evidence is this file's, and the message says so.
 */
final class ClangStores {
    private static final double INF = ValueBounds.INF;

    /** What the stores of this file to one field or global prove: their hull and the lines of the stores. */
    record Stored(String name, double lo, double hi, Set<Integer> lines) {
        /** "lines 120, 340" (at most three named). */
        String evidence() {
            List<String> ls = new ArrayList<>();
            for (int l : lines) {
                if (ls.size() == 3) {
                    ls.add("...");
                    break;
                }
                ls.add(Integer.toString(l));
            }
            return (lines.size() == 1 ? "line " : "lines ") + String.join(", ", ls);
        }
    }

    private final ClangUnit unit;
    // no lock is held while a store's interval is evaluated (ClangCallSites.param holds its own): a field computed
    // twice by two threads is computed the same way
    private final Map<String, java.util.Optional<Stored>> done = new java.util.concurrent.ConcurrentHashMap<>();
    private final ThreadLocal<Set<String>> inProgress = ThreadLocal.withInitial(HashSet::new);
    private final ThreadLocal<int[]> cyclesSeen = ThreadLocal.withInitial(() -> new int[1]);
    private volatile Map<String, List<ClangNode>> refs;
    private Set<String> unknownRecords;
    private Set<String> staticGlobals;
    private Set<String> defined;
    /** The static locals of the file's functions (with the file-scope statics in {@link #staticGlobals}). */
    private List<ClangNode> staticLocals;

    ClangStores(ClangUnit unit) {
        this.unit = unit;
    }

    /**
     * What every store of this file to the field or global {@code ref} reads (a member reference or a reference to a
     * global, possibly below a subscript) proves, or null when unknown (a store it cannot bound, an alias, a
     * global another file can write).
     */
    Stored of(ClangNode ref) {
        String key = key(ref);
        if (key == null) return null;
        java.util.Optional<Stored> known = done.get(key);
        if (known != null) return known.orElse(null);
        Set<String> open = inProgress.get();
        int[] cycles = cyclesSeen.get();
        if (!ClangIntervalMemo.enter(this, key)) {
            cycles[0]++; // a store of it computed from itself: unknown here
            return null;
        }
        open.add(key);
        int before = cycles[0];
        try {
            Stored s = compute(key, ref.spelling);
            // a result that met a cycle depends on what was open above it: this evaluation's, not the field's; an
            // unknown one is kept all the same (unknown is sound in any context, and recomputing it under every
            // other open field is exponential: session 52, a 272-line vector and tensor library ran past its 20 s
            // budget with twelve fields stored from each other)
            if (cycles[0] == before || open.size() == 1 || s == null) done.put(key, java.util.Optional.ofNullable(s));
            return s;
        } finally {
            open.remove(key);
            ClangIntervalMemo.exit(this, key);
        }
    }

    /** The USR a member reference or a global's reference names, or null (a local, a parameter). */
    private String key(ClangNode ref) {
        if (ref == null || ref.refUsr == null) return null;
        index();
        // a pointer's elements can be written through any other pointer to them: never known
        if (ref.canonKind == CXType_Pointer) return null;
        // a union's members share their bytes (c:@U@word@FI@x, c:@UA@word_t@FI@x): a store to one writes all
        if (ref.refUsr.contains("@U@") || ref.refUsr.contains("@UA@")) return null;
        if (ref.kind == CXCursor_MemberRefExpr) return ref.refUsr;
        if (ref.kind == CXCursor_DeclRefExpr && staticGlobals.contains(ref.refUsr)) return ref.refUsr;
        return null;
    }

    private synchronized void index() {
        if (refs != null) return;
        Map<String, List<ClangNode>> refs = new HashMap<>();
        unknownRecords = new HashSet<>();
        staticGlobals = new HashSet<>();
        defined = new HashSet<>();
        for (ClangUnit.Function f : unit.functions()) defined.add(f.node().spelling);
        for (ClangNode t : fileScopeVariables()) {
            // a file-scope static: no other file writes it (its zero initialization is a store of 0); a constant
            // (static const double PI = 3.14...; in a namespace, const double kScale = 0.5;): nothing writes it
            if (unit.text(t).strip().startsWith("static") || constant(t.canon)) staticGlobals.add(t.usr);
        }
        for (ClangNode t : unit.top())
            t.forEach(n -> {
                if (n.kind == CXCursor_InitListExpr) initList(n);
            });
        List<ClangNode> locals = new ArrayList<>();
        unit.eachInFunctions((fn, n) -> {
            if ((n.kind == CXCursor_MemberRefExpr || n.kind == CXCursor_DeclRefExpr) && n.refUsr != null)
                refs.computeIfAbsent(n.refUsr, k -> new ArrayList<>()).add(n);
            // a static local (static double offset[440]; filled in one call, read in the next: session 83 round Y, a
            // demo's palette offsets 1 + sin(...)): only its function names it, so this file holds every store
            if (n.kind == CXCursor_VarDecl
                    && n.usr != null
                    && unit.text(n).strip().startsWith("static")) {
                staticGlobals.add(n.usr);
                locals.add(n);
            }
            if (n.kind == CXCursor_CallExpr && !defined.contains(callee(n)) && !zeroFill(n)) {
                // a pointer to a record handed to a function this file does not define may write any of its fields
                for (ClangNode a : arguments(n)) {
                    if (a.pointee != null && !a.pointee.startsWith("const ")) unknownRecords.add(record(a.pointee));
                }
            }
            if (n.kind == CXCursor_InitListExpr) initList(n);
            if (isExplicitCast(n) && n.pointee != null) {
                // a pointer cast to another pointee type: the bytes of one are read or written as the other, either
                // way (an allocation's result excepted: its record is then filled by stores this file shows)
                ClangNode op = strip(operandOf(n));
                if (op != null && op.pointee != null && !record(op.pointee).equals(record(n.pointee))) {
                    unknownRecords.add(record(op.pointee));
                    if (op.kind != CXCursor_CallExpr || !ALLOCATIONS.contains(callee(op)))
                        unknownRecords.add(record(n.pointee));
                }
            }
        });
        staticLocals = locals;
        this.refs = refs; // published last: the sets above are complete once another thread sees it
    }

    /** A record initialized with anything but zeros ({@code {0}}, {@code {0.0, 0}}): its fields' values unseen. */
    private void initList(ClangNode list) {
        for (ClangNode e : list.children) {
            if (!Double.valueOf(0).equals(folded(e))) {
                unknownRecords.add(record(list.canon));
                return;
            }
        }
    }

    /**
     * The least and greatest constant element of an initializer list (nested lists too), or null when an element is
     * no constant or the list holds none (a large table whose elements the walk did not copy, {@link ClangLiterals}).
     */
    private static double[] hull(ClangNode list, int depth) {
        if (list.children.isEmpty() || depth > 8) return null;
        double lo = INF, hi = -INF;
        for (ClangNode e : list.children) {
            double[] x;
            if (e.kind == CXCursor_InitListExpr) x = hull(e, depth + 1);
            else {
                Double v = folded(e);
                x = v == null || v.isNaN() ? null : new double[] {v, v};
            }
            if (x == null) return null;
            lo = Math.min(lo, x[0]);
            hi = Math.max(hi, x[1]);
        }
        return new double[] {lo, hi};
    }

    private static final Set<String> ALLOCATIONS = Set.of("malloc", "calloc", "realloc");

    private static String record(String type) {
        return type.replace("const ", "").replace("struct ", "").strip();
    }

    /** {@code memset(p, 0, n)}: fills with zero bits, 0.0 in IEEE floating types. */
    private static boolean zeroFill(ClangNode call) {
        List<ClangNode> a = arguments(call);
        return callee(call).equals("memset")
                && a.size() == 3
                && Double.valueOf(0).equals(folded(a.get(1)));
    }

    /** Whether the type {@code canon} is const itself ({@code const double}, not {@code const char *}). */
    private static boolean constant(String canon) {
        if (canon == null) return false;
        return canon.endsWith(" const") || canon.startsWith("const ") && !canon.matches(".*[*&\\[(].*");
    }

    /** The variables declared at file scope, in a namespace or a linkage block included. */
    private List<ClangNode> fileScopeVariables() {
        List<ClangNode> out = new ArrayList<>();
        List<ClangNode> todo = new ArrayList<>(unit.top());
        for (int i = 0; i < todo.size() && i < 1_000_000; i++) {
            ClangNode t = todo.get(i);
            if (t.kind == CXCursor_VarDecl) out.add(t);
            else if (t.kind == CXCursor_Namespace || t.kind == CXCursor_LinkageSpec) todo.addAll(t.children);
        }
        return out;
    }

    private Stored compute(String key, String name) {
        List<ClangNode> uses = refs.getOrDefault(key, List.of());
        double lo = INF, hi = -INF;
        Set<Integer> lines = new TreeSet<>();
        if (staticGlobals.contains(key)) {
            lo = 0; // zero-initialized, or by its initializer below
            hi = 0;
            List<ClangNode> declared = new ArrayList<>(fileScopeVariables());
            declared.addAll(staticLocals);
            for (ClangNode t : declared) {
                if (key.equals(t.usr) && !t.children.isEmpty()) {
                    ClangNode init = t.children.get(t.children.size() - 1);
                    if (!clang_isExpressionKind(init.kind)) continue;
                    // a table's initializer ({@code static int rates[] = {96000, 88200, ...}}): the hull of its
                    // constant elements (0 is in the hull already, for elements the list leaves out)
                    double[] x = init.kind == CXCursor_InitListExpr ? hull(init, 0) : null;
                    if (init.kind == CXCursor_InitListExpr && x == null) return null;
                    Double v = x != null ? null : folded(init);
                    if (x == null) x = v == null ? new double[] {-INF, INF} : new double[] {v, v};
                    lo = Math.min(lo, x[0]);
                    hi = Math.max(hi, x[1]);
                    lines.add(t.line);
                }
            }
        }
        for (ClangNode u : uses) {
            if (u.kind == CXCursor_MemberRefExpr && u.children.size() == 1) {
                ClangNode base = u.children.get(0);
                String rec = base.pointee != null ? base.pointee : base.canon;
                if (rec == null || unknownRecords.contains(record(rec))) return null;
            }
            ClangNode lv = u;
            // the element of an array field or global: s->snr[i], g[i][j]
            while (lv.parent != null
                    && (lv.parent.kind == CXCursor_ArraySubscriptExpr && lv.parent.children.get(0) == lv
                            || lv.parent.kind == CXCursor_ParenExpr
                            || lv.parent.kind == CXCursor_UnexposedExpr && lv.parent.children.size() == 1))
                lv = lv.parent;
            ClangNode p = lv.parent;
            if (p == null) continue;
            if (p.kind == CXCursor_UnaryOperator && (p.spelling.equals("&") || p.spelling.equals("--"))) return null;
            if (p.kind == CXCursor_UnaryOperator && p.spelling.equals("++")) {
                hi = INF;
                lines.add(p.line);
                continue;
            }
            // an array (or a pointer field) outside a full subscript: passed on, assigned to a pointer, an alias
            if (lv.canonKind == CXType_ConstantArray
                    || lv.canonKind == CXType_IncompleteArray
                    || lv.canonKind == CXType_Pointer) {
                if (p.kind == CXCursor_UnaryExpr) continue; // sizeof
                return null;
            }
            // returned by reference (float &operator[](int i) { return data[i]; }) or bound to a reference: stores
            // through it are not seen (session 66: a vector class's elements written as v[i] = x read as only the
            // constructor's zeros, and an implicit float to size_t of v[i] reported at no level)
            if (p.kind == CXCursor_ReturnStmt && mutableReference(returnType(enclosing(p)))) return null;
            if (p.kind == CXCursor_VarDecl && mutableReference(p.type)) return null;
            boolean assign = p.kind == CXCursor_BinaryOperator && p.spelling.equals("=");
            boolean compound = p.kind == CXCursor_CompoundAssignOperator;
            if ((!assign && !compound) || p.children.size() != 2 || p.children.get(0) != lv) continue;
            ClangUnit.Function fn = enclosing(p);
            double[] x = unit.intervals.of(p.children.get(1), fn);
            lines.add(p.line);
            if (assign) {
                lo = Math.min(lo, x[0]);
                hi = Math.max(hi, x[1]);
            } else if (x[0] >= 0 && (p.spelling.equals("+=") || p.spelling.equals("*=") || p.spelling.equals("/="))) {
                hi = INF; // a non-negative value added, multiplied or divided keeps the sign
            } else {
                return null;
            }
        }
        if (lines.isEmpty() || lo < 0 || Double.isNaN(lo)) return null;
        return new Stored(name, lo, hi, lines);
    }

    /**
     * The evidence of the fields and globals {@code operand} reads whose stores are all non-negative, for a message
     * ("'snr' (lines 120, 340)", what "every store to ... in this file" names), or null when it reads none.
     */
    String evidence(ClangNode operand) {
        Map<String, Stored> read = new java.util.LinkedHashMap<>();
        operand.forEach(n -> {
            if (n.kind != CXCursor_MemberRefExpr && n.kind != CXCursor_DeclRefExpr) return;
            Stored s = of(n);
            if (s != null && s.lo() >= 0) read.putIfAbsent(s.name(), s);
        });
        if (read.isEmpty()) return null;
        List<String> parts = new ArrayList<>();
        for (Stored s : read.values()) parts.add("'" + s.name() + "' (" + s.evidence() + ")");
        return String.join(" and ", parts);
    }

    /** The return type of {@code fn} as written before its parameters ({@code float &} of {@code float &(int)}). */
    private static String returnType(ClangUnit.Function fn) {
        if (fn == null || fn.node().type == null) return null;
        String t = fn.node().type;
        int paren = t.indexOf('(');
        return paren < 0 ? t : t.substring(0, paren);
    }

    /** Whether {@code type} is a reference through which a store can be made (not {@code const T &}). */
    private static boolean mutableReference(String type) {
        return type != null && type.contains("&") && !type.strip().startsWith("const ");
    }

    private ClangUnit.Function enclosing(ClangNode n) {
        for (ClangUnit.Function f : unit.functions()) if (f.contains(n)) return f;
        return null;
    }
}
