package dev.numlint.cuda.facts;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * The shape of the two components of a complex product or a 2-D rotation, {@code p*q - r*s} and its companion
 * {@code p*s + r*q}, on the sorted factor texts of the two products each component adds or subtracts; shared by the
 * front ends, which read the factors from their own trees ({@code FunctionFacts.Contraction#pairedComponent}).
 */
public final class ProductPairs {
    /** How many lines apart the two components of a complex product or rotation may be written. */
    public static final int SPAN = 12;

    private ProductPairs() {}

    /**
     * {g0, g1} is {f0, f1} with one factor of f0 and one (different) factor of f1 exchanged: {@code p*q, r*s} and
     * {@code p*s, r*q}. Each list holds one product's factor texts, sorted.
     */
    public static boolean swapped(List<String> f0, List<String> f1, List<String> g0, List<String> g1) {
        for (String x : new HashSet<>(f0)) {
            for (String y : new HashSet<>(f1)) {
                if (x.equals(y)) continue;
                List<String> h0 = new ArrayList<>(f0);
                h0.remove(x);
                h0.add(y);
                h0.sort(null);
                List<String> h1 = new ArrayList<>(f1);
                h1.remove(y);
                h1.add(x);
                h1.sort(null);
                if (h0.equals(g0) && h1.equals(g1) || h0.equals(g1) && h1.equals(g0)) return true;
            }
        }
        return false;
    }
}
