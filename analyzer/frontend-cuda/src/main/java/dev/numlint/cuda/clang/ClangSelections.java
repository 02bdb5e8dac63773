package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Comparisons on Clang's tree that only select between values, so that a flip moves the result by no more than what
 * moved it, as the hand-written front end's {@code ContinuousSelections} (the parts {@link ClangUses} did not have):
 * a sign test that only picks the sign of a value odd in the tested operand ({@code v > 0 ? k*v : -k*v},
 * {@code if (s > 0) w = k/s; else w = -k/s;}), a projection onto a ball ({@code if (n > g) { r = g/n; x *= r; }}) and
 * a clamp written as an {@code if} / {@code else if} chain ({@code if (v < 0) v = 0; else if (v > 1) v = 1;}).
 */
final class ClangSelections {
    private ClangSelections() {}

    /** {@code cmp ? a : b} picks the sign of a value odd in the operand {@code cmp} compares with zero. */
    static boolean signSelection(ClangUnit unit, ClangNode cmp, ClangNode a, ClangNode b) {
        String v = comparedWithZero(unit, cmp);
        if (v == null) return false;
        Factors fa = factors(unit, a);
        Factors fb = factors(unit, b);
        if (fa == null || fb == null || fa.negative == fb.negative || !fa.texts.equals(fb.texts)) return false;
        int hits = 0;
        Pattern named = Pattern.compile("(?<![\\w.])" + Pattern.quote(v) + "(?![\\w])");
        for (String f : fa.texts) {
            if (f.equals(v) || f.equals("/" + v)) hits++;
            else if (named.matcher(f).find()) return false;
        }
        return hits == 1;
    }

    /** {@code if (cmp) w = a; else w = b;} with {@code cmp ? a : b} a sign selection. */
    static boolean signSelection(ClangUnit unit, ClangNode cmp, ClangNode ifStmt) {
        if (ifStmt.kind != CXCursor_IfStmt || ifStmt.children.size() != 3) return false;
        ClangNode then = assignment(ifStmt.children.get(1));
        ClangNode other = assignment(ifStmt.children.get(2));
        if (then == null || other == null || !then.spelling.equals("=") || !other.spelling.equals("=")) return false;
        if (!text(unit, then.children.get(0)).equals(text(unit, other.children.get(0)))) return false;
        return signSelection(unit, cmp, then.children.get(1), other.children.get(1));
    }

    /**
     * A projection onto a ball: {@code if (n > g) { float r = g / n; x *= r; y *= r; }}. At {@code n == g} the factor
     * is 1, so the guarded scaling is continuous in {@code n}.
     */
    static boolean ratioClip(ClangUnit unit, ClangNode cmp, ClangNode ifStmt) {
        if (ifStmt.kind != CXCursor_IfStmt || ifStmt.children.size() != 2 || cmp.children.size() != 2) return false;
        boolean greater = cmp.spelling.startsWith(">");
        if (!greater && !cmp.spelling.startsWith("<")) return false;
        String big = text(unit, cmp.children.get(greater ? 0 : 1));
        String small = text(unit, cmp.children.get(greater ? 1 : 0));
        List<String> ratios = new ArrayList<>(List.of(small + "/" + big));
        ClangNode then = ifStmt.children.get(1);
        List<ClangNode> body = then.kind == CXCursor_CompoundStmt ? then.children : List.of(then);
        int scaled = 0;
        for (ClangNode st : body) {
            if (st.kind == CXCursor_DeclStmt && st.children.size() == 1) {
                ClangNode d = st.children.get(0);
                ClangNode init = d.kind == CXCursor_VarDecl && !d.children.isEmpty()
                        ? d.children.get(d.children.size() - 1)
                        : null;
                if (init == null || !floating(d.canonKind) || !ratios.contains(text(unit, init))) return false;
                ratios.add(d.spelling);
                continue;
            }
            ClangNode a = assignment(st);
            if (a == null || !a.spelling.equals("*=") || !ratios.contains(text(unit, a.children.get(1)))) return false;
            scaled++;
        }
        return scaled > 0;
    }

    /**
     * No else, or an else that is itself a selection: {@code if (v < 0) v = 0; else if (v > 1) v = 1;}, each branch a
     * plain assignment that exchanges the operands of its comparison.
     */
    static boolean elseIsSelection(ClangUnit unit, ClangNode ifStmt) {
        if (ifStmt.children.size() < 3) return true;
        ClangNode inner = ifStmt.children.get(2);
        if (inner.kind != CXCursor_IfStmt || inner.children.size() < 2) return false;
        ClangNode a = assignment(inner.children.get(1));
        ClangNode cond = strip(inner.children.get(0));
        if (a == null || !a.spelling.equals("=") || cond == null || cond.kind != CXCursor_BinaryOperator) return false;
        if (!isComparison(cond.spelling) || cond.children.size() != 2) return false;
        String x = text(unit, cond.children.get(0)), y = text(unit, cond.children.get(1));
        String l = text(unit, a.children.get(0)), r = text(unit, a.children.get(1));
        return (l.equals(x) && r.equals(y) || l.equals(y) && r.equals(x)) && elseIsSelection(unit, inner);
    }

    /**
     * {@code if (x > a && x > b) ((a > b) ? a : b) = x;}: a value above both bounds replaces the larger one (below
     * both, the smaller), also through copies of the bounds ({@code one = hi[0]; ... (one > zero) ? one : zero = x}).
     * Where a comparison flips, x is as close to the bound as the rounding that flipped it, so the bound moves by no
     * more than that. The else, if any, is such an update or a selection too. As the hand-written front end's
     * {@code ContinuousSelections.selectsWith}.
     */
    static boolean boundUpdate(ClangUnit unit, ClangNode ifStmt, ClangUnit.Function fn) {
        if (ifStmt.kind != CXCursor_IfStmt || ifStmt.children.size() < 2) return false;
        List<ClangNode> conj = new ArrayList<>();
        if (!conjuncts(ifStmt.children.get(0), conj) || conj.size() != 2) return false;
        ClangNode a = assignment(ifStmt.children.get(1));
        ClangNode sel = a == null || !a.spelling.equals("=") ? null : strip(a.children.get(0));
        if (sel == null || sel.kind != CXCursor_ConditionalOperator || sel.children.size() != 3) return false;
        String x = text(unit, a.children.get(1));
        // x OP b1 && x OP b2: every bound on the same side of x
        int side = 0;
        List<String> bounds = new ArrayList<>();
        for (ClangNode r : conj) {
            boolean greater = r.spelling.startsWith(">");
            int s;
            if (text(unit, r.children.get(0)).equals(x)) {
                bounds.add(text(unit, r.children.get(1)));
                s = greater ? 1 : -1;
            } else if (text(unit, r.children.get(1)).equals(x)) {
                bounds.add(text(unit, r.children.get(0)));
                s = greater ? -1 : 1;
            } else return false;
            if (side != 0 && s != side) return false;
            side = s;
        }
        // the assigned place is the extreme bound: (a > b) ? a : b for x above both
        ClangNode sc = strip(sel.children.get(0));
        if (sc == null || sc.kind != CXCursor_BinaryOperator || sc.children.size() != 2) return false;
        if (!ORDERS.contains(sc.spelling)) return false;
        ClangNode first = sel.children.get(1), second = sel.children.get(2);
        String f = text(unit, first), s2 = text(unit, second);
        String cl = text(unit, sc.children.get(0)), cr = text(unit, sc.children.get(1));
        if (!(f.equals(cl) && s2.equals(cr)) && !(f.equals(cr) && s2.equals(cl))) return false;
        boolean picksLarger = sc.spelling.startsWith(">") == f.equals(cl);
        if (picksLarger != (side > 0)) return false;
        boolean holds = holds(unit, first, bounds.get(0), ifStmt, fn) && holds(unit, second, bounds.get(1), ifStmt, fn)
                || holds(unit, first, bounds.get(1), ifStmt, fn) && holds(unit, second, bounds.get(0), ifStmt, fn);
        if (!holds) return false;
        return ifStmt.children.size() < 3
                || elseIsSelection(unit, ifStmt)
                || boundUpdate(unit, ifStmt.children.get(2), fn);
    }

    private static final java.util.Set<String> ORDERS = java.util.Set.of("<", "<=", ">", ">=");

    /** The comparisons {@code c} joins with {@code &&} (parentheses allowed); false for anything else. */
    private static boolean conjuncts(ClangNode c, List<ClangNode> out) {
        c = strip(c);
        if (c == null || c.kind != CXCursor_BinaryOperator || c.children.size() != 2) return false;
        if (c.spelling.equals("&&")) return conjuncts(c.children.get(0), out) && conjuncts(c.children.get(1), out);
        if (!ORDERS.contains(c.spelling)) return false;
        out.add(c);
        return true;
    }

    /**
     * Whether {@code v} holds the value written {@code bound} before {@code at}: it is the bound, or a local whose only
     * definition before {@code at} is {@code v = bound} (or its initializer).
     */
    private static boolean holds(ClangUnit unit, ClangNode v, String bound, ClangNode at, ClangUnit.Function fn) {
        if (text(unit, v).equals(bound)) return true;
        ClangNode s = strip(v);
        if (s == null || s.kind != CXCursor_DeclRefExpr || s.refUsr == null) return false;
        ClangBodyIndex.Variable var = ClangBodyIndex.of(fn).of(s.refUsr);
        ClangNode only = null;
        int defs = 0;
        for (ClangNode d : var.decls()) {
            ClangNode init = d.children.isEmpty() ? null : d.children.get(d.children.size() - 1);
            if (d.kind != CXCursor_VarDecl || init == null || !clang_isExpressionKind(init.kind)) continue;
            only = init;
            defs++;
        }
        for (ClangNode w : var.writes()) {
            if (w.offset < 0 || w.offset >= at.offset) continue;
            if (!w.spelling.equals("=") || w.kind != CXCursor_BinaryOperator) return false;
            only = w.children.get(1);
            defs++;
        }
        return defs == 1 && text(unit, only).equals(bound);
    }

    /** The single assignment (plain or compound) that is the whole statement {@code st} (braces allowed), or null. */
    private static ClangNode assignment(ClangNode st) {
        while (st.kind == CXCursor_CompoundStmt) {
            if (st.children.size() != 1) return null;
            st = st.children.get(0);
        }
        boolean assign = st.kind == CXCursor_BinaryOperator && st.spelling.equals("=")
                || st.kind == CXCursor_CompoundAssignOperator;
        return assign && st.children.size() == 2 ? st : null;
    }

    /** The operand compared with zero ({@code v > 0}, {@code 0.0f <= v}), as text; null for another comparison. */
    private static String comparedWithZero(ClangUnit unit, ClangNode cmp) {
        if (cmp.children.size() != 2 || !isComparison(cmp.spelling)) return null;
        for (int i = 0; i < 2; i++) {
            Double c = constant(cmp.children.get(i));
            if (c != null && c == 0.0) return text(unit, cmp.children.get(1 - i));
        }
        return null;
    }

    /** A product or quotient flattened to its factors ("/x" for a divisor), with the parity of unary minuses. */
    private record Factors(List<String> texts, boolean negative) {}

    private static Factors factors(ClangUnit unit, ClangNode e) {
        List<String> out = new ArrayList<>();
        boolean[] neg = {false};
        if (!flatten(unit, e, false, out, neg)) return null;
        out.sort(null);
        return new Factors(out, neg[0]);
    }

    private static boolean flatten(ClangUnit unit, ClangNode e, boolean divisor, List<String> out, boolean[] neg) {
        ClangNode x = strip(e);
        if (x == null) return false;
        if (x.kind == CXCursor_UnaryOperator && x.spelling.equals("-") && x.children.size() == 1) {
            neg[0] = !neg[0];
            return flatten(unit, x.children.get(0), divisor, out, neg);
        }
        if (x.kind == CXCursor_BinaryOperator
                && (x.spelling.equals("*") || x.spelling.equals("/"))
                && x.children.size() == 2) {
            return flatten(unit, x.children.get(0), divisor, out, neg)
                    && flatten(unit, x.children.get(1), x.spelling.equals("/") != divisor, out, neg);
        }
        out.add((divisor ? "/" : "") + text(unit, x));
        return out.size() <= 16;
    }

    /** The text of {@code n} without implicit wrappers, parentheses and whitespace, for comparing operands. */
    private static String text(ClangUnit unit, ClangNode n) {
        ClangNode s = strip(n);
        return unit.text(s == null ? n : s).replaceAll("[\\s()]", "");
    }
}
