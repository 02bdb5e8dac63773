package samples;

/** NL001 and NL011: float-to-integer conversions followed by a narrowing, and their guarded look-alikes. */
public class Conversions {
    char toChar(float f) {
        // ruleid: NL001
        return (char) f;
    }

    char doubleThroughLong(double d) {
        // ruleid: NL001
        return (char) (long) d;
    }

    int unsignedByte(float f) {
        // ruleid: NL001
        return ((byte) f) & 0xff;
    }

    int unsignedThroughLocal(float f) {
        // ruleid: NL001
        byte b = (byte) f;
        return b & 0xff;
    }

    int maskedInt(double v) {
        // ruleid: NL001
        return (int) v & 0xffff;
    }

    int pixels(float[] in, byte[] out) {
        for (int i = 0; i < in.length; i++) {
            // ruleid: NL001, NL005
            out[i] = (byte) (in[i] * 255f);
        }
        int s = 0;
        for (int i = 0; i < out.length; i++) {
            s += out[i] & 0xff;
        }
        return s;
    }

    byte toByte(double d) {
        // ruleid: NL011
        return (byte) d;
    }

    short toShort(float f) {
        // ruleid: NL011
        return (short) f;
    }

    byte rounded(float f) {
        // ruleid: NL011
        return (byte) Math.round(f);
    }

    void store(float[] in, short[] out) {
        for (int i = 0; i < in.length; i++) {
            // ruleid: NL011
            out[i] = (short) in[i];
        }
    }

    // ---- safe look-alikes ----

    char clampedWithMinMax(float f) {
        // ok: NL001
        return (char) Math.max(0f, Math.min(65535f, f));
    }

    void clampedArray(float[] in, byte[] out) {
        for (int i = 0; i < in.length; i++) {
            // ok: NL011
            out[i] = (byte) Math.max(-128f, Math.min(127f, in[i] * 2f));
        }
    }

    byte clampedWithBranches(float v) {
        if (v < 0) {
            v = 0;
        }
        if (v > 127) {
            v = 127;
        }
        // ok: NL011
        return (byte) (v + 0.5f);
    }

    byte clampedAsInt(double d) {
        int i = (int) d;
        if (i < -128) {
            i = -128;
        } else if (i > 127) {
            i = 127;
        }
        // ok: NL011
        return (byte) i;
    }

    byte clampedTernary(float v) {
        // ok: NL011
        return (byte) (v < 0 ? 0 : v > 127 ? 127 : v);
    }

    int plainInt(float f) {
        // ok: NL001, NL011
        return (int) f;
    }

    char fromInt(int i) {
        // ok: NL001
        return (char) i;
    }

    byte intMasked(int i) {
        // ok: NL001, NL011
        return (byte) (i & 0xff);
    }

    int[] unpackRgb(double packed) {
        int rgb = (int) packed;
        int red = (rgb & 0xff0000) >> 16;
        int green = (rgb & 0xff00) >> 8;
        // ok: NL001
        int blue = rgb & 0xff;
        return new int[] {red, green, blue};
    }

    char constant() {
        final float c = 65.7f;
        // ok: NL001
        return (char) c;
    }

    static final class Real extends Number {
        private static final long serialVersionUID = 1L;
        private final double value;

        Real(double value) {
            this.value = value;
        }

        @Override
        public byte byteValue() {
            // ok: NL011
            return (byte) value;
        }

        @Override
        public short shortValue() {
            // ok: NL011
            return (short) value;
        }

        @Override
        public int intValue() {
            return (int) value;
        }

        @Override
        public long longValue() {
            return (long) value;
        }

        @Override
        public float floatValue() {
            return (float) value;
        }

        @Override
        public double doubleValue() {
            return value;
        }
    }
}
