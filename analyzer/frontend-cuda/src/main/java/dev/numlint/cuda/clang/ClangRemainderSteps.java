package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/**
 * A remainder step of a floating value: {@code tim -= times[1] * 60;} after {@code times[1] = (unsigned long) tim /
 * 60;} (or with the quotient written in the step, {@code t -= (long) (t / 60) * 60}, or its floor) takes whole
 * multiples of a constant {@code c > 0} off a value that is not negative, so the value is in [0, c) after it. The
 * value is not negative before the step when a test it is reached through says so ({@code if (tim >= 3600.)}, the
 * branch it selects; an earlier {@code if (t < 0) return;}) or an earlier remainder step of the block left it so,
 * with no other write between (session 61 round D: a player's hh:mm:ss split, two false errors). A guard of both
 * sides ({@link ClangGuards}).
 */
final class ClangRemainderSteps {
    private ClangRemainderSteps() {}

    private static final int DEPTH = 8;

    /** The guard statement {@code k} of {@code block} gives {@code usr} as a remainder step, or null. */
    static String of(ClangUnit unit, ClangNode block, int k, ClangGuards.Path usr) {
        Double c = step(block, k, usr);
        if (c == null || !nonNegativeBefore(unit, block, k, usr, DEPTH)) return null;
        ClangNode s = block.children.get(k);
        String bound = c == Math.rint(c) && Math.abs(c) < 1e15 ? Long.toString((long) (double) c) : c.toString();
        return "the remainder step '" + unit.text(s) + "' (line " + s.line + "): in [0, " + bound + ")";
    }

    /** The constant {@code c} when statement {@code k} of {@code block} is {@code usr -= q * c}, q its quotient. */
    private static Double step(ClangNode block, int k, ClangGuards.Path usr) {
        ClangNode s = strip(block.children.get(k));
        if (s == null || s.kind != CXCursor_CompoundAssignOperator || !"-=".equals(s.spelling)) return null;
        if (s.children.size() != 2 || !usr.key().equals(keyOf(strip(s.children.get(0))))) return null;
        ClangNode prod = withoutCasts(s.children.get(1));
        if (prod == null || prod.kind != CXCursor_BinaryOperator || !"*".equals(prod.spelling)) return null;
        if (prod.children.size() != 2) return null;
        for (int side = 0; side < 2; side++) {
            Double c = constant(prod.children.get(1 - side));
            ClangNode q = strip(prod.children.get(side));
            if (c == null || c <= 0 || q == null) continue;
            if (quotient(q, usr, c)) return c;
            ClangGuards.Path kept = ClangGuards.Path.of(q);
            ClangNode value = kept == null ? null : keptValue(block, k, kept, usr);
            if (value != null && quotient(value, usr, c)) return c;
        }
        return null;
    }

    /**
     * Whether {@code e} is the whole quotient of {@code usr} by {@code c}: {@code (T) usr / c} or {@code (T) (usr /
     * c)} with {@code T} an integer type, or {@code floor(usr / c)}.
     */
    private static boolean quotient(ClangNode e, ClangGuards.Path usr, double c) {
        // (T) (usr / c), floor (usr / c): a whole part as a fractional part's is taken (ClangFractions)
        ClangFractions.Whole w = ClangFractions.whole(e);
        boolean whole = w != null;
        ClangNode s = whole ? w.operand() : strip(e);
        while (s != null && s.kind == CXCursor_ParenExpr && s.children.size() == 1) s = strip(s.children.get(0));
        if (s == null || s.kind != CXCursor_BinaryOperator || !"/".equals(s.spelling) || s.children.size() != 2)
            return false;
        Double d = constant(s.children.get(1));
        if (d == null || d != c) return false;
        ClangNode x = strip(s.children.get(0));
        // (unsigned long) tim / 3600: the conversion is the dividend's, an integer division follows
        if (!whole && x != null && isExplicitCast(x) && integral(x.canonKind)) {
            whole = true;
            x = strip(operandOf(x));
        }
        while (x != null && isExplicitCast(x) && floating(x.canonKind)) x = strip(operandOf(x));
        return whole && x != null && usr.key().equals(keyOf(x));
    }

    /**
     * The value the statement before {@code k} in {@code block} that last assigns {@code kept} gave it, when neither
     * it nor {@code usr} is written between; else null.
     */
    private static ClangNode keptValue(ClangNode block, int k, ClangGuards.Path kept, ClangGuards.Path usr) {
        for (int j = k - 1; j >= 0; j--) {
            ClangNode s = strip(block.children.get(j));
            if (s != null && s.kind == CXCursor_BinaryOperator && "=".equals(s.spelling) && s.children.size() == 2) {
                if (kept.key().equals(keyOf(strip(s.children.get(0))))) {
                    ClangNode rhs = s.children.get(1);
                    return ClangGuards.writes(rhs, usr) || ClangGuards.writes(rhs, kept) ? null : rhs;
                }
            }
            if (ClangGuards.writes(block.children.get(j), kept) || ClangGuards.writes(block.children.get(j), usr))
                return null;
        }
        return null;
    }

    /** Whether {@code usr} is not negative where statement {@code k} of {@code block} starts. */
    private static boolean nonNegativeBefore(ClangUnit unit, ClangNode block, int k, ClangGuards.Path usr, int depth) {
        if (depth <= 0) return false;
        ClangNode b = block;
        int at = k;
        while (b != null) {
            for (int j = at - 1; j >= 0; j--) {
                ClangNode s = b.children.get(j);
                if (labelled(s) != s) return false; // entered through a label
                if (step(b, j, usr) != null) return nonNegativeBefore(unit, b, j, usr, depth - 1);
                if (s.kind == CXCursor_IfStmt
                        && s.children.size() == 2
                        && ClangGuards.leaves(s.children.get(1))
                        && !ClangGuards.writes(s.children.get(0), usr)
                        && below(s.children.get(0), usr, false)) return true;
                if (ClangGuards.writes(s, usr)) return false;
            }
            // up to the enclosing block: through a branch whose test proves the sign, past a loop that does not write
            ClangNode c = b;
            ClangNode p = b.parent;
            while (p != null && p.kind != CXCursor_CompoundStmt) {
                if (p.kind == CXCursor_IfStmt && p.children.size() >= 2 && p.children.get(0) != c) {
                    if (!ClangGuards.writes(p.children.get(0), usr)
                            && below(p.children.get(0), usr, p.children.get(1) == c)) return true;
                }
                if (isLoop(p) && ClangGuards.writes(p, usr)) return false;
                if (p.kind == CXCursor_FunctionDecl || p.kind == CXCursor_CXXMethod || p.kind == CXCursor_LambdaExpr)
                    return false;
                c = p;
                p = p.parent;
            }
            if (p == null) return false;
            at = p.children.indexOf(c);
            b = p;
        }
        return false;
    }

    /**
     * Whether {@code test} proves {@code usr} not negative where it came out {@code holds}: {@code usr >= K} or
     * {@code usr > K} held (a conjunct of it), or {@code usr < K} or {@code usr <= K} failed (a disjunct of it), with
     * a constant {@code K >= 0}.
     */
    private static boolean below(ClangNode test, ClangGuards.Path usr, boolean holds) {
        ClangNode t = strip(test);
        while (t != null && t.kind == CXCursor_ParenExpr && t.children.size() == 1) t = strip(t.children.get(0));
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return false;
        if (t.spelling.equals(holds ? "&&" : "||"))
            return below(t.children.get(0), usr, holds) || below(t.children.get(1), usr, holds);
        String op = holds ? t.spelling : negatedComparison(t.spelling);
        if (op == null) return false;
        for (int side = 0; side < 2; side++) {
            ClangNode v = withoutCasts(t.children.get(side));
            Double k = constant(t.children.get(1 - side));
            if (v == null || k == null || k < 0 || !usr.key().equals(keyOf(v))) continue;
            String o = side == 0 ? op : mirrored(op);
            if (o != null && (o.equals(">=") || o.equals(">"))) return true;
        }
        return false;
    }

    private static String keyOf(ClangNode n) {
        return n == null ? null : ClangGuards.Path.key(n);
    }
}
