package dev.numlint.validation.input;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.SplittableRandom;

/**
 * How the values of an input array are drawn. Kinds:
 * <ul>
 *   <li>{@code uniform} min..max (integers for integer types);</li>
 *   <li>{@code mixed}: mixed magnitudes as in the global-summation benchmark of 001_*.txt: half the values from
 *       (10^-k, 10^-k+1) and (10^k, 10^k+1), the other half their negatives, shuffled, so the exact sum is 0;</li>
 *   <li>{@code conversion}: negatives, in-range and out-of-range values for float-to-integer conversions of the
 *       given integer width (bits), including fractions and NaN-free extremes;</li>
 *   <li>{@code subnormal}: values around the float normal/subnormal boundary (2^-149 .. 2^-120), both signs;</li>
 *   <li>{@code constant} value; {@code sequence}: 0, 1, 2, ...; {@code values}: the listed values, cyclically.</li>
 * </ul>
 */
@JsonInclude(JsonInclude.Include.NON_DEFAULT)
public final class Distribution {
    public String kind = "uniform";
    public double min = -1, max = 1;
    public int k = 4;
    public int bits = 16;
    public double value;
    /** For kind "values": the values, repeated cyclically. */
    public double[] values;

    /**
     * The input set of the host code's fills: buffers the host code fills with a constant get that constant (see
     * {@link ParamSpec#hostFill}), the other inputs uniform(min, max); {@link #label} says exactly which.
     */
    public static final String HOST_FILL = "host-fill";

    /** For kind host-fill: the description of the set, naming each filled buffer and its value. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public String label;

    public Distribution() {}

    public static Distribution uniform(double min, double max) {
        Distribution d = new Distribution();
        d.min = min;
        d.max = max;
        return d;
    }

    public static Distribution of(String kind) {
        Distribution d = new Distribution();
        d.kind = kind;
        return d;
    }

    @Override
    public String toString() {
        switch (kind) {
            case "uniform":
                return "uniform(" + min + ", " + max + ")";
            case "mixed":
                return "mixed(10^-" + k + ", 10^" + k + ")";
            case "conversion":
                return "conversion(" + bits + "-bit range)";
            case "constant":
                return "constant(" + value + ")";
            case HOST_FILL:
                return label;
            default:
                return kind;
        }
    }

    /** n values for an element type (f32/f64 or an integer type). */
    public double[] sample(int n, boolean integer, SplittableRandom rnd) {
        double[] v = new double[n];
        switch (kind) {
            case "uniform":
            case HOST_FILL: // buffers the host code does not fill: uniform(min, max)
                for (int i = 0; i < n; i++) {
                    v[i] = integer
                            ? Math.floor(min + rnd.nextDouble() * (max - min + 1))
                            : min + rnd.nextDouble() * (max - min);
                    if (integer && v[i] > max) v[i] = max;
                }
                return v;
            case "mixed": {
                int half = n / 2;
                double small = Math.pow(10, -k), large = Math.pow(10, k);
                for (int i = 0; i < half; i++) {
                    double base = (i % 2 == 0) ? small : large;
                    v[i] = base + rnd.nextDouble() * 1.0;
                    if (integer) v[i] = Math.floor(v[i]);
                    v[half + i] = -v[i];
                }
                if (n % 2 == 1) v[n - 1] = 0;
                for (int i = n - 1; i > 0; i--) { // Fisher-Yates
                    int j = rnd.nextInt(i + 1);
                    double t = v[i];
                    v[i] = v[j];
                    v[j] = t;
                }
                return v;
            }
            case "conversion": {
                double range = Math.pow(2, bits);
                for (int i = 0; i < n; i++) {
                    double u = rnd.nextDouble();
                    int which = rnd.nextInt(4);
                    switch (which) {
                        case 0:
                            v[i] = -u * 100;
                            break; // small negatives: -69.235 style
                        case 1:
                            v[i] = u * range;
                            break; // in range
                        case 2:
                            v[i] = range + u * range;
                            break; // above the range
                        default:
                            v[i] = -range * u;
                            break; // large negatives
                    }
                }
                return v;
            }
            case "subnormal":
                for (int i = 0; i < n; i++) {
                    double e = -149 + rnd.nextDouble() * 30;
                    v[i] = Math.pow(2, e) * (rnd.nextBoolean() ? 1 : -1);
                }
                return v;
            case "constant":
                java.util.Arrays.fill(v, value);
                return v;
            case "sequence":
                for (int i = 0; i < n; i++) v[i] = i;
                return v;
            case "values":
                if (values == null || values.length == 0)
                    throw new IllegalArgumentException("distribution 'values' without values");
                for (int i = 0; i < n; i++) v[i] = values[i % values.length];
                return v;
            default:
                throw new IllegalArgumentException("unknown distribution kind '" + kind + "'");
        }
    }
}
