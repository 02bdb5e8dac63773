package demo;

/** A small image routine with the hazards numlint reports on bytecode. */
public class Imaging {
    private double energy;

    public byte[] toBytes(float[] values, float gain) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            // ruleid: NL011, NL005
            out[i] = (byte) (values[i] * gain);
        }
        return out;
    }

    public char[] toUnsigned16(double[] values) {
        char[] out = new char[values.length];
        for (int i = 0; i < values.length; i++) {
            // ruleid: NL001
            out[i] = (char) values[i];
        }
        return out;
    }

    public byte[] clamped(float[] values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            // ok: NL011
            out[i] = (byte) Math.max(-128f, Math.min(127f, values[i]));
        }
        return out;
    }

    public float mean(float[] values) {
        float sum = 0f;
        for (float v : values) {
            // ruleid: NL004
            sum += v;
        }
        return sum / values.length;
    }

    public void accumulate(double[] samples) {
        for (double s : samples) {
            // ruleid: NL004, NL010
            energy += Math.pow(s, 2);
        }
    }
}
