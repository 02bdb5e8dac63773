package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a definition's value lives in a function, for the value walk ({@link ClangUses}): the function's reads and
 * plain assignments of each variable, whether a later assignment ends the value on every path, whether a read lies in
 * the other arm of an if, and which reads the next iteration of a loop reaches.
 */
final class ClangValueLives {
    /**
     * Whether the assignment {@code x} after {@code def} runs whenever the code after it does: no branch (of an if, a
     * conditional, a switch, a loop or the right side of {@code &&} / {@code ||}) holds it that does not hold {@code
     * def} too. A conditional assignment ({@code if (dir == y) t = ...;} after {@code if (dir == x) t = ...;}) leaves
     * the value alive on the other path (session 56: a particle-in-cell code's x twin was "decides nothing" and its y
     * twin a warning, both read by {@code t > step}).
     */
    static boolean unconditional(ClangNode def, ClangNode x) {
        java.util.Set<ClangNode> around = new java.util.HashSet<>();
        for (ClangNode p = def; p != null; p = p.parent) around.add(p);
        // up to the first statement around both (x in another branch of an if than def is conditional too)
        for (ClangNode c = x, p = x.parent; p != null; c = p, p = p.parent) {
            int at = p.children.indexOf(c);
            switch (p.kind) {
                case CXCursor_IfStmt, CXCursor_ConditionalOperator -> {
                    if (at > 0) return false;
                }
                case CXCursor_ForStmt,
                        CXCursor_WhileStmt,
                        CXCursor_DoStmt,
                        CXCursor_CXXForRangeStmt,
                        CXCursor_SwitchStmt,
                        CXCursor_CaseStmt,
                        CXCursor_DefaultStmt -> {
                    return false;
                }
                case CXCursor_BinaryOperator -> {
                    if (at > 0 && ("&&".equals(p.spelling) || "||".equals(p.spelling))) return false;
                }
                default -> {}
            }
            if (around.contains(p)) return true;
        }
        return true;
    }

    /**
     * Whether the read {@code x} lies in the other arm of an if whose one arm holds {@code def}, and the value cannot
     * come round to it: no loop holds that if, or the innermost one that does assigns the variable, unconditionally,
     * before it (session 69 round F: Numerical Recipes' back-substitution, {@code sum = b[ip]; if (ii) for (...) sum
     * -= a[i][j]*b[j]; else if (sum) ii = i;}: the else arm tests the sum only when the loop did not run).
     */
    static boolean otherArm(ClangNode def, ClangNode x, String usr, Refs index) {
        for (ClangNode c = def, p = def.parent; p != null; c = p, p = p.parent) {
            if (p.kind != CXCursor_IfStmt || !p.contains(x)) continue;
            int arm = p.children.indexOf(c);
            int other = -1;
            for (int k = 0; k < p.children.size(); k++) if (p.children.get(k).contains(x)) other = k;
            // def in the condition, the read in the condition or in def's own arm: the read follows def
            if (arm <= 0 || other <= 0 || other == arm) return false;
            ClangNode loop = null;
            for (ClangNode q = p.parent; q != null && loop == null; q = q.parent)
                if (q.kind == CXCursor_ForStmt
                        || q.kind == CXCursor_WhileStmt
                        || q.kind == CXCursor_DoStmt
                        || q.kind == CXCursor_CXXForRangeStmt) loop = q;
            if (loop == null) return true;
            for (ClangNode a : index.assigns().getOrDefault(usr, List.of()))
                if (loop.contains(a) && a.offset < p.offset && !p.contains(a) && unconditional(p, a)) return true;
            return false;
        }
        return false;
    }

    /**
     * The reads of {@code usr} written before {@code def} in the innermost loop around it, which the next iteration
     * reaches ({@code c = px / h; ... px = px + step;}: the sum decides {@code c}): those before the loop's first
     * plain assignment of the variable; none when the variable is declared in the loop (each iteration's is new).
     * Reads in a for statement's initialization run once, before the loop.
     */
    static List<ClangNode> nextIteration(ClangNode def, String usr, ClangNode loop, Refs index) {
        if (loop == null || loop.offset < 0) return List.of();
        boolean[] declared = new boolean[1];
        loop.forEach(x -> {
            if (x.kind == CXCursor_VarDecl && usr.equals(x.usr)) declared[0] = true;
        });
        if (declared[0]) return List.of();
        int first = def.offset;
        for (ClangNode a : index.assigns().getOrDefault(usr, List.of()))
            if (loop.contains(a) && a.offset < first) first = a.offset;
        ClangNode init = loop.kind == CXCursor_ForStmt && loop.children.size() >= 4 ? loop.children.get(0) : null;
        List<ClangNode> out = new ArrayList<>();
        for (ClangNode x : index.reads().getOrDefault(usr, List.of()))
            if (loop.contains(x) && x.offset < first && (init == null || !init.contains(x))) out.add(x);
        return out;
    }

    /** A function's references of each variable and its plain assignments (by the variable's USR), in source order. */
    record Refs(Map<String, List<ClangNode>> reads, Map<String, List<ClangNode>> assigns) {}

    /**
     * The index of {@code fn}'s references, built once per function: {@link ClangUses} reads it for every site's value and
     * every variable it reaches, and a walk of the whole function each time made a long function quadratic (a
     * 3,000-statement kernel of one sum took minutes).
     */
    Refs refs(ClangUnit.Function fn) {
        return index.computeIfAbsent(fn.node(), f -> {
            Map<String, List<ClangNode>> reads = new HashMap<>(), assigns = new HashMap<>();
            f.forEach(x -> {
                if (x.kind == CXCursor_DeclRefExpr && x.refUsr != null)
                    reads.computeIfAbsent(x.refUsr, k -> new ArrayList<>()).add(x);
                if (x.kind == CXCursor_BinaryOperator && x.spelling.equals("=") && x.children.size() == 2) {
                    ClangNode l = strip(x.children.get(0));
                    if (l != null && l.kind == CXCursor_DeclRefExpr && l.refUsr != null)
                        assigns.computeIfAbsent(l.refUsr, k -> new ArrayList<>())
                                .add(x);
                }
            });
            return new Refs(reads, assigns);
        });
    }

    private final Map<ClangNode, Refs> index = new ConcurrentHashMap<>();
}
