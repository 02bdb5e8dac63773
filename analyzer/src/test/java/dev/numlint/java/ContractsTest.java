package dev.numlint.java;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The wording that makes a setter's missing range check a documented contract (see {@link Contracts}). */
class ContractsTest {
    @Test
    void documentationThatLeavesTheRangeToTheCaller() {
        assertThat(Contracts.saysNoClamping("/** Sets the pixel. Does no bounds\n * checking or clamping. */"))
                .isTrue();
        assertThat(Contracts.saysNoClamping("/** Due to the lack of clamping, values outside 0-255 wrap. */"))
                .isTrue();
        assertThat(Contracts.saysNoClamping("/** The value is not clamped. */")).isTrue();
        assertThat(Contracts.saysNoClamping("/** Stores the sample without range checking. */"))
                .isTrue();
        assertThat(Contracts.saysNoClamping("/** No range check is done. */")).isTrue();
    }

    @Test
    void documentationThatSaysNothingAboutTheRange() {
        assertThat(Contracts.saysNoClamping(null)).isFalse();
        assertThat(Contracts.saysNoClamping("/** Stores value at index. */")).isFalse();
        assertThat(Contracts.saysNoClamping("/** Clamps the value to 0..255. */"))
                .isFalse();
        assertThat(Contracts.saysNoClamping("/** Does no bounds checking: the index must be valid. */"))
                .isFalse();
        assertThat(Contracts.saysNoClamping("/** Not thread safe; clamps values to the byte range. */"))
                .isFalse();
    }
}
