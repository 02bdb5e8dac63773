package dev.numlint.cuda.clang;

import static org.bytedeco.llvm.global.clang.*;

/**
 * A test that an expression's operand is evaluated under ({@link ClangGuards#guardOf}): a branch of a conditional
 * ({@code d >= 0 ? unsigned(d / s) : 0}) runs where its test holds or failed; the right operand of a {@code &&} where
 * the left one holds, of a {@code ||} where it failed ({@code sy <= -0.5f || (uint32_t)(sy + 0.5f) >= h} converts only
 * when {@code sy > -0.5}: session 77 round D, a rasterizer's row-range macro, 16 false errors).
 */
final class ClangOperandTests {
    private ClangOperandTests() {}

    /**
     * What the test of {@code p}, whose operand {@code c} holds {@code at}, says of {@code usr}: its description, ""
     * where it makes the value negative (a conversion to unsigned there always wraps: no guard), or null when
     * {@code p} is no such operator or its test does not compare {@code usr}.
     */
    static String guard(ClangUnit unit, ClangNode p, ClangNode c, ClangNode at, ClangGuards.Path usr) {
        ClangNode test;
        boolean holds;
        if (p.kind == CXCursor_ConditionalOperator && p.children.size() == 3 && p.children.get(0) != c) {
            test = p.children.get(0);
            holds = p.children.get(1) == c;
        } else if (p.kind == CXCursor_BinaryOperator
                && (p.spelling.equals("&&") || p.spelling.equals("||"))
                && p.children.size() == 2
                && p.children.get(1) == c) {
            test = p.children.get(0);
            holds = p.spelling.equals("&&");
        } else return null;
        // where a disjunction (v >= MIN || v <= MAX) holds, either part does: no bound
        if (holds && ClangGuards.disjunction(test) || !ClangGuards.compares(test, usr)) return null;
        if (ClangNegativeBranches.negative(at, test, usr, holds)) return "";
        return "the test '" + ClangQuotes.test(unit, test) + "' (line " + test.line + ")"
                + ClangTestSides.sided(test, usr, holds);
    }
}
