package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

import dev.numlint.cuda.facts.ProductPairs;
import java.util.ArrayList;
import java.util.List;

/**
 * The components of complex products and 2-D rotations in a {@link ClangUnit}'s functions: a sum or difference of two
 * products whose companion, with one factor of each product swapped ({@link ProductPairs}), is written within
 * {@link ProductPairs#SPAN} lines in the same function. The factors are read from Clang's tree (under parentheses,
 * implicit conversions and unary minus signs), as the hand-written front end's {@code ComplexPairs} reads its own.
 */
final class ClangPairs {
    private static final java.util.regex.Pattern WHITESPACE = java.util.regex.Pattern.compile("\\s+");
    private static final int MAX_FACTORS = 8;

    private final ClangUnit unit;

    ClangPairs(ClangUnit unit) {
        this.unit = unit;
    }

    /** Whether {@code n} ({@code p*q - r*s}, any signs) is one component of a pair computed in {@code fn}. */
    boolean pairedComponent(ClangNode n, ClangUnit.Function fn) {
        List<List<String>> mine = productPair(n);
        if (mine == null) return false;
        boolean[] found = new boolean[1];
        fn.node().forEach(x -> {
            if (found[0] || x == n || Math.abs(x.line - n.line) > ProductPairs.SPAN) return;
            List<List<String>> other = productPair(x);
            if (other != null && ProductPairs.swapped(mine.get(0), mine.get(1), other.get(0), other.get(1)))
                found[0] = true;
        });
        return found[0];
    }

    /** The sorted factor texts of both operands of an addition or subtraction when each is a product, or null. */
    private List<List<String>> productPair(ClangNode a) {
        if (a.kind != CXCursor_BinaryOperator || a.children.size() != 2) return null;
        if (!a.spelling.equals("+") && !a.spelling.equals("-")) return null;
        List<String> f0 = factors(a.children.get(0));
        List<String> f1 = factors(a.children.get(1));
        return f0 == null || f1 == null ? null : List.of(f0, f1);
    }

    /** The factors of a product ({@code -a*b*c}: a, b, c), sorted; null when {@code e} is not a product. */
    private List<String> factors(ClangNode e) {
        ClangNode p = unminus(e);
        if (p == null || p.kind != CXCursor_BinaryOperator || !p.spelling.equals("*")) return null;
        List<String> out = new ArrayList<>();
        collect(p, out);
        out.sort(null);
        return out;
    }

    private void collect(ClangNode e, List<String> out) {
        ClangNode p = unminus(e);
        if (p.kind == CXCursor_BinaryOperator
                && p.spelling.equals("*")
                && p.children.size() == 2
                && out.size() < MAX_FACTORS) {
            for (ClangNode f : p.children) collect(f, out);
        } else {
            out.add(WHITESPACE.matcher(unit.text(p)).replaceAll(""));
        }
    }

    /** {@code e} without parentheses, implicit conversions and unary minus signs. */
    private static ClangNode unminus(ClangNode e) {
        ClangNode p = strip(e);
        while (p != null && p.kind == CXCursor_UnaryOperator && p.spelling.equals("-") && p.children.size() == 1) {
            p = strip(p.children.get(0));
        }
        return p == null ? e : p;
    }
}
