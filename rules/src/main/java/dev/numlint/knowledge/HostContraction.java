package dev.numlint.knowledge;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Whether a host C/C++ compiler contracts {@code a*b+c} into one fused multiply-add by default (given an instruction
 * set with FMA, {@code -march=haswell} or {@code native}), from the compiler and the language standard of its command.
 *
 * <ul>
 *   <li>GCC: {@code -ffp-contract=fast} by default, except for C in a standards-conforming mode ({@code -std=c99},
 *       {@code c11}, {@code c17}, {@code iso9899:1999} ...), where the default is {@code -ffp-contract=off} (GCC's
 *       manual, {@code -ffp-contract}; checked with gcc 12: {@code -O3 -march=haswell -std=c99} gives no
 *       {@code vfmadd} for {@code return a*b+c;}, {@code -std=gnu99} and {@code -std=c++17} give one).
 *       {@code -ffast-math} and {@code -Ofast} turn contraction back on.</li>
 *   <li>Clang (and the compilers built on it: icx, icpx, hipcc, the AMD and Arm ones): {@code -ffp-contract=on} in
 *       every mode, ISO or GNU (contraction within an expression; checked with clang 19: {@code -std=c99} gives one
 *       {@code vfmadd}).</li>
 * </ul>
 *
 * A compiler not named (a make variable never resolved, {@code cc}) is taken as GCC, the compiler {@code cc} is on
 * the Linux systems numlint's users build on. Pure and without dependencies.
 */
public final class HostContraction {
    private HostContraction() {}

    /** An ISO C standard as GCC spells it: c89, c90, c99, c9x, c11, c1x, c17, c18, c2x, c23, iso9899:YYYY[...]. */
    private static final Pattern ISO_C = Pattern.compile("c(89|90|99|9x|11|1x|17|18|2x|23|2y)|iso9899:\\S+");

    /** Compilers built on Clang: their default is {@code -ffp-contract=on} whatever the standard. */
    private static final Pattern CLANG_FAMILY =
            Pattern.compile("(?:.*[-/])?(?:clang|clang\\+\\+|clang-cl|icx|icpx|hipcc|amdclang|amdclang\\+\\+|armclang|"
                    + "armclang\\+\\+|emcc|em\\+\\+)(?:-\\d+(?:\\.\\d+)*)?(?:\\.exe)?");

    /** Whether {@code std} (the value of {@code -std=}) is an ISO C standard, not a GNU dialect or a C++ one. */
    public static boolean isoC(String std) {
        return std != null && ISO_C.matcher(std.toLowerCase(Locale.ROOT)).matches();
    }

    /** Whether {@code compiler} (the program of a compile command, a path or its name) is built on Clang. */
    public static boolean clangFamily(String compiler) {
        return compiler != null
                && CLANG_FAMILY.matcher(compiler.toLowerCase(Locale.ROOT)).matches();
    }

    /**
     * Whether the compiler's default leaves {@code a*b+c} uncontracted: GCC (or an unnamed compiler) compiling C in
     * an ISO mode. An explicit {@code -ffp-contract=}, {@code -ffast-math} or {@code -Ofast} decides instead.
     */
    public static boolean offByDefault(String compiler, String std) {
        return isoC(std) && !clangFamily(compiler);
    }

    /**
     * Whether the host compiler forms fused multiply-adds at the optimisation level {@code level} (the last {@code -O}
     * of the command without its {@code O}: {@code "0"}, {@code "2"}, {@code "fast"}, {@code ""} for a bare {@code
     * -O}; null when the command has none that numlint saw). GCC contracts from {@code -O2} on ({@code -O2}, {@code -O3},
     * {@code -Os}, {@code -Oz}, {@code -Ofast}); at {@code -O0}, {@code -O1}, {@code -Og} it forms none, whatever
     * {@code -ffp-contract} says (gcc 12, {@code -march=haswell}: {@code return a*b+c;} gives {@code vfmadd} at
     * {@code -O2} and no {@code vfmadd} at {@code -O1} or {@code -Ofast -O0}). Clang's compilers and a command without a
     * level are taken as contracting (a level not seen may be in a variable numlint did not resolve).
     */
    public static boolean optimizes(String compiler, String level) {
        if (level == null || clangFamily(compiler)) return true;
        return !(level.equals("0") || level.equals("1") || level.isEmpty() || level.equals("g"));
    }
}
