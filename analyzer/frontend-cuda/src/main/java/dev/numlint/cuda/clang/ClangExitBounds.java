package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.HashSet;
import java.util.Set;

/**
 * What the tests before a read of an integer variable say about it: an early exit ({@code if (frame < 0) return
 * -f(-frame);}, {@code if (i >= n) continue;}) leaves the value on the side where its test failed, and a branch
 * ({@code if (k > 0) { ... k ... }}) on the side where it held. Only the tests after the variable's last write
 * before the read count, and only integers: a floating NaN fails every test ({@link ClangIntervals}'s tests).
 */
final class ClangExitBounds {
    private ClangExitBounds() {}

    /** {@code x}, the interval of {@code ref}'s variable, narrowed by the tests that dominate the read. */
    static double[] narrowed(ClangUnit unit, ClangNode ref, ClangUnit.Function fn, double[] x) {
        String usr = ref.refUsr;
        if (usr == null || !integral(ref.canonKind) || !tested(unit, fn).contains(usr)) return x;
        ClangNode cur = ref;
        for (ClangNode p = ref.parent; p != null && p != fn.node(); cur = p, p = p.parent) {
            if (isLoop(p) && writesIn(p, usr)) return x; // a test before the loop: the loop changes the value
            if (p.kind == CXCursor_IfStmt
                    && (p.children.size() == 2 || p.children.size() == 3)
                    && clang_isExpressionKind(p.children.get(0).kind)
                    && cur != p.children.get(0)) {
                if (writesIn(p.children.get(0), usr)) return x;
                x = conjuncts(p.children.get(0), cur == p.children.get(1), ref, x);
                continue;
            }
            if (p.kind != CXCursor_CompoundStmt) continue;
            if (labelled(cur) != cur) return x; // entered through a label: past the tests before it
            for (int j = p.children.indexOf(cur) - 1; j >= 0; j--) {
                ClangNode st = p.children.get(j);
                if (labelled(st) != st) return x;
                if (st.kind == CXCursor_IfStmt
                        && st.children.size() == 2
                        && !writesIn(st.children.get(0), usr)
                        && ClangGuards.leaves(st.children.get(1))) x = conjuncts(st.children.get(0), false, ref, x);
                else if (writesIn(st, usr)) return x;
                else if (st.kind == CXCursor_DeclStmt) {
                    for (ClangNode d : st.children) if (d.kind == CXCursor_VarDecl && usr.equals(d.usr)) return x;
                }
            }
        }
        return x;
    }

    /**
     * {@code x} where {@code test} came out {@code holds}: each conjunct of a test that held ({@code a >= 0 && b >=
     * 0}), each disjunct of one that failed ({@code a < 0 || b < 0}).
     */
    private static double[] conjuncts(ClangNode test, boolean holds, ClangNode ref, double[] x) {
        ClangNode t = strip(test);
        String split = holds ? "&&" : "||";
        if (t != null && t.kind == CXCursor_BinaryOperator && t.spelling.equals(split) && t.children.size() == 2) {
            return conjuncts(t.children.get(1), holds, ref, conjuncts(t.children.get(0), holds, ref, x));
        }
        return ClangIntervals.underTest(test, holds, ref, x, false);
    }

    /** The variables some if statement of {@code fn} tests: only their reads are worth the walk. */
    private static Set<String> tested(ClangUnit unit, ClangUnit.Function fn) {
        return unit.perFunction("if-tested", fn.node(), () -> {
            Set<String> out = new HashSet<>();
            fn.node().forEach(x -> {
                if (x.kind != CXCursor_IfStmt || x.children.isEmpty()) return;
                x.children.get(0).forEach(y -> {
                    if (y.kind == CXCursor_DeclRefExpr && y.refUsr != null) out.add(y.refUsr);
                });
            });
            return out;
        });
    }
}
