package dev.numlint.model;

/** Where a finding was made: which representation of the program was read. */
public enum Layer {
    BUILD_FLAGS("build-flags"),
    CUDA_SOURCE("cuda-source"),
    PTX("ptx"),
    JAVA_SOURCE("java-source"),
    JAVA_BYTECODE("java-bytecode");

    private final String id;

    Layer(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static Layer parse(String s) {
        for (Layer l : values()) {
            if (l.id.equals(s)) {
                return l;
            }
        }
        throw new IllegalArgumentException("unknown layer '" + s + "'");
    }
}
