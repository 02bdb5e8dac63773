package dev.numlint.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostContractionTest {
    @Test
    void isoCStandardsAreNotGnuDialectsNorCxx() {
        for (String s : new String[] {"c89", "c90", "c99", "C99", "c11", "c17", "c18", "c2x", "c23", "iso9899:1999"}) {
            assertThat(HostContraction.isoC(s)).as(s).isTrue();
        }
        for (String s : new String[] {"gnu99", "gnu11", "gnu17", "c++17", "gnu++17", "c++11", "", "cuda"}) {
            assertThat(HostContraction.isoC(s)).as(s).isFalse();
        }
        assertThat(HostContraction.isoC(null)).isFalse();
    }

    @Test
    void gccOrAnUnnamedCompilerLeavesIsoCUncontractedClangDoesNot() {
        assertThat(HostContraction.offByDefault("gcc", "c99")).isTrue();
        assertThat(HostContraction.offByDefault("/usr/bin/x86_64-linux-gnu-gcc-12", "c11"))
                .isTrue();
        assertThat(HostContraction.offByDefault("cc", "c99")).isTrue();
        assertThat(HostContraction.offByDefault(null, "c99")).isTrue();
        assertThat(HostContraction.offByDefault("gcc", "gnu99")).isFalse();
        assertThat(HostContraction.offByDefault("gcc", null)).isFalse();
        for (String c :
                new String[] {"clang", "clang-19", "/usr/bin/clang++-19", "icx", "icpx", "hipcc", "clang-cl.exe"}) {
            assertThat(HostContraction.clangFamily(c)).as(c).isTrue();
            assertThat(HostContraction.offByDefault(c, "c99")).as(c).isFalse();
        }
        assertThat(HostContraction.clangFamily("gcc")).isFalse();
    }

    @Test
    void gccFormsNoFmaBelowO2AndTheLastOIsTheOneInEffect() {
        for (String l : new String[] {"2", "3", "s", "z", "fast"}) {
            assertThat(HostContraction.optimizes("g++", l)).as(l).isTrue();
        }
        for (String l : new String[] {"0", "1", "g", ""}) {
            assertThat(HostContraction.optimizes("gcc", l)).as(l).isFalse();
            assertThat(HostContraction.optimizes(null, l)).as(l).isFalse();
        }
        // no level seen (a variable not resolved), and Clang's compilers: taken as contracting
        assertThat(HostContraction.optimizes("gcc", null)).isTrue();
        assertThat(HostContraction.optimizes("clang-19", "0")).isTrue();
    }
}
