package samples;

/** strictfp methods are evaluated strictly on every Java version: no NL005. */
public class StrictLegacy {
    strictfp float square(float a) {
        // ok: NL005
        return a * a;
    }

    strictfp double cube(double a) {
        return a * a * a;
    }

    int noFloats(int a) {
        return a * a;
    }
}
