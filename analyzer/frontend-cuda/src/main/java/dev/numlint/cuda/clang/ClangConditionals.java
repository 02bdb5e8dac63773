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
            if (!bounded(test, branch, limited)) return null;
        }
        return "the test '" + ClangQuotes.test(unit, test) + "' (line " + n.line + ")";
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
