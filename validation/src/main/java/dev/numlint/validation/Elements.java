package dev.numlint.validation;

import dev.numlint.validation.fp.Ulp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Typed output elements of a run: element sizes, their values, ULP distances and how one is shown in a message. */
final class Elements {
    private Elements() {}

    static int size(String t) {
        switch (t) {
            case "u8":
            case "s8":
                return 1;
            case "u16":
            case "s16":
                return 2;
            case "u64":
            case "s64":
            case "f64":
                return 8;
            default:
                return 4;
        }
    }

    static double[] values(byte[] b, String t) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int n = b.length / size(t);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            switch (t) {
                case "f32":
                    v[i] = bb.getFloat();
                    break;
                case "f64":
                    v[i] = bb.getDouble();
                    break;
                case "u8":
                    v[i] = bb.get() & 0xFF;
                    break;
                case "s8":
                    v[i] = bb.get();
                    break;
                case "u16":
                    v[i] = bb.getShort() & 0xFFFF;
                    break;
                case "s16":
                    v[i] = bb.getShort();
                    break;
                case "u32":
                    v[i] = bb.getInt() & 0xFFFFFFFFL;
                    break;
                case "u64":
                case "s64":
                    v[i] = bb.getLong();
                    break;
                default:
                    v[i] = bb.getInt();
                    break;
            }
        }
        return v;
    }

    static long ulp(double a, double b, String t) {
        switch (t) {
            case "f32":
                return Ulp.distance((float) a, (float) b);
            case "f64":
                return Ulp.distance(a, b);
            default:
                return (long) Math.abs(a - b);
        }
    }

    static String show(byte[] b, int i, String t) {
        int w = size(t);
        long bits = 0;
        for (int k = w - 1; k >= 0; k--) bits = (bits << 8) | (b[i * w + k] & 0xFF);
        String hex = String.format(java.util.Locale.ROOT, "0x%0" + (2 * w) + "x", bits);
        double v = values(java.util.Arrays.copyOfRange(b, i * w, i * w + w), t)[0];
        return (t.equals("f32") ? Float.toString((float) v) : Double.toString(v)) + " (" + hex + ")";
    }
}
