package samples;

/** NL005 (class files before Java 17 only): float arithmetic in methods that are not strictfp. One per class. */
public class Legacy {
    int ints(int a, int b) {
        return a + b;
    }

    float mix(float a, float b) {
        // ruleid: NL005
        return a * b + 1f;
    }

    double other(double x) {
        // ok: NL005
        return x / 3;
    }
}
