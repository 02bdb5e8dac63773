package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Element resets by a sweep (a {@link ClangLoops} def-use fact, as the hand-written front end's
 * {@code AccumulationSites.resetsElements}): a for loop in the body of a loop, run in every iteration of it (no
 * branch between them) or in every one that reaches the update (before it, in the branch that holds it), that assigns a constant to {@code acc[j]} for every {@code j} of its own counter
 * ({@code for (j = 0; j < 4; j++) s[j] = 0.0f;}) gives every element of the accumulator a fresh value in each
 * iteration, before or after the update: the loop carries no sum into {@code acc[...]}. Each index of the reset is
 * the accumulator's own index or the counter of a for loop of the sweep around the assignment.
 */
final class ClangSweeps {
    private final ClangUnit unit;

    ClangSweeps(ClangUnit unit) {
        this.unit = unit;
    }

    /**
     * The sweep in {@code loop} (outside {@code inner}, the loop around the update inside it) that resets every
     * element of the accumulator {@code lhs} (an element of an array variable), or null.
     */
    ClangNode in(ClangNode loop, ClangNode inner, ClangNode update, ClangNode lhs) {
        List<String> own = new ArrayList<>();
        ClangNode b = strip(lhs);
        while (b != null && b.kind == CXCursor_ArraySubscriptExpr && b.children.size() == 2) {
            own.add(0, squash(unit.text(strip(b.children.get(1)))));
            b = strip(b.children.get(0));
        }
        if (own.isEmpty() || b == null || b.kind != CXCursor_DeclRefExpr || b.refUsr == null) return null;
        String base = b.refUsr;
        ClangNode[] found = new ClangNode[1];
        loop.forEach(n -> {
            if (found[0] != null || n == loop || n.kind != CXCursor_ForStmt) return;
            if (innermostLoop(n) != loop || n.contains(update) || inner != null && inner.contains(n)) return;
            // every iteration of the loop, or every one that reaches the update: before it, in the branch that
            // holds it (if (small) { for (i...) a[i] = 0; for (l...) for (i...) a[i] += ...; })
            if (!everyIteration(n, loop) && !(n.offset >= 0 && n.offset < update.offset && dominates(n, update, loop)))
                return;
            if (resetsAll(n, base, own)) found[0] = n;
        });
        return found[0];
    }

    /** Whether the sweep {@code sweep} assigns a constant to every element {@code base[own...]} (see the class). */
    private boolean resetsAll(ClangNode sweep, String base, List<String> own) {
        boolean[] hit = new boolean[1];
        sweep.forEach(n -> {
            if (hit[0] || n.kind != CXCursor_BinaryOperator || !n.spelling.equals("=") || n.children.size() != 2)
                return;
            if (constant(n.children.get(1)) == null || !everyIteration(n, sweep)) return;
            List<ClangNode> ix = new ArrayList<>();
            ClangNode b = strip(n.children.get(0));
            while (b != null && b.kind == CXCursor_ArraySubscriptExpr && b.children.size() == 2) {
                ix.add(0, strip(b.children.get(1)));
                b = strip(b.children.get(0));
            }
            if (b == null || !base.equals(b.refUsr) || b.kind != CXCursor_DeclRefExpr || ix.size() != own.size())
                return;
            Set<String> counters = new HashSet<>();
            for (ClangNode p = n.parent; p != null && p != sweep.parent; p = p.parent) {
                String v = loopVariable(p);
                if (v != null) counters.add(v);
            }
            for (int k = 0; k < ix.size(); k++) {
                ClangNode x = ix.get(k);
                boolean counter = x != null && x.kind == CXCursor_DeclRefExpr && counters.contains(x.refUsr);
                if (!counter && (x == null || !squash(unit.text(x)).equals(own.get(k)))) return;
            }
            hit[0] = true;
        });
        return hit[0];
    }

    /** Whether no branch, switch, conditional operator or short circuit lies between {@code n} and {@code loop}. */
    private static boolean everyIteration(ClangNode n, ClangNode loop) {
        for (ClangNode p = n.parent; p != null && p != loop; p = p.parent) {
            if (p.kind == CXCursor_IfStmt
                    || p.kind == CXCursor_SwitchStmt
                    || p.kind == CXCursor_CaseStmt
                    || p.kind == CXCursor_DefaultStmt
                    || p.kind == CXCursor_ConditionalOperator
                    || p.kind == CXCursor_WhileStmt
                    || p.kind == CXCursor_DoStmt
                    || p.kind == CXCursor_LambdaExpr
                    || p.kind == CXCursor_BinaryOperator && (p.spelling.equals("&&") || p.spelling.equals("||")))
                return false;
        }
        return true;
    }
}
