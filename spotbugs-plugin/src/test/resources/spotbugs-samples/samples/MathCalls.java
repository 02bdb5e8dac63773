package samples;

/** NL010: java.lang.Math transcendental functions, one report per method. */
public class MathCalls {
    double trig(double x) {
        // ruleid: NL010
        double s = Math.sin(x);
        // ruleid: NL005
        return s * Math.cos(x) + Math.exp(-x);
    }

    float pow(float x) {
        // ruleid: NL010
        return (float) Math.pow(x, 2.5);
    }

    double strict(double x) {
        // ok: NL010
        return StrictMath.sin(x);
    }

    double correctlyRounded(double x) {
        // ok: NL010
        return Math.sqrt(x) + Math.abs(x) + Math.floor(x);
    }
}
