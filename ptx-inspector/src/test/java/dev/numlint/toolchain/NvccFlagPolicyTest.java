package dev.numlint.toolchain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NvccFlagPolicyTest {
    @TempDir
    Path tmp;

    private NvccFlagPolicy policy(Path root) {
        return new NvccFlagPolicy(IncludePolicy.of(List.of(root), List.of(tmp.resolve("toolkit"))));
    }

    /**
     * Quicksilver builds every unit with {@code nvcc -x cu -dc}: its device functions live in units without a kernel,
     * and whole-program PTX of such a unit is empty. Separate compilation is kept as -rdc=true, once.
     */
    /**
     * A borrowed host entry's {@code -std=gnu++17} (CMake's default dialect for a .cpp): nvcc 13 refuses it ("Value
     * 'gnu++17' is not defined for option 'std'"), so it is passed as the C++ standard it names (session 58 round A).
     */
    @Test
    void aGnuDialectIsPassedAsItsStandard() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("repo"));
        NvccFlagPolicy.Decision d = policy(root).apply(List.of("-std=gnu++17", "-std", "gnu++20"), null);
        assertThat(d.args()).containsExactly("-std=c++17", "-std=c++20");
        assertThat(d.dropped()).isEmpty();
        assertThat(policy(root).apply(List.of("-std=gnu99"), null).dropped()).hasSize(1);
    }

    @Test
    void separateCompilationIsKeptAsRelocatableDeviceCode() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("repo"));
        assertThat(policy(root).apply(List.of("-dc", "-O2"), null).args()).containsExactly("-rdc=true", "-O2");
        assertThat(policy(root)
                        .apply(List.of("--device-c", "-dw", "-rdc=true"), null)
                        .args())
                .containsExactly("-rdc=true");
        assertThat(policy(root).apply(List.of("-dc=1"), null).dropped()).hasSize(1);
    }

    @Test
    void onlyCodeGenerationFlagsWithSafeValuesAreKept() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(root.resolve("inc"));
        Files.createDirectories(tmp.resolve("toolkit/include"));
        NvccFlagPolicy.Decision d = policy(root)
                .apply(
                        List.of(
                                "--use_fast_math",
                                "-ftz=true",
                                "--prec-div=false",
                                "-prec-sqrt",
                                "false",
                                "-fmad=false",
                                "-DN=4",
                                "-D",
                                "USE_X",
                                "-UFOO",
                                "-Iinc",
                                "-isystem",
                                tmp.resolve("toolkit/include").toString(),
                                "-I",
                                "/etc",
                                "-I../outside",
                                "-std=c++17",
                                "-O3",
                                "-G",
                                "-lineinfo",
                                "-rdc=true",
                                "--expt-relaxed-constexpr",
                                "--expt-extended-lambda",
                                "-arch=sm_80",
                                "-gencode",
                                "arch=compute_70,code=sm_70",
                                "-ccbin",
                                "-Xcompiler",
                                "-Xptxas",
                                "--compiler-bindir=/x",
                                "-include",
                                "-Xlinker",
                                "--weird"),
                        null);
        assertThat(d.args())
                .containsExactly(
                        "--use_fast_math",
                        "-ftz=true",
                        "-prec-div=false",
                        "-prec-sqrt=false",
                        "-fmad=false",
                        "-DN=4",
                        "-DUSE_X",
                        "-UFOO",
                        "-std=c++17",
                        "-O3",
                        "-G",
                        "-lineinfo",
                        "-rdc=true",
                        "--expt-relaxed-constexpr",
                        "--expt-extended-lambda",
                        "-I" + root.resolve("inc").toRealPath(),
                        "-isystem",
                        tmp.resolve("toolkit/include").toRealPath().toString());
        assertThat(d.archs()).containsExactly("sm_80", "compute_70");
        assertThat(d.dropped())
                .extracting(NvccFlagPolicy.Dropped::flag)
                .contains(
                        "-I /etc",
                        "-I../outside",
                        "-ccbin",
                        "-Xcompiler -Xptxas",
                        "--compiler-bindir=/x",
                        "-include",
                        "-Xlinker",
                        "--weird");
    }

    /** Session 83: host code that includes omp.h under #ifdef _OPENMP needs the host preprocessor's -fopenmp. */
    @Test
    void openMpIsTheOneHostCompilerOptionPassed() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("repo"));
        NvccFlagPolicy.Decision d = policy(root)
                .apply(
                        List.of(
                                "--compiler-options",
                                "-g -O3 -fopenmp",
                                "-Xcompiler=-fopenmp",
                                "-Xcompiler",
                                "-fopenmp,-wrapper,./evil.sh",
                                "-Xptxas=-fopenmp"),
                        f -> "Makefile:7");
        assertThat(d.args()).containsExactly("-Xcompiler=-fopenmp");
        assertThat(d.dropped())
                .extracting(NvccFlagPolicy.Dropped::flag)
                .containsExactly(
                        "--compiler-options -g -O3 -fopenmp",
                        "-Xcompiler -fopenmp,-wrapper,./evil.sh",
                        "-Xptxas=-fopenmp");
        assertThat(d.dropped().get(0).reason()).endsWith("its -fopenmp is passed");
        assertThat(d.dropped().get(1).reason()).contains("','").endsWith("its -fopenmp is passed");
        assertThat(d.dropped().get(2).reason()).doesNotContain("-fopenmp is passed");
    }

    /** Issue 25: a database entry's -include of a configured header reaches nvcc; one outside the tree does not. */
    @Test
    void preIncludedFilesMustBeRegularFilesInsideTheTreeOrTheToolkit() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(root.resolve("build"));
        Files.writeString(root.resolve("build/config.h"), "#define N 4\n");
        Path outside = Files.writeString(tmp.resolve("secret.h"), "#define S 1\n");
        Files.createSymbolicLink(root.resolve("link.h"), outside);
        NvccFlagPolicy.Decision d = policy(root)
                .apply(
                        List.of(
                                "-include",
                                "build/config.h",
                                "--pre-include=" + outside,
                                "-include",
                                root.resolve("link.h").toString(),
                                "-include=build",
                                "-include",
                                "missing.h"),
                        null);
        assertThat(d.args())
                .containsExactly(
                        "-include", root.resolve("build/config.h").toRealPath().toString());
        assertThat(d.dropped())
                .extracting(NvccFlagPolicy.Dropped::reason)
                .containsExactly(
                        "the file lies outside the scanned tree and the toolkit",
                        "the file lies outside the scanned tree and the toolkit",
                        "not a regular file",
                        "the file does not exist");
    }

    @Test
    void shellMetacharactersInValuesAreDroppedWithWhereAndWhy() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("repo"));
        List<String> hostile = List.of(
                "-DX=`./evil.sh`",
                "-DX=$(./evil.sh)",
                "-I`./evil.sh`",
                "-I$(./evil.sh)",
                "-DX=a;b",
                "-DX=a b",
                "-DX=\"q\"",
                "-DX=a\nb",
                "-DX=a,b",
                "-D",
                "Y=$(id)",
                "-I",
                "inc dir",
                "-Xcompiler=-march=native,-wrapper,./evil.sh",
                "-Xcompiler",
                "-march=native,-wrapper,./evil.sh",
                "--compiler-options=-O2,-wrapper,./evil.sh",
                "-Xptxas=-v,-x");
        NvccFlagPolicy.Decision d = policy(root).apply(hostile, f -> "Makefile:3");
        assertThat(d.args()).isEmpty();
        assertThat(d.dropped()).hasSize(15).allSatisfy(x -> assertThat(x.where())
                .isEqualTo("Makefile:3"));
        assertThat(d.dropped().get(0).message())
                .isEqualTo("nvcc flag '-DX=`./evil.sh`' (set in Makefile:3) was "
                        + "not passed to nvcc: its value contains a backtick (command substitution)");
        assertThat(d.dropped().get(1).reason()).contains("'$('");
        assertThat(d.dropped().get(8).reason()).contains("','");
        assertThat(d.dropped().get(11).flag()).isEqualTo("-Xcompiler=-march=native,-wrapper,./evil.sh");
        assertThat(d.dropped().get(11).reason()).contains("contains ','").contains("host compiler");
        assertThat(d.dropped().get(12).flag()).isEqualTo("-Xcompiler -march=native,-wrapper,./evil.sh");
    }

    @Test
    void aFunctionLikeMacroIsPassedAndCommandSubstitutionInItIsNot() throws IOException {
        // calm's Makefile: -D_ALIGNAS(x)=alignas(x); nvcc writes it as -D "_ALIGNAS(x)=alignas(x)" for the host
        // preprocessor's shell, where only $, backticks, quotes and backslashes are special
        Path root = Files.createDirectories(tmp.resolve("repo"));
        NvccFlagPolicy.Decision d = policy(root)
                .apply(
                        List.of(
                                "-D_ALIGNAS(x)=alignas(x)",
                                "-DNOARGS()=1",
                                "-D",
                                "SQ(v)=((v)+(v))",
                                "-DF(x)=$(id)",
                                "-DF(x)=`id`",
                                "-DG(a,b)=a",
                                "-DH(x)=\"x\"",
                                "-U_ALIGNAS(x)"),
                        null);
        assertThat(d.args()).containsExactly("-D_ALIGNAS(x)=alignas(x)", "-DNOARGS()=1", "-DSQ(v)=((v)+(v))");
        assertThat(d.dropped())
                .extracting(NvccFlagPolicy.Dropped::reason)
                .containsExactly(
                        "its value contains the shell metacharacter '$'",
                        "its value contains a backtick (command substitution)",
                        "its value contains ','",
                        "its value contains a quote",
                        "its value contains the shell metacharacter '('");
    }

    @Test
    void includeDirectoriesMustResolveInsideTheTreeOrTheToolkit() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("repo"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.createSymbolicLink(root.resolve("link"), outside);
        Files.createDirectories(root.resolve("ok"));
        NvccFlagPolicy.Decision d = policy(root)
                .apply(List.of("-Ilink", "-I" + outside, "-I../outside", "-Iok", "-Inope", "--include-path=ok"), null);
        assertThat(d.includeDirs()).containsExactly(root.resolve("ok").toRealPath());
        assertThat(d.dropped())
                .extracting(NvccFlagPolicy.Dropped::reason)
                .containsExactly(
                        "the directory lies outside the scanned tree and the toolkit",
                        "the directory lies outside the scanned tree and the toolkit",
                        "the directory lies outside the scanned tree and the toolkit",
                        "the directory does not exist");
    }

    @Test
    void theProjectRootAboveTheScannedTreeIsAnIncludeDirectory() throws IOException {
        // MOQUI: the build gives -I<project root> so that <moqui/base/x.hpp> resolves; the scan is of moqui/ and tests/
        Path project = Files.createDirectories(tmp.resolve("moquimc"));
        Path root = Files.createDirectories(project.resolve("moqui"));
        Files.createDirectories(project.resolve("images"));
        NvccFlagPolicy.Decision d = policy(root).apply(List.of("-I..", "-I../images"), null);
        assertThat(d.includeDirs()).containsExactly(project.toRealPath());
        assertThat(d.dropped())
                .extracting(NvccFlagPolicy.Dropped::reason)
                .containsExactly("the directory lies outside the scanned tree and the toolkit");
    }

    @Test
    void anInstalledPackagesIncludeDirectoryIsASystemTree() {
        assertThat(IncludePolicy.packageInclude(Path.of("/usr/lib/x86_64-linux-gnu/openmpi/include")))
                .isTrue();
        assertThat(IncludePolicy.packageInclude(Path.of("/usr/lib/x86_64-linux-gnu/hdf5/serial/include/H5.h")))
                .isTrue();
        assertThat(IncludePolicy.packageInclude(Path.of("/usr/lib64/mpich/include")))
                .isTrue();
        // Debian's Fortran module directories (SPECFEM3D's nvcc commands name one for mpi.h)
        assertThat(IncludePolicy.packageInclude(Path.of("/usr/lib/x86_64-linux-gnu/fortran/gfortran-mod-15/openmpi")))
                .isTrue();
        assertThat(IncludePolicy.packageInclude(Path.of("/home/u/fortran"))).isFalse();
        // the library directory itself, a lookalike name, a climb out and other trees are not
        assertThat(IncludePolicy.packageInclude(Path.of("/usr/lib/x86_64-linux-gnu")))
                .isFalse();
        assertThat(IncludePolicy.packageInclude(Path.of("/usr/lib/x86_64-linux-gnu/openmpi/includes")))
                .isFalse();
        assertThat(IncludePolicy.packageInclude(Path.of("/usr/lib/include/../../../etc")))
                .isFalse();
        assertThat(IncludePolicy.packageInclude(Path.of("/home/u/include"))).isFalse();
        assertThat(IncludePolicy.packageInclude(Path.of("/usr/library/include")))
                .isFalse();
    }

    @Test
    void aBuildsPackageIncludeDirectoryIsPassedToNvcc() throws IOException {
        Path mpi = Path.of("/usr/lib/x86_64-linux-gnu/openmpi/include");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(mpi), "needs libopenmpi-dev");
        Path root = Files.createDirectories(tmp.resolve("repo"));
        NvccFlagPolicy.Decision d = policy(root).apply(List.of("-I" + mpi), null);
        assertThat(d.includeDirs()).containsExactly(mpi.toRealPath());
        assertThat(d.dropped()).isEmpty();
    }

    @Test
    void aRelativeForcedIncludeIsFoundOnTheIncludePath() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("repo"));
        Path inc = Files.createDirectories(root.resolve("include/thrust"));
        Files.writeString(inc.resolve("sort.h"), "#pragma once\n");
        // -include thrust/sort.h (session 63 round F): not beside the command, on the path of its -I
        NvccFlagPolicy.Decision d = policy(root)
                .apply(List.of("-I" + root.resolve("include"), "-include=thrust/sort.h", "-include=../x/sort.h"), null);
        assertThat(d.args())
                .containsSubsequence(
                        "-include", inc.resolve("sort.h").toRealPath().toString());
        assertThat(d.dropped()).extracting(NvccFlagPolicy.Dropped::reason).containsExactly("the file does not exist");
    }

    @Test
    void aForcedIncludeNotBesideTheCommandIsTheSystemHeaderOfThatName() throws IOException {
        Path sys = IncludePolicy.systemHeader("cstdio", List.of());
        org.junit.jupiter.api.Assumptions.assumeTrue(sys != null, "a C++ standard library in /usr/include/c++");
        Path root = Files.createDirectories(tmp.resolve("repo"));
        // nvcc -include cstdio: the host compiler finds <cstdio>; the flag interpreter resolved it against the
        // command's directory
        NvccFlagPolicy.Decision d =
                policy(root).apply(List.of("-include=" + root.resolve("src/cstdio"), "-include", "nothere.h"), null);
        assertThat(d.args()).containsExactly("-include", sys.toString());
        assertThat(d.dropped()).extracting(NvccFlagPolicy.Dropped::reason).containsExactly("the file does not exist");
        // only a plain name, and only in the system's trees
        assertThat(IncludePolicy.systemHeader("../../etc/passwd", List.of())).isNull();
        assertThat(IncludePolicy.systemHeader("passwd", List.of())).isNull();
        assertThat(IncludePolicy.systemHeader("stdio.h", List.of()))
                .isEqualTo(Path.of("/usr/include/stdio.h").toRealPath());
    }

    @Test
    void aHeaderBelowTheSystemsHeaderDirectoriesIsFoundForTheAdvice() throws IOException {
        Path sys = IncludePolicy.systemHeader("cstdio", List.of());
        org.junit.jupiter.api.Assumptions.assumeTrue(sys != null, "a C++ standard library in /usr/include/c++");
        // <opencv2/core/core.hpp> lies in /usr/include/opencv4; <cstdio> in /usr/include/c++/N
        Path sub = IncludePolicy.systemSubdirectoryOf("cstdio");
        assertThat(sub).isNotNull();
        assertThat(Files.isRegularFile(sub.resolve("cstdio"))).isTrue();
        assertThat(IncludePolicy.systemSubdirectoryOf("../../etc/passwd")).isNull();
        assertThat(IncludePolicy.systemSubdirectoryOf("no/such/header_numlint.h"))
                .isNull();
    }

    /**
     * Session 74 round D (a JPEG codec's Java wrapper): Java's {@code <jni.h>} was said to be under
     * x86_64-linux-gnu/libavcodec, FFmpeg's own header of that name; a bare name two levels down counts only below a
     * version directory.
     */
    @Test
    void aBareNameInAnotherLibrarysDirectoryIsNotAdvised(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        Path lib = Files.createDirectories(dir.resolve("x86_64-linux-gnu/libavcodec"));
        Files.writeString(lib.resolve("jni_numlint_probe.h"), "");
        Path ver = Files.createDirectories(dir.resolve("c++/12"));
        Files.writeString(ver.resolve("cstdio_numlint_probe"), "");
        assertThat(IncludePolicy.subdirectoryOf("jni_numlint_probe.h", List.of(dir)))
                .isNull();
        assertThat(IncludePolicy.subdirectoryOf("libavcodec/jni_numlint_probe.h", List.of(dir)))
                .isEqualTo(dir.resolve("x86_64-linux-gnu"));
        assertThat(IncludePolicy.subdirectoryOf("cstdio_numlint_probe", List.of(dir)))
                .isEqualTo(ver);
    }
}
