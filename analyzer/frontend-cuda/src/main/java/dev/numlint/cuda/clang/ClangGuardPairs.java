package dev.numlint.cuda.clang;

/**
 * A guard of one side completed by an earlier statement of its block that bounds the other side, before any other
 * write of the value: {@code if (f <= 0) return 0; if (f > 1) f = 1;} or two early exits, one per side (session 73:
 * a renderer's fog factor, whose note said "an upper bound only: the negative side is unguarded" under an early return
 * for {@code f <= 0}).
 */
final class ClangGuardPairs {
    private ClangGuardPairs() {}

    /** How a guard of both sides found in two statements begins. */
    static final String BOUNDS = "the bounds of ";

    /**
     * {@code guard}, found at statement {@code k} of {@code block} and bounding one side of {@code usr}, with the
     * guard of the other side that an earlier statement gives (an early exit or a conditional clamp), or {@code guard}
     * itself when none does.
     */
    static String otherSide(ClangUnit unit, ClangNode block, int k, ClangGuards.Path usr, String guard) {
        String mine = guard.endsWith(ClangGuards.UPPER_ONLY)
                ? ClangGuards.UPPER_ONLY
                : guard.endsWith(ClangGuards.LOWER_ONLY) ? ClangGuards.LOWER_ONLY : null;
        if (mine == null) return guard;
        String other = mine.equals(ClangGuards.UPPER_ONLY) ? ClangGuards.LOWER_ONLY : ClangGuards.UPPER_ONLY;
        for (int k2 = k - 1; k2 >= 0; k2--) {
            ClangNode raw = block.children.get(k2);
            ClangNode s = ClangSyntax.labelled(raw);
            String found = null;
            ClangNode check = ClangChecks.ifOf(s);
            if (check != null) found = ClangGuards.chainExit(unit, check, usr, check != s);
            if (found == null) {
                ClangGuards.Clamp c = ClangGuards.conditionalClamp(unit, s, usr);
                if (c != null) found = c.describe();
            }
            if (found != null && found.endsWith(other)) return BOUNDS + cut(found, other) + " and " + cut(guard, mine);
            if (found != null || ClangGuards.writes(s, usr) || raw != s) break;
        }
        return guard;
    }

    private static String cut(String guard, String side) {
        return guard.substring(0, guard.length() - side.length());
    }
}
