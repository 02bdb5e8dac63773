package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PtxTallyTest {
    private static List<Notification> failed(String unit, String header) {
        return List.of(new Notification(
                unit,
                0,
                Level.WARNING,
                "nvcc-failed",
                "nvcc -ptx failed (exit 1): " + unit + ":4:10: fatal error: " + header
                        + ": No such file or directory; header #include <" + header + "> (" + unit
                        + ":4) was not found: give the build's include directories with -p DIR"));
    }

    @Test
    void aFlagDroppedInEveryUnitIsOneNoticeThatCountsAndNamesTheUnits() {
        PtxTally t = new PtxTally();
        String outside = "nvcc flag '-I/opt/glfw/include' was not passed to nvcc: the directory lies outside";
        String once = "nvcc flag '-I/src/missing' was not passed to nvcc: the directory does not exist";
        for (String u : List.of("e.cu", "d.cu", "c.cu", "b.cu", "a.cu")) {
            assertThat(t.dropped(new Notification(u, 0, Level.NOTE, "nvcc-flag-dropped", outside)))
                    .isTrue();
        }
        assertThat(t.dropped(new Notification("k.cu", 0, Level.NOTE, "nvcc-flag-dropped", once)))
                .isTrue();
        assertThat(t.dropped(new Notification("k.cu", 0, Level.WARNING, "nvcc-failed", "nvcc -ptx failed")))
                .isFalse();
        List<Notification> n = t.droppedNotices();
        assertThat(n).hasSize(2);
        assertThat(n.get(0).file()).isNull();
        assertThat(n.get(0).message()).isEqualTo(outside + " (5 units: a.cu, b.cu, c.cu and 2 more)");
        assertThat(n.get(1).file()).isEqualTo("k.cu");
        assertThat(n.get(1).message()).isEqualTo(once);
    }

    @Test
    void theSummaryNamesTheMissingHeadersAndTheStepForALibraryTheToolkitLacks() {
        PtxTally t = new PtxTally();
        t.compiled();
        for (int i = 0; i < 3; i++) {
            t.failed(Path.of("k" + i + ".cu"), failed("k" + i + ".cu", "cublas_v2.h"), Set.of());
        }
        t.failed(Path.of("m.cu"), failed("m.cu", "util.h"), Set.of("util.h"));
        String m = t.summary().message();
        assertThat(m)
                .startsWith("PTX layer: 1 of 5 .cu files compiled to PTX; 4 did not compile: ")
                .contains("header of a CUDA library the toolkit does not hold (3)")
                .contains("missing headers: cublas_v2.h (3), util.h (1)")
                .contains("next step: install the library's development package");
    }

    @Test
    void unitsTheBuildDoesNotCompileAreNamedSoNotAdvisedToPassTheDatabase() {
        // a unity build's database lists main.cu; six other .cu files it does not compile miss the headers only its
        // -I gives: the summary says they are unbuilt, not "configure the project and pass -p build" (given already)
        PtxTally t = new PtxTally();
        t.compiled();
        for (int i = 0; i < 6; i++) {
            List<Notification> notes = PtxAnalyzer.notBuilt(List.of(new Notification(
                    "k" + i + ".cu",
                    0,
                    Level.WARNING,
                    "nvcc-failed",
                    "nvcc -ptx failed (exit 1): k.cu:8:10: fatal error: structs.h: No such file or directory; header"
                            + " #include \"structs.h\" (k.cu:8) was not found"
                            + dev.numlint.toolchain.PtxCompiler.INCLUDE_ADVICE)));
            assertThat(notes.get(0).message())
                    .endsWith("was not found: the configured build does not compile this file (not-compiled-units),"
                            + " so nvcc had its directory's or guessed flags");
            assertThat(notes.get(0).level()).isEqualTo(Level.NOTE);
            t.failed(Path.of("k" + i + ".cu"), notes, Set.of("structs.h"), true);
        }
        // an unbuilt unit whose include outside the tree was refused stays counted as refused
        t.failed(
                Path.of("evil.cu"),
                List.of(new Notification("evil.cu", 1, Level.WARNING, "include-blocked", "refused")),
                Set.of(),
                true);
        String m = t.summary().message();
        assertThat(m)
                .startsWith("PTX layer: 1 of 8 .cu files compiled to PTX; 7 did not compile: units the configured build"
                        + " does not compile (not-compiled-units), so nvcc had guessed flags (6), an include outside"
                        + " the scanned tree was refused (1)")
                .doesNotContain("missing headers")
                .contains("next step: nothing for the build's own units");
    }

    @Test
    void aHeaderMissedBecauseTheBuildsIncludeDirectoryLiesOutsideTheTreeSaysSo() {
        // session 40: the build passes -I to a directory of library headers outside the scanned tree; the flag is
        // dropped, nvcc misses cufft.h, and -p (given already) is no advice
        PtxTally t = new PtxTally();
        t.compiled();
        List<Notification> notes = List.of(
                new Notification(
                        "k.cu",
                        0,
                        Level.NOTE,
                        "nvcc-flag-dropped",
                        "nvcc flag '-I/opt/extra/include' was not passed to nvcc: "
                                + dev.numlint.toolchain.NvccFlagPolicy.OUTSIDE_DIRECTORY),
                new Notification(
                        "k.cu",
                        19,
                        Level.WARNING,
                        "nvcc-failed",
                        "nvcc -ptx failed (exit 1): k.cu:19:10: fatal error: cufft.h: No such file or directory;"
                                + " header #include <cufft.h> (k.cu:19) was not found: the build's include directory"));
        t.failed(Path.of("k.cu"), notes, Set.of("cufft.h"));
        assertThat(PtxTally.classify(notes, Set.of("cufft.h"))).isEqualTo(PtxTally.Reason.INCLUDE_DIR_OUTSIDE);
        assertThat(t.summary().message())
                .contains("header not found: the build's include directory outside the scanned tree was not passed")
                .contains("add the directories that hold them to the scanned paths")
                .doesNotContain("pass -p build");
    }

    /** A CUDA library's header that neither the tree nor the toolkit holds: the library is missing (session 81). */
    @Test
    void aCudaLibrarysHeaderIsTheToolkitsLack() {
        PtxTally t = new PtxTally();
        List<Notification> notes = List.of(
                new Notification(
                        "sampler.cu",
                        0,
                        Level.NOTE,
                        "nvcc-flag-dropped",
                        "nvcc flag '-isystem=/opt/shim' was not passed to nvcc: "
                                + dev.numlint.toolchain.NvccFlagPolicy.OUTSIDE_DIRECTORY),
                new Notification(
                        "sampler.cu",
                        3,
                        Level.WARNING,
                        "nvcc-failed",
                        "nvcc -ptx failed (exit 1): sampler.h:3:10: fatal error: curand_kernel.h: No such file or"
                                + " directory; header #include <curand_kernel.h> (sampler.h:3) was not found: a header"
                                + " of cuRAND"));
        assertThat(PtxTally.classify(notes, Set.of("sampler.h"))).isEqualTo(PtxTally.Reason.CUDA_LIBRARY);
        t.failed(Path.of("sampler.cu"), notes, Set.of("sampler.h"), true);
        assertThat(t.summary().message())
                .contains("header of a CUDA library the toolkit does not hold (1)")
                .contains("install the library's development package")
                .doesNotContain("scanned paths");
    }

    @Test
    void aComputedIncludeIsNotCalledAnIncludeOutsideTheTree() {
        PtxTally t = new PtxTally();
        t.failed(
                Path.of("main.cu"),
                List.of(new Notification(
                        "main.cu",
                        0,
                        Level.WARNING,
                        "include-blocked",
                        "not compiled to PTX: CImg.h:7804: #include cimgdisplay_plugin: computed #include (a macro)"
                                + " cannot be checked before compiling")),
                Set.of());
        t.failed(
                Path.of("k.cu"),
                List.of(new Notification(
                        "k.cu",
                        0,
                        Level.WARNING,
                        "include-blocked",
                        "not compiled to PTX: k.cu:2: #include \"/etc/passwd\": absolute path outside the roots")),
                Set.of());
        String m = t.summary().message();
        assertThat(m)
                .contains("a computed #include whose macro the tree or the compile command may define (1)")
                .contains("an include outside the scanned tree was refused (1)");
    }

    @Test
    void anArchitectureTheBuildLeavesToTheMachineIsNamedWithWhatThePtxWasCompiledFor() {
        PtxTally t = new PtxTally();
        assertThat(t.archNotice("compute_90")).isNull();
        dev.numlint.model.BuildContext nativeArch = new dev.numlint.model.BuildContext();
        nativeArch.addNvccFlag("-arch=native");
        t.archOf(nativeArch);
        t.archOf(nativeArch);
        dev.numlint.model.BuildContext numbered = new dev.numlint.model.BuildContext();
        numbered.addNvccFlag("-arch=native");
        numbered.cudaArch("compute_80"); // a number the build also gives wins: nothing to say
        t.archOf(numbered);
        t.archOf(new dev.numlint.model.BuildContext());
        assertThat(t.archNotice("compute_90").message())
                .isEqualTo("PTX compiled for compute_90 (--cuda-arch sets another), not for the architecture the build"
                        + " leaves to nvcc or the machine: -arch=native (2 files)");
    }
}
