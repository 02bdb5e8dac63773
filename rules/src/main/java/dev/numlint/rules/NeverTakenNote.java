package dev.numlint.rules;

import dev.numlint.model.Finding;

/**
 * A finding in a branch that a constant test never takes ({@code else} of {@code if (1)}, {@code if (0)}) is a note
 * that says so: the compiler drops the branch, and a hazard there cannot change what the program computes
 * ("consequence over existence"). It is still reported, with the property {@code neverTaken} giving the branch, so
 * that a reader who turns the test around sees it with {@code --notes}. The one home of that decision; the CUDA
 * front end finds the branches (Clang folds their tests).
 */
public final class NeverTakenNote {
    private NeverTakenNote() {}

    /** {@code b} as a note naming the branch never taken ({@code why}); a note already is left as it is. */
    public static Finding.Builder apply(Finding.Builder b, String why) {
        return NotCompiledNote.note(b, "never-taken", "neverTaken", why);
    }
}
