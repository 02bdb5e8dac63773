package dev.numlint.cuda;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/** What a C, C++ or CUDA file is from its name: a header, and the language its extension says it is compiled in. */
final class SourceKinds {
    /** Host sources compiled by the host compiler. */
    static final Set<String> HOST_EXTENSIONS = Set.of("c", "cc", "cpp", "cxx");

    private SourceKinds() {}

    /** A header (.cuh, .h, .hpp): compiled only as part of the files that include it. */
    static boolean isHeader(Path f) {
        String n = f.getFileName() == null ? "" : f.getFileName().toString();
        String ext = n.substring(n.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        return ext.equals("cuh") || ext.equals("h") || ext.equals("hpp");
    }

    /** How a file is compiled, from its extension: .c as C, .cpp/.cc/.cxx as host C++, the rest through nvcc. */
    static Preprocessor.Dialect dialect(Path file) {
        String n = file.getFileName() == null ? "" : file.getFileName().toString();
        String ext = n.substring(n.lastIndexOf('.') + 1);
        if (ext.equals("c")) return Preprocessor.Dialect.HOST_C; // .C (upper case) is C++
        ext = ext.toLowerCase(Locale.ROOT);
        return HOST_EXTENSIONS.contains(ext) ? Preprocessor.Dialect.HOST_CXX : Preprocessor.Dialect.CUDA;
    }

    /**
     * How a file is compiled by its compile command: a {@code .c} file that the command builds as C++ ({@code g++ -c
     * x.c}, {@code -x c++}) is C++ (session 77 round C: a solver's {@code .c} files include {@code <cstdio>}, and
     * Clang read as C stopped at it); otherwise by its extension ({@link #dialect(Path)}).
     */
    static Preprocessor.Dialect dialect(Path file, dev.numlint.model.BuildContext bc) {
        Preprocessor.Dialect d = dialect(file);
        return d == Preprocessor.Dialect.HOST_C && bc != null && bc.cFileCompiledAsCxx()
                ? Preprocessor.Dialect.HOST_CXX
                : d;
    }

    /** The dialect the checks read ({@link dev.numlint.cuda.facts.SourceDialect}) of a preprocessing dialect. */
    static dev.numlint.cuda.facts.SourceDialect sourceDialect(Preprocessor.Dialect d) {
        return switch (d) {
            case HOST_C -> dev.numlint.cuda.facts.SourceDialect.C;
            case HOST_CXX -> dev.numlint.cuda.facts.SourceDialect.HOST_CXX;
            default -> dev.numlint.cuda.facts.SourceDialect.CUDA;
        };
    }
}
