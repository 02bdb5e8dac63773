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
 * branch between them), that assigns a constant to {@code acc[j]} for every {@code j} of its own counter
 * ({@code for (j = 0; j < 4; j++) s[j] = 0.0f;}) gives every element of the accumulator a fresh value in each
 * iteration, before or after the update: the loop carries no sum into {@code acc[...]}. A sweep inside a branch
 * resets it when it comes before the update on every path that reaches the update (the branch holds both). Each
 * index of the reset is the accumulator's own index or the counter of a for loop of the sweep around the
 * assignment.
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
        if (own.isEmpty() || b == null) return null;
        // an array variable (by its USR) or a member array of one (st->y, by its text)
        String base = b.kind == CXCursor_DeclRefExpr
                ? b.refUsr
                : b.kind == CXCursor_MemberRefExpr && rootUsr(b) != null ? squash(unit.text(b)) : null;
        if (base == null) return null;
        ClangNode[] found = new ClangNode[1];
        loop.forEach(n -> {
            if (found[0] != null || n == loop || n.kind != CXCursor_ForStmt) return;
            if (innermostLoop(n) != loop || n.contains(update) || inner != null && inner.contains(n)) return;
            // in every iteration, before or after the update; or before it on every path that reaches it (the
            // sweep and the update in one branch: `if (small) { for (i...) acc[i] = 0; ... acc[i] += x; }`)
            if (!everyIteration(n, loop) && !(n.offset < update.offset && dominates(n, update, loop))) return;
            if (resetsAll(n, base, own, loop)) found[0] = n;
        });
        return found[0];
    }

    /** Whether the sweep {@code sweep} assigns a constant to every element {@code base[own...]} (see the class). */
    private boolean resetsAll(ClangNode sweep, String base, List<String> own, ClangNode loop) {
        boolean[] hit = new boolean[1];
        sweep.forEach(n -> {
            if (hit[0] || n.kind != CXCursor_BinaryOperator || !n.spelling.equals("=") || n.children.size() != 2)
                return;
            if (!everyIteration(n, sweep)) return;
            List<ClangNode> ix = new ArrayList<>();
            ClangNode b = strip(n.children.get(0));
            while (b != null && b.kind == CXCursor_ArraySubscriptExpr && b.children.size() == 2) {
                ix.add(0, strip(b.children.get(1)));
                b = strip(b.children.get(0));
            }
            if (b == null || !base.equals(key(b)) || ix.size() != own.size()) return;
            // a constant resets any element; a value that reads nothing of the array, directly or through a local
            // the loop assigns, resets the accumulator's own element (st->y[i] = alpha * x[i] ...; st->y[i] += t)
            if (constant(n.children.get(1)) == null) {
                boolean ownElement = true;
                for (int k = 0; k < ix.size(); k++)
                    ownElement &=
                            ix.get(k) != null && squash(unit.text(ix.get(k))).equals(own.get(k));
                if (!ownElement || readsArray(n.children.get(1), base, loop)) return;
            }
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

    /** The key of an array base: a variable's USR, a member array's text ({@code st->y}), else null. */
    private String key(ClangNode b) {
        if (b.kind == CXCursor_DeclRefExpr) return b.refUsr;
        return b.kind == CXCursor_MemberRefExpr ? squash(unit.text(b)) : null;
    }

    /**
     * Whether {@code value} reads the array {@code base}: an element or the array itself, or a local that {@code loop}
     * assigns from an expression that reads it (one step, as a value computed from the array in the same iteration).
     */
    private boolean readsArray(ClangNode value, String base, ClangNode loop) {
        if (mentionsArray(value, base)) return true;
        Set<String> locals = new HashSet<>();
        value.forEach(x -> {
            if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null) locals.add(x.refUsr);
        });
        boolean[] hit = new boolean[1];
        loop.forEach(x -> {
            if (hit[0]) return;
            if (x.kind == CXCursor_VarDecl && locals.contains(x.usr) && !x.children.isEmpty()) {
                hit[0] = mentionsArray(x.children.get(x.children.size() - 1), base);
            } else if ((x.kind == CXCursor_BinaryOperator && x.spelling.equals("=")
                            || x.kind == CXCursor_CompoundAssignOperator)
                    && x.children.size() == 2) {
                ClangNode l = strip(x.children.get(0));
                if (l != null && l.kind == CXCursor_DeclRefExpr && locals.contains(l.refUsr))
                    hit[0] = mentionsArray(x.children.get(1), base);
            }
        });
        return hit[0];
    }

    private boolean mentionsArray(ClangNode e, String base) {
        boolean[] hit = new boolean[1];
        e.forEach(x -> {
            if (!hit[0] && base.equals(key(x))) hit[0] = true;
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
