package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads of a value in the conditions of the loops around its definition (a def-use fact of {@link ClangUses}, as the
 * hand-written front end follows a sum into its loop's test): {@code while (used < limit && k < n) { used += d[k];
 * ... }} tests the sum each iteration makes in the next one, although the condition is written before the update. The
 * loops are those around the definition inside the function, up to the first that declares the variable; the
 * condition of a {@code for} loop is known only when the loop has all four parts.
 */
final class ClangLoopConditions {
    private ClangLoopConditions() {}

    /** The references of {@code usr} ({@code reads}, in source order) in the loop conditions around {@code def}. */
    static List<ClangNode> reads(ClangNode def, String usr, List<ClangNode> reads, ClangUnit.Function fn) {
        List<ClangNode> out = new ArrayList<>();
        for (ClangNode p = def.parent; p != null && p != fn.node(); p = p.parent) {
            if (!isLoop(p)) continue;
            if (declares(p, usr)) break;
            ClangNode cond = condition(p);
            if (cond == null || cond.contains(def)) continue;
            for (ClangNode r : reads) if (cond.contains(r)) out.add(r);
        }
        return out;
    }

    /**
     * The guard a while or four-part for loop's condition is for {@code usr} read at {@code at} in its body
     * ({@code body}, the child of {@code loop} on the way up): the condition holds at the start of every iteration, so
     * a read that no statement of the iteration writes before it, and no loop inside the body re-runs past a write
     * ({@code for (k = 0, p2 = a; k < 2 && p2 >= 0; ++k, p2 = b) r = p2 * 100 + .5;}: session 62 round D, an audio
     * synthesizer's noise colours). Null when not so; a do loop runs its body before its test.
     */
    static String guard(ClangUnit unit, ClangNode loop, ClangNode body, ClangNode at, ClangGuards.Path usr) {
        if (loop.kind != CXCursor_WhileStmt && loop.kind != CXCursor_ForStmt) return null;
        if (loop.children.isEmpty() || loop.children.get(loop.children.size() - 1) != body) return null;
        ClangNode test = condition(loop);
        if (test == null || !ClangGuards.compares(test, usr) || ClangGuards.writes(test, usr)) return null;
        ClangNode t = bare(test);
        if (t != null && t.kind == CXCursor_BinaryOperator && t.spelling.equals("||")) return null;
        if (ClangGuards.writtenBetween(loop, at, usr)) return null;
        for (ClangNode p = at.parent; p != null && p != loop; p = p.parent)
            if (isLoop(p) && ClangGuards.writes(p, usr)) return null; // its back edge reaches the read unchecked
        if (ClangNegativeBranches.negative(at, test, usr, true)) return null;
        return "the loop's test '" + unit.text(test) + "' (line " + test.line + ")"
                + ClangTestSides.sided(test, usr, true);
    }

    /**
     * The guard a while or do loop's condition is for {@code usr} read after the loop {@code loop}, a statement of the
     * block before the read: the loop ends only where its test fails (no {@code break} of its own, {@code goto} or
     * label in its body gives another way out or in; a {@code return} or {@code throw} leaves the function), so the
     * test is false after it. {@code while (I < -128 || I > 127) I *= 0.5f;} leaves {@code I} in [-128, 127] (session
     * 79 round D: a DVB receiver's constellation lookup, {@code (s8)I} after the halving loop). Only a test that bounds
     * both sides by itself: a loop that bounds one side may undo a bound before it, and whether it moves the value
     * toward its bound is {@link ClangWrapLoops}'s to read. Null when not so.
     */
    static String exit(ClangUnit unit, ClangNode loop, ClangGuards.Path usr) {
        if (loop.kind != CXCursor_WhileStmt && loop.kind != CXCursor_DoStmt) return null;
        ClangNode test = condition(loop);
        if (test == null || !ClangGuards.compares(test, usr) || ClangGuards.writes(test, usr)) return null;
        if (!ClangTestSides.both(test, usr, false) || otherWay(loop, false)) return null;
        return "the loop's test '" + unit.text(test) + "' (line " + test.line + "), false when the loop ends";
    }

    /** Whether {@code n} holds a way out of the loop or into it other than its test (a break of its own, a goto). */
    private static boolean otherWay(ClangNode n, boolean nested) {
        for (ClangNode c : n.children) {
            if (c.kind == CXCursor_GotoStmt || c.kind == CXCursor_IndirectGotoStmt || c.kind == CXCursor_LabelStmt)
                return true;
            if (c.kind == CXCursor_BreakStmt && !nested) return true;
            if (otherWay(c, nested || isLoop(c) || c.kind == CXCursor_SwitchStmt)) return true;
        }
        return false;
    }

    /** The condition of a while, do or four-part for loop, else null. */
    private static ClangNode condition(ClangNode loop) {
        if (loop.children.isEmpty()) return null;
        if (loop.kind == CXCursor_WhileStmt) return loop.children.get(0);
        if (loop.kind == CXCursor_DoStmt) return loop.children.get(loop.children.size() - 1);
        if (loop.kind == CXCursor_ForStmt && loop.children.size() == 4) return loop.children.get(1);
        return null;
    }
}
