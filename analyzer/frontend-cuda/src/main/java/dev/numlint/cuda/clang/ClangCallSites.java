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
import java.util.regex.Pattern;

/**
 * Parameter intervals across calls on Clang's tree, as the hand-written front end's {@code CallSiteRanges}: a
 * function whose every call this unit holds gives each parameter passed by value the union of the intervals its call
 * sites pass ({@link ClangIntervals} of each argument in its caller, through the caller's own parameters in turn).
 *
 * <p>A function qualifies when all its callers are visible: the file is a source file (not a header); the function
 * is a plain function (no member, template or kernel) declared {@code static} or {@code inline}, or in an anonymous
 * namespace, or one of external linkage in a program's own file (the file defines {@code main}) whose name no file
 * of the scan that could be linked with it mentions (session 67 round B: a suite of optical-flow programs, each with
 * its own {@code norm(v, n)} called only as {@code norm(v, 3)}, read as sums of unknown length); no other function
 * of the file has its name; every mention of it is the callee of a call in another function of the file (its address
 * is never taken, it does not call itself) with as many arguments as it has parameters. Functions that call each
 * other get no interval (a parameter asked for while its own interval is computed is unknown). Within the callee a
 * parameter that is written or whose address is taken has no call-site interval ({@link ClangIntervals}). Whether the
 * file is compiled on its own (no scanned file includes it, so no other file calls its static functions) is the
 * scan's to say ({@link #compiledAlone}); until it says so, no function qualifies.
 */
final class ClangCallSites {
    private static final Pattern HEADER = Pattern.compile("(?i).*\\.(h|hh|hpp|hxx|cuh|inl|inc|tcc)$");
    private static final Pattern INTERNAL = Pattern.compile("(?s).*\\b(static|inline|__inline__|__forceinline__)\\b.*");
    private static final Pattern KERNEL = Pattern.compile("(?s).*\\b__global__\\b.*");

    private final ClangUnit unit;
    private final ClangIntervals intervals;
    /** The calls of each candidate (by its USR); computed on first request. */
    private Map<String, List<Call>> calls;
    /** The parameter intervals of each candidate, once computed (null entries: unknown). */
    private final Map<String, double[][]> params = new HashMap<>();
    /** Whether the file is a translation unit of its own, asked only when a function qualifies otherwise. */
    private java.util.function.BooleanSupplier compiledAlone = () -> false;
    /** Whether another file of the scan mentions a name (asked only for a program's external functions). */
    private java.util.function.Predicate<String> mentionedOutside = name -> true;

    private record Call(ClangNode node, ClangUnit.Function in) {}

    ClangCallSites(ClangUnit unit, ClangIntervals intervals) {
        this.unit = unit;
        this.intervals = intervals;
    }

    /** Says how to learn whether the file is compiled on its own (its includers would call its functions too). */
    synchronized void compiledAlone(
            java.util.function.BooleanSupplier alone, java.util.function.Predicate<String> outside) {
        compiledAlone = alone;
        mentionedOutside = outside;
        calls = null;
        params.clear();
    }

    /** The interval parameter {@code index} of {@code fn} receives at every call site, or null. */
    synchronized double[] param(ClangUnit.Function fn, int index) {
        String usr = fn.node().usr;
        if (usr == null) return null;
        List<Call> cs = candidates().get(usr);
        if (cs == null) return null;
        double[][] p = params.get(usr);
        if (p == null) {
            if (!ClangIntervalMemo.enter(this, usr)) return null;
            try {
                p = union(fn, cs);
            } finally {
                ClangIntervalMemo.exit(this, usr);
            }
            // not kept while an array is taken as never negative (ClangLocalArrays.inductive): it may read one
            if (!ClangLocalArrays.assuming()) params.put(usr, p);
        }
        return index < p.length && p[index] != null ? p[index].clone() : null;
    }

    /** The parameters of a function definition (its ParmDecl children). */
    static List<ClangNode> parameters(ClangNode fn) {
        List<ClangNode> out = new ArrayList<>();
        for (ClangNode c : fn.children) if (c.kind == CXCursor_ParmDecl) out.add(c);
        return out;
    }

    private double[][] union(ClangUnit.Function fn, List<Call> cs) {
        List<ClangNode> ps = parameters(fn.node());
        double[][] u = new double[ps.size()][];
        boolean first = true;
        for (Call c : cs) {
            List<ClangNode> args = arguments(c.node());
            for (int i = 0; i < ps.size(); i++) {
                double[] v = passed(ps.get(i), args.get(i), c.in());
                if (first) u[i] = v;
                else if (u[i] != null)
                    u[i] = v == null ? null : new double[] {Math.min(u[i][0], v[0]), Math.max(u[i][1], v[1])};
            }
            first = false;
        }
        return u;
    }

    /** The interval a parameter receives from {@code arg} (truncated for an integer parameter), or null. */
    private double[] passed(ClangNode param, ClangNode arg, ClangUnit.Function caller) {
        boolean integer = integral(param.canonKind);
        if (!integer && !floating(param.canonKind)) return null;
        double[] x = intervals.of(arg, caller);
        double lo = integer ? trunc(x[0]) : x[0];
        double hi = integer ? trunc(x[1]) : x[1];
        if (Double.isInfinite(lo) || Double.isInfinite(hi) || Double.isNaN(lo) || Double.isNaN(hi)) return null;
        if (integer) {
            double[] t = ValueBounds.ofInteger(bytes(param.canonKind), unsignedKind(param.canonKind));
            if (t != null && (lo < t[0] || hi > t[1])) return null;
        }
        return new double[] {lo, hi};
    }

    private static double trunc(double v) {
        return Double.isInfinite(v) ? v : v < 0 ? Math.ceil(v) : Math.floor(v);
    }

    /** The qualifying functions of the unit (by USR) with their calls. */
    private Map<String, List<Call>> candidates() {
        if (calls != null) return calls;
        calls = new HashMap<>();
        if (HEADER.matcher(unit.file().getFileName().toString()).matches()) return calls;
        Map<String, Integer> named = new HashMap<>();
        for (ClangUnit.Function f : unit.functions()) named.merge(f.name(), 1, Integer::sum);
        Map<String, ClangUnit.Function> byName = new HashMap<>();
        boolean program = named.containsKey("main");
        Set<String> external = new HashSet<>();
        for (ClangUnit.Function f : unit.functions()) {
            if (f.node().kind != CXCursor_FunctionDecl || f.template() || f.node().usr == null) continue;
            if (named.get(f.name()) != 1 || f.name().contains("::") || f.name().startsWith("operator")) continue;
            String head = head(f);
            if (head == null || KERNEL.matcher(head).matches()) continue;
            if (!INTERNAL.matcher(head).matches() && !anonymous(f.node())) {
                if (!program || f.name().equals("main")) continue;
                external.add(f.name());
            }
            byName.put(f.name(), f);
        }
        if (byName.isEmpty() || !compiledAlone.getAsBoolean()) return calls;
        // a program's function of external linkage: its callers are this file's while no other file names it
        byName.keySet().removeIf(name -> external.contains(name) && mentionedOutside.test(name));
        if (byName.isEmpty()) return calls;
        Map<String, List<Call>> found = new HashMap<>();
        Set<String> rejected = new HashSet<>();
        for (ClangNode top : unit.top()) {
            top.forEach(n -> {
                if (!clang_isExpressionKind(n.kind) && n.kind != CXCursor_OverloadedDeclRef) return;
                String name = n.kind == CXCursor_CallExpr ? callee(n) : n.spelling;
                ClangUnit.Function f = byName.get(name);
                if (f == null || rejected.contains(name)) return;
                if (n.kind == CXCursor_CallExpr) {
                    ClangNode c = n.children.isEmpty() ? null : strip(n.children.get(0));
                    if (c != null
                            && c.kind == CXCursor_DeclRefExpr
                            && f.node().usr.equals(c.refUsr)) return;
                    rejected.add(name); // a call resolved to another function, or not resolved
                    return;
                }
                if (n.kind != CXCursor_DeclRefExpr || !f.node().usr.equals(n.refUsr)) {
                    if (n.kind == CXCursor_OverloadedDeclRef
                            || n.kind == CXCursor_DeclRefExpr
                            || n.kind == CXCursor_MemberRefExpr) rejected.add(name);
                    return;
                }
                ClangNode call = callOf(n);
                ClangUnit.Function in = call == null ? null : unit.functionOf(call);
                if (call == null
                        || in == null
                        || in == f
                        || arguments(call).size() != parameters(f.node()).size()) {
                    rejected.add(name); // its address, a call outside a function, a recursive call, another arity
                    return;
                }
                found.computeIfAbsent(f.node().usr, k -> new ArrayList<>()).add(new Call(call, in));
            });
        }
        for (Map.Entry<String, ClangUnit.Function> e : byName.entrySet()) {
            if (rejected.contains(e.getKey())) continue;
            List<Call> cs = found.get(e.getValue().node().usr);
            if (cs != null) calls.put(e.getValue().node().usr, List.copyOf(cs));
        }
        return calls;
    }

    /** Whether {@code fn} lies in an anonymous namespace: internal linkage, as {@code static} gives. */
    private static boolean anonymous(ClangNode fn) {
        for (ClangNode p = fn.parent; p != null; p = p.parent)
            if (p.kind == CXCursor_Namespace && (p.spelling == null || p.spelling.isEmpty())) return true;
        return false;
    }

    /** The call {@code ref} is the callee of (through the implicit function-to-pointer conversion), or null. */
    static ClangNode callOf(ClangNode ref) {
        ClangNode c = ref;
        ClangNode p = ref.parent;
        while (p != null
                && (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_ParenExpr)
                && p.children.size() == 1) {
            c = p;
            p = p.parent;
        }
        return p != null && p.kind == CXCursor_CallExpr && !p.children.isEmpty() && p.children.get(0) == c ? p : null;
    }

    /**
     * Whether {@code f} is a plain function of external linkage (no member, template, kernel, {@code static} or
     * {@code inline} function, none in an anonymous namespace, not {@code main}): other files of the program may call
     * it, and only they with this file's own calls say what its parameters receive ({@link ClangCallerBounds}).
     */
    static boolean externalPlain(ClangUnit unit, ClangUnit.Function f) {
        if (f.node().kind != CXCursor_FunctionDecl || f.template() || f.node().usr == null) return false;
        if (f.name().contains("::")
                || f.name().startsWith("operator")
                || f.name().equals("main")) return false;
        String head = head(unit, f);
        return head != null
                && !KERNEL.matcher(head).matches()
                && !INTERNAL.matcher(head).matches()
                && !anonymous(f.node());
    }

    /** The function's text before its name: its specifiers. */
    private String head(ClangUnit.Function f) {
        return head(unit, f);
    }

    private static String head(ClangUnit unit, ClangUnit.Function f) {
        String t = unit.text(f.node());
        if (t == null || f.node().spelling.isEmpty()) return null;
        java.util.regex.Matcher m = Pattern.compile("\\b" + Pattern.quote(f.node().spelling) + "\\s*\\(")
                .matcher(t);
        return m.find() ? t.substring(0, m.start()) : null;
    }
}
