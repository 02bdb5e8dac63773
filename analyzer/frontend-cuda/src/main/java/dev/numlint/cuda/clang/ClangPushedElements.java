package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.Set;
import java.util.function.Function;

/**
 * The interval of an element of a local {@code std::vector} of floating values that the function only appends to,
 * stores into element by element ({@code v[i] = x}) and reads: each element is a value a {@code push_back}, {@code
 * emplace_back} or store of the function gave it, or a zero of a size it was constructed or resized with (session 65
 * round F: a random forest's {@code std::vector<double> candidate_varIDs} that receives only {@code size_t} variable
 * ids, read back into a {@code size_t}, was an error "unguarded double to unsigned long"). Any other use of the vector
 * (an element updated in place, its address or an iterator taken, the vector passed to a call, assigned, swapped)
 * leaves its elements unknown.
 *
 * <p>Likewise a local of another class with an {@code operator[]} of floating elements that the function only
 * constructs by default, stores into element by element and reads: each element read is a value a store gave it, or
 * the default content (zeros). Session 66 round B: a DSP library's {@code DSPVector outputIntSafe} that
 * holds only {@code size_t} output indices, read back into a {@code size_t} (3 false errors).
 */
final class ClangPushedElements {
    private ClangPushedElements() {}

    /** Members that neither write an element nor let one be written. */
    private static final Set<String> READS = Set.of("size", "empty", "capacity", "reserve", "clear", "shrink_to_fit");

    private static final Set<String> APPENDS = Set.of("push_back", "emplace_back");

    /** The interval of {@code call}, an element read {@code v[i]} of such a vector, or null. */
    static double[] interval(ClangNode call, ClangUnit.Function fn, Function<ClangNode, double[]> eval) {
        if (fn == null || call.kind != CXCursor_CallExpr || !"operator[]".equals(call.spelling)) return null;
        if (call.children.isEmpty()) return null;
        ClangNode obj = strip(call.children.get(0));
        if (obj == null || obj.kind != CXCursor_DeclRefExpr || obj.refUsr == null || obj.canon == null) return null;
        boolean vector = obj.canon.matches("std::vector<(float|double)(, std::allocator<(float|double)>)?>");
        // another class with an operator[] of floating elements (a DSP library's vector of floats): stores only
        if (!vector && (obj.canonKind != CXType_Record || !floating(call.canon))) return null;
        ClangNode[] decl = {null};
        double[] join = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        boolean[] unknown = {false};
        fn.node().forEach(n -> {
            if (unknown[0]) return;
            if (n.kind == CXCursor_VarDecl && obj.refUsr.equals(n.usr)) {
                decl[0] = n;
                // constructed with a size (or a size and a value): zeros, or unknown; another class, constructed
                // by default: its content before a store is its default (zeros), as a vector's
                if (!vector) {
                    for (ClangNode c : n.children) {
                        ClangNode s = strip(c);
                        if (s != null
                                && s.kind == CXCursor_CallExpr
                                && !arguments(s).isEmpty()) unknown[0] = true;
                        else if (s != null
                                && s.kind >= CXCursor_FirstExpr
                                && s.kind <= CXCursor_LastExpr
                                && s.kind != CXCursor_CallExpr) unknown[0] = true;
                    }
                    widen(join, new double[] {0, 0});
                    return;
                }
                for (ClangNode c : n.children) {
                    ClangNode s = strip(c);
                    if (s == null || s.kind != CXCursor_CallExpr) continue;
                    int args = 0;
                    for (ClangNode a : s.children)
                        if (a.kind >= CXCursor_FirstExpr && a.kind <= CXCursor_LastExpr) args++;
                    if (args == 1) widen(join, new double[] {0, 0});
                    else if (args > 1) unknown[0] = true;
                }
                return;
            }
            if (n.kind != CXCursor_DeclRefExpr || !obj.refUsr.equals(n.refUsr)) return;
            ClangNode p = n.parent;
            // the vector as a const one (cand.size() of a non-const vector)
            while (p != null && p.kind == CXCursor_UnexposedExpr && p.canon != null && p.canon.contains("vector<"))
                p = p.parent;
            if (p != null && p.kind == CXCursor_MemberRefExpr && p.parent != null) {
                ClangNode member = p.parent;
                if (READS.contains(p.spelling)) return;
                if (!vector) {
                    unknown[0] = true;
                    return;
                }
                if (p.spelling.equals("resize") && arguments(member).size() == 1) {
                    widen(join, new double[] {0, 0});
                    return;
                }
                if (APPENDS.contains(p.spelling) && arguments(member).size() == 1) {
                    double[] v = eval.apply(arguments(member).get(0));
                    if (v == null) unknown[0] = true;
                    else widen(join, v);
                    return;
                }
                unknown[0] = true;
                return;
            }
            // an element read: v[i] converted to its value (not written, not its address taken)
            if (p != null && p.kind == CXCursor_CallExpr && "operator[]".equals(p.spelling)) {
                ClangNode q = p.parent;
                if (q != null && q.kind == CXCursor_UnexposedExpr && q.canon != null && !q.canon.contains("&")) return;
                // an element stored: v[i] = x, x's interval joins the elements'
                ClangNode st = outermost(p).parent;
                if (st != null
                        && st.kind == CXCursor_BinaryOperator
                        && "=".equals(st.spelling)
                        && st.children.size() == 2
                        && st.children.get(0) == outermost(p)) {
                    double[] v = eval.apply(st.children.get(1));
                    if (v == null) unknown[0] = true;
                    else widen(join, v);
                    return;
                }
            }
            unknown[0] = true;
        });
        if (decl[0] == null || unknown[0] || join[0] > join[1]) return null;
        return join;
    }

    private static boolean floating(String type) {
        return type != null
                && type.replaceAll("\\b(const|volatile)\\b|&", "").trim().matches("float|double");
    }

    private static void widen(double[] join, double[] v) {
        join[0] = Math.min(join[0], v[0]);
        join[1] = Math.max(join[1], v[1]);
    }
}
