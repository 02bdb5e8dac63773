package dev.numlint.ptx.checks;

import dev.numlint.ptx.facts.PtxFacts;
import dev.numlint.ptx.rules.PtxHit;
import dev.numlint.spi.RuleCheck;
import java.util.function.Consumer;

/**
 * One rule's check at the PTX layer: reads the facts of one function and reports hits. Implementations are
 * registered with {@code @AutoService(PtxCheck.class)} and found by {@link dev.numlint.spi.Checks#load}.
 */
public interface PtxCheck extends RuleCheck {
    void check(PtxFacts facts, Consumer<PtxHit> out);
}
