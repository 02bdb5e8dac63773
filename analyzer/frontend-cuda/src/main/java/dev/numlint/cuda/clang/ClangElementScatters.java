package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.Map;
import java.util.Set;

/**
 * The scatter reading of {@link ClangElements}: an element addressed through a table the loops read at a subscript
 * that a loop's counter moves ({@code w[loc[i]] += a[i]}) is one term per element unless the table repeats an entry.
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
