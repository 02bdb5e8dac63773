package dev.numlint.rules;

import dev.numlint.model.Finding;
import dev.numlint.model.Level;

/**
 * A finding that holds only for values of a function's parameters that no call of the program passes is a note that
 * says so: an unguarded conversion of a parameter every caller passes non-negative cannot wrap in this program
 * ("consequence over existence"). It is still reported, with the property {@code callersInRange} naming the calls, so
 * that a reader who adds a caller sees it with {@code --notes}. The one home of that decision; the CUDA front end's
 * review ({@code CallerRanges}) decides which findings it applies to.
 */
public final class CallerRangeNote {
    private CallerRangeNote() {}

    /**
     * {@code b} as a note saying that every call of {@code function} passes {@code params} non-negative, at
     * {@code calls} (where they are, shortened); a note already is left as it is.
     */
    public static Finding.Builder apply(Finding.Builder b, String function, String params, String calls) {
        if (b.level() == Level.NOTE) return b;
        String message = b.message();
        String why = "every call of '" + function + "' in the program passes " + params + " >= 0: " + calls;
        return b.level(Level.NOTE)
                .message(
                        message == null
                                ? null
                                : RuleCatalog.get()
                                        .remark(
                                                "callers-in-range",
                                                message,
                                                "fn",
                                                "'" + function + "'",
                                                "names",
                                                params,
                                                "where",
                                                calls))
                .property("callersInRange", why);
    }
}
