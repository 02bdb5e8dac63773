package dev.numlint.validation;

import static dev.numlint.validation.Elements.size;

import dev.numlint.validation.input.Distribution;
import dev.numlint.validation.input.KernelSpec;
import dev.numlint.validation.input.ParamSpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The generated inputs of a kernel: which distributions its input sets use (chosen by its hazards; the host code's
 * constant fill is one set among them), the arguments of one set, and the outputs a run returns.
 */
final class InputSets {
    private InputSets() {}

    /** Outputs of one run: per output parameter index the bytes, plus reference doubles for f32 outputs. */
    static final class Outputs {
        final Map<Integer, byte[]> bytes = new LinkedHashMap<>();
        final Map<Integer, double[]> ref = new HashMap<>();
    }

    /** The bytes of an aggregate passed by value. */
    static final class Aggregate {
        final byte[] bytes;

        Aggregate(byte[] bytes) {
            this.bytes = bytes;
        }
    }

    static final class InputSet {
        final List<Object> args = new ArrayList<>(); // byte[] or Long
        int n;
    }
    /** Input distributions per set, chosen by the hazards (conversion ranges for NL001, subnormals for NL007...). */
    static List<Distribution> distributions(Map<String, KernelHazards.Hit> hits, KernelSpec ks) {
        List<Distribution> d = new ArrayList<>();
        List<String> filled = new ArrayList<>();
        for (ParamSpec ps : ks.params) if (ps.hostFill != null) filled.add(ps.name + " = " + ps.hostFill);
        if (!filled.isEmpty()) {
            // the host code's constant fill is one input set among the generated ones, never all of them
            Distribution host = Distribution.uniform(-1, 1);
            host.kind = Distribution.HOST_FILL;
            host.label = "host code's fill (" + String.join(", ", filled) + "; other inputs uniform(-1.0, 1.0))";
            d.add(host);
        }
        d.add(Distribution.uniform(-1, 1));
        if (RulePolicies.wantsInputs(hits, "conversion")) {
            Distribution c = Distribution.of("conversion");
            c.bits = 16;
            d.add(c);
        }
        Distribution mixed = Distribution.of("mixed");
        d.add(mixed);
        if (RulePolicies.wantsInputs(hits, "subnormal")) d.add(Distribution.of("subnormal"));
        d.add(Distribution.uniform(0.5, 1000));
        return d;
    }

    static InputSet inputs(KernelSpec ks, int n, Distribution dflt, SplittableRandom rnd) {
        InputSet in = new InputSet();
        in.n = n;
        for (ParamSpec ps : ks.params) {
            boolean integer = !ps.type.startsWith("f");
            if (ps.isArray()) {
                int len = ps.length != null ? ps.length : n;
                ByteBuffer b = ByteBuffer.allocate(len * size(ps.type)).order(ByteOrder.LITTLE_ENDIAN);
                if (ps.isInput()) {
                    Distribution d;
                    if (ps.distribution != null) d = ps.distribution;
                    else if (ps.hostFill != null && Distribution.HOST_FILL.equals(dflt.kind)) {
                        d = Distribution.of("constant");
                        d.value = ps.hostFill;
                    } else d = integer ? Distribution.uniform(0, Math.max(0, n - 1)) : dflt;
                    double[] v = d.sample(len, integer, rnd);
                    for (double x : v) put(b, ps.type, x);
                }
                in.args.add(b.array());
            } else if ("bytes".equals(ps.kind)) {
                byte[] agg = new byte[ps.length == null ? 0 : ps.length];
                if (ps.bytes != null)
                    for (int i = 0; i < Math.min(agg.length, ps.bytes.length); i++) agg[i] = (byte) ps.bytes[i];
                in.args.add(new Aggregate(agg));
            } else {
                double v;
                if (ps.value != null) v = ps.value;
                else if (integer) v = n;
                else v = (ps.distribution != null ? ps.distribution : dflt).sample(1, false, rnd)[0];
                in.args.add(bits(ps.type, v));
            }
        }
        return in;
    }

    private static void put(ByteBuffer b, String t, double x) {
        switch (t) {
            case "f32":
                b.putFloat((float) x);
                break;
            case "f64":
                b.putDouble(x);
                break;
            case "u8":
            case "s8":
                b.put((byte) (long) x);
                break;
            case "u16":
            case "s16":
                b.putShort((short) (long) x);
                break;
            case "u64":
            case "s64":
                b.putLong((long) x);
                break;
            default:
                b.putInt((int) (long) x);
                break;
        }
    }

    private static long bits(String t, double v) {
        switch (t) {
            case "f32":
                return Float.floatToRawIntBits((float) v) & 0xFFFFFFFFL;
            case "f64":
                return Double.doubleToRawLongBits(v);
            default:
                return (long) v;
        }
    }
}
