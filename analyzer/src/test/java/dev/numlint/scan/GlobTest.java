package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

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
}
