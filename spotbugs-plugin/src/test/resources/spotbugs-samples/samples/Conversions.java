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

    char constant() {
        final float c = 65.7f;
        // ok: NL001
        return (char) c;
    }
}
