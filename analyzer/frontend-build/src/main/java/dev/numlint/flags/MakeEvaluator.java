package dev.numlint.flags;

import dev.numlint.flags.MakeValues.Auto;
import dev.numlint.flags.MakeValues.Scope;

/**
 * The evaluator of a Makefile as the classes split out of {@link MakefileAudit} see it: expanding text in a scope,
 * appending within the budget, and what functions ask of the evaluation ({@code $(shell ...)}, {@code $(eval ...)}).
 * {@link MakeExpander} implements it.
 */
interface MakeEvaluator {
    /** Expands variable references and functions; unknown values become {@link MakeValues#UNKNOWN}. */
    PosText expand(PosText t, Scope scope, Auto auto, int depth);

    /** Appends {@code v} to {@code b}, within the budget. */
    void appendBounded(PosText.Builder b, PosText v);

    /** Two values joined with a space, within the budget. */
    PosText join(PosText a, PosText b);

    /** Throws {@link MakeBudget.OverBudget} when the time budget ran out. */
    void checkTime();

    /** A {@code $(shell ...)} or {@code !=} at (file {@code fi}, {@code line}): never run, its value is unknown. */
    void shell(int fi, int line);

    /** {@code $(eval TEXT)}: TEXT is read as makefile lines while the makefiles are read. */
    PosText eval(PosText body);

    /**
     * A branch of an {@code $(if ...)} whose condition is unknown (it reads a {@code $(shell ...)}): either branch
     * may be the value, so the flags of both are audited as flags of a condition numlint cannot decide.
     */
    void undecided(PosText branch);
}
