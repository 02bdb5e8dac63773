package dev.numlint.flags.checks;

/** Where a single compiler flag takes effect. */
public enum FlagTarget {
    /** nvcc device code generation. */
    DEVICE,
    /** the host compiler that nvcc runs for the host part of .cu files (-Xcompiler, -m32). */
    CU_HOST,
    /** the host C/C++ compiler for .c/.cpp files. */
    HOST;

    /** The code a flag of this target affects, as messages name it. */
    public String where() {
        return switch (this) {
            case DEVICE -> "CUDA device code";
            case CU_HOST -> "host code of .cu files";
            case HOST -> "host C/C++ code";
        };
    }
}
