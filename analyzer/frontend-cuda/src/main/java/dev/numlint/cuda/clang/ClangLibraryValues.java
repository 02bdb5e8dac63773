package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.Set;
import java.util.function.Function;

/**
 * Intervals of values that standard library objects of a function hold: a draw of a uniform distribution ({@link
 * ClangDistributions}) and a part of a complex number made by {@code std::polar}: {@code x.real()}, {@code x.imag()},
 * {@code std::real(x)} of a local {@code auto x = std::polar<float>(270, phi);} lie in [-270, 270] whatever the angle
 * (session 68 round C: a radio-astronomy channelizer's test signal {@code std::complex<int16_t>(x.real(), x.imag())},
 * four false NL011 warnings "unguarded float to const short"). Only a local that every other use reads (its real and
 * imaginary parts, its magnitude or argument): one assigned, passed on or changed in place may hold anything.
 */
final class ClangLibraryValues {
    private ClangLibraryValues() {}

    /** The calls that read a complex number without changing it. */
    private static final Set<String> READS = Set.of("real", "imag", "abs", "arg", "norm", "conj");

    /** The interval of {@code call} in {@code fn} (an element of a constant std::array too: ClangTables), or null. */
    static double[] interval(
            ClangUnit unit, ClangNode call, ClangUnit.Function fn, Function<ClangNode, double[]> eval) {
        double[] x = ClangDistributions.interval(call, fn, eval);
        if (x == null) x = ClangTables.element(unit, call);
        return x != null ? x : polarPart(call, fn, eval);
    }

    private static double[] polarPart(ClangNode call, ClangUnit.Function fn, Function<ClangNode, double[]> eval) {
        if (fn == null || call.kind != CXCursor_CallExpr) return null;
        String name = callee(call).replace("std::", "");
        if (!name.equals("real") && !name.equals("imag")) return null;
        ClangNode obj = object(call);
        if (obj == null || obj.kind != CXCursor_DeclRefExpr || obj.refUsr == null) return null;
        if (obj.canon == null || !obj.canon.contains("complex<")) return null;
        ClangNode[] init = {null};
        boolean[] other = {false};
        fn.node().forEach(n -> {
            if (n.kind == CXCursor_VarDecl && obj.refUsr.equals(n.usr) && !n.children.isEmpty())
                init[0] = n.children.get(n.children.size() - 1);
            if (n.kind == CXCursor_DeclRefExpr && obj.refUsr.equals(n.refUsr) && !read(n)) other[0] = true;
        });
        ClangNode polar = init[0] == null ? null : copied(init[0]);
        if (other[0] || polar == null || polar.kind != CXCursor_CallExpr) return null;
        if (!callee(polar).replace("std::", "").equals("polar")
                || arguments(polar).isEmpty()) return null;
        double[] r = eval.apply(arguments(polar).get(0));
        if (r == null || Double.isNaN(r[0]) || Double.isNaN(r[1])) return null;
        double m = Math.max(Math.abs(r[0]), Math.abs(r[1]));
        return Double.isInfinite(m) ? null : new double[] {-m, m};
    }

    /** The complex number {@code x.real()} or {@code std::real(x)} reads, or null. */
    private static ClangNode object(ClangNode call) {
        ClangNode first = call.children.isEmpty() ? null : strip(call.children.get(0));
        if (first != null && first.kind == CXCursor_MemberRefExpr && !first.children.isEmpty())
            return strip(first.children.get(0));
        return arguments(call).size() == 1 ? strip(arguments(call).get(0)) : null;
    }

    /** Whether the reference {@code ref} only reads the number: a part, its magnitude or argument. */
    private static boolean read(ClangNode ref) {
        ClangNode p = ref.parent;
        while (p != null && (p.kind == CXCursor_UnexposedExpr || p.kind == CXCursor_ParenExpr)) p = p.parent;
        if (p == null) return false;
        if (p.kind == CXCursor_MemberRefExpr) return READS.contains(p.spelling);
        return p.kind == CXCursor_CallExpr && READS.contains(callee(p).replace("std::", ""));
    }

    /** {@code e} without the copy or move construction of its value around it ({@code auto x = std::polar(...)}). */
    private static ClangNode copied(ClangNode e) {
        ClangNode n = strip(e);
        for (int i = 0; i < 4 && n != null && n.kind == CXCursor_CallExpr && n.children.size() == 1; i++) {
            ClangNode a = strip(n.children.get(0));
            if (a == null || a.kind != CXCursor_CallExpr) return n;
            n = a;
        }
        return n;
    }
}
