package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.Set;

/**
 * The negligible-cutoff fact on Clang's tree: a test {@code t > C} (or {@code t >= C}, {@code C < t}) against a constant
 * so far below 0 that {@code exp(C)} is below the type's resolution (float: C below -17, exp(C) < 2^-24; double: C
 * below -37, exp(C) < 2^-53), guarding, with no else, a branch that uses {@code exp(t)} (or an exponential of an
 * expression that reads {@code t}): an Ewald or Boltzmann cutoff ({@code if (term > -50) expterm = exp(term) / denom}).
 * Where one ulp flips the test, the term it adds or skips is below the resolution of 1: both sides agree to that
 * resolution, the test decides nothing (continuous to within it).
 */
final class ClangNegligibleCutoffs {
    private static final Set<String> EXPONENTIALS = Set.of("exp", "expf", "__expf", "std::exp");
    /** ln(2^-24): exp of anything below it is under float's resolution of 1. */
    static final double FLOAT_CUTOFF = -24 * Math.log(2);
    /** ln(2^-53), for double. */
    static final double DOUBLE_CUTOFF = -53 * Math.log(2);

    private ClangNegligibleCutoffs() {}

    /** Whether {@code cmp}, reached by the value through its side {@code from}, is such a cutoff. */
    static boolean cutoff(ClangUnit unit, ClangNode cmp, ClangNode from) {
        if (cmp.kind != CXCursor_BinaryOperator || cmp.children.size() != 2) return false;
        ClangNode a = cmp.children.get(0), b = cmp.children.get(1);
        Double ca = constant(a), cb = constant(b);
        ClangNode t;
        double c;
        if (cb != null && ca == null && (cmp.spelling.equals(">") || cmp.spelling.equals(">="))) {
            t = a;
            c = cb;
        } else if (ca != null && cb == null && (cmp.spelling.equals("<") || cmp.spelling.equals("<="))) {
            t = b;
            c = ca;
        } else {
            return false;
        }
        if (t != from) return false;
        ClangNode ts = strip(t);
        if (ts == null || !floating(ts.canonKind)) return false;
        boolean single = ts.canonKind == CXType_Float;
        if (c > (single ? FLOAT_CUTOFF : DOUBLE_CUTOFF)) return false;
        // the guarded branch: an if without else whose condition is the test itself
        ClangNode q = cmp;
        while (q.parent != null && q.parent.kind == CXCursor_ParenExpr) q = q.parent;
        ClangNode p = q.parent;
        if (p == null || p.kind != CXCursor_IfStmt || p.children.size() != 2 || p.children.get(0) != q) return false;
        String tested = squash(unit.text(ts));
        boolean[] uses = new boolean[1];
        p.children.get(1).forEach(n -> {
            if (uses[0] || n.kind != CXCursor_CallExpr) return;
            if (!EXPONENTIALS.contains(callee(n))) return;
            for (ClangNode arg : arguments(n)) {
                arg.forEach(x -> {
                    if ((x.kind == CXCursor_DeclRefExpr || x.kind == CXCursor_MemberRefExpr)
                            && tested.equals(squash(unit.text(x)))) uses[0] = true;
                });
                if (tested.equals(squash(unit.text(arg)))) uses[0] = true;
            }
        });
        return uses[0];
    }
}
