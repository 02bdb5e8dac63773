package dev.numlint.ptx;

/**
 * Code the programmer did not write: the CUDA math library's helper functions, and the headers of the toolkit and
 * the system ({@link PtxFindings}, {@link CompiledLines}).
 */
final class LibraryCode {
    private LibraryCode() {}

    /** CUDA math-library helpers emitted as separate functions (__internal_trig_reduction_slowpathd ...). */
    static boolean isLibraryFunction(String name) {
        return name.startsWith("__internal_")
                || name.startsWith("__nv_")
                || name.startsWith("__cuda_")
                || name.startsWith("__cudart_");
    }

    /** Headers of the toolkit and the system: code there is library code, not the programmer's. */
    static boolean isSystemPath(String p) {
        if (p == null) {
            return false;
        }
        String s = p.replace('\\', '/');
        return s.startsWith("/usr/include/")
                || s.startsWith("/usr/lib/")
                || s.contains("/include/cccl/")
                || s.contains("/targets/x86_64-linux/")
                || s.contains("/targets/sbsa-linux/")
                || inCudaInclude(s)
                || s.contains("/include/c++/")
                || s.contains("/crt/");
    }

    /**
     * Whether the path has a {@code /cuda.../include/} segment (what {@code .*\/cuda[^/]*\/include/.*} matches, in
     * linear time: the path comes from PTX text, which may be hostile).
     */
    static boolean inCudaInclude(String s) {
        for (int i = s.indexOf("/cuda"); i >= 0; i = s.indexOf("/cuda", i + 1)) {
            int slash = s.indexOf('/', i + 1);
            if (slash < 0) return false;
            if (s.startsWith("/include/", slash)) return true;
        }
        return false;
    }
}
