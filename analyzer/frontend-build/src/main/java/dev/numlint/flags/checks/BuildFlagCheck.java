package dev.numlint.flags.checks;

import dev.numlint.spi.RuleCheck;
import java.util.function.Consumer;

/**
 * One rule's check at the build-flags layer: reads the interpreted flags of one compilation scope (a
 * compile_commands.json entry, a CMake directory or target, a Makefile command or its flag variables) and reports
 * hazards. Implementations are registered with {@code @AutoService(BuildFlagCheck.class)} and found by
 * {@link dev.numlint.spi.Checks#load}.
 */
public interface BuildFlagCheck extends RuleCheck {
    void check(FlagFacts facts, Consumer<FlagHazard> out);
}
