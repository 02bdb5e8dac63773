package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.Map;
import java.util.Set;

/**
 * The scatter reading of {@link ClangElements}: an element addressed through a table the loops read at a subscript
 * that a loop's counter moves ({@code w[loc[i]] += a[i]}) is one term per element unless the table repeats an entry;
 * so is one addressed at a loop's counter displaced by data and truncated ({@link #displaced}).
 */
final class ClangElementScatters {
    private ClangElementScatters() {}

    /**
     * A scatter through an index array ({@code w[loc[i]] += a[i]}, {@code int c = loc[i]; w[c] += a[i]}): the
     * element is the entry of a table the loops do not write, read at a subscript that a loop's counter moves. Two
     * iterations of that loop update one element only where the table repeats an entry (two sources in one cell):
     * a sum only then ({@code "entries of loc repeat"}), as for a stride that may be 0.
     */
    static void scatter(ClangNode s, ClangElements.Context cx, Set<ClangNode> out, Map<ClangNode, String> strided) {
        ClangNode x = strip(s);
        if (x != null && isExplicitCast(x) && operandOf(x) != null) x = strip(operandOf(x));
        if (x != null && x.kind == CXCursor_DeclRefExpr && x.refUsr != null && !cx.invariant(x.refUsr)) {
            // a local the loop's body defines once from the table, before the update
            ClangNode def = cx.onlyWrite(x.refUsr, false);
            boolean declared = def != null && def.kind == CXCursor_VarDecl && !def.children.isEmpty();
            boolean assigned = def != null
                    && def.kind == CXCursor_BinaryOperator
                    && def.spelling.equals("=")
                    && def.children.size() == 2;
            if (!declared && !assigned || def.offset < 0 || def.offset >= cx.update.offset) return;
            ClangNode loop = innermostLoop(def);
            if (loop == null || !cx.chain.contains(loop) || !dominates(ClangOutParams.anchor(def), cx.update, loop))
                return;
            x = strip(def.children.get(def.children.size() - 1));
            if (x != null && isExplicitCast(x) && operandOf(x) != null) x = strip(operandOf(x));
        }
        if (x == null || x.kind != CXCursor_ArraySubscriptExpr || x.children.size() != 2 || !integral(x.canonKind))
            return;
        ClangNode table = strip(x.children.get(0));
        String root = table == null ? null : rootUsr(table);
        if (root == null || !ClangElements.fixedBase(table, cx) || writesThrough(cx.chain.get(0), root)) return;
        Poly inner = cx.poly(x.children.get(1), cx.update, cx.chain.size() - 1, 0);
        if (inner == null) return;
        String name = table.kind == CXCursor_DeclRefExpr ? table.spelling : null;
        if (name == null || name.isEmpty()) return;
        for (int q = 0; q < cx.chain.size(); q++) {
            ClangNode loop = cx.chain.get(q);
            if (out.contains(loop) || strided.containsKey(loop)) continue;
            if (cx.injective(inner, q)) strided.put(loop, "entries of " + name + " repeat");
        }
    }

    /**
     * A forward splat: the element is a loop's counter displaced by data, truncated to an index ({@code float x = j +
     * dt * u[i][j]; size_t j0 = (size_t)x; grid(i0, j0) += w * q[i][j];}, with {@code j0 + 1} for the neighbour),
     * through locals the loops define once before the update. Two iterations of that loop update one element only
     * where their displaced sources meet in one cell: a sum only then, as for a table that repeats an entry (session
     * 69 round A: a fluid solver's semi-Lagrangian advection, four false warnings "the error grows with n").
     */
    static void displaced(ClangNode s, ClangElements.Context cx, Set<ClangNode> out, Map<ClangNode, String> strided) {
        ClangNode x = strip(s);
        boolean truncated = false;
        for (int hop = 0; hop < 6 && x != null; hop++) {
            if (x.kind == CXCursor_BinaryOperator
                    && x.children.size() == 2
                    && integral(x.canonKind)
                    && (x.spelling.equals("+") || x.spelling.equals("-"))
                    && folded(x.children.get(1)) != null) {
                x = strip(x.children.get(0)); // j0 + 1: the neighbour of the displaced cell
            } else if (isExplicitCast(x) && integral(x.canonKind) && operandOf(x) != null) {
                truncated = true;
                x = strip(operandOf(x));
            } else if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null && !cx.invariant(x.refUsr)) {
                ClangNode def = cx.onlyWrite(x.refUsr, false);
                if (def == null || def.kind != CXCursor_VarDecl || def.children.isEmpty()) return;
                if (def.offset < 0 || def.offset >= cx.update.offset) return;
                ClangNode value = def.children.get(def.children.size() - 1);
                // size_t j0 = x: the declaration's implicit conversion truncates too
                if (integral(def.canonKind) && floating(strip(value) == null ? 0 : strip(value).canonKind))
                    truncated = true;
                x = strip(value);
            } else {
                break;
            }
        }
        if (!truncated || x == null || !floating(x.canonKind) || x.kind != CXCursor_BinaryOperator) return;
        if (x.children.size() != 2 || !x.spelling.equals("+") && !x.spelling.equals("-")) return;
        for (int side = 0; side < 2; side++) {
            if (side == 1 && x.spelling.equals("-")) break; // d - j: the counter's image reversed, not displaced
            ClangNode counter = x.children.get(side);
            ClangNode shift = x.children.get(1 - side);
            Poly p = cx.poly(counter, cx.update, cx.chain.size() - 1, 0);
            if (p == null || cx.poly(shift, cx.update, cx.chain.size() - 1, 0) != null) continue;
            for (int q = 0; q < cx.chain.size(); q++) {
                ClangNode loop = cx.chain.get(q);
                if (out.contains(loop) || strided.containsKey(loop)) continue;
                if (cx.injective(p, q)) strided.put(loop, "two displaced sources land in one cell");
            }
        }
    }

    /** Whether something inside {@code scope} stores into an element of the array or pointer {@code root}. */
    private static boolean writesThrough(ClangNode scope, String root) {
        boolean[] w = new boolean[1];
        scope.forEach(n -> {
            if (w[0]) return;
            boolean assign = assignment(n);
            if (!assign || n.children.isEmpty()) return;
            ClangNode t = strip(n.children.get(0));
            if (t != null && t.kind != CXCursor_DeclRefExpr && root.equals(rootUsr(t))) w[0] = true;
        });
        return w[0];
    }
}
