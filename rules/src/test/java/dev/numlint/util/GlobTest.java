package dev.numlint.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GlobTest {
    @Test
    void starStaysInOneSegmentDoubleStarSpansSegments() {
        assertThat(new Glob("src/*.cu").matches("src/a.cu")).isTrue();
        assertThat(new Glob("src/*.cu").matches("src/x/a.cu")).isFalse();
        assertThat(new Glob("src/**/*.cu").matches("src/a.cu")).isTrue();
        assertThat(new Glob("src/**/*.cu").matches("src/x/y/a.cu")).isTrue();
        assertThat(new Glob("**/gen/**").matches("a/gen/b.cu")).isTrue();
        assertThat(new Glob("**/gen/**").matches("gen/b.cu")).isTrue();
        assertThat(new Glob("src/?.cu").matches("src/ab.cu")).isFalse();
        assertThat(new Glob("src/{a,b}.cu").matches("src/b.cu")).isTrue();
        assertThat(new Glob("src/[ab].cu").matches("src/c.cu")).isFalse();
    }

    @Test
    void globWithoutSlashMatchesAnyNameAtAnyDepth() {
        assertThat(new Glob("*.ptx").matches("a/b/c.ptx")).isTrue();
        assertThat(new Glob("third_party").matchesDirectory("x/third_party")).isTrue();
        assertThat(new Glob("third_party").matches("x/third_party_lib")).isFalse();
    }

    @Test
    void directoriesMatchWhenEverythingBelowIsExcluded() {
        assertThat(new Glob("build/**").matchesDirectory("build")).isTrue();
        assertThat(new Glob("build/").matchesDirectory("build")).isTrue();
        assertThat(new Glob("./build/**").matchesDirectory("build")).isTrue();
        assertThat(new Glob("build/*.cu").matchesDirectory("build")).isFalse();
        assertThat(new Glob("a.b+c").matches("a.b+c")).isTrue();
        assertThat(new Glob("a.b+c").matches("aXb+c")).isFalse();
    }

    /** Issue 31: a 45-byte glob like *a*a*a...*b against a long name backtracked for minutes. */
    @Test
    void backtrackingGlobIsLinear() {
        String glob = "*a".repeat(22) + "*b";
        String name = "a".repeat(4000);
        // a bound against the 84 s pathology, not a speed target: wide enough for a loaded 2-core CI machine
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            Glob g = new Glob(glob);
            for (int i = 0; i < 200; i++) {
                assertThat(g.matches("dir/" + name + i)).isFalse();
            }
            assertThat(g.matches("x/" + name + "b")).isTrue();
            Glob deep = new Glob("**/" + "*a".repeat(20) + "**/x");
            assertThat(deep.matches(("a/".repeat(1000)) + "y")).isFalse();
        });
    }

    /** Issue 31: a 250 KB literal exclude took 84 s; globs longer than any path are refused with their length. */
    @Test
    void overlongGlobIsRefused() {
        assertThatThrownBy(() -> new Glob("a".repeat(250_000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("250000 characters is longer than the limit of 4096");
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            Glob g = new Glob("a".repeat(Glob.MAX_LENGTH));
            for (int i = 0; i < 1000; i++) {
                assertThat(g.matches("a".repeat(4000) + "/" + i)).isFalse();
            }
        });
    }

    @Test
    void classesRangesAndAlternativesKeepTheirMeaning() {
        assertThat(new Glob("[a-c]x").matches("bx")).isTrue();
        assertThat(new Glob("[a-c]x").matches("dx")).isFalse();
        assertThat(new Glob("[!a-c]x").matches("dx")).isTrue();
        assertThat(new Glob("[!a-c]x").matches("/x")).isFalse();
        assertThat(new Glob("[]]").matches("]")).isTrue();
        assertThat(new Glob("[a-]").matches("-")).isTrue();
        assertThat(new Glob("{src,lib}/**/*.{cu,cuh}").matches("lib/a/b.cuh")).isTrue();
        assertThat(new Glob("{src,lib}/**/*.{cu,cuh}").matches("lib/a/b.c")).isFalse();
        assertThat(new Glob("a,b}").matches("a,b}")).isTrue();
        assertThat(new Glob("**/*.cu").matches("a.cu")).isTrue();
        assertThat(new Glob("src/**").matchesDirectory("src")).isTrue();
        assertThatThrownBy(() -> new Glob("[z-a]")).hasMessageContaining("reversed range");
        assertThatThrownBy(() -> new Glob("{a,{b}}")).hasMessageContaining("do not nest");
        assertThatThrownBy(() -> new Glob("{a,b")).hasMessageContaining("unclosed '{'");
        assertThatThrownBy(() -> new Glob("a[b")).hasMessageContaining("unclosed '['");
    }
}
