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
 */
public record DeclaredFunction(String file, String name, String floating, boolean device) {
    /** A function of host code (or of a front end that does not tell). */
    public DeclaredFunction(String file, String name, String floating) {
        this(file, name, floating, false);
    }
}
