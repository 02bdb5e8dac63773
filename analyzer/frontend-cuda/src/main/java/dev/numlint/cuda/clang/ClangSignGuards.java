package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;

/**
 * The sign a test that dominates an expression proves for it: {@code if (f0*f2 < 0) { W = f1*f1 - f0*f2; }} (the
 * branch the test selects), or an earlier statement of an enclosing block that leaves when the test fails
 * ({@code if (f0*f2 >= 0) break; W = f1*f1 - f0*f2;}). Only the simple and certain case: the test is one comparison of
 * the same expression (as written, no call in it but an element's accessor, {@code m(j, i)}) with 0, and nothing
 * between the test and the use writes a variable, member or element the expression reads (no write in a loop that
 * lies between them either, whose back edge would reach the use unchecked). Ridders' root finder keeps {@code f0*f2 < 0} as its invariant; where the code does not test
 * it, nothing is proven.
 */
final class ClangSignGuards {
    private ClangSignGuards() {}

    /**
     * Whether a test dominating {@code e} (in {@code fn}) proves it never negative ({@code positive}) or never
     * positive (not {@code positive}).
     */
    static boolean proves(ClangUnit unit, ClangNode e, ClangUnit.Function fn, boolean positive) {
        return proves(unit, e, fn, positive, false);
    }

    /**
     * {@link #proves}, where a part of a conjunction that holds, or of a disjunction that fails, counts as the test
     * ({@link #signWhen}): for an interval's sign ({@link ClangIntervals}' fractional parts). A conversion's guard
     * keeps the single comparisons: an implicit conversion tested at both ends by one disjunction stays silent.
     */
    static boolean provesThroughParts(ClangUnit unit, ClangNode e, ClangUnit.Function fn, boolean positive) {
        return proves(unit, e, fn, positive, true);
    }

    private static boolean proves(ClangUnit unit, ClangNode e, ClangUnit.Function fn, boolean positive, boolean parts) {
        ClangNode x = strip(e);
        if (x == null) return false;
        String text = squash(unit.text(x));
        if (text.isEmpty()) return false;
        boolean[] call = new boolean[1];
        x.forEach(n -> call[0] |= n.kind == CXCursor_CallExpr && !ClangGuards.Path.accessor(n));
        if (call[0]) return false; // two calls may differ; two reads of one element through an accessor do not
        List<ClangGuards.Path> reads = new ArrayList<>();
        x.forEach(n -> {
            ClangGuards.Path p = ClangGuards.Path.of(n);
            if (p != null) reads.add(p);
        });
        if (reads.isEmpty()) return false;
        ClangNode c = x;
        for (ClangNode p = x.parent; p != null && p != fn.node(); c = p, p = p.parent) {
            if (isLoop(p) && writesAny(p, reads)) return false; // a back edge past the test
            if (p.kind == CXCursor_IfStmt && p.children.size() >= 2 && p.children.get(0) != c) {
                boolean then = p.children.get(1) == c;
                // the then branch sees the test hold, the else branch fail
                Integer sign = signWhen(unit, p.children.get(0), text, then, parts);
                if (sign != null && sign == (positive ? 1 : -1) && !writtenBefore(p, x, reads)) return true;
            }
            if (p.kind != CXCursor_CompoundStmt) continue;
            int i = p.children.indexOf(c);
            for (int k = i - 1; k >= 0; k--) {
                ClangNode s = p.children.get(k);
                // an if, or the one a check macro's do { } while (0) runs (ClangChecks)
                ClangNode check = ClangChecks.ifOf(s);
                boolean once = check != s;
                if (check != null && check.children.size() == 2 && leaves(check.children.get(1), once)) {
                    Integer sign = signWhen(unit, check.children.get(0), text, false, parts);
                    // past an early exit the test failed
                    if (sign != null
                            && sign == (positive ? 1 : -1)
                            && !writesAny(check.children.get(0), reads)
                            && !writtenBetween(p, k, x, reads)) return true;
                }
                if (check != null
                        && check.children.size() == 3
                        && !leaves(check.children.get(1), once)
                        && leaves(check.children.get(2), once)) {
                    Integer sign = signWhen(unit, check.children.get(0), text, true, parts);
                    // if (t) { } else return;: past it the test held
                    if (sign != null
                            && sign == (positive ? 1 : -1)
                            && !writesAny(check.children.get(0), reads)
                            && !writesAny(check.children.get(1), reads)
                            && !writtenBetween(p, k, x, reads)) return true;
                }
                if (writesAny(s, reads)) return false;
            }
        }
        return false;
    }

    /**
     * The sign the test {@code t} gives the expression written {@code text} where it {@code holds} (or fails): a
     * comparison's ({@link #sign}, negated where it fails); with {@code parts}, a part's of a conjunction that holds ({@code src_x >= 0 &&
     * src_x < width - 1}: a bilinear sample's position, session 83 round Z) or of a disjunction that fails; null
     * otherwise.
     */
    static Integer signWhen(ClangUnit unit, ClangNode t, String text, boolean holds, boolean parts) {
        ClangNode n = strip(ClangChecks.condition(t));
        while (n != null && n.kind == CXCursor_ParenExpr && n.children.size() == 1) n = strip(n.children.get(0));
        if (parts
                && n != null
                && n.kind == CXCursor_BinaryOperator
                && n.children.size() == 2
                && n.spelling.equals(holds ? "&&" : "||")) {
            Integer a = signWhen(unit, n.children.get(0), text, holds, true);
            return a != null ? a : signWhen(unit, n.children.get(1), text, holds, true);
        }
        Integer s = sign(unit, t, text);
        if (s == null || holds) return s;
        return -s;
    }

    /**
     * The sign the test {@code t} gives the expression written {@code text} when it holds: +1 for {@code text > 0}
     * or {@code >= 0} (and {@code 0 < text}, {@code 0 <= text}), -1 for {@code < 0} or {@code <= 0}; null for any
     * other test. A strict test proves the non-strict sign too.
     */
    static Integer sign(ClangUnit unit, ClangNode t, String text) {
        ClangNode n = strip(ClangChecks.condition(t));
        while (n != null && n.kind == CXCursor_ParenExpr && n.children.size() == 1) n = strip(n.children.get(0));
        if (n == null || n.kind != CXCursor_BinaryOperator || n.children.size() != 2) return null;
        String op = n.spelling;
        if (!op.equals("<") && !op.equals("<=") && !op.equals(">") && !op.equals(">=")) return null;
        ClangNode a = n.children.get(0), b = n.children.get(1);
        Double za = constant(a), zb = constant(b);
        boolean greater = op.startsWith(">");
        if (zb != null && zb == 0 && squash(unit.text(strip(a))).equals(text)) return greater ? 1 : -1;
        if (za != null && za == 0 && squash(unit.text(strip(b))).equals(text)) return greater ? -1 : 1;
        return null;
    }

    /**
     * Whether {@code s} always leaves the block: it ends with continue, break, return, goto or throw; in a {@code do
     * { } while (0)} ({@code once}) a continue or break only leaves the {@code do}.
     */
    private static boolean leaves(ClangNode s, boolean once) {
        ClangNode last = s;
        for (int d = 0; d < 16 && last.kind == CXCursor_CompoundStmt && !last.children.isEmpty(); d++)
            last = last.children.get(last.children.size() - 1);
        return !once && (last.kind == CXCursor_ContinueStmt || last.kind == CXCursor_BreakStmt)
                || last.kind == CXCursor_ReturnStmt
                || last.kind == CXCursor_GotoStmt
                || ClangErrorExits.throwing(last)
                || ClangErrorExits.handler(last) != null;
    }

    /** Whether a statement of {@code block} after {@code from}, up to {@code at}, writes what {@code reads} names. */
    private static boolean writtenBetween(ClangNode block, int from, ClangNode at, List<ClangGuards.Path> reads) {
        ClangNode c = at;
        for (ClangNode p = at.parent; p != null; c = p, p = p.parent) {
            if (p.kind == CXCursor_CompoundStmt) {
                int i = p.children.indexOf(c);
                for (int k = p == block ? from + 1 : 0; k < i; k++)
                    if (writesAny(p.children.get(k), reads)) return true;
            }
            if (p == block) return false;
        }
        return true;
    }

    /** Whether the branch of {@code ifStmt} that leads to {@code at} writes what {@code reads} names before it. */
    private static boolean writtenBefore(ClangNode ifStmt, ClangNode at, List<ClangGuards.Path> reads) {
        ClangNode c = at;
        for (ClangNode p = at.parent; p != null && p != ifStmt; c = p, p = p.parent) {
            if (p.kind != CXCursor_CompoundStmt) continue;
            int i = p.children.indexOf(c);
            for (int k = 0; k < i; k++) if (writesAny(p.children.get(k), reads)) return true;
        }
        return false;
    }

    private static boolean writesAny(ClangNode s, List<ClangGuards.Path> reads) {
        for (ClangGuards.Path p : reads) if (ClangGuards.writes(s, p)) return true;
        return false;
    }
}
