package dev.numlint.cuda;

import dev.numlint.cuda.clang.ClangFrontEnd;
import dev.numlint.model.BuildContext;
import dev.numlint.spi.ScanContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The language and {@code -std} of the build for a header that no compiled unit includes, so Clang reads it alone (no
 * build file gives its compile command): the pair every compiled unit with its own compile command shares, or the most
 * common one (ties: the first in path order). A C project's header is then read as C with the build's {@code -std}, a
 * C++20 project's header with {@code -std=c++20} ({@code concept}), not as CUDA with {@code -std=c++17}.
 *
 * @param language the units' language
 * @param std      their {@code -std} value, or null when their commands name none (the compiler's default)
 * @param units    how many units have this pair
 * @param of       how many units have a compile command of their own
 */
record HeaderDialect(ClangFrontEnd.Language language, String std, int units, int of) {

    /** The build's dialect from the compiled units of the scan, or null when no unit has a compile command. */
    static HeaderDialect of(ScanContext ctx, List<Path> files) {
        Map<String, int[]> counts = new LinkedHashMap<>();
        Map<String, HeaderDialect> pairs = new LinkedHashMap<>();
        int total = 0;
        List<Path> sorted = new ArrayList<>(files);
        sorted.sort(null);
        for (Path f : sorted) {
            if (SourceKinds.isHeader(f)) continue; // the listed files: no fragment among them
            BuildContext bc = ctx.buildContext(f);
            if (bc == null || ClangFrontEnd.guessed(bc) || bc.compiledVia() != null) continue;
            // a unit the database does not compile has no compile command of its own (session 82: a CMake build of
            // one unit beside 98 Visual Studio ones was "the most common (96 of 99) compile command")
            if (bc.notCompiledReason() != null) continue;
            // a .cu given a host entry's flags is no compile command of the build
            if (bc.configuration().startsWith("borrowed ")) continue;
            ClangFrontEnd.Language lang = Boolean.TRUE.equals(bc.compiledAsCuda())
                    ? ClangFrontEnd.Language.CUDA
                    : switch (SourceKinds.dialect(f, bc)) {
                        case HOST_C -> ClangFrontEnd.Language.C;
                        case HOST_CXX -> ClangFrontEnd.Language.CXX;
                        default -> ClangFrontEnd.Language.CUDA;
                    };
            String std = std(bc.nvccFlags());
            String key = lang + " " + std;
            counts.computeIfAbsent(key, k -> new int[1])[0]++;
            pairs.putIfAbsent(key, new HeaderDialect(lang, std, 0, 0));
            total++;
        }
        String best = null;
        for (Map.Entry<String, int[]> e : counts.entrySet()) {
            if (best == null || e.getValue()[0] > counts.get(best)[0]) best = e.getKey();
        }
        if (best == null) return null;
        HeaderDialect p = pairs.get(best);
        return new HeaderDialect(p.language(), p.std(), counts.get(best)[0], total);
    }

    /**
     * The language the hand-written front end reads {@code file} in: a header no compiled unit includes (its compile
     * command guessed) in the build's language ({@link #languageOf}), any other file in {@code otherwise}.
     */
    static dev.numlint.cuda.Preprocessor.Dialect of(
            CudaScanRun run, Path file, BuildContext bc, dev.numlint.cuda.Preprocessor.Dialect otherwise) {
        if (!applies(run, file, bc)) return otherwise;
        return switch (run.headerDialect.languageOf(file)) {
            case C -> dev.numlint.cuda.Preprocessor.Dialect.HOST_C;
            case CXX -> dev.numlint.cuda.Preprocessor.Dialect.HOST_CXX;
            default -> dev.numlint.cuda.Preprocessor.Dialect.CUDA;
        };
    }

    /**
     * Whether {@code file} takes the build's dialect: a header that no compiled unit includes ({@code compiledVia}
     * unset) and whose context names no {@code -std} of its own (guessed, or a build directory's flags, as CMake's
     * directory context of a header, which lack CMAKE_CUDA_STANDARD's -std).
     */
    static boolean applies(CudaScanRun run, Path file, BuildContext bc) {
        return run.headerDialect != null
                && SourceKinds.isHeader(file)
                && bc.compiledVia() == null
                && std(bc.nvccFlags()) == null;
    }

    /** The last {@code -std} of a compile command's flags, or null. */
    static String std(List<String> flags) {
        String std = null;
        for (int i = 0; i < flags.size(); i++) {
            String f = flags.get(i).strip();
            if (f.startsWith("-std=") || f.startsWith("--std=")) std = f.substring(f.indexOf('=') + 1);
            else if (f.equals("-std") && i + 1 < flags.size())
                std = flags.get(++i).strip();
        }
        return std;
    }

    /** Whether every unit shares the pair. */
    boolean shared() {
        return units == of;
    }

    /**
     * The language Clang reads {@code header} in: a {@code .cuh} stays CUDA; a {@code .hpp} is C++ (CUDA when the
     * units are); a {@code .h} takes the units' language.
     */
    ClangFrontEnd.Language languageOf(Path header) {
        String n = header.getFileName() == null ? "" : header.getFileName().toString();
        String ext = n.substring(n.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        if (ext.equals("cuh")) return ClangFrontEnd.Language.CUDA;
        if (!ext.equals("h") && language == ClangFrontEnd.Language.C) return ClangFrontEnd.Language.CXX;
        return language;
    }

    /**
     * Clang's arguments for the header with the build's {@code -std} in place of the guessed one (when the units name
     * one of the header's language: a C standard for C, a C++ one for C++ and CUDA).
     */
    List<String> apply(Path header, List<String> args) {
        if (std == null) return args;
        boolean cxx = std.contains("++");
        if (cxx == (languageOf(header) == ClangFrontEnd.Language.C)) return args;
        List<String> out = new ArrayList<>(args);
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).startsWith("-std=")) {
                out.set(i, "-std=" + std);
                break;
            }
        }
        return out;
    }

    /** What the notice of the header says about its flags. */
    String describe(Path header) {
        return "no compiled unit includes this header: " + readAlone(header);
    }

    /** How the header is read alone: its language and {@code -std}, and whose compile commands they are. */
    String readAlone(Path header) {
        String lang =
                switch (languageOf(header)) {
                    case C -> "C";
                    case CXX -> "C++";
                    default -> "CUDA";
                };
        boolean applied = std != null && std.contains("++") != (languageOf(header) == ClangFrontEnd.Language.C);
        String what = lang + (applied ? " with -std=" + std : "");
        return "it is read alone as " + what + ", borrowed from "
                + (shared() ? "every" : "the most common (" + units + " of " + of + ")")
                + " compile command of the build";
    }
}
