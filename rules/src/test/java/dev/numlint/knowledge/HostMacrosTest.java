package dev.numlint.knowledge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The macros GCC 13 predefines for flags ({@code echo | gcc FLAGS -dM -E -}), as {@link HostMacros} gives them. */
class HostMacrosTest {
    @Test
    void openmpAndFastMath() {
        assertEquals(
                List.of("_OPENMP=201511", "__FAST_MATH__=1", "__FINITE_MATH_ONLY__=1"),
                HostMacros.defines(List.of("-O2", "-fopenmp", "-ffast-math"), "gcc"));
        // Clang's OpenMP is 5.1
        assertEquals(List.of("_OPENMP=202011"), HostMacros.defines(List.of("-fopenmp=libomp"), "clang-19"));
        assertEquals(List.of("__FAST_MATH__=1", "__FINITE_MATH_ONLY__=1"), HostMacros.defines(List.of("-Ofast"), null));
    }

    @Test
    void laterFlagsUndo() {
        assertEquals(List.of(), HostMacros.defines(List.of("-ffast-math", "-fno-fast-math"), "gcc"));
        // GCC: -ffast-math -fno-finite-math-only is no longer fast math
        assertEquals(List.of(), HostMacros.defines(List.of("-ffast-math", "-fno-finite-math-only"), "gcc"));
        assertEquals(List.of(), HostMacros.defines(List.of("-fopenmp", "-fno-openmp"), "gcc"));
        assertEquals(
                List.of("_REENTRANT=1", "__CHAR_UNSIGNED__=1"),
                HostMacros.defines(List.of("-pthread", "-fsigned-char", "-fno-signed-char"), "gcc"));
    }

    @Test
    void instructionSets() {
        assertEquals(
                List.of(
                        "__AVX__=1",
                        "__AVX2__=1",
                        "__POPCNT__=1",
                        "__SSE__=1",
                        "__SSE2__=1",
                        "__SSE3__=1",
                        "__SSE4_1__=1",
                        "__SSE4_2__=1",
                        "__SSSE3__=1"),
                HostMacros.defines(List.of("-mavx2"), "gcc"));
        List<String> haswell = HostMacros.defines(List.of("-march=haswell"), "gcc");
        assertTrue(haswell.containsAll(List.of("__FMA__=1", "__BMI2__=1", "__F16C__=1", "__AVX2__=1")));
        // GCC's older name of the same CPU (session 79 round F: its AVX2 kernels were read as inactive)
        assertEquals(haswell, HostMacros.defines(List.of("-march=core-avx2"), "gcc"));
        assertEquals(List.of("-march=core-avx2"), HostMacros.targetFlags(List.of("-march=core-avx2"), true));
        // -mno-avx also turns off what needs AVX
        List<String> off = HostMacros.defines(List.of("-march=haswell", "-mno-avx"), "gcc");
        assertFalse(off.contains("__AVX2__=1") || off.contains("__FMA__=1") || off.contains("__AVX__=1"));
        assertTrue(off.contains("__SSE4_2__=1") && off.contains("__BMI2__=1"));
        // the building machine's CPU is unknown here: nothing
        assertEquals(List.of(), HostMacros.defines(List.of("-march=native"), "gcc"));
        assertFalse(HostMacros.sets("march", "native"));
        assertFalse(HostMacros.sets("mfpu", "neon"));
    }

    @Test
    void targetFlagsOnlyOnX86() {
        List<String> flags = List.of("-march=haswell", "-mavx512f", "-funsigned-char", "-march=native", "-mfpu=neon");
        assertEquals(List.of("-march=haswell", "-mavx512f", "-funsigned-char"), HostMacros.targetFlags(flags, true));
        assertEquals(List.of("-funsigned-char"), HostMacros.targetFlags(flags, false));
    }
}
