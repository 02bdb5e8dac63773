package dev.numlint.cuda.facts;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Facts about a function's parameters gathered over its call sites (which random variates or random states a
 * parameter holds), one set of keys per parameter position; both C/C++/CUDA front ends combine them here.
 */
public final class CallSiteKeys {
    private CallSiteKeys() {}

    /** Position-wise intersection of two key lists: a fact must hold at every call site, for every definition. */
    public static List<Set<String>> intersect(List<Set<String>> a, List<Set<String>> b) {
        List<Set<String>> out = new ArrayList<>();
        for (int k = 0; k < Math.min(a.size(), b.size()); k++) {
            Set<String> s = new LinkedHashSet<>(a.get(k));
            s.retainAll(b.get(k));
            out.add(s);
        }
        return out;
    }
}
