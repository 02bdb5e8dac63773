package dev.numlint.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.numlint.model.BuildContext;
import dev.numlint.model.DeclaredFunction;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.KernelLaunch;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link HostOnlyScans}: which scans hold device code, and what a port-only finding becomes without it. */
class HostOnlyScansTest {
    private static Finding finding(String file, Identity.Judgement judgement, Level level) {
        return Finding.builder("NL008")
                .level(level)
                .location(new Location(file, 3, 1, 3, 10))
                .message("'x * 0.5 + y' is computed in double")
                .layer(Layer.CUDA_SOURCE)
                .function("f")
                .identity(Identity.NONE.withJudgement(judgement))
                .build();
    }

    /** A port-only warning of a float sum in trace.c. */
    private static Finding portSum() {
        return finding("trace.c", Identity.Judgement.PORT, Level.WARNING).toBuilder()
                .identity(Identity.NONE
                        .withJudgement(Identity.Judgement.PORT)
                        .withSum(new Identity.Sum("float", new Location("trace.c", 2, 5, 2, 30))))
                .build();
    }

    private static final DeclaredFunction HOST = new DeclaredFunction("trace.c", "f", "float");

    @Test
    void aPortOnlyWarningOfAHostOnlyScanIsANoteThatSaysWhy() {
        List<Finding> out = HostOnlyScans.review(
                List.of(finding("trace.c", Identity.Judgement.PORT, Level.WARNING)),
                Map.of("trace.c", new BuildContext()),
                List.of(HOST),
                List.of(),
                Set.of());
        assertEquals(Level.NOTE, out.get(0).level());
        assertTrue(
                out.get(0).message().endsWith("no device code in the scan to differ from"),
                out.get(0).message());
        assertEquals(true, out.get(0).properties().get("hostOnlyScan"));
    }

    @Test
    void aSumSaysThatNothingSumsItInAnotherOrder() {
        Finding sum = portSum();
        List<Finding> out = HostOnlyScans.review(
                List.of(sum), Map.of("trace.c", new BuildContext()), List.of(HOST), List.of(), Set.of());
        assertEquals(Level.NOTE, out.get(0).level());
        assertTrue(
                out.get(0).message().endsWith("no GPU code reorders it"),
                out.get(0).message());
    }

    /** Where the host compiler may reassociate, the note says the build may reorder the sum (session 72 round C). */
    @Test
    void aSumTheHostCompilerMayReassociateSaysSo() {
        Finding sum = portSum();
        for (BuildContext c :
                List.of(new BuildContext().hostReassociation(true), new BuildContext().hostFastMath(true))) {
            List<Finding> out =
                    HostOnlyScans.review(List.of(sum), Map.of("trace.c", c), List.of(HOST), List.of(), Set.of());
            assertEquals(Level.NOTE, out.get(0).level());
            assertTrue(
                    out.get(0).message().endsWith("the build's reassociation may reorder it"),
                    out.get(0).message());
        }
        // -ffast-math -fno-associative-math: not reordered
        List<Finding> out = HostOnlyScans.review(
                List.of(sum),
                Map.of("trace.c", new BuildContext().hostFastMath(true).hostReassociation(false)),
                List.of(HOST),
                List.of(),
                Set.of());
        assertTrue(
                out.get(0).message().endsWith("no GPU code reorders it"),
                out.get(0).message());
    }

    /** A CUDA backend the compilation database does not compile is no device code of the analyzed build. */
    @Test
    void cudaFilesTheBuildDoesNotCompileAreNoDeviceCode() {
        List<Finding> in = List.of(finding("trace.c", Identity.Judgement.PORT, Level.WARNING));
        BuildContext off = new BuildContext().notCompiled("not in build/compile_commands.json");
        List<Finding> out = HostOnlyScans.review(
                in,
                Map.of("trace.c", new BuildContext(), "gpu/solver.cu", off),
                List.of(HOST, new DeclaredFunction("gpu/solver.cu", "k", "float", true)),
                List.of(new KernelLaunch("gpu/solver.cu", 12, "k", null, false)),
                Set.of());
        assertEquals(Level.NOTE, out.get(0).level());
        // compiled, the same file keeps the warning
        assertEquals(
                in,
                HostOnlyScans.review(
                        in,
                        Map.of("trace.c", new BuildContext(), "gpu/solver.cu", new BuildContext()),
                        List.of(HOST, new DeclaredFunction("gpu/solver.cu", "k", "float", true)),
                        List.of(),
                        Set.of()));
    }

    @Test
    void otherJudgementsAndNotesAreLeftAlone() {
        List<Finding> in = List.of(
                finding("trace.c", null, Level.WARNING), finding("trace.c", Identity.Judgement.PORT, Level.NOTE));
        assertEquals(in, HostOnlyScans.review(in, Map.of(), List.of(HOST), List.of(), Set.of()));
    }

    @Test
    void deviceCodeAnywhereOrAnUnreadFileKeepsTheWarning() {
        List<Finding> in = List.of(finding("trace.c", Identity.Judgement.PORT, Level.WARNING));
        // a CUDA file's function, a launch (JCuda or <<<>>>), -x cu, a .cuh, a CUDA file not analyzed, a __device__
        // function of a header, a -x cu unit not analyzed
        assertEquals(
                in,
                HostOnlyScans.review(
                        in,
                        Map.of(),
                        List.of(HOST, new DeclaredFunction("k/step.CU", "k", null)),
                        List.of(),
                        Set.of()));
        assertEquals(
                in,
                HostOnlyScans.review(
                        in,
                        Map.of(),
                        List.of(HOST),
                        List.of(new KernelLaunch("Main.java", 9, "k", null, false)),
                        Set.of()));
        assertEquals(
                in,
                HostOnlyScans.review(
                        in,
                        Map.of("main.cpp", new BuildContext().compiledAsCuda(true)),
                        List.of(HOST),
                        List.of(),
                        Set.of()));
        assertEquals(
                in,
                HostOnlyScans.review(
                        in, Map.of("kernels.cuh", new BuildContext()), List.of(HOST), List.of(), Set.of()));
        assertEquals(in, HostOnlyScans.review(in, Map.of(), List.of(HOST), List.of(), Set.of("gpu/solver.cu")));
        assertEquals(
                in,
                HostOnlyScans.review(
                        in,
                        Map.of(),
                        List.of(HOST, new DeclaredFunction("vec.h", "dot", "float", true)),
                        List.of(),
                        Set.of()));
        assertEquals(
                in,
                HostOnlyScans.review(
                        in,
                        Map.of("step.cpp", new BuildContext().compiledAsCuda(true)),
                        List.of(HOST),
                        List.of(),
                        Set.of("step.cpp")));
    }

    @Test
    void aCFileOrHeaderLeftOutCannotHoldDeviceCode() {
        // a header or a C file becomes device code only inside a CUDA unit, which the scan would have seen
        List<Finding> in = List.of(finding("trace.c", Identity.Judgement.PORT, Level.WARNING));
        List<Finding> out =
                HostOnlyScans.review(in, Map.of(), List.of(HOST), List.of(), Set.of("utils/par.h", "utils/getpars.c"));
        assertEquals(Level.NOTE, out.get(0).level());
    }
}
