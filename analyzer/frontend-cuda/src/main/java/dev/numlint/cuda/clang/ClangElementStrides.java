package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The element-stride reading of {@link ClangElements}: the counters that a loop's body steps by an amount the loops
 * do not change ({@code iy += incy}), and the condition under which a counter that moves an element by a stride that
 * is no constant ({@code y[j*C]}) lets two iterations update one element ({@code "C is 0"}).
 */
final class ClangElementStrides {
    private ClangElementStrides() {}

    /**
     * The locals that one statement of the body of {@code loop} (the {@code q}th of the chain), a statement of the
     * body block itself, steps by an amount the loops do not change ({@code iy = iy + incy}, {@code k += 2},
     * {@code k++}), written nowhere else in the loop and never aliased, in a body without {@code continue} or
     * {@code goto} (every iteration runs the step): counters of the loop, whose values in two iterations differ
     * by a multiple of the step. A pointer stepped so ({@code A += 4; B += 4;} at the end of a panel loop's body) is
     * such a counter too, in elements: {@code B[i]} addresses element {@code B + i} ({@link ClangElements}). A step
     * that is no constant may be 0 ({@link ClangElements.Context#steps}): such a
     * counter moves nothing by itself ({@link ClangElements.Context#injective}); {@link #strided} names its step.
     */
    static void bodyCounters(ClangElements.Context cx, ClangNode loop, int q) {
        if (loop.children.isEmpty()) return;
        ClangNode body =
                loop.kind == CXCursor_DoStmt ? loop.children.get(0) : loop.children.get(loop.children.size() - 1);
        boolean[] skips = new boolean[1];
        body.forEach(n -> {
            if (n.kind == CXCursor_ContinueStmt || n.kind == CXCursor_GotoStmt || n.kind == CXCursor_IndirectGotoStmt)
                skips[0] = true;
        });
        if (skips[0]) return;
        // the increment of a for header with all four parts steps more counters than its own (for (i = 0, o = 0;
        // i < dim; i++, o += step): o steps by step in every iteration, session 52's Vorbis decoder)
        List<ClangNode> statements = new ArrayList<>(body.kind == CXCursor_CompoundStmt ? body.children : List.of());
        ClangNode init = null;
        if (loop.kind == CXCursor_ForStmt && loop.children.size() == 4) {
            init = loop.children.get(0);
            commaParts(loop.children.get(2), statements);
        }
        for (ClangNode st : statements) {
            boolean write = st.kind == CXCursor_BinaryOperator
                    || st.kind == CXCursor_CompoundAssignOperator
                    || st.kind == CXCursor_UnaryOperator;
            if (!write || st.children.isEmpty()) continue;
            ClangNode t = strip(st.children.get(0));
            if (t == null || t.kind != CXCursor_DeclRefExpr || t.refUsr == null) continue;
            String var = t.refUsr;
            // a pointer stepped by elements ({@code B += 4}, blasfeo's panels) is a counter of the address it holds
            boolean pointer = t.canonKind == CXType_Pointer;
            if (cx.counters.containsKey(var) || !integral(t.canonKind) && !pointer || !ClangLoops.writes(st, var))
                continue;
            Poly stride;
            if (st.kind == CXCursor_UnaryOperator) {
                int sign = ClangCounterSteps.stepSign(st, var);
                if (sign == 0) continue;
                stride = Poly.constant(sign);
            } else {
                ClangCounterSteps.Step sp = ClangCounterSteps.step(st, var);
                if (sp == null || !cx.invariantExpression(sp.amount(), var)) continue;
                Poly amount = cx.poly(sp.amount(), null, -1, 1);
                if (amount == null || amount.zero()) continue;
                stride = sp.sign() < 0 ? Poly.constant(0).plus(amount, -1) : amount;
            }
            int[] writes = new int[1];
            boolean[] bad = new boolean[1];
            ClangNode before = init;
            loop.forEach(n -> {
                // the header's initialization runs once, before the iterations
                if (before != null && before.contains(n)) return;
                if (ClangLoops.writes(n, var)) writes[0]++;
                if (n.kind == CXCursor_DeclRefExpr && var.equals(n.refUsr) && aliases(n)) bad[0] = true;
                if (n.kind == CXCursor_VarDecl && var.equals(n.usr)) bad[0] = true;
            });
            if (bad[0] || writes[0] != 1) continue;
            cx.counters.put(var, q);
            cx.steps.put(var, stride);
        }
    }

    /**
     * The constant step other than 1 and -1 by which the increment of a for header with all four parts steps its
     * counter {@code var} ({@code i += 5}), kept with the counters' steps: the values of two iterations differ by
     * a multiple of it ({@code a[i + j]} with j in [0, 5) moves the element in the i loop).
     */
    static void headerStep(ClangElements.Context cx, ClangNode loop, String var) {
        if (loop.kind != CXCursor_ForStmt || loop.children.size() != 4) return;
        loop.children.get(2).forEach(x -> {
            if (!ClangLoops.writes(x, var) || x.kind == CXCursor_UnaryOperator) return;
            ClangCounterSteps.Step st = ClangCounterSteps.step(x, var);
            Double c = st == null ? null : constant(st.amount());
            if (c == null || c != Math.rint(c) || Math.abs(c) <= 1 || Math.abs(c) > 1e9) return;
            cx.steps.put(var, Poly.constant(st.sign() * c.longValue()));
        });
    }

    /** The operands of a comma expression ({@code i++, o += step}), in order; the expression itself otherwise. */
    private static void commaParts(ClangNode e, List<ClangNode> out) {
        ClangNode x = strip(e);
        if (x != null && x.kind == CXCursor_BinaryOperator && x.spelling.equals(",") && x.children.size() == 2) {
            commaParts(x.children.get(0), out);
            commaParts(x.children.get(1), out);
        } else if (x != null) {
            out.add(x);
        }
    }

    /**
     * The condition under which two iterations of the loop {@code q} can give the affine subscript {@code p} one
     * value ({@link ClangElements#strided}), when it is a stride that is no constant: {@code "C is 0"}, or with
     * counters of loops inside q in {@code p}, {@code "C is 0 or its rows overlap"}. Null when q's counter is not
     * in {@code p}, when {@code p} is no affine function of the counters whose coefficients (times a body
     * counter's step) are each one product of a constant and symbols, when two of them are constants (their
     * counters can meet whatever the strides), or when none is a symbol's (the constant strides decide).
     */
    static String strided(ClangElements.Context cx, Poly p, int q) {
        ClangElements.Context.Split split = cx.split(p, q);
        if (split == null) return null;
        String seen = split.counter();
        Poly cq = split.own();
        Map<String, Poly> inner = split.inner();
        if (seen == null) return null;
        List<Poly> coefficients = new ArrayList<>();
        coefficients.add(cx.steps.containsKey(seen) ? cq.times(cx.steps.get(seen)) : cq);
        for (var e : inner.entrySet()) {
            Poly st = cx.steps.get(e.getKey());
            coefficients.add(st != null ? e.getValue().times(st) : e.getValue());
        }
        java.util.Set<String> shown = new java.util.LinkedHashSet<>();
        int constants = 0;
        List<String> counterNames = new ArrayList<>();
        counterNames.add(seen);
        counterNames.addAll(inner.keySet());
        for (int k = 0; k < coefficients.size(); k++) {
            Poly c = coefficients.get(k);
            if (c.zero() || !c.monomial()) return null;
            if (!c.symbolic()) {
                constants++;
                // rows that provably overlap (j*nx + i with i in [0, nx + 2)): the counter with the constant
                // coefficient reaches a symbolic stride, so two iterations meet whatever the stride
                Poly span = cx.spans.get(counterNames.get(k));
                if (span == null) continue;
                Poly reach =
                        span.times(Poly.constant(Math.abs(c.terms.firstEntry().getValue())));
                for (Poly o : coefficients) {
                    if (o == c || !o.symbolic() || !o.monomial()) continue;
                    Poly stride = o.terms.firstEntry().getValue() < 0
                            ? Poly.constant(0).plus(o, -1)
                            : o;
                    if (cx.nonNegative(reach.plus(stride, -1))) return null;
                }
                continue;
            }
            // a constant factor does not make the stride 0: its symbols do
            Poly bare = new Poly();
            bare.terms.put(c.terms.firstKey(), 1L);
            String r = bare.render(cx.names);
            if (r == null) return null;
            shown.add(r);
        }
        if (shown.isEmpty() || constants > 1) return null;
        String strides = String.join(" or ", shown);
        return inner.isEmpty() ? strides + " is 0" : strides + " is 0 or its rows overlap";
    }
}
