package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Eigen's {@code DenseBase::cast<NewType>()} of floating coefficients to an integer type: Eigen converts each
 * coefficient with a {@code static_cast} in its own header, where numlint reports nothing, so the call written in the
 * project is the conversion (session 64 round C: a discrete grid's cell index {@code (x - m_domain.min())
 * .cwiseProduct(m_inv_cell_size).cast<unsigned int>()} was reported at no level). The call's type names both scalars:
 * {@code CwiseUnaryOp<internal::scalar_cast_op<double, unsigned int>, ...>}.
 *
 * <p>The coefficients' range is not followed through Eigen's expressions; a containment test that leaves before the
 * call ({@code if (!m_domain.contains(x)) return false;}) on a vector the operand reads, not written in between, is
 * the guard, as a comparison is for a scalar ({@link ClangGuards}).
 */
final class ClangEigenCasts {
    private ClangEigenCasts() {}

    /** How such a conversion is written after its object: {@code .cast<unsigned int>()}. */
    private static final String HOW = ".cast<";

    /** Whether {@code c} is an Eigen cast: its coefficients are floating data, whatever the object's type. */
    static boolean of(ClangUnit.Conversion c) {
        return c.explicit() && c.how().startsWith(HOW);
    }

    private static final Pattern CAST_OP = Pattern.compile(
            "scalar_cast_op<\\s*(float|double|long double)\\s*,\\s*((?:unsigned |signed )?(?:char|short|int|long long|long)"
                    + "(?: int)?)\\s*>");

    /** Adds the conversion {@code n} is when it is an Eigen {@code cast<T>()} of floating coefficients to integers. */
    static void conversions(ClangUnit unit, ClangUnit.Function fn, ClangNode n, List<ClangUnit.Conversion> out) {
        if (n.kind != CXCursor_CallExpr
                || !"cast".equals(n.spelling)
                || !ClangSyntax.arguments(n).isEmpty()) return;
        if (n.canon == null || n.children.isEmpty()) return;
        Matcher m = CAST_OP.matcher(n.canon);
        if (!m.find()) return;
        ClangNode callee = n.children.get(0);
        while (callee.kind == CXCursor_UnexposedExpr && callee.children.size() == 1) callee = callee.children.get(0);
        if (callee.kind != CXCursor_MemberRefExpr || callee.children.isEmpty()) return;
        ClangNode object = callee.children.get(0);
        String to = m.group(2);
        boolean unsigned = to.startsWith("unsigned");
        String guard = ClangGuards.of(unit, n, object, fn);
        if (guard == null) guard = containment(unit, n, object, fn);
        out.add(new ClangUnit.Conversion(
                n,
                object,
                HOW + to + ">()",
                m.group(1),
                to,
                unsigned,
                bytes(to),
                true,
                guard != null,
                guard,
                false,
                fn,
                null,
                null));
    }

    private static int bytes(String type) {
        if (type.endsWith("char")) return 1;
        if (type.endsWith("short")) return 2;
        return type.contains("long") ? 8 : 4;
    }

    /**
     * An early exit before {@code at} in an enclosing block whose test calls {@code contains} with a variable that
     * {@code operand} reads, not written from that test to {@code at}: "the early return under '...' (line N)".
     */
    private static String containment(ClangUnit unit, ClangNode at, ClangNode operand, ClangUnit.Function fn) {
        Set<String> reads = new HashSet<>();
        operand.forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null) reads.add(x.refUsr);
        });
        ClangNode c = at;
        for (ClangNode p = at.parent; p != null && p != fn.node(); c = p, p = p.parent) {
            if (p.kind != CXCursor_CompoundStmt) continue;
            for (int k = p.children.indexOf(c) - 1; k >= 0; k--) {
                ClangNode s = p.children.get(k);
                if (s.kind == CXCursor_IfStmt && s.children.size() == 2 && ClangGuards.leaves(s.children.get(1))) {
                    String v = contained(s.children.get(0), reads);
                    if (v != null && !writtenAfter(p, k, c, v))
                        return "the early return under '" + unit.text(s.children.get(0)) + "' (line "
                                + s.children.get(0).line + ")";
                }
            }
        }
        return null;
    }

    /** The variable of {@code reads} that a {@code contains(...)} call of {@code test} takes as an argument, or null. */
    private static String contained(ClangNode test, Set<String> reads) {
        String[] hit = new String[1];
        test.forEach(x -> {
            if (hit[0] != null || x.kind != CXCursor_CallExpr || !"contains".equals(x.spelling)) return;
            for (ClangNode a : ClangSyntax.arguments(x)) {
                a.forEach(y -> {
                    if (hit[0] == null && y.kind == CXCursor_DeclRefExpr && reads.contains(y.refUsr)) hit[0] = y.refUsr;
                });
            }
        });
        return hit[0];
    }

    /**
     * Whether a statement of {@code block} between statement {@code k} and {@code last} (the one holding the cast)
     * names the variable at all: an Eigen vector is written through operators and member calls
     * ({@code x += d}, {@code x.setZero()}) as much as through assignments, so any mention counts.
     */
    private static boolean writtenAfter(ClangNode block, int k, ClangNode last, String usr) {
        for (int j = k + 1; j < block.children.size() && block.children.get(j) != last; j++) {
            boolean[] named = new boolean[1];
            block.children.get(j).forEach(x -> {
                if (x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr)) named[0] = true;
            });
            if (named[0]) return true;
        }
        return false;
    }
}
