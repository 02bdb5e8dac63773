package dev.numlint.model;

/**
 * One piece of evidence for a finding.
 *
 * @param kind "source" (snippet the programmer wrote), "ptx" (instruction the compiler emitted), "flag" (build flag
 *             and where it was set), "bytecode", or "validation"
 * @param text the evidence itself, e.g. {@code cvt.rzi.u16.f32 %rs1, %f3;}
 * @param location where the evidence lives, or null when it is the primary location
 */
public record Evidence(String kind, String text, Location location) {
    public static Evidence source(String text) {
        return new Evidence("source", text, null);
    }
}
