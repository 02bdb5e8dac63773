package dev.numlint.cuda.facts;

import dev.numlint.model.BuildContext;

/**
 * A build flag cited by a flag-driven finding: its text ("--use_fast_math (set at CMakeLists.txt:12)") and, when the
 * build model knows it, where it was set.
 */
public record FlagCitation(String text, BuildContext.FlagOrigin origin) {}
