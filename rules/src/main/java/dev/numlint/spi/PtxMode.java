package dev.numlint.spi;

/** {@code --ptx}: AUTO compiles .cu files to PTX with nvcc when it is available; OFF never does. */
public enum PtxMode {
    AUTO,
    OFF
}
