package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The mean of the terms a loop adds up, {@code s / n}: in its function the local {@code s} (a floating scalar, or the
 * elements of a local floating array) is only set to 0 and raised by {@code s += v}; the local integer {@code n} is
 * only set to 0 and counted up by one; every addition runs at most once per count (the block that holds it, with no
 * loop between save one over the element's own index, counts once, unconditionally, and no jump leaves that block
 * early); every reset of {@code n} resets {@code s} in the same block, nothing between the two adding to it; and the
 * division runs only where {@code n} is not 0. Then {@code s} is a sum of at most {@code n} terms, each in the hull of
 * the values added, so the mean lies in that hull widened to 0. A box filter's {@code if (n) out = (unsigned char)(s /
 * n)} over the pixels it keeps; a raw decoder's mean of a bad pixel's good neighbours, {@code fsum[c] / sum} (session
 * 71: dcraw's Foveon loader, "nothing bounds 'fsum[c]' below").
 */
final class ClangLoopMeans {
    private ClangLoopMeans() {}

    /** The interval of the mean {@code div}, or null when it is not one this class knows. */
    static double[] of(ClangUnit unit, ClangNode div, ClangUnit.Function fn, Function<ClangNode, double[]> eval) {
        if (fn == null || !div.spelling.equals("/") || div.children.size() != 2 || !floating(div.canonKind))
            return null;
        ClangNode s = strip(div.children.get(0));
        ClangNode n = strip(div.children.get(1));
        if (s == null || n == null || n.kind != CXCursor_DeclRefExpr || n.refUsr == null || !integral(n.canonKind))
            return null;
        ClangNode base = s.kind == CXCursor_ArraySubscriptExpr ? strip(s.children.get(0)) : s;
        if (base == null || base.kind != CXCursor_DeclRefExpr || base.refUsr == null || !floating(s.canonKind))
            return null;
        Uses uses = new Uses(unit, base.refUsr, n.refUsr, s != base);
        fn.node().forEach(uses::visit);
        if (uses.bad || uses.locals != 2 || uses.adds.isEmpty() || !uses.paired() || !nonZero(div, n.refUsr, fn))
            return null;
        double lo = 0;
        double hi = 0;
        for (ClangNode add : uses.adds) {
            double[] v = eval.apply(add.children.get(1));
            lo = Math.min(lo, v[0]);
            hi = Math.max(hi, v[1]);
        }
        return lo == Double.NEGATIVE_INFINITY && hi == Double.POSITIVE_INFINITY ? null : new double[] {lo, hi};
    }

    /** The writes of the sum and of the count in the function, sorted. */
    private static final class Uses {
        final ClangUnit unit;
        final String sum;
        final String count;
        final boolean elements;
        final List<ClangNode> adds = new ArrayList<>(); // the s += v operators
        final List<ClangNode> sumResets = new ArrayList<>(); // the statements or declarations that set s to 0
        final List<ClangNode> countResets = new ArrayList<>();
        final List<ClangNode> counts = new ArrayList<>(); // the n++ operators
        int locals;
        boolean bad;

        Uses(ClangUnit unit, String sum, String count, boolean elements) {
            this.unit = unit;
            this.sum = sum;
            this.count = count;
            this.elements = elements;
        }

        void visit(ClangNode x) {
            if (bad || inSizeof(x, null)) return; // sizeof fsum: its type
            if (x.kind == CXCursor_VarDecl && (sum.equals(x.usr) || count.equals(x.usr))) declaration(x);
            else if (x.kind == CXCursor_DeclRefExpr && sum.equals(x.refUsr)) sumUse(x);
            else if (x.kind == CXCursor_DeclRefExpr && count.equals(x.refUsr)) countUse(x);
        }

        private void declaration(ClangNode d) {
            locals++;
            ClangNode st = d.parent;
            if (st == null
                    || st.kind != CXCursor_DeclStmt
                    || unit.text(st).strip().startsWith("static")) {
                bad = true; // a static local keeps its value from the previous call
                return;
            }
            ClangNode init = d.children.isEmpty() ? null : d.children.get(d.children.size() - 1);
            // an array's declaration holds its size ({@code float fsum[3]}): its initializer is a braced list
            if (elements && sum.equals(d.usr) && init != null && strip(init).kind != CXCursor_InitListExpr) init = null;
            if (init == null || !clang_isExpressionKind(init.kind)) return; // no initializer: a reset must come
            if (!zero(init)) bad = true;
            else (sum.equals(d.usr) ? sumResets : countResets).add(st);
        }

        private void sumUse(ClangNode x) {
            ClangNode c = x;
            while (c.parent != null && (c.parent.kind == CXCursor_UnexposedExpr || c.parent.kind == CXCursor_ParenExpr))
                c = c.parent;
            ClangNode p = c.parent;
            if (elements
                    && p != null
                    && p.kind == CXCursor_CallExpr
                    && callee(p).equals("memset")
                    && p.children.size() == 4
                    && p.children.get(1) == c
                    && zero(p.children.get(2))) {
                sumResets.add(p);
                return;
            }
            ClangNode target = x;
            if (elements) {
                if (p == null || p.kind != CXCursor_ArraySubscriptExpr || p.children.get(0) != c) {
                    bad = true; // the array itself passed on or its address taken
                    return;
                }
                target = p;
            }
            ClangNode o = outermost(target);
            ClangNode w = o.parent;
            if (w != null && w.kind == CXCursor_CompoundAssignOperator && w.children.get(0) == o) {
                if (w.spelling.equals("+=") && w.children.size() == 2) adds.add(w);
                else bad = true;
            } else if (w != null
                    && w.kind == CXCursor_BinaryOperator
                    && w.spelling.equals("=")
                    && w.children.get(0) == o) {
                if (zero(w.children.get(1))) sumResets.add(w);
                else bad = true;
            } else if (written(target) || aliases(target)) bad = true;
        }

        private void countUse(ClangNode x) {
            ClangNode o = outermost(x);
            ClangNode w = o.parent;
            if (w != null && w.kind == CXCursor_UnaryOperator && w.spelling.equals("++")) counts.add(w);
            else if (w != null && w.kind == CXCursor_CompoundAssignOperator && w.children.get(0) == o) {
                Double one = w.children.size() == 2 ? folded(w.children.get(1)) : null;
                if (w.spelling.equals("+=") && one != null && one == 1) counts.add(w);
                else bad = true;
            } else if (w != null
                    && w.kind == CXCursor_BinaryOperator
                    && w.spelling.equals("=")
                    && w.children.get(0) == o) {
                if (zero(w.children.get(1))) countResets.add(w);
                else bad = true;
            } else if (written(x) || aliases(x)) bad = true;
        }

        /**
         * Whether every addition runs at most once per count, each in a block of its own that counts, and every reset
         * of the count resets the sum beside it.
         */
        boolean paired() {
            java.util.Set<ClangNode> blocks = new java.util.HashSet<>();
            for (ClangNode add : adds) {
                ClangNode block = countedWith(add);
                if (block == null || !blocks.add(block)) return false; // two additions for one count: s = 2n at most
            }
            for (ClangNode r : countResets) if (!resetWith(r)) return false;
            return true;
        }

        /**
         * The nearest block around {@code add} that counts once, unconditionally, with no loop between save the
         * index's; null if none.
         */
        private ClangNode countedWith(ClangNode add) {
            ClangNode c = add;
            for (ClangNode p = add.parent;
                    p != null && !ClangUnit.FUNCTION_KINDS.contains(p.kind);
                    c = p, p = p.parent) {
                if (p.kind == CXCursor_CompoundStmt) {
                    for (ClangNode st : p.children) {
                        ClangNode e = strip(st);
                        if (e != null && counts.contains(e)) return leaves(p) ? null : p;
                    }
                }
                if (isLoop(p) && !indexLoop(p, add) || p.kind == CXCursor_LambdaExpr) return null;
            }
            return null;
        }

        /** A for loop over the element's own index ({@code for (c = 0; c < 3; c++) fsum[c] += v}): once per element. */
        private boolean indexLoop(ClangNode loop, ClangNode add) {
            if (!elements || loop.kind != CXCursor_ForStmt) return false;
            ClangNode el = strip(add.children.get(0));
            ClangNode index = el == null || el.children.size() != 2 ? null : strip(el.children.get(1));
            String v = loopVariable(loop);
            if (index == null || index.kind != CXCursor_DeclRefExpr || v == null || !v.equals(index.refUsr))
                return false;
            ClangNode body = loop.children.get(loop.children.size() - 1);
            return !writesIn(body, v);
        }

        /** Whether a jump in {@code block} leaves it before its end (a break or continue of a loop around it, a return). */
        private static boolean leaves(ClangNode block) {
            boolean[] out = {false};
            block.forEach(j -> {
                if (j.kind == CXCursor_ReturnStmt || j.kind == CXCursor_GotoStmt) out[0] = true;
                if (j.kind != CXCursor_BreakStmt && j.kind != CXCursor_ContinueStmt) return;
                boolean inside = false;
                for (ClangNode q = j.parent; q != null && q != block; q = q.parent)
                    inside |= isLoop(q) || j.kind == CXCursor_BreakStmt && q.kind == CXCursor_SwitchStmt;
                if (!inside) out[0] = true;
            });
            return out[0];
        }

        /** Whether the sum is reset in the block of the count's reset {@code r}, nothing between adding to it. */
        private boolean resetWith(ClangNode r) {
            ClangNode[] rs = statementIn(r);
            if (rs == null) return false;
            for (ClangNode s : sumResets) {
                ClangNode[] ss = statementIn(s);
                if (ss == null || ss[0] != rs[0]) continue;
                int i = rs[0].children.indexOf(rs[1]);
                int j = rs[0].children.indexOf(ss[1]);
                boolean clear = true;
                for (int k = Math.min(i, j) + 1; k < Math.max(i, j); k++) {
                    ClangNode between = rs[0].children.get(k);
                    for (ClangNode add : adds) clear &= !within(add, between);
                }
                if (clear) return true;
            }
            return false;
        }

        /** The block around {@code n} and the statement of it that holds {@code n}, or null. */
        private static ClangNode[] statementIn(ClangNode n) {
            ClangNode c = n;
            for (ClangNode p = n.parent; p != null; c = p, p = p.parent) {
                if (p.kind == CXCursor_CompoundStmt) return new ClangNode[] {p, c};
                if (ClangUnit.FUNCTION_KINDS.contains(p.kind)) return null;
            }
            return null;
        }

        private static boolean within(ClangNode n, ClangNode ancestor) {
            for (ClangNode p = n; p != null; p = p.parent) if (p == ancestor) return true;
            return false;
        }
    }

    /** Whether {@code e} is 0: a constant, {@code {0}} or {@code {}}, or a chained assignment of one ({@code j = 0}). */
    private static boolean zero(ClangNode e) {
        ClangNode v = strip(e);
        while (v != null && v.kind == CXCursor_BinaryOperator && v.spelling.equals("=") && v.children.size() == 2)
            v = strip(v.children.get(1));
        if (v != null && v.kind == CXCursor_InitListExpr) {
            for (ClangNode c : v.children) if (!zero(c)) return false;
            return true;
        }
        Double c = v == null ? null : folded(v);
        return c != null && c == 0;
    }

    /** Whether {@code div} runs only where the count is not 0: in the branch of a test that says so. */
    private static boolean nonZero(ClangNode div, String count, ClangUnit.Function fn) {
        ClangNode c = div;
        for (ClangNode p = div.parent; p != null && p != fn.node(); c = p, p = p.parent) {
            boolean branch = (p.kind == CXCursor_IfStmt || p.kind == CXCursor_ConditionalOperator)
                    && p.children.size() >= 2
                    && p.children.get(1) == c;
            if (branch && tests(p.children.get(0), count) && !writesIn(c, count)) return true;
        }
        return false;
    }

    /** Whether the condition {@code t} (or a conjunct of it) holds only where the count is not 0. */
    private static boolean tests(ClangNode t, String count) {
        ClangNode e = strip(t);
        if (e == null) return false;
        if (e.kind == CXCursor_DeclRefExpr) return count.equals(e.refUsr);
        if (e.kind != CXCursor_BinaryOperator || e.children.size() != 2) return false;
        if (e.spelling.equals("&&")) return tests(e.children.get(0), count) || tests(e.children.get(1), count);
        ClangNode l = strip(e.children.get(0));
        ClangNode r = strip(e.children.get(1));
        String op = e.spelling;
        if (r != null && r.kind == CXCursor_DeclRefExpr && count.equals(r.refUsr)) {
            ClangNode t2 = l;
            l = r;
            r = t2;
            op = mirrored(op);
        }
        if (l == null || l.kind != CXCursor_DeclRefExpr || !count.equals(l.refUsr) || r == null) return false;
        Double k = folded(r);
        if (k == null) return false;
        return op.equals(">") && k >= 0 || op.equals(">=") && k >= 1 || op.equals("!=") && k == 0;
    }
}
