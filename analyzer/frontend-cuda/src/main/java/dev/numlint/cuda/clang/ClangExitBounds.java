package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the tests before a read of an integer variable say about it: an early exit ({@code if (frame < 0) return
 * -f(-frame);}, {@code if (i >= n) continue;}) leaves the value on the side where its test failed, and a branch
 * ({@code if (k > 0) { ... k ... }}, a conditional expression's {@code k > 0 ? k - 1 : 0}) on the side where it
 * held. Only the tests after the variable's last write before the read count, and only integers: a floating NaN
 * fails every test ({@link ClangIntervals}'s tests). A remainder step ({@code frame -= (frame / rate) * rate}) keeps
 * the sign the tests before it proved.
 */
final class ClangExitBounds {
    private ClangExitBounds() {}

    /** {@code x}, the interval of {@code ref}'s variable, narrowed by the tests that dominate the read. */
    static double[] narrowed(ClangUnit unit, ClangNode ref, ClangUnit.Function fn, double[] x) {
        String usr = ref.refUsr;
        if (usr == null || !integral(ref.canonKind) || !tested(unit, fn).contains(usr)) return x;
        return from(unit, ref, ref, fn, x);
    }

    /** {@link #narrowed} of the value {@code ref}'s variable holds at {@code at} (the read, or a statement). */
    private static double[] from(ClangUnit unit, ClangNode at, ClangNode ref, ClangUnit.Function fn, double[] x) {
        String usr = ref.refUsr;
        List<ClangNode[]> tests = new ArrayList<>(); // {test, holds ? test : null}
        ClangNode cur = at;
        for (ClangNode p = at.parent; p != null && p != fn.node(); cur = p, p = p.parent) {
            if (isLoop(p) && writesIn(p, usr)) break; // a test before the loop: the loop changes the value
            // a conditional expression's branch as an if's (n < 0x40 ? 0 : (n - 0x40) * 0x20: n >= 0x40 there, a
            // palette ramp of session 83 round Y)
            if ((p.kind == CXCursor_IfStmt && (p.children.size() == 2 || p.children.size() == 3)
                            || p.kind == CXCursor_ConditionalOperator && p.children.size() == 3)
                    && clang_isExpressionKind(p.children.get(0).kind)
                    && cur != p.children.get(0)) {
                if (writesIn(p.children.get(0), usr)) break;
                tests.add(new ClangNode[] {p.children.get(0), cur == p.children.get(1) ? p : null});
                continue;
            }
            if (p.kind != CXCursor_CompoundStmt) continue;
            if (labelled(cur) != cur) break; // entered through a label: past the tests before it
            for (int j = p.children.indexOf(cur) - 1; j >= 0; j--) {
                ClangNode st = p.children.get(j);
                if (labelled(st) != st) return apply(tests, ref, x);
                if (st.kind == CXCursor_IfStmt
                        && st.children.size() == 2
                        && !writesIn(st.children.get(0), usr)
                        && ClangGuards.leaves(st.children.get(1)))
                    tests.add(new ClangNode[] {st.children.get(0), null});
                else if (writesIn(st, usr)) {
                    // frame -= (frame / rate) * rate: the remainder of what the tests before it left
                    ClangNode d = remainderStep(unit, fn, st, usr);
                    if (d == null) return apply(tests, ref, x);
                    double[] before = from(unit, st, ref, fn, x), divisor = unit.interval(d, fn);
                    if (before[0] < 0) return apply(tests, ref, x);
                    double most = Math.max(Math.abs(divisor[0]), Math.abs(divisor[1])) - 1;
                    if (most < 0) return apply(tests, ref, x); // a zero divisor: undefined
                    return apply(tests, ref, new double[] {0, Math.min(before[1], most)});
                } else if (st.kind == CXCursor_DeclStmt) {
                    for (ClangNode v : st.children)
                        if (v.kind == CXCursor_VarDecl && usr.equals(v.usr)) return apply(tests, ref, x);
                }
            }
        }
        return apply(tests, ref, x);
    }

    private static double[] apply(List<ClangNode[]> tests, ClangNode ref, double[] x) {
        // each conjunct of a test that held, each disjunct of one that failed (ClangTestBounds)
        for (ClangNode[] t : tests) x = ClangIntervals.underTest(t[0], t[1] != null, ref, x, false);
        return x;
    }

    /**
     * The divisor {@code d} when {@code st} is {@code v -= q * d} (or {@code d * q}) with {@code q} the quotient
     * {@code v / d} (through casts and a local defined once: {@code int sec = int(frame / long(rate)); frame -= sec *
     * long(rate);}): {@code v % d}, which keeps {@code v}'s sign; else null.
     */
    private static ClangNode remainderStep(ClangUnit unit, ClangUnit.Function fn, ClangNode st, String usr) {
        if (st.kind != CXCursor_CompoundAssignOperator || !"-=".equals(st.spelling) || st.children.size() != 2)
            return null;
        ClangNode v = strip(st.children.get(0));
        ClangNode prod = withoutCasts(st.children.get(1));
        if (v == null || !usr.equals(v.refUsr) || prod == null || prod.kind != CXCursor_BinaryOperator) return null;
        if (!"*".equals(prod.spelling) || prod.children.size() != 2) return null;
        for (int k = 0; k < 2; k++) {
            ClangNode q = ClangAllDefinitions.onlyValue(unit, fn, withoutCasts(prod.children.get(k)));
            ClangNode d = prod.children.get(1 - k);
            if (q == null || q.kind != CXCursor_BinaryOperator || !"/".equals(q.spelling) || q.children.size() != 2)
                continue;
            ClangNode x = withoutCasts(q.children.get(0));
            String a = unit.text(q.children.get(1)), b = unit.text(d);
            if (x != null && usr.equals(x.refUsr) && a != null && b != null && bare(a).equals(bare(b))) return d;
        }
        return null;
    }

    /** The variables some if statement of {@code fn} tests: only their reads are worth the walk. */
    private static Set<String> tested(ClangUnit unit, ClangUnit.Function fn) {
        return unit.perFunction("if-tested", fn.node(), () -> {
            Set<String> out = new HashSet<>();
            fn.node().forEach(x -> {
                if (x.kind != CXCursor_IfStmt && x.kind != CXCursor_ConditionalOperator || x.children.isEmpty()) return;
                x.children.get(0).forEach(y -> {
                    if (y.kind == CXCursor_DeclRefExpr && y.refUsr != null) out.add(y.refUsr);
                });
            });
            return out;
        });
    }
}
