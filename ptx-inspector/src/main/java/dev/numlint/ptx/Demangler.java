package dev.numlint.ptx;

/**
 * The demangler's former place: {@link dev.numlint.util.Demangler} (the shared utility room, so that the scan can
 * name kernels without depending on the PTX front end). Kept for validation/, which still imports it here.
 */
public final class Demangler {
    private Demangler() {}

    /** {@link dev.numlint.util.Demangler#simpleName}. */
    public static String simpleName(String mangled) {
        return dev.numlint.util.Demangler.simpleName(mangled);
    }
}
