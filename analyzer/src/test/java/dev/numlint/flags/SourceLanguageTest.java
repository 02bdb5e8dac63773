package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Location;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Session 14 evaluation (Quicksilver): its .cc files are built with {@code nvcc -x cu}; read as host C++ they gave
 * Clang 70 files of errors and hid the device code. The compile command's language decides.
 */
class SourceLanguageTest {
    private static List<FlagTok> toks(String... args) {
        return java.util.Arrays.stream(args)
                .map(a -> new FlagTok(a, Location.line("compile_commands.json", 1), FlagTok.Lang.CUDA, null, "entry"))
                .toList();
    }

    @Test
    void xCuOrXCudaMakesTheUnitCuda() {
        assertThat(FlagInterpreter.interpret(toks("-x", "cu", "-c", "k.cc"))
                        .cuda
                        .compiledAsCuda())
                .isTrue();
        assertThat(FlagInterpreter.interpret(toks("-xcuda", "-c", "k.cc")).cuda.compiledAsCuda())
                .isTrue();
        // nvcc's long spelling (session 34 evaluation: a Makefile's `nvcc --x cu` read as C++)
        assertThat(FlagInterpreter.interpret(toks("--x", "cu", "-c", "k.cpp"))
                        .cuda
                        .compiledAsCuda())
                .isTrue();
        assertThat(FlagInterpreter.interpret(toks("--x=cu", "-c", "k.cpp")).cuda.compiledAsCuda())
                .isTrue();
        assertThat(FlagInterpreter.interpret(toks("-x=cu", "-c", "k.cpp")).cuda.compiledAsCuda())
                .isTrue();
        assertThat(FlagInterpreter.interpret(toks("--x", "c++", "-c", "k.cpp"))
                        .cuda
                        .compiledAsCuda())
                .isFalse();
        assertThat(FlagInterpreter.interpret(toks("--xyz", "-c", "k.cpp")).cuda.compiledAsCuda())
                .isFalse();
        assertThat(FlagInterpreter.interpret(toks("-x", "c++", "-c", "k.cc"))
                        .cuda
                        .compiledAsCuda())
                .isFalse();
        assertThat(FlagInterpreter.interpret(toks("-O2", "-c", "k.cc")).cuda.compiledAsCuda())
                .isFalse();
    }

    /** A .c file is C++ where the command says so or its compiler is a C++ driver (GCC: g++ treats .c as C++). */
    @Test
    void aCxxDriverOrXCxxCompilesACFileAsCxx() {
        assertThat(FlagInterpreter.interpret(toks("-O2", "-c", "a.c"), null, "g++")
                        .host
                        .cFileCompiledAsCxx())
                .isTrue();
        assertThat(FlagInterpreter.interpret(toks("-c", "a.c"), null, "x86_64-linux-gnu-g++-12")
                        .host
                        .cFileCompiledAsCxx())
                .isTrue();
        assertThat(FlagInterpreter.interpret(toks("-c", "a.c"), null, "clang++-19")
                        .host
                        .cFileCompiledAsCxx())
                .isTrue();
        assertThat(FlagInterpreter.interpret(toks("-x", "c", "-c", "a.c"), null, "g++")
                        .host
                        .cFileCompiledAsCxx())
                .isFalse();
        assertThat(FlagInterpreter.interpret(toks("-c", "a.c"), null, "gcc")
                        .host
                        .cFileCompiledAsCxx())
                .isFalse();
        assertThat(FlagInterpreter.interpret(toks("-c", "a.c"), null, "clang-19")
                        .host
                        .cFileCompiledAsCxx())
                .isFalse();
        assertThat(FlagInterpreter.interpret(toks("-x", "c++", "-c", "a.c"), null, "cc")
                        .host
                        .cFileCompiledAsCxx())
                .isTrue();
    }

    /** nvcc's -G: device code unoptimised, nothing contracted (sm_80 SASS keeps FMUL and FADD, session 42). */
    @Test
    void deviceDebugTurnsContractionOff() {
        assertThat(FlagInterpreter.interpret(toks("-G", "-O3", "-c", "k.cu"))
                        .cuda
                        .effectiveFmad())
                .isFalse();
        assertThat(FlagInterpreter.interpret(toks("--device-debug", "-c", "k.cu"))
                        .cuda
                        .effectiveFmad())
                .isFalse();
        assertThat(FlagInterpreter.interpret(toks("-G", "-c", "k.cu")).cuda.nvccFlags())
                .contains("-G");
        assertThat(FlagInterpreter.interpret(toks("-lineinfo", "-c", "k.cu"))
                        .cuda
                        .effectiveFmad())
                .isTrue();
    }
}
