package dev.numlint.model;

/**
 * A function the scanned tree defines or declares, as a typed fact of the scan
 * ({@link dev.numlint.spi.ScanContext#addFunctions}): the front ends' reviews judge a finding of one function against
 * the other functions of the project (a float routine with a double twin, {@code sdot}/{@code ddot}).
 *
 * @param file     where it is defined or declared, a path as the scan relativizes it
 * @param name     its name as written (no class or namespace qualifier)
 * @param floating the floating type it computes in as its signature shows it: its first floating parameter's type
 *                 (the element type of a pointer or array), else its floating return type ({@code float},
 *                 {@code double}, {@code half}, ...); null when its signature shows no floating type
 * @param device   whether it is device code ({@code __device__} or {@code __global__}): a scan that holds some has
 *                 device code even where no file is named {@code .cu} (a header-only CUDA library)
 * @param line     the first line of its definition, 0 where not told
 * @param endLine  the last line of its definition, 0 where not told
 * @param template for a definition with its lines: "" for a function that is no template pattern; for a template
 *                 pattern (a member function of a class template, or a function template) the class template it is
 *                 a member of, or "-" for a function template; null for a declaration or where not told. The CUDA
 *                 front end's review follows which definitions code that runs names (C++ instantiates a pattern only
 *                 where code names it).
 */
public record DeclaredFunction(
        String file, String name, String floating, boolean device, int line, int endLine, String template) {
    /** A function as its signature shows it, without its lines. */
    public DeclaredFunction(String file, String name, String floating, boolean device) {
        this(file, name, floating, device, 0, 0, null);
    }

    /** A function of host code (or of a front end that does not tell). */
    public DeclaredFunction(String file, String name, String floating) {
        this(file, name, floating, false);
    }

    /** A function that is no template pattern, defined at lines {@code line} to {@code endLine} of {@code file}. */
    public static DeclaredFunction definition(String file, String name, int line, int endLine) {
        return new DeclaredFunction(file, name, null, false, line, endLine, "");
    }

    /** A template pattern defined at lines {@code line} to {@code endLine} of {@code file}. */
    public static DeclaredFunction templatePattern(String file, String name, String owner, int line, int endLine) {
        return new DeclaredFunction(file, name, null, false, line, endLine, owner == null ? "-" : owner);
    }
}
