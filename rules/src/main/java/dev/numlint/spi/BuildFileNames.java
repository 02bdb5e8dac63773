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

    /**
     * A build file numlint does not evaluate but reads for the place a flag is written (the build-flag layer's
     * {@code WrittenFlags}): meson's {@code meson.build}, {@code meson_options.txt} and {@code meson.options};
     * autoconf's {@code configure.ac} and {@code configure.in}; automake's {@code Makefile.am}. Each has '#' comments.
     */
    public static boolean isFlagSource(String fileName) {
        return switch (fileName) {
            case "meson.build",
                    "meson_options.txt",
                    "meson.options",
                    "configure.ac",
                    "configure.in",
                    "Makefile.am" -> true;
            default -> false;
        };
    }

    /** Any build file numlint reads: CMake, make, meson, autotools, a compile database, {@code setup.py}. */
    public static boolean isBuildFile(String fileName) {
        return isFlagSource(fileName)
                || isCMake(fileName)
                || isMakefile(fileName)
                || fileName.equals("compile_commands.json")
                || fileName.equals("setup.py");
    }
}
