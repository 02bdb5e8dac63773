package dev.numlint.ptx;

import dev.numlint.knowledge.NumericFacts;
import java.util.Set;

/** The toolkit's math routines as PTX names them. */
final class ToolkitRoutines {
    private ToolkitRoutines() {}

    /** Rounding, selection and classification routines the math library adds to {@link NumericFacts#MATH_LIBRARY}. */
    private static final Set<String> OTHERS = Set.of(
            "fabs",
            "abs",
            "ceil",
            "floor",
            "trunc",
            "round",
            "rint",
            "fmin",
            "fmax",
            "isinf",
            "isnan",
            "isfinite",
            "signbit",
            "finite",
            "fma");

    /**
     * Whether the PTX function {@code name} is one of the toolkit's math routines ({@code sqrtf}, {@code ceilf},
     * {@code __isinff}, {@code std::sqrt(float)}), which a device-debug build ({@code -G}) emits as functions of their
     * own without a source position: their instructions (the {@code sqrt.approx} fast math gives) are the library's,
     * not an operation written at line 1 of the unit (session 46: an image-processing code built with {@code -G} had
     * four NL006 warnings at line 1 named after {@code sqrtf} and {@code expf}).
     */
    static boolean is(String name) {
        if (name == null) return false;
        String s = name.startsWith("_ZSt") ? Demangler.simpleName(name) : name;
        if (!name.startsWith("_ZSt") && !s.matches("[A-Za-z_][A-Za-z0-9_]*")) return false;
        s = s.replaceFirst("^(std::)?(__)?", "");
        String base = s.endsWith("f") && s.length() > 2 ? s.substring(0, s.length() - 1) : s;
        return NumericFacts.MATH_LIBRARY.contains(s)
                || NumericFacts.MATH_LIBRARY.contains(base)
                || OTHERS.contains(s)
                || OTHERS.contains(base);
    }
}
