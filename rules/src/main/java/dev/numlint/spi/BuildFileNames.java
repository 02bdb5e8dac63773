package dev.numlint.spi;

import java.util.Locale;

/**
 * The one home of which file names are build files that numlint reads: file discovery, the build-file analyzer and
 * the suppression-comment syntax all ask here.
 */
public final class BuildFileNames {
    private BuildFileNames() {}

    /**
     * A makefile: {@code Makefile}, {@code makefile}, {@code GNUmakefile}, {@code *.mk}, {@code *.mak}, and a variant
     * a project runs with {@code make -f} ({@code Makefile.cuda}, {@code makefile.gcc}); not an automake or configure
     * template ({@code Makefile.am}, {@code Makefile.in}), which is never run as written.
     */
    public static boolean isMakefile(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        if (lower.equals("makefile") || lower.equals("gnumakefile")) return true;
        if (lower.endsWith(".mk") || lower.endsWith(".mak")) return true;
        if (lower.startsWith("makefile.") && lower.length() > "makefile.".length()) {
            return !lower.equals("makefile.am") && !lower.equals("makefile.in");
        }
        return false;
    }

    /** A CMake file: {@code CMakeLists.txt} or {@code *.cmake}. */
    public static boolean isCMake(String fileName) {
        return fileName.equals("CMakeLists.txt")
                || fileName.toLowerCase(Locale.ROOT).endsWith(".cmake");
    }

    /** Any build file numlint reads: CMake, make, a compile database, {@code setup.py}. */
    public static boolean isBuildFile(String fileName) {
        return isCMake(fileName)
                || isMakefile(fileName)
                || fileName.equals("compile_commands.json")
                || fileName.equals("setup.py");
    }
}
