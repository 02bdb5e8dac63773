package dev.numlint.scan;

import dev.numlint.model.Finding;
import dev.numlint.model.Impact;
import java.util.List;

/**
 * Roundings the CUDA source layer proved continuous (an interpolation's index whose weight moves with it, a periodic
 * wrap): the PTX layer's "rounded to an integral value" there is the same rounding and raises no source finding in
 * {@link LayerMerge}, whether the source found the value otherwise only stored (its bounded impact's sink names the
 * rounding) or deciding something else too (a sampling helper's border test: {@link Finding#CONTINUOUS_ROUNDINGS}).
 */
final class ContinuousRoundings {
    private ContinuousRoundings() {}

    /** Whether the PTX layer's consequence {@code ptx} is a rounding {@code src} proved continuous. */
    static boolean provenAt(Finding src, Impact ptx) {
        return sameContinuousRounding(src.impact(), ptx) || continuousThere(src, ptx);
    }

    /**
     * Whether the PTX layer's consequence is a rounding at the place where the source layer's bounded impact names the
     * rounding it proved continuous (its sink: an interpolation's index, a periodic wrap).
     */
    private static boolean sameContinuousRounding(Impact src, Impact ptx) {
        return src != null
                && src.kind() == Impact.Kind.BOUNDED
                && src.sink() != null
                && ptx != null
                && ptx.kind() == Impact.Kind.AMPLIFIED
                && ptx.reach() == Impact.Reach.CONVERSION
                && ptx.sink() != null
                && ptx.sink().file().equals(src.sink().file())
                && ptx.sink().startLine() == src.sink().startLine();
    }

    /**
     * Whether the PTX layer's consequence is a rounding at a line where the source layer proved the value's rounding
     * continuous ({@link Finding#CONTINUOUS_ROUNDINGS}).
     */
    private static boolean continuousThere(Finding src, Impact ptx) {
        return ptx != null
                && ptx.kind() == Impact.Kind.AMPLIFIED
                && ptx.reach() == Impact.Reach.CONVERSION
                && ptx.sink() != null
                && src.location() != null
                && ptx.sink().file().equals(src.location().file())
                && src.properties().get(Finding.CONTINUOUS_ROUNDINGS) instanceof List<?> lines
                && lines.contains(ptx.sink().startLine());
    }
}
