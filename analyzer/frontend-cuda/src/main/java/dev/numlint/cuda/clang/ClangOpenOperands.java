package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.knowledge.NumericFacts;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The terms of a converted operand that nothing bounds from below: its variables, members and elements (through
 * arithmetic, parentheses, casts and rounding calls) whose interval ({@link ClangIntervals}) has no lower bound above -2^31 (an int's range is none). An unguarded conversion's message names them ("nothing bounds 'rate' from below") instead of leaving the
 * reader to guess which value the example's -69.235 stands for (session 63: four reviewers found the example misleading
 * next to sample rates and sizes). Terms written in a macro's body are not named (their text is the invocation's).
 */
final class ClangOpenOperands {
    private static final int MAX = 2;

    private ClangOpenOperands() {}

    /** "'a'" or "'a' and 'b'" for the operand {@code op} of a conversion in {@code fn}, or null when none is named. */
    static String of(ClangUnit unit, ClangNode op, ClangUnit.Function fn) {
        if (op == null || fn == null) return null;
        Set<String> names = new LinkedHashSet<>();
        boolean[] more = new boolean[1];
        collect(unit, op, fn, names, more, 0, false);
        if (names.isEmpty()) return null;
        String joined =
                String.join(" and ", names.stream().map(n -> "'" + n + "'").toList());
        return more[0] ? joined + " (and more)" : joined;
    }

    /**
     * @param flipped whether the term enters the operand negated (the right side of a '-', a unary minus): a low value
     *                of it makes the operand high, so it is not named (session 75 round D: "nothing bounds 'ppm'
     *                below" of {@code hz * (1.0f - ppm / 1e6f)}, where only a large ppm makes the operand negative)
     */
    private static void collect(
            ClangUnit unit,
            ClangNode e,
            ClangUnit.Function fn,
            Set<String> names,
            boolean[] more,
            int depth,
            boolean flipped) {
        ClangNode n = strip(e);
        if (n == null || depth > 16 || n.value != null || folded(n) != null) return;
        switch (n.kind) {
            case CXCursor_ParenExpr, CXCursor_UnexposedExpr, CXCursor_UnaryOperator -> {
                boolean minus = n.kind == CXCursor_UnaryOperator && n.spelling.equals("-");
                for (ClangNode c : n.children) collect(unit, c, fn, names, more, depth + 1, flipped != minus);
            }
            case CXCursor_CStyleCastExpr, CXCursor_CXXStaticCastExpr, CXCursor_CXXFunctionalCastExpr -> {
                collect(unit, operandOf(n), fn, names, more, depth + 1, flipped);
            }
            case CXCursor_BinaryOperator, CXCursor_ConditionalOperator -> {
                // a square (age * age) is never negative: its factor is no term that nothing bounds below (session 71
                // round D: an audio plugin's 'age*age*(float)RAND_MAX' named 'age')
                if (square(unit, n)) return;
                int from = n.kind == CXCursor_ConditionalOperator ? 1 : 0;
                boolean minus = n.kind == CXCursor_BinaryOperator && n.spelling.equals("-");
                boolean scaled =
                        n.kind == CXCursor_BinaryOperator && (n.spelling.equals("*") || n.spelling.equals("/"));
                for (int i = from; i < n.children.size(); i++) {
                    // the subtrahend, and a factor of a negative constant, enter negated
                    Double other = scaled && n.children.size() == 2 ? folded(n.children.get(1 - i)) : null;
                    boolean negated = minus && i == 1 || other != null && other < 0;
                    collect(unit, n.children.get(i), fn, names, more, depth + 1, flipped != negated);
                }
            }
            case CXCursor_CallExpr -> {
                String f = callee(n).replace("std::", "");
                if (NumericFacts.ROUNDING.contains(f) && arguments(n).size() == 1)
                    collect(unit, arguments(n).get(0), fn, names, more, depth + 1, flipped);
            }
            case CXCursor_DeclRefExpr, CXCursor_MemberRefExpr, CXCursor_ArraySubscriptExpr -> {
                // a term bounded below (float N = n - 1.0 of an unsigned n: at least -1) is not one nothing bounds;
                // an int's own range is no bound
                if (flipped || unit.interval(n, fn)[0] > -0x1p31) return;
                String text = unit.text(n);
                // a macro's expansion has the invocation's text: no name that the reader would find at the line
                boolean own = text != null && !text.isBlank() && text.length() <= 40 && text.endsWith(nameOf(n));
                if (!own) return;
                String t = squash(text);
                if (names.contains(t)) return;
                if (names.size() < MAX) names.add(t);
                else more[0] = true;
            }
            default -> {}
        }
    }

    /** Whether {@code n} is {@code x * x} of one variable, member or element (by its text). */
    private static boolean square(ClangUnit unit, ClangNode n) {
        if (n.kind != CXCursor_BinaryOperator || !n.spelling.equals("*") || n.children.size() != 2) return false;
        ClangNode a = strip(n.children.get(0));
        ClangNode b = strip(n.children.get(1));
        if (a == null || b == null || a.kind != b.kind) return false;
        if (a.kind != CXCursor_DeclRefExpr && a.kind != CXCursor_MemberRefExpr && a.kind != CXCursor_ArraySubscriptExpr)
            return false;
        String t = unit.text(a);
        return t != null && !t.isBlank() && squash(t).equals(squash(unit.text(b)));
    }

    /** What the text of a reference ends with: its spelling, or the closing bracket of a subscript. */
    private static String nameOf(ClangNode n) {
        return n.kind == CXCursor_ArraySubscriptExpr ? "]" : n.spelling == null ? "\u0000" : n.spelling;
    }
}
