package dev.numlint.model;

/**
 * What a front end saw of the floating-point arithmetic of one compiled unit, as a typed fact for the review of
 * build-flag findings ({@link dev.numlint.spi.ScanContext#addUnitArithmetic}): whether its device code computes in
 * single precision, which is all that nvcc's fast-math flags change ({@code --use_fast_math}: approximate f32
 * division, square root and transcendentals, f32 denormals flushed to zero).
 *
 * @param file        the unit, a path as the scan relativizes it (the {@code .cu} file nvcc compiled)
 * @param layer       the layer that saw it: {@link Layer#PTX} (the compiled code, preferred over the source) or
 *                    {@link Layer#CUDA_SOURCE}
 * @param floatOp     the first single-precision operation of the unit's device code as the layer shows it (a PTX
 *                    instruction, a source expression), or null when every device operation is double (or integer)
 * @param floatAt     where that operation is, or null (no operation, or the layer cannot place it)
 */
public record UnitArithmetic(String file, Layer layer, String floatOp, Location floatAt) {
    /** Whether the unit's device code does no single-precision arithmetic. */
    public boolean doubleOnly() {
        return floatOp == null;
    }
}
