package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * Terms of a double sum that are exact powers of two: {@code 1.0 / m} (or {@code c / m}, {@code c} a power of two)
 * where {@code m} is a 32-bit integer local of the function whose every write keeps it a power of two: its
 * initialisation to a power of two and updates that multiply it by one ({@code m *= 2}, {@code m = 2 * m},
 * {@code m <<= 1}); never a local whose address is taken, that is incremented or otherwise written. Each term is then
 * {@code c * 2^-k} with {@code k <= 31}, and every partial sum a multiple of {@code c * 2^-31}: exact in double while
 * it stays below {@code c * 2^22} (53 - 31 bits), as a sum of whole numbers is exact below 2^53. A cascading grid's
 * level index ({@code casc += 1.0 / (double) m; ... m *= 2;}) adds 1, 1/2, 1/4, ... exactly: no rounding to grow.
 */
final class ClangDyadicTerms {
    private ClangDyadicTerms() {}

    /** Whether {@code term}, added to a double accumulator in {@code fn}, is such a power of two. */
    static boolean exact(ClangNode term, ClangUnit.Function fn) {
        ClangNode t = strip(term);
        if (t == null || t.kind != CXCursor_BinaryOperator || !"/".equals(t.spelling) || t.children.size() != 2)
            return false;
        ClangNode c = strip(t.children.get(0));
        if (c == null || c.value == null || !powerOfTwo(c.value)) return false;
        ClangNode m = strip(t.children.get(1));
        while (m != null && isExplicitCast(m)) m = strip(operandOf(m));
        if (m == null || m.kind != CXCursor_DeclRefExpr || m.refUsr == null || !integral(m.canonKind)) return false;
        String usr = m.refUsr;
        boolean[] ok = {false, true}; // [declared here with a power of two, every write keeps it one]
        fn.node().forEach(n -> {
            if (!ok[1]) return;
            if (n.kind == CXCursor_VarDecl && usr.equals(n.usr)) {
                ClangNode init = n.children.isEmpty() ? null : strip(n.children.get(n.children.size() - 1));
                ok[0] = init != null && init.value != null && powerOfTwo(init.value) && narrow(n.canonKind);
                if (!ok[0]) ok[1] = false;
            } else if (n.kind == CXCursor_UnaryOperator
                    && n.children.size() == 1
                    && (n.spelling.equals("&") || n.spelling.equals("++") || n.spelling.equals("--"))
                    && refersTo(n.children.get(0), usr)) {
                ok[1] = false; // &m, m++, --m
            } else if ((n.kind == CXCursor_CompoundAssignOperator || n.kind == CXCursor_BinaryOperator)
                    && n.children.size() == 2
                    && refersTo(n.children.get(0), usr)) {
                ok[1] &= keepsPower(n, usr);
            }
        });
        return ok[0] && ok[1];
    }

    /** Whether the write {@code w} to {@code usr} keeps a power of two one. */
    private static boolean keepsPower(ClangNode w, String usr) {
        ClangNode rhs = strip(w.children.get(1));
        if (rhs == null) return false;
        switch (w.spelling) {
            case "*=":
                return rhs.value != null && powerOfTwo(rhs.value) && rhs.value >= 1;
            case "<<=":
                return rhs.value != null && rhs.value >= 0;
            case "=":
                if (rhs.kind != CXCursor_BinaryOperator || !"*".equals(rhs.spelling) || rhs.children.size() != 2)
                    return false;
                ClangNode a = strip(rhs.children.get(0)), b = strip(rhs.children.get(1));
                ClangNode k = refersTo(a, usr) ? b : refersTo(b, usr) ? a : null;
                return k != null && k.value != null && powerOfTwo(k.value) && k.value >= 1;
            default:
                // a comparison reads it; anything else that writes it (+=, -=, /=, >>=) does not keep the power
                return !w.spelling.endsWith("=")
                        || w.spelling.equals("==")
                        || w.spelling.equals("!=")
                        || w.spelling.equals("<=")
                        || w.spelling.equals(">=");
        }
    }

    private static boolean refersTo(ClangNode e, String usr) {
        ClangNode x = strip(e);
        return x != null && x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr);
    }

    /** 32 bits or fewer: the exponent of the power of two it holds stays at most 31. */
    private static boolean narrow(int kind) {
        return kind == CXType_Int || kind == CXType_UInt || kind == CXType_Short || kind == CXType_UShort;
    }

    private static boolean powerOfTwo(double v) {
        return v > 0 && !Double.isInfinite(v) && v == Math.scalb(1.0, Math.getExponent(v));
    }
}
