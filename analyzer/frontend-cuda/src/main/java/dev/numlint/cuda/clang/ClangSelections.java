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
