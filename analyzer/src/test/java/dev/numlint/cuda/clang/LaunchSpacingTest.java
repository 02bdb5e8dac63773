package dev.numlint.cuda.clang;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Spaced launch chevrons, which nvcc reads, joined for Clang with every offset kept. */
class LaunchSpacingTest {
    private static String join(String s) {
        return new String(LaunchSpacing.join(s.getBytes(StandardCharsets.ISO_8859_1)), StandardCharsets.ISO_8859_1);
    }

    @Test
    void spacedChevronsOfALaunchAreJoinedInPlace() {
        assertThat(join("  delay<< <grid, block>> >(a, b);\n")).isEqualTo("  delay<<< grid, block>>> (a, b);\n");
        assertThat(join("k<T>< < <g, b> > >\n  (x);")).isEqualTo("k<T><<<  g, b>>>  \n  (x);");
        // the close may be written joined while the open is not
        assertThat(join("k<< <g, b>>>(x);")).isEqualTo("k<<< g, b>>>(x);");
    }

    @Test
    void otherCodeIsLeftAsItIs() {
        String ok = "k<<<g, b>>>(x); std::vector<std::vector<std::vector<int> > >(3); a << b; c >> d;";
        assertThat(join(ok)).isEqualTo(ok);
        byte[] none = "int x = a << b;".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(LaunchSpacing.join(none)).isSameAs(none);
        // a spaced open without a close is left alone
        assertThat(join("x << <y;")).isEqualTo("x << <y;");
        // bytes outside ASCII keep their values
        assertThat(join("/* \u00e9 */ k<< <1, 1>> >();")).isEqualTo("/* \u00e9 */ k<<< 1, 1>>> ();");
    }
}
