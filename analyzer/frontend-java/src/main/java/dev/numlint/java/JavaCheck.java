package dev.numlint.java;

import dev.numlint.spi.RuleCheck;

/**
 * One rule on the Java source layer. The front end computes a compilation unit's facts once ({@link JavaUnit}:
 * types, ranges and guards, loops and trip counts, compensated sums, unsigned uses, the nodes each rule looks at,
 * and where a value goes) and hands them to every registered check. Register an implementation with
 * {@code @AutoService(JavaCheck.class)}; the analyzer's implemented rules are derived from the registrations.
 */
public interface JavaCheck extends RuleCheck {
    /** Reports this rule's findings in {@code unit} through {@link JavaUnit#report}. */
    void check(JavaUnit unit);
}
