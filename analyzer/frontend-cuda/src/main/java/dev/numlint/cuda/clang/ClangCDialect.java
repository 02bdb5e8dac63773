package dev.numlint.cuda.clang;

import java.util.List;

/**
 * C as GCC before 14 builds it: what that compiler accepts with a warning and Clang 16 and later reject (function
 * pointers of other parameter types, calls of undeclared functions, pointers stored into integers, implicit int).
 * The build's compiler accepted the file, so Clang reads it as that compiler did (session 73 round B: a rasteriser
 * GCC 12 compiled got 12 Clang errors, and its functions Clang's recovery).
 */
final class ClangCDialect {
    private ClangCDialect() {}

    /** The arguments that make those errors warnings again (the parse's -w then silences them). */
    static final List<String> GCC_LENIENCY = List.of(
            "-Wno-error=incompatible-function-pointer-types",
            "-Wno-error=incompatible-pointer-types",
            "-Wno-error=int-conversion",
            "-Wno-error=implicit-function-declaration",
            "-Wno-error=implicit-int",
            "-Wno-error=return-type");
}
