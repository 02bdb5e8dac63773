package dev.numlint.rules;

import dev.numlint.model.Finding;
import dev.numlint.model.Level;

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
        if (b.level() == Level.NOTE) return b;
        String message = b.message();
        String stated = RuleCatalog.get().phrase("not-called", "message", message);
        return b.level(Level.NOTE)
                .message(message == null || stated.length() > Quote.MESSAGE ? message : stated)
                .property("notCalled", why);
    }
}
