package dev.numlint.cuda.facts;

import java.util.regex.Pattern;

/**
 * What the names in a loop tell, where the code gives nothing better (one home for both front ends): a loop bound
 * that counts spatial dimensions ({@code d < ndim}, {@code k < dims}) runs 2 or 3 times; an accumulator named for
 * time ({@code elapsedMs += dt}) measures time, not data.
 */
public final class LoopNames {
    private static final Pattern DIMENSIONS = Pattern.compile("(?i)(n_?|num_?)?dim(s|ension|ensions)?|n?dims?|rank");
    private static final Pattern TIMING = Pattern.compile("(?i)(time|elapsed|duration|clock|msec|millis|seconds)");

    /** The trip count taken for a loop over the dimensions of a point or vector (2 or 3 terms). */
    public static final long DIMENSION_TRIPS = 3;

    private LoopNames() {}

    /** Whether a loop bound of this name counts spatial dimensions. */
    public static boolean countsDimensions(String bound) {
        return bound != null && DIMENSIONS.matcher(bound).matches();
    }

    /** Whether an accumulator of this (variable) name measures time. */
    public static boolean measuresTime(String accumulator) {
        return accumulator != null && TIMING.matcher(accumulator).find();
    }
}
