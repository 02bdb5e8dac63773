package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A component of a normalised vector: {@code x / sqrt(x*x + y*y + c)} with the other terms never negative lies in
 * [-1, 1] (a surface normal mapped to a colour: {@code (vx + 1.0) * 127.5} is a byte; session 57, libnoise's normal
 * map). Interval arithmetic alone cannot see it: the numerator is inside the root. The numerator and a squared term
 * of the radicand are compared by their text, through a local defined once ({@code ncr = nc - nr;} for {@code ncr *
 * ncr} and {@code (nc - nr)}), as is the root itself ({@code double d = sqrt(...); ... / d}).
 */
final class ClangUnitVectors {
    private ClangUnitVectors() {}

    private static final Set<String> ROOTS = Set.of("sqrt", "sqrtf", "sqrtl");

    /** [-1, 1] when the division {@code div} of {@code fn} is such a component, else null. */
    static double[] component(ClangUnit unit, ClangNode div, ClangUnit.Function fn) {
        if (fn == null || div.children.size() != 2 || !floating(div.canonKind)) return null;
        ClangNode root = ClangAllDefinitions.onlyValue(unit, fn, withoutCasts(div.children.get(1)));
        if (root == null || root.kind != CXCursor_CallExpr) return null;
        if (!ROOTS.contains(callee(root).replace("std::", ""))) return null;
        List<ClangNode> args = arguments(root);
        if (args.size() != 1) return null;
        String num = text(unit, fn, div.children.get(0));
        if (num == null) return null;
        boolean found = false;
        for (ClangNode term : terms(args.get(0))) {
            if (!found && num.equals(squared(unit, fn, term))) {
                found = true;
                continue;
            }
            Double c = folded(term);
            if (c != null ? c < 0 : ClangSquares.sign(unit, withoutCasts(term)) <= 0) return null;
        }
        return found ? new double[] {-1, 1} : null;
    }

    /** The terms of a sum ({@code a + b + c}), through parentheses. */
    private static List<ClangNode> terms(ClangNode sum) {
        List<ClangNode> out = new ArrayList<>();
        ClangNode s = strip(sum);
        if (s != null && s.kind == CXCursor_BinaryOperator && s.spelling.equals("+") && s.children.size() == 2) {
            out.addAll(terms(s.children.get(0)));
            out.addAll(terms(s.children.get(1)));
        } else if (s != null) out.add(s);
        return out;
    }

    /** The text of {@code x} when {@code term} is {@code x * x} (or {@code x*x} of one local), else null. */
    private static String squared(ClangUnit unit, ClangUnit.Function fn, ClangNode term) {
        ClangNode t = withoutCasts(term);
        if (t == null || t.kind != CXCursor_BinaryOperator || !t.spelling.equals("*") || t.children.size() != 2)
            return null;
        String a = text(unit, fn, t.children.get(0)), b = text(unit, fn, t.children.get(1));
        return a != null && a.equals(b) ? a : null;
    }

    /** The text of {@code n} without blanks and parentheses, of a local's only definition for a local. */
    private static String text(ClangUnit unit, ClangUnit.Function fn, ClangNode n) {
        ClangNode x = ClangAllDefinitions.onlyValue(unit, fn, withoutCasts(n));
        return x == null ? null : bare(unit.text(x));
    }
}
