package dev.numlint.flags.checks;

import dev.numlint.flags.FlagTok;
import dev.numlint.model.Location;

/**
 * One flag of a compilation scope after {@code -Xcompiler} unpacking: where it takes effect, its canonical name
 * (leading dashes removed) and value ({@code -prec-div=false}: name {@code prec-div}, value {@code false}).
 *
 * @param flag   the flag as written, e.g. {@code -prec-div=false} or {@code -arch sm_90}
 * @param origin the build-file argument it comes from (condition, carrying construct)
 * @param loc    where the flag was written
 */
public record FlagEntry(FlagTarget target, String flag, String name, String value, FlagTok origin, Location loc) {
    /** Whether the flag applies only under a condition (an if(), ifeq, an unselected configuration). */
    public boolean conditional() {
        return origin.condition() != null;
    }
}
