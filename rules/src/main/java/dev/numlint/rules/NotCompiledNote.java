package dev.numlint.rules;

import dev.numlint.model.Finding;
import dev.numlint.model.Level;

/**
 * A finding in code that the configured build does not compile is a note that says so: a hazard there cannot change
 * what this configuration computes ("consequence over existence"). It is still reported, with the property
 * {@code notCompiled} giving the reason, so that a reader who builds another configuration sees it with
 * {@code --notes}. The one home of that decision: the build model's review applies it to the findings of a file the
 * build does not compile, the PTX layer to every finding of a unit the build does not compile, wherever the finding
 * lands (a header that compiled units share).
 */
public final class NotCompiledNote {
    private NotCompiledNote() {}

    /** {@code b} as a note saying why its code is not compiled ({@code why}); a note already is left as it is. */
    public static Finding.Builder apply(Finding.Builder b, String why) {
        return note(b, "not-compiled", "notCompiled", why);
    }

    /**
     * {@code b} as a note whose message ends with the catalog's {@code phrase} (where it fits in a message) and whose
     * {@code property} says why; a note already is left as it is. Shared with {@link NotCalledNote}.
     */
    static Finding.Builder note(Finding.Builder b, String phrase, String property, String why) {
        if (b.level() == Level.NOTE) return b;
        String message = b.message();
        String stated = RuleCatalog.get().phrase(phrase, "message", message);
        return b.level(Level.NOTE)
                .message(message == null || stated.length() > Quote.MESSAGE ? message : stated)
                .property(property, why);
    }
}
