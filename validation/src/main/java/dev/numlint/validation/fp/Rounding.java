package dev.numlint.validation.fp;

/** IEEE 754 / PTX rounding-direction attributes for floating-point results (.rn .rz .rm .rp). */
public enum Rounding {
    /** Round to nearest, ties to even. */
    RN,
    /** Round toward zero. */
    RZ,
    /** Round toward minus infinity. */
    RM,
    /** Round toward plus infinity. */
    RP;

    /** Parses a PTX modifier without the dot ("rn", "rz", "rm", "rp"); also accepts the integer forms "rni" etc. */
    public static Rounding fromPtx(String m) {
        switch (m) {
            case "rn":
            case "rni":
                return RN;
            case "rz":
            case "rzi":
                return RZ;
            case "rm":
            case "rmi":
                return RM;
            case "rp":
            case "rpi":
                return RP;
            default:
                throw new IllegalArgumentException("not a rounding modifier: " + m);
        }
    }
}
