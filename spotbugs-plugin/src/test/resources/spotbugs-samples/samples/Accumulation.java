package samples;

import java.util.Iterator;

/** NL004: loop-carried float accumulators, and short, reset or compensated look-alikes. */
public class Accumulation {
    private float total;
    static double grand;

    static final class Particle {
        float x;
        float vx;
    }

    float sum(float[] a) {
        float s = 0;
        for (int i = 0; i < a.length; i++) {
            // ruleid: NL004, NL005
            s += a[i];
        }
        return s;
    }

    double sumDouble(double[] a) {
        double s = 0;
        for (double x : a) {
            // ruleid: NL004
            s += x;
        }
        return s;
    }

    void intoField(float[] a) {
        for (float x : a) {
            // ruleid: NL004
            total += x;
        }
    }

    static void intoStaticField(double[] a) {
        int i = 0;
        while (i < a.length) {
            // ruleid: NL004
            grand = grand + a[i] * 0.5;
            i++;
        }
    }

    float overIterator(Iterator<Float> it) {
        float s = 0;
        while (it.hasNext()) {
            // ruleid: NL004
            s = s + it.next();
        }
        return s;
    }

    float longConstantLoop(float[] a) {
        float s = 0;
        for (int i = 0; i < 1000; i++) {
            // ruleid: NL004
            s -= a[i];
        }
        return s;
    }

    float nested(float[][] m) {
        float s = 0;
        for (float[] row : m) {
            for (int k = 0; k < 3; k++) {
                // ruleid: NL004
                s += row[k];
            }
        }
        return s;
    }

    float blurLine(float[] in, float[] kern, float[] out) {
        for (int i = 0; i < in.length; i++) {
            // ok: NL004
            float result = in[i] * kern[0];
            // ok: NL004
            result += in[i] * 0.5f;
            for (int k = 1; k < kern.length; k++) {
                // ruleid: NL004
                result += kern[k] * in[i];
            }
            out[i] = result;
        }
        return out[0];
    }

    // ---- safe look-alikes ----

    float shortLoop(float[] a) {
        float s = 0;
        for (int i = 0; i < 4; i++) {
            // ok: NL004
            s += a[i];
        }
        return s;
    }

    float countingDown(float[] a) {
        float s = 0;
        for (int i = 7; i >= 0; i--) {
            // ok: NL004
            s += a[i];
        }
        return s;
    }

    float kahan(float[] a) {
        float sum = 0;
        float c = 0;
        for (float x : a) {
            float y = x - c;
            // ok: NL004
            float t = sum + y;
            c = (t - sum) - y;
            sum = t;
        }
        return sum;
    }

    double neumaier(double[] a) {
        double sum = 0;
        double c = 0;
        for (double x : a) {
            double t = sum + x;
            if (Math.abs(sum) >= Math.abs(x)) {
                // ok: NL004
                c += (sum - t) + x;
            } else {
                c += (x - t) + sum;
            }
            sum = t;
        }
        return sum + c;
    }

    float resetEachRow(float[][] m, float[] out) {
        for (int r = 0; r < m.length; r++) {
            float s = 0;
            for (int k = 0; k < 3; k++) {
                // ok: NL004
                s += m[r][k];
            }
            out[r] = s;
        }
        return out[0];
    }

    float noLoop(float a, float b) {
        float s = a;
        // ok: NL004
        s += b;
        return s;
    }

    void perObject(Particle[] ps) {
        for (Particle p : ps) {
            // ok: NL004
            p.x += p.vx;
        }
    }

    int intSum(int[] a) {
        int s = 0;
        for (int v : a) {
            // ok: NL004
            s += v;
        }
        return s;
    }

    float product(float[] a) {
        float p = 1;
        for (float v : a) {
            // ok: NL004
            p *= v;
        }
        return p;
    }
}
