package dev.numlint.ptx;

import java.util.Map;

/**
 * Which instantiation of a template a PTX finding describes. The PTX of each instantiation of a template is its own
 * function, and their occurrences of one written line merge into one finding that shows the gravest ({@link
 * PtxFindings}); when that one alone is so grave, the message names it ({@code momentum * rm[0] + (1 - momentum) *
 * m[0]} of {@code kernel<float>}, {@code kernel<double>} and {@code kernel<int>}: only the int one converts the
 * contracted value to an integer; session 67 round A, a neural-network library's batch-norm updates).
 */
final class PtxInstantiations {
    private PtxInstantiations() {}

    /**
     * {@code message} naming the instantiation {@code shown} (a mangled name) when it is the only function of
     * {@code kinds} (each function's gravest occurrence, by rank: lower is graver) at its rank and builtin template
     * arguments name it; else null.
     */
    static String named(String shown, Map<String, Integer> kinds, String message) {
        if (shown == null || kinds.size() < 2) return null;
        Integer rank = kinds.get(shown);
        // the one instantiation whose occurrence is this grave: "only" is true of it
        if (rank == null || kinds.values().stream().filter(k -> k <= rank).count() != 1) return null;
        String args = dev.numlint.util.Demangler.templateArguments(shown);
        if (args == null) return null;
        String name = Demangler.simpleName(shown);
        name = name.substring(name.lastIndexOf(':') + 1);
        return dev.numlint.rules.RuleCatalog.get()
                .phrase("ptx-in-instantiation", "message", message, "fn", name + "<" + args + ">");
    }
}
