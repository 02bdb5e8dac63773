package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The interval of a draw from a standard uniform distribution a function declares: {@code d(g)} of a local {@code
 * std::uniform_real_distribution<double> d(a, b)} is in [a, b] (the default one in [0, 1]), of a {@code
 * std::uniform_int_distribution<int> d(a, b)} in [a, b], when the distribution is constructed with those bounds and
 * never assigned (session 65 round F: a random forest's Fisher-Yates shuffle {@code size_t j = i + d(g) * (max - i)}
 * was an error "unguarded double to unsigned long").
 */
final class ClangDistributions {
    private ClangDistributions() {}

    private static final double INF = Double.POSITIVE_INFINITY;

    /** The interval of {@code call}, a call of such a distribution, or null. */
    static double[] interval(ClangNode call, ClangUnit.Function fn, Function<ClangNode, double[]> eval) {
        if (fn == null || call.kind != CXCursor_CallExpr || !"operator()".equals(call.spelling)) return null;
        if (call.children.isEmpty()) return null;
        ClangNode obj = strip(call.children.get(0));
        if (obj == null || obj.kind != CXCursor_DeclRefExpr || obj.refUsr == null || obj.canon == null) return null;
        boolean real = obj.canon.contains("uniform_real_distribution<");
        if (!real && !obj.canon.contains("uniform_int_distribution<")) return null;
        ClangNode[] decl = {null};
        boolean[] assigned = {false};
        fn.node().forEach(n -> {
            if (n.kind == CXCursor_VarDecl && obj.refUsr.equals(n.usr)) decl[0] = n;
            if (n.kind == CXCursor_DeclRefExpr && obj.refUsr.equals(n.refUsr) && written(n)) assigned[0] = true;
        });
        if (decl[0] == null || assigned[0]) return null;
        List<ClangNode> args = constructorArguments(decl[0]);
        if (args == null) return null;
        if (args.isEmpty()) return real ? new double[] {0, 1} : null;
        double[] lo = eval.apply(args.get(0));
        double[] hi = args.size() > 1 ? eval.apply(args.get(1)) : new double[] {real ? 1 : INF, real ? 1 : INF};
        if (lo == null || hi == null || Double.isNaN(lo[0]) || Double.isNaN(hi[1])) return null;
        return new double[] {lo[0], hi[1]};
    }

    /** Whether the distribution referenced by {@code ref} is assigned there ({@code d = other}, {@code d.param(p)}). */
    private static boolean written(ClangNode ref) {
        ClangNode p = ref.parent;
        while (p != null && p.kind == CXCursor_UnexposedExpr) p = p.parent;
        if (p == null) return false;
        if (p.kind == CXCursor_BinaryOperator && p.spelling.equals("=")) return true;
        if (p.kind == CXCursor_CallExpr && "operator=".equals(p.spelling)) return true;
        return p.kind == CXCursor_MemberRefExpr && "param".equals(p.spelling);
    }

    /** The arguments the declaration constructs the distribution with (none for a default one), or null. */
    private static List<ClangNode> constructorArguments(ClangNode decl) {
        ClangNode ctor = null;
        for (ClangNode c : decl.children) {
            ClangNode s = strip(c);
            if (s != null && s.kind == CXCursor_CallExpr && s.spelling.startsWith("uniform_")) ctor = s;
        }
        if (ctor == null) {
            // a default-constructed distribution: only its type is written
            for (ClangNode c : decl.children) {
                if (c.kind >= CXCursor_FirstExpr && c.kind <= CXCursor_LastExpr) return null;
            }
            return List.of();
        }
        List<ClangNode> out = new ArrayList<>();
        for (ClangNode c : ctor.children) {
            if (c.kind >= CXCursor_FirstExpr && c.kind <= CXCursor_LastExpr) out.add(c);
        }
        return out.size() <= 2 ? out : null;
    }
}
