package dev.numlint.cuda.clang;

import dev.numlint.knowledge.ValueBounds;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The type arguments of a template pattern's instantiations, as the facts of its expressions use them: whether a
 * dependent expression is a float in an instantiation in view, and the interval of a value of a type parameter while
 * one instantiation's arguments are bound ({@link #hull}). A conversion in a class template's member is judged for the
 * instantiations that make it one: {@code Float inv = (Float)1 / f; x *= inv;} in {@code vec1<T>::operator/(T f)}
 * converts to {@code unsigned int} in {@code vec1<unsigned>}, where {@code f} is not negative, so neither is {@code
 * inv} (session 81 round K: a particle solver's vector classes, five false NL001 errors "nothing bounds 'inv' below").
 */
final class ClangTypeArguments {
    private ClangTypeArguments() {}

    /** A type parameter of the pattern's own depth, as Clang spells its canonical type ("type-parameter-0-K"). */
    private static final Pattern TYPE_PARAMETER = Pattern.compile("^(?:const )?type-parameter-0-(\\d+)(?: const)?$");

    /** A value of a type parameter, perhaps by reference: its interval when the parameter is bound. */
    private static final Pattern VALUE_OF_PARAMETER =
            Pattern.compile("^(?:const )?type-parameter-0-(\\d+)(?: const)?(?: &&?)?$");

    /** The arguments bound on this thread while an interval is evaluated for one instantiation, or null. */
    private static final ThreadLocal<List<String>> BOUND = new ThreadLocal<>();

    /**
     * Whether {@code a}, an expression of a template pattern, is a float in an instantiation in view: its type, or,
     * for arithmetic on values of one type parameter (a dependent type: {@code in[i] * in[i] + T(1)}), that
     * parameter, is bound to float by one of the function's instantiations.
     */
    static boolean instantiatedFloat(ClangNode a, ClangUnit.Function fn) {
        Set<Integer> params = new HashSet<>();
        a.forEach(x -> {
            Matcher p = TYPE_PARAMETER.matcher(x.canon == null ? "" : x.canon);
            if (p.matches()) params.add(Integer.parseInt(p.group(1)));
        });
        if (params.size() != 1) return false;
        int k = params.iterator().next();
        for (List<String> args0 : fn.instantiations()) {
            if (k < args0.size() && "float".equals(args0.get(k))) return true; // null: a pack, a value or a template
        }
        return false;
    }

    /** Whether an instantiation's arguments are bound on this thread (memoised answers are then left alone). */
    static boolean bound() {
        return BOUND.get() != null;
    }

    /**
     * The hull of {@code eval}'s intervals with each of {@code instantiations}' arguments bound in turn; {@code eval}
     * alone when there are none (or arguments are bound already).
     */
    static double[] hull(List<List<String>> instantiations, Supplier<double[]> eval) {
        if (instantiations == null || instantiations.isEmpty() || bound()) return eval.get();
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (List<String> args : instantiations) {
            BOUND.set(args);
            try {
                double[] r = eval.get();
                lo = Math.min(lo, r[0]);
                hi = Math.max(hi, r[1]);
            } finally {
                BOUND.remove();
            }
        }
        return new double[] {lo, hi};
    }

    /**
     * The interval of the integer type that the bound instantiation gives {@code n}'s type parameter ({@code T} in
     * {@code vec1<unsigned int>}: [0, 4294967295]), or null (none bound, another type, a floating argument).
     */
    static double[] of(ClangNode n) {
        List<String> args = BOUND.get();
        if (args == null || n.canon == null) return null;
        Matcher m = VALUE_OF_PARAMETER.matcher(n.canon);
        if (!m.matches()) return null;
        int k = Integer.parseInt(m.group(1));
        if (k >= args.size() || args.get(k) == null) return null;
        if (args.get(k).equals("bool")) return new double[] {0, 1};
        ClangTemplates.Target t = ClangTemplates.target(args.get(k));
        return t == null ? null : ValueBounds.ofInteger(t.bytes(), t.unsigned());
    }
}
