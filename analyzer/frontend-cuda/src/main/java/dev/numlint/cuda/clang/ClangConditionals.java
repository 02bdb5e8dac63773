package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;

import java.util.function.Predicate;

/**
 * When a conditional expression limits the value it selects ({@link ClangGuards}): each branch is a constant, a
 * value limited already (a clamp, a guarded variable), integer data, or one whose every floating variable, member or
 * element the conditional's own test compares ({@code x > 255 ? 255 : x}). A truthiness test selects an unbounded
 * branch: {@code symbol->dpmm ? symbol->dpmm : 72} converted to {@code uint32_t} is not "limited by the test
 * 'symbol->dpmm'" (session 60, a barcode library's resolution fields).
 */
final class ClangConditionals {
    private ClangConditionals() {}

    /** "the test '...' (line N)" when the conditional {@code n} limits its value, else null. */
    static String limits(ClangUnit unit, ClangNode n, Predicate<ClangNode> limited) {
        if (n.children.size() != 3) return null;
        ClangNode test = n.children.get(0);
        for (ClangNode branch : n.children.subList(1, 3)) {
            if (!bounded(test, branch, limited) && !comparedAsWritten(unit, test, branch)) return null;
        }
        return "the test '" + ClangQuotes.test(unit, test) + "' (line " + n.line + ")";
    }

    /**
     * Whether {@code branch} is written as one side of a comparison of {@code test}: {@code x < 0 ? 0 : x} for an
     * {@code x} no variable path names, an element of a cast pointer ({@code ((const double *)buf)[i]}, a clamp
     * macro's argument: session 76 round D, an image library's IL_CLAMP of a cast buffer's element).
     */
    private static boolean comparedAsWritten(ClangUnit unit, ClangNode test, ClangNode branch) {
        ClangNode b = strip(branch);
        if (b == null) return false;
        String want = ClangSyntax.squash(unit.text(b));
        if (want.isEmpty()) return false;
        boolean[] hit = {false};
        test.forEach(x -> {
            if (hit[0]
                    || x.kind != org.bytedeco.llvm.global.clang.CXCursor_BinaryOperator
                    || x.children.size() != 2
                    || !isComparison(x.spelling)
                    || x.spelling.equals("!=")
                    || x.spelling.equals("==")) return;
            for (ClangNode side : x.children) {
                ClangNode y = strip(side);
                if (y != null && want.equals(ClangSyntax.squash(unit.text(y)))) hit[0] = true;
            }
        });
        return hit[0];
    }

    private static boolean bounded(ClangNode test, ClangNode branch, Predicate<ClangNode> limited) {
        ClangNode b = strip(branch);
        if (b == null) return false;
        if (constant(b) != null || b.value != null || !floatData(b) || limited.test(b)) return true;
        boolean[] all = {true};
        boolean[] any = {false};
        b.forEach(x -> {
            ClangGuards.Path v = ClangGuards.valued(x) ? ClangGuards.Path.of(x) : null;
            if (v == null) return;
            any[0] = true;
            if (!ClangGuards.compares(test, v)) all[0] = false;
        });
        return any[0] && all[0];
    }
}
