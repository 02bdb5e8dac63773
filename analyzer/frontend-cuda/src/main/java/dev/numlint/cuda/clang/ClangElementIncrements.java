package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The increment reading of {@link ClangElements}: an update whose own subscript or pointer steps one way ({@code
 * a[i++] += t[j++]}, {@code *(p++) -= x}) addresses another element each time it runs, in every loop in which nothing
 * else writes that counter but increments of the same direction (session 52: a Vorbis decoder's {@code a[i++] +=
 * t[j++]} and an LU decomposition's {@code *(lColumnMatrix++) -= p * (*(lDestMatrix++))} were reported as serial
 * sums of the loop that moves them). Between two runs of the update the counter has moved by at least one, so no
 * element is updated twice within one iteration of the loops around such a loop.
 */
final class ClangElementIncrements {
    private ClangElementIncrements() {}

    /** The loops of {@code chain} that the update's own increment moves to another element in each run. */
    static Set<ClangNode> moving(ClangNode lhs, List<ClangNode> chain) {
        Set<ClangNode> out = new HashSet<>();
        ClangNode x = strip(lhs);
        if (x == null || x.children.isEmpty()) return out;
        ClangNode base = null;
        ClangNode step;
        if (x.kind == CXCursor_ArraySubscriptExpr && x.children.size() == 2) {
            base = strip(x.children.get(0));
            step = strip(x.children.get(1));
            // the array or pointer subscripted: a variable, of one address through the loops, or an array member of
            // a structure a variable names (v->bus[index++], session 63 round H: a synthesizer's oscillator buses)
            if (base != null && base.kind == CXCursor_MemberRefExpr && ClangElements.array(base.canonKind)) {
                String root = rootUsr(base);
                base = root == null ? null : firstRef(base, root);
            }
            if (base == null || base.kind != CXCursor_DeclRefExpr || base.refUsr == null) return out;
        } else if (x.kind == CXCursor_UnaryOperator && "*".equals(x.spelling) && x.children.size() == 1) {
            step = strip(x.children.get(0));
        } else {
            return out;
        }
        // a[index] where another statement of the same loop steps index once in every iteration (b[index++] next)
        ClangNode once = step != null && step.kind == CXCursor_DeclRefExpr && step.refUsr != null
                ? steppedOnce(x, step.refUsr)
                : null;
        if (once != null) step = once;
        if (step == null
                || step.kind != CXCursor_UnaryOperator
                || step.children.size() != 1
                || !step.spelling.equals("++") && !step.spelling.equals("--")) return out;
        ClangNode v = strip(step.children.get(0));
        if (v == null || v.kind != CXCursor_DeclRefExpr || v.refUsr == null) return out;
        if (!integral(v.canonKind) && v.canonKind != CXType_Pointer) return out;
        for (ClangNode loop : chain) {
            if (oneWay(loop, v.refUsr, step.spelling) && (base == null || !written(loop, base.refUsr))) out.add(loop);
        }
        return out;
    }

    /**
     * The one increment of {@code var} in the loop that holds {@code update}, when it runs in every iteration (no
     * branch, loop, conditional or short-circuit operator between it and the loop's body) and the loop writes
     * {@code var} nowhere else; null otherwise.
     */
    private static ClangNode steppedOnce(ClangNode update, String var) {
        ClangNode loop = innermostLoop(update);
        if (loop == null) return null;
        ClangNode body = loop.children.isEmpty()
                ? null
                : loop.children.get(loop.kind == CXCursor_DoStmt ? 0 : loop.children.size() - 1);
        ClangNode init = ClangLoops.initialization(loop);
        java.util.List<ClangNode> writes = new java.util.ArrayList<>();
        loop.forEach(n -> {
            if ((init == null || !init.contains(n)) && ClangLoops.writes(n, var)) writes.add(n);
        });
        if (writes.size() != 1 || body == null) return null;
        ClangNode w = writes.get(0);
        if (w.kind != CXCursor_UnaryOperator || !w.spelling.equals("++") && !w.spelling.equals("--")) return null;
        for (ClangNode p = w.parent; p != body; p = p.parent) {
            if (p == null
                    || isLoop(p)
                    || p.kind == CXCursor_IfStmt
                    || p.kind == CXCursor_SwitchStmt
                    || p.kind == CXCursor_ConditionalOperator
                    || p.kind == CXCursor_BinaryOperator && (p.spelling.equals("&&") || p.spelling.equals("||")))
                return null;
        }
        return w;
    }

    /** The first reference to {@code usr} in {@code n}'s tree, or null. */
    private static ClangNode firstRef(ClangNode n, String usr) {
        ClangNode[] r = new ClangNode[1];
        n.forEach(x -> {
            if (r[0] == null && x.kind == CXCursor_DeclRefExpr && usr.equals(x.refUsr)) r[0] = x;
        });
        return r[0];
    }

    /**
     * Whether every write of {@code var} in {@code loop} (its header's initialization aside, which runs once before
     * the iterations) is the increment {@code op} ("++" or "--"), and no declaration in the loop makes another.
     */
    private static boolean oneWay(ClangNode loop, String var, String op) {
        ClangNode init = ClangLoops.initialization(loop);
        boolean[] ok = {true};
        loop.forEach(n -> {
            if (!ok[0] || init != null && init.contains(n)) return;
            if (n.kind == CXCursor_VarDecl && var.equals(n.usr)) ok[0] = false;
            if (ClangLoops.writes(n, var) && !(n.kind == CXCursor_UnaryOperator && n.spelling.equals(op)))
                ok[0] = false;
        });
        return ok[0];
    }

    /** Whether {@code loop} writes {@code var} (or takes its address) after its header's initialization. */
    private static boolean written(ClangNode loop, String var) {
        ClangNode init = ClangLoops.initialization(loop);
        boolean[] w = {false};
        loop.forEach(n -> {
            if (!w[0] && (init == null || !init.contains(n)) && ClangLoops.writes(n, var)) w[0] = true;
        });
        return w[0];
    }
}
