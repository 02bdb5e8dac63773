package dev.numlint.rules;

import dev.numlint.model.Finding;

/**
 * A finding in a function that the build compiles but that no code of its programs calls is a note that says so: a
 * hazard there cannot change what the program computes ("consequence over existence"). It is still reported, with the
 * property {@code notCalled} giving the reason, so that a reader who calls it from elsewhere sees it with
 * {@code --notes}. The one home of that decision; the CUDA front end's review ({@code UnreachableCode}) decides which
 * functions no code that runs calls.
 */
public final class NotCalledNote {
    private NotCalledNote() {}

    /** {@code b} as a note saying why its function never runs ({@code why}); a note already is left as it is. */
    public static Finding.Builder apply(Finding.Builder b, String why) {
        return NotCompiledNote.note(b, "not-called", "notCalled", why);
    }
}
