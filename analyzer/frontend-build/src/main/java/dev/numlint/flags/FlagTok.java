package dev.numlint.flags;

import dev.numlint.model.Location;

/**
 * One compiler argument found in a build file, with where it was written and what it applies to.
 *
 * @param text      the argument as the compiler sees it (quotes removed), e.g. {@code -Xcompiler=-march=native}
 * @param loc       where its first character was written
 * @param lang      which compiler receives it
 * @param condition null when the argument always applies; otherwise a short description of the condition
 *                  (an {@code if()} block, an {@code ifeq}, a build configuration)
 * @param via       the build-file construct that carries it, e.g. {@code CMAKE_CUDA_FLAGS}, {@code NVCCFLAGS},
 *                  {@code target_compile_options(app)}, {@code nvcc command}
 */
public record FlagTok(String text, Location loc, Lang lang, String condition, String via) {
    /** Which compiler an argument goes to. */
    public enum Lang {
        /** nvcc (device code and, through -Xcompiler, the host part of .cu files). */
        CUDA,
        /** the host C/C++ compiler (gcc, g++, clang, icpx). */
        HOST,
        /** every language (add_compile_options without a generator expression, COMMONFLAGS): decided per flag. */
        ANY
    }

    /** Location of the character {@code offset} characters into the argument (same line). */
    Location at(int offset) {
        if (offset <= 0 || loc.startColumn() == 0) return loc;
        return Location.of(loc.file(), loc.startLine(), loc.startColumn() + offset);
    }
}
