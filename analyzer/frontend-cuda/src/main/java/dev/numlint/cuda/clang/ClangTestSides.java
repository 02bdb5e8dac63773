package dev.numlint.cuda.clang;

import static dev.numlint.cuda.clang.ClangSyntax.*;
import static org.bytedeco.llvm.global.clang.*;

/** The sides of a value a guarding test bounds, as the guard's message names them ({@link ClangGuards}). */
final class ClangTestSides {
    private ClangTestSides() {}

    /**
     * What a test leaves open where it came out {@code holds}, as {@link ClangGuards.Clamp#describe} says it: {@code tim >=
     * 3600.} failed bounds {@code tim} from above only (session 61 round D: the else branch's notes named the test as
     * if it bounded both sides). "" when its comparisons of {@code usr} bound both sides or cannot be read.
     */
    static String sided(ClangNode test, ClangGuards.Path usr, boolean holds) {
        int[] sides = {0};
        if (!sides(test, usr, holds, sides)) return "";
        return sides[0] == 1 ? ClangGuards.LOWER_ONLY : sides[0] == 2 ? ClangGuards.UPPER_ONLY : "";
    }

    /** Whether a test that came out {@code holds} bounds {@code usr} on both sides, each by a comparison read. */
    static boolean both(ClangNode test, ClangGuards.Path usr, boolean holds) {
        int[] sides = {0};
        return sides(test, usr, holds, sides) && sides[0] == 3;
    }

    /** Adds to {@code sides} (1 below, 2 above) what {@code test} bounds; false where a comparison is not read. */
    private static boolean sides(ClangNode test, ClangGuards.Path usr, boolean holds, int[] sides) {
        ClangNode t = bare(test);
        if (t == null || t.kind != CXCursor_BinaryOperator || t.children.size() != 2) return true;
        if (t.spelling.equals(holds ? "&&" : "||"))
            return sides(t.children.get(0), usr, holds, sides) && sides(t.children.get(1), usr, holds, sides);
        if (!isComparison(t.spelling) || t.spelling.equals("!=") || t.spelling.equals("==")) {
            return !ClangGuards.compares(t, usr);
        }
        String op = holds ? t.spelling : negatedComparison(t.spelling);
        for (int side = 0; side < 2; side++) {
            ClangNode v = withoutCasts(t.children.get(side));
            if (v == null || !usr.key().equals(ClangGuards.Path.key(v))) continue;
            String o = side == 0 ? op : mirrored(op);
            if (o == null) return false;
            sides[0] |= o.startsWith(">") ? 1 : 2;
            return true;
        }
        return !ClangGuards.compares(t, usr); // usr inside an operand (2 * x < m): not read
    }
}
