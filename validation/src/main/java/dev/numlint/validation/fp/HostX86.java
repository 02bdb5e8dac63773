package dev.numlint.validation.fp;

/**
 * What gcc/clang on x86-64 produce for C's undefined float-to-unsigned (and narrow signed) conversions, so that a
 * CPU run can show the host-versus-GPU divergence of NL001/NL011 as a measured difference.
 *
 * <p>gcc -O2 on x86-64 compiles (unsigned char/short)f and (short)f to cvttss2si with a 32-bit destination (the
 * "integer indefinite" 0x80000000 for NaN and out-of-range values) and keeps the low bits; (unsigned int)f to
 * cvttss2si with a 64-bit destination (indefinite 0x8000000000000000) and keeps the low 32 bits; (unsigned long)f
 * compares with 2^63 and converts f or f - 2^63 with the 64-bit form, flipping bit 63 in the second case. So
 * (unsigned short)-69.235f is (int)-69 = 0xFFFFFFBB, low 16 bits 0xFFBB = 65467, where the GPU's cvt saturates to 0.
 */
public final class HostX86 {
    private HostX86() {}

    /** cvttss2si/cvttsd2si with a 32-bit destination. */
    public static int cvtt32(double x) {
        if (x != x || x >= 0x1p31 || x <= -0x1p31 - 1) return Integer.MIN_VALUE;
        return (int) x; // truncates toward zero
    }

    /** cvttss2si/cvttsd2si with a 64-bit destination. */
    public static long cvtt64(double x) {
        if (x != x || x >= 0x1p63 || x < -0x1p63) return Long.MIN_VALUE;
        return (long) x;
    }

    /**
     * (unsigned T) x for an unsigned destination of the given width; x is the float or double source value and
     * sourceIsFloat says whether the subtraction of 2^63 in the 64-bit case happens in single precision.
     */
    public static long floatToUnsigned(double x, int bits, boolean sourceIsFloat) {
        switch (bits) {
            case 8:
                return cvtt32(x) & 0xFFL;
            case 16:
                return cvtt32(x) & 0xFFFFL;
            case 32:
                return cvtt64(x) & 0xFFFFFFFFL;
            case 64:
                if (x >= 0x1p63) { // comiss/ucomisd not-below branch (false for NaN)
                    double y = sourceIsFloat ? (double) ((float) x - 0x1p63f) : x - 0x1p63;
                    return cvtt64(y) ^ Long.MIN_VALUE;
                }
                return cvtt64(x);
            default:
                throw new IllegalArgumentException("bits " + bits);
        }
    }

    /** (signed T) x for a signed destination of 8, 16, 32 or 64 bits, sign-extended to long. */
    public static long floatToSigned(double x, int bits) {
        switch (bits) {
            case 8:
                return (byte) cvtt32(x);
            case 16:
                return (short) cvtt32(x);
            case 32:
                return cvtt32(x);
            case 64:
                return cvtt64(x);
            default:
                throw new IllegalArgumentException("bits " + bits);
        }
    }
}
