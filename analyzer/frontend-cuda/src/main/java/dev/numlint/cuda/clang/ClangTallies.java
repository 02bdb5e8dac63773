package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A floating atomic add whose addend is a tally: an element of an array (or a scalar) declared in the function, a
 * {@code __shared__} tile of counts included, that every store of the function sets to a whole number ({@code t[y][x]
 * = 0.0;}), counts up by one ({@code t[i]++}), or adds a whole-number constant to ({@code atomicAdd(&t[ly][lx], 1.0)},
 * {@code t[i] += 2}). Every value it holds is then a whole number, and a sum of whole numbers is exact in any order
 * while it stays below the type's integer limit, as an atomic add of the constant itself (session 58, round F:
 * vlasov-poisson flushes a shared tile of particle counts into the global grid with {@code atomicAdd(&N[idx],
 * tile_counts[threadIdx.y][threadIdx.x])}). Only the certain case: the array is never passed on, its address never
 * kept, and every use of it is a whole element (as many subscripts as the array has dimensions).
 */
final class ClangTallies {
    private ClangTallies() {}

    private static final Set<String> ADDS =
            Set.of("atomicAdd", "atomicAdd_block", "atomicAdd_system", "unsafeAtomicAdd", "safeAtomicAdd");

    /**
     * Why the atomic add {@code a} adds a whole number ("every store to 'tile_counts' writes one: lines 45, 66"), or
     * null when that is not shown.
     */
    static String of(ClangUnit.Atomic a) {
        ClangUnit.Function fn = a.in();
        List<ClangNode> args = arguments(a.node());
        if (fn == null || args.size() != 2 || a.addend() != null) return null;
        return stores(args.get(1), fn, false);
    }

    /**
     * Whether the term {@code e} of a serial sum reads an element of a floating array declared in {@code fn} (or a
     * floating local) that every store of the function sets to a whole number: a whole-number constant, a count, or a
     * value of an integer type ({@code w[i] = raw[i]} from {@code uint8_t raw[]}). A sum of such elements is exact
     * while it stays below 2^24 (2^53 in double), as a sum of the integers themselves (session 73 round D: a texture
     * encoder's ASTC weights, bytes copied into a float array and summed to a mean).
     */
    static boolean wholeElement(ClangNode e, ClangUnit.Function fn) {
        return fn != null && (stores(e, fn, true) != null || justStored(e));
    }

    /**
     * Whether the element {@code e} reads was set by the statement right before the one that reads it, to a value of
     * an integer type or a whole-number constant ({@code w[k] = raw[k]; sum += w[k];} with the same index): the
     * array's later stores (the mean subtracted after the sum) do not reach this read.
     */
    private static boolean justStored(ClangNode e) {
        ClangNode read = strip(e);
        if (read == null || read.kind != CXCursor_ArraySubscriptExpr) return false;
        ClangNode st = e;
        while (st.parent != null && st.parent.kind != CXCursor_CompoundStmt) st = st.parent;
        if (st.parent == null) return false;
        int at = st.parent.children.indexOf(st);
        ClangNode prev = at > 0 ? strip(st.parent.children.get(at - 1)) : null;
        return prev != null
                && prev.kind == CXCursor_BinaryOperator
                && prev.spelling.equals("=")
                && prev.children.size() == 2
                && sameTree(prev.children.get(0), read)
                && !steps(read)
                && (whole(prev.children.get(1)) || integer(prev.children.get(1)));
    }

    /** Whether {@code e} writes something ({@code w[k++]}): two such subscripts of the same text name two elements. */
    private static boolean steps(ClangNode e) {
        boolean[] hit = new boolean[1];
        e.forEach(
                x -> hit[0] |= x.kind == CXCursor_UnaryOperator && (x.spelling.equals("++") || x.spelling.equals("--"))
                        || x.kind == CXCursor_CompoundAssignOperator
                        || x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                        || x.kind == CXCursor_CallExpr);
        return hit[0];
    }

    /**
     * Why every value {@code e} can read is a whole number ("every store to 't' writes one: lines 45, 66"), or null.
     *
     * @param integers whether a store of a value of an integer type counts (a serial sum's element); an atomic's
     *                 tally counts constants only
     */
    private static String stores(ClangNode e, ClangUnit.Function fn, boolean integers) {
        ClangNode base = strip(e);
        int subscripts = 0;
        while (base != null && base.kind == CXCursor_ArraySubscriptExpr && !base.children.isEmpty()) {
            base = strip(base.children.get(0));
            subscripts++;
        }
        if (base == null || base.kind != CXCursor_DeclRefExpr || base.refUsr == null) return null;
        ClangNode decl = declaration(fn.node(), base.refUsr);
        if (decl == null || rank(decl) != subscripts || !wholeInitializer(decl)) return null;
        Set<Integer> lines = new TreeSet<>();
        boolean[] ok = {true};
        String usr = base.refUsr;
        int rank = subscripts;
        fn.node().forEach(n -> {
            if (!ok[0] || n.kind != CXCursor_DeclRefExpr || !usr.equals(n.refUsr)) return;
            Integer line = store(n, rank, integers);
            if (line == null) ok[0] = false;
            else if (line > 0) lines.add(line);
        });
        if (!ok[0] || lines.isEmpty()) return null;
        return "every store to '" + base.spelling + "' writes one: line"
                + (lines.size() == 1 ? " " : "s ")
                + String.join(", ", lines.stream().map(String::valueOf).toList());
    }

    /**
     * Whether every store to the local floating array {@code e} reads an element of writes a value {@code nonNegative}
     * accepts ({@code =}, {@code +=}), its initializer holding constants at least 0 only, and the array is used for
     * nothing else (passed on, its address taken): its elements are never negative.
     */
    static boolean nonNegativeElement(
            ClangNode e, ClangUnit.Function fn, java.util.function.Predicate<ClangNode> nonNegative) {
        ClangNode base = strip(e);
        int subscripts = 0;
        while (base != null && base.kind == CXCursor_ArraySubscriptExpr && !base.children.isEmpty()) {
            base = strip(base.children.get(0));
            subscripts++;
        }
        if (subscripts == 0 || base == null || base.kind != CXCursor_DeclRefExpr || base.refUsr == null) return false;
        ClangNode decl = declaration(fn.node(), base.refUsr);
        if (decl == null || rank(decl) != subscripts) return false;
        for (ClangNode c : decl.children) {
            ClangNode v = strip(c);
            if (v == null || c.kind == CXCursor_TypeRef) continue;
            boolean[] negative = {false};
            if (v.kind == CXCursor_InitListExpr)
                v.forEach(x -> negative[0] |= x.kind != CXCursor_InitListExpr && x.value != null && x.value < 0);
            if (negative[0]) return false;
        }
        boolean[] ok = {true, false};
        String usr = base.refUsr;
        int rank = subscripts;
        fn.node().forEach(n -> {
            if (!ok[0] || n.kind != CXCursor_DeclRefExpr || !usr.equals(n.refUsr)) return;
            ClangNode el = n;
            for (int i = 0; i < rank && el != null; i++) {
                ClangNode p = up(el);
                el = p != null && p.kind == CXCursor_ArraySubscriptExpr && strip(p.children.get(0)) == el ? p : null;
            }
            ClangNode direct = el == null ? null : el.parent;
            while (direct != null && direct.kind == CXCursor_ParenExpr) direct = direct.parent;
            if (direct != null && direct.kind == CXCursor_UnexposedExpr && direct.children.size() == 1) return;
            ClangNode p = el == null ? null : up(el);
            boolean lhs = p != null && p.children.size() == 2 && strip(p.children.get(0)) == el;
            boolean store = lhs
                    && (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=")
                            || p.kind == CXCursor_CompoundAssignOperator && p.spelling.equals("+="));
            // a store that reads the array itself (a[i] = a[i - 1] + x) is not followed: no recursion through it
            boolean[] self = {false};
            if (store)
                p.children.get(1).forEach(x -> self[0] |= x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr));
            if (store && !self[0] && nonNegative.test(p.children.get(1))) ok[1] = true;
            else ok[0] = false;
        });
        return ok[0] && ok[1];
    }

    /** The variable {@code usr} declared in {@code fn}'s body (a local or {@code __shared__} array), or null. */
    private static ClangNode declaration(ClangNode fn, String usr) {
        ClangNode[] found = new ClangNode[1];
        fn.forEach(n -> {
            if (found[0] == null && n.kind == CXCursor_VarDecl && usr.equals(n.usr)) found[0] = n;
        });
        if (found[0] == null) return null;
        // a floating scalar or array of floats; a pointer or reference may alias memory others write
        String canon = found[0].canon == null
                ? ""
                : found[0].canon.replace("volatile ", "").replace("const ", "");
        return canon.matches("(float|double) *(\\[\\d*\\] *)*") ? found[0] : null;
    }

    /** The number of dimensions of the declared type ("float [16][16]": 2; a scalar: 0). */
    private static int rank(ClangNode decl) {
        String t = decl.type == null ? "" : decl.type;
        int r = 0;
        for (int i = 0; i < t.length(); i++) if (t.charAt(i) == '[') r++;
        return r;
    }

    /** No initializer, or one of whole-number constants only ({@code float t[4] = {0};}, {@code float c = 0;}). */
    private static boolean wholeInitializer(ClangNode decl) {
        boolean array = ClangElements.array(decl.canonKind);
        for (ClangNode c : decl.children) {
            ClangNode s = strip(c);
            if (s == null || c.kind == CXCursor_TypeRef) continue;
            if (s.kind == CXCursor_InitListExpr) {
                if (!wholeList(s)) return false;
            } else if (!array && !whole(s)) return false; // an array's other children are its extents
        }
        return true;
    }

    private static boolean wholeList(ClangNode list) {
        for (ClangNode c : list.children) {
            ClangNode s = strip(c);
            if (s == null || !(s.kind == CXCursor_InitListExpr ? wholeList(s) : whole(s))) return false;
        }
        return true;
    }

    /**
     * The line of the whole-number store the reference {@code ref} makes, 0 when it only reads a whole element, or
     * null when it writes anything else or uses the array otherwise (passed on, its address or a row kept).
     */
    private static Integer store(ClangNode ref, int subscripts, boolean integers) {
        ClangNode e = ref;
        for (int i = 0; i < subscripts; i++) {
            ClangNode p = up(e);
            if (p == null || p.kind != CXCursor_ArraySubscriptExpr || strip(p.children.get(0)) != e) return null;
            e = p;
        }
        ClangNode direct = e.parent;
        while (direct != null && direct.kind == CXCursor_ParenExpr) direct = direct.parent;
        // a read: the element converted to its value (an implicit conversion); a reference to it may write
        if (direct != null && direct.kind == CXCursor_UnexposedExpr && direct.children.size() == 1) return 0;
        ClangNode p = up(e);
        if (p == null) return null;
        boolean lhs = !p.children.isEmpty() && strip(p.children.get(0)) == e;
        if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=") && lhs && p.children.size() == 2)
            return whole(p.children.get(1)) || integers && integer(p.children.get(1)) ? p.line : null;
        if (p.kind == CXCursor_CompoundAssignOperator && lhs && p.children.size() == 2)
            return (p.spelling.equals("+=") || p.spelling.equals("-=")) && whole(p.children.get(1)) ? p.line : null;
        if (p.kind == CXCursor_UnaryOperator && (p.spelling.equals("++") || p.spelling.equals("--"))) return p.line;
        if (p.kind == CXCursor_UnaryOperator && p.spelling.equals("&")) {
            ClangNode call = up(p);
            if (call == null || call.kind != CXCursor_CallExpr || !ADDS.contains(callee(call))) return null;
            List<ClangNode> args = arguments(call);
            return args.size() == 2 && strip(args.get(0)) == p && whole(args.get(1)) ? call.line : null;
        }
        return null;
    }

    /** A value of an integer type, converted to the element's floating type by the store. */
    private static boolean integer(ClangNode e) {
        ClangNode s = strip(e);
        return s != null && integral(s.canonKind);
    }

    private static boolean whole(ClangNode e) {
        Double v = folded(e);
        return v != null && v == Math.rint(v) && Math.abs(v) < 0x1p24;
    }

    /** The parent of {@code n} above parentheses and implicit conversions. */
    private static ClangNode up(ClangNode n) {
        ClangNode p = n.parent;
        while (p != null
                && (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_ParenExpr)
                && p.children.size() == 1) p = p.parent;
        return p;
    }
}
