package dev.numlint.validation.input;

import com.fasterxml.jackson.annotation.JsonInclude;

/** One kernel parameter in a spec file: an array (device buffer) or a scalar. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class ParamSpec {
    /** Parameter name (the PTX name or the source name); optional when listed in order. */
    public String name;
    /** "array", "scalar" or "bytes" (an aggregate passed by value; length bytes, from values or zero). */
    public String kind = "array";
    /** Element type: f32, f64, s32, u32, s16, u16, s8, u8, s64, u64. */
    public String type = "f32";
    /** Number of elements of an array; null means the launch's element count. */
    public Integer length;
    /** "in", "out" or "inout". */
    public String direction = "in";

    public Distribution distribution;
    /**
     * The constant the host code fills this input buffer with (e.g. {@code std::vector<float> a(n, 1.0f)}): used for
     * one input set of its own (the "host fill" set), never for all of them; null when the host code shows none.
     */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public Double hostFill;
    /** Scalar value; null means: the element count for integer scalars, a draw from distribution otherwise. */
    public Double value;
    /** For kind "bytes": the aggregate's bytes (missing ones are 0). */
    public int[] bytes;

    public ParamSpec() {}

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isArray() {
        return "array".equals(kind);
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isOutput() {
        return "out".equals(direction) || "inout".equals(direction);
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isInput() {
        return !"out".equals(direction);
    }

    @Override
    public String toString() {
        return (name == null ? "?" : name) + ":" + kind + "<" + type + ">"
                + (isArray() ? "[" + (length == null ? "n" : length) + "] " + direction : "");
    }
}
