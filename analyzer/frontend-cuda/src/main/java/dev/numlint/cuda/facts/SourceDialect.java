package dev.numlint.cuda.facts;

/** How a source file is compiled. */
public enum SourceDialect {
    /** A .c file: C, where sin(float) calls the double sin. */
    C,
    /** A .cpp/.cc/.cxx file: host C++, where std::sin(float) is the float overload. */
    HOST_CXX,
    /** A .cu/.cuh/.h/.hpp file seen by nvcc: CUDA C++ (float overloads of the math functions in device code). */
    CUDA;

    /** Whether math functions have float overloads ({@code sin(x)} with float x computes in float). */
    public boolean floatOverloads() {
        return this != C;
    }
}
