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
 * division runs only where {@code n} is not 0, or its value goes straight into a conversion that maps the NaN of 0 / 0
 * alike on x86 and on the GPU ({@link #nanConvertsAlike}). Then {@code s} is a sum of at most {@code n} terms, each in
 * the hull of the values added, so the mean lies in that hull widened to 0. A box filter's {@code if (n) out =
 * (unsigned char)(s / n)} over the pixels it keeps; a raw decoder's mean of a bad pixel's good neighbours, {@code
 * fsum[c] / sum} (session 71: dcraw's Foveon loader, "nothing bounds 'fsum[c]' below").
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
        if (s == base) {
            double[] bounded = boundedLoop(unit, div, s.refUsr, n.refUsr, fn, eval);
            if (bounded != null) return bounded;
        }
        Uses uses = new Uses(unit, base.refUsr, n.refUsr, s != base);
        fn.node().forEach(uses::visit);
        if (uses.bad || uses.locals != 2 || uses.adds.isEmpty() || !uses.paired()) return null;
        if (!nonZero(div, n.refUsr, fn) && !nanConvertsAlike(div)) return null;
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
    }

    /**
     * The interval of {@code s / n} right after {@code s = 0; for (j = 0; j < n && ...; j++) { ... s += v; ... }}:
     * the loop runs at most {@code n} times (the counter starts at 0, steps by one, and nothing in the body writes it
     * or {@code n}), and adds to {@code s} once an iteration at most (one addition, in no loop of the body, and no
     * other write), so {@code s / n} lies in the hull of the values added, widened to 0, when {@code n} is not 0. A
     * channel mix's {@code (int16)(tmp / nchans)} of at most {@code nchans} samples (session 72 round E, a speech
     * front end's: "unguarded double to short"). The count is not 0 where a test says so ({@link #nonZero}) or where
     * the same statement divides an integer by it unconditionally ({@code buf[i / nchans] = ...}): at 0 that traps
     * first. Null when not so.
     */
    private static double[] boundedLoop(
            ClangUnit unit,
            ClangNode div,
            String sum,
            String count,
            ClangUnit.Function fn,
            Function<ClangNode, double[]> eval) {
        ClangNode[] at = Uses.statementIn(div);
        if (at == null) return null;
        int i = at[0].children.indexOf(at[1]);
        if (i < 2) return null;
        ClangNode loop = at[0].children.get(i - 1);
        ClangNode reset = strip(at[0].children.get(i - 2));
        if (loop.kind != CXCursor_ForStmt || loop.children.size() != 4 || !resets(unit, reset, sum)) return null;
        String j = loopVariable(loop);
        ClangNode init = loop.children.get(0);
        ClangNode start = init.kind == CXCursor_DeclStmt
                ? (init.children.size() == 1 && !init.children.get(0).children.isEmpty()
                        ? init.children
                                .get(0)
                                .children
                                .get(init.children.get(0).children.size() - 1)
                        : null)
                : init.children.size() == 2 ? init.children.get(1) : null;
        ClangNode body = loop.children.get(3);
        if (j == null
                || start == null
                || !zero(start)
                || !boundedBy(loop.children.get(1), j, count)
                || !stepsByOne(loop.children.get(2), j)
                || writesIn(body, j)
                || writesIn(body, count)) return null;
        List<ClangNode> adds = new ArrayList<>();
        boolean[] bad = new boolean[1];
        body.forEach(x -> {
            if (bad[0] || x.kind != CXCursor_DeclRefExpr || !sum.equals(x.refUsr)) return;
            ClangNode o = outermost(x);
            ClangNode w = o.parent;
            if (w != null
                    && w.kind == CXCursor_CompoundAssignOperator
                    && w.children.get(0) == o
                    && w.spelling.equals("+=")
                    && w.children.size() == 2
                    && innermostLoop(w) == loop) adds.add(w);
            else if (written(x) || aliases(x)) bad[0] = true;
        });
        if (bad[0] || adds.size() != 1) return null;
        if (!nonZero(div, count, fn) && !dividesBy(at[1], count) && !nanConvertsAlike(div)) return null;
        double[] v = eval.apply(adds.get(0).children.get(1));
        double lo = Math.min(0, v[0]);
        double hi = Math.max(0, v[1]);
        return lo == Double.NEGATIVE_INFINITY || hi == Double.POSITIVE_INFINITY ? null : new double[] {lo, hi};
    }

    /** Whether {@code st} sets the local {@code sum} to 0: its declaration with 0, or {@code sum = 0}. */
    private static boolean resets(ClangUnit unit, ClangNode st, String sum) {
        if (st == null) return false;
        if (st.kind == CXCursor_DeclStmt) {
            if (unit.text(st).strip().startsWith("static")) return false;
            for (ClangNode d : st.children) {
                if (d.kind == CXCursor_VarDecl && sum.equals(d.usr))
                    return !d.children.isEmpty() && zero(d.children.get(d.children.size() - 1));
            }
            return false;
        }
        if (st.kind != CXCursor_BinaryOperator || !st.spelling.equals("=") || st.children.size() != 2) return false;
        ClangNode l = strip(st.children.get(0));
        return l != null && l.kind == CXCursor_DeclRefExpr && sum.equals(l.refUsr) && zero(st.children.get(1));
    }

    /** Whether the condition {@code c}, or a conjunct of it, is {@code j < n}. */
    private static boolean boundedBy(ClangNode c, String j, String n) {
        ClangNode e = strip(c);
        if (e == null || e.kind != CXCursor_BinaryOperator || e.children.size() != 2) return false;
        if (e.spelling.equals("&&")) return boundedBy(e.children.get(0), j, n) || boundedBy(e.children.get(1), j, n);
        ClangNode l = strip(e.children.get(0));
        ClangNode r = strip(e.children.get(1));
        return e.spelling.equals("<")
                && l != null
                && l.kind == CXCursor_DeclRefExpr
                && j.equals(l.refUsr)
                && r != null
                && r.kind == CXCursor_DeclRefExpr
                && n.equals(r.refUsr);
    }

    /** Whether {@code inc} is {@code j++}, {@code ++j} or {@code j += 1}. */
    private static boolean stepsByOne(ClangNode inc, String j) {
        ClangNode e = strip(inc);
        if (e == null || e.children.isEmpty()) return false;
        ClangNode t = strip(e.children.get(0));
        if (t == null || t.kind != CXCursor_DeclRefExpr || !j.equals(t.refUsr)) return false;
        if (e.kind == CXCursor_UnaryOperator) return e.spelling.equals("++");
        Double one = e.children.size() == 2 ? folded(e.children.get(1)) : null;
        return e.kind == CXCursor_CompoundAssignOperator && e.spelling.equals("+=") && one != null && one == 1;
    }

    /**
     * Whether the statement {@code st} divides an integer by the local {@code n} (or takes a remainder) outside any
     * branch, conditional operator or short circuit: where {@code n} is 0 that traps before anything else.
     */
    private static boolean dividesBy(ClangNode st, String n) {
        boolean[] found = new boolean[1];
        st.forEach(x -> {
            if (found[0] || x.kind != CXCursor_BinaryOperator || x.children.size() != 2) return;
            if (!(x.spelling.equals("/") || x.spelling.equals("%")) || !integral(x.canonKind)) return;
            ClangNode r = strip(x.children.get(1));
            if (r == null || r.kind != CXCursor_DeclRefExpr || !n.equals(r.refUsr)) return;
            for (ClangNode p = x.parent; p != null && p != st.parent; p = p.parent) {
                if (p.kind == CXCursor_ConditionalOperator
                        || p.kind == CXCursor_IfStmt
                        || isLoop(p)
                        || p.kind == CXCursor_BinaryOperator && (p.spelling.equals("&&") || p.spelling.equals("||")))
                    return;
            }
            found[0] = true;
        });
        return found[0];
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

    /**
     * Whether the value of {@code div} goes straight into a conversion that maps NaN alike on x86 and on the GPU, so
     * that the 0 / 0 of a count left at 0 (the sum is then 0 too) gives the same 0 on both: a float to an unsigned
     * type, a double to an unsigned type of 8, 16 or 64 bits (measured: docs/validation/conversions-session69; a
     * double to {@code unsigned int} and a float to {@code int} differ). A box blur's {@code out = sum / count} over
     * the pixels inside the image, its count never 0 because the centre is always inside, though no test says so
     * (session 83 round Z: two false errors "300 wraps to 44" for a mean of bytes). Parentheses and conversions
     * between floating types on the way are followed; anything else is no such conversion.
     */
    private static boolean nanConvertsAlike(ClangNode div) {
        int from = div.canonKind;
        for (ClangNode p = div.parent; p != null; p = p.parent) {
            if (p.kind == CXCursor_ParenExpr) continue;
            if (p.kind != CXCursor_UnexposedExpr
                    && p.kind != CXCursor_CStyleCastExpr
                    && p.kind != CXCursor_CXXStaticCastExpr
                    && p.kind != CXCursor_CXXFunctionalCastExpr) return false;
            if (floating(p.canonKind)) {
                from = p.canonKind;
                continue;
            }
            if (!integral(p.canonKind) || !unsignedKind(p.canonKind)) return false;
            return from == CXType_Float || from == CXType_Double && bytes(p.canonKind) != 4;
        }
        return false;
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
