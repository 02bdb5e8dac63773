package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** nvcc decides the PTX: a source finding about double arithmetic on lines the PTX compiled without FP64. */
class LineFactsTest {
    private static final String PROMOTED = "is computed in double (the double literal 0.25), rounded to 'f': slow on"
            + " the GPU; the result equals float's, only speed is at stake";

    private static Finding promotion(String rule, int line, int endLine, String expr) {
        return Finding.builder(rule)
                .level(Level.WARNING)
                .layer(Layer.CUDA_SOURCE)
                .location(new Location("k.cu", line, 9, endLine, 40))
                .message("'" + expr + "' " + PROMOTED)
                .identity(Identity.NONE.withExpression(expr))
                .build();
    }

    private static Finding ptxPromotion(int line) {
        return Finding.builder("NL008")
                .level(Level.WARNING)
                .layer(Layer.PTX)
                .location(Location.of("k.cu", line, 9))
                .message("`cvt.f64.f32 %fd1, %f1`: float math done in double (`div.rn.f64`) and rounded back to float")
                .evidence(new Evidence("ptx", "cvt.f64.f32 %fd1, %f1;", null))
                .identity(Identity.NONE.withInstruction("cvt"))
                .build();
    }

    /** The lines of a kernel: code on 10 to 20, FP64 instructions on 12 and 16 (the second line of a statement). */
    private static LineFacts kernel() {
        LineFacts lines = LineFacts.none();
        lines.addCompiled("k.cu", Set.of(10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20), Set.of(12, 16));
        return lines;
    }

    @Test
    void aLineCompiledWithoutFp64IsANoteThatSaysTheCompilerNarrowedIt() {
        List<Finding> out = LayerMerge.merge(List.of(promotion("NL008", 11, 11, "0.25*(a+b)")), kernel());
        assertThat(out).hasSize(1);
        Finding f = out.get(0);
        assertThat(f.level()).isEqualTo(Level.NOTE);
        assertThat(f.message())
                .isEqualTo("'0.25*(a+b)': no FP64 instruction in this line's PTX: the compiler narrowed it");
        assertThat(f.properties()).containsEntry("narrowedInPtx", true);
    }

    @Test
    void fp64OnTheLineOrOnAnotherLineOfTheStatementKeepsTheWarning() {
        List<Finding> out = LayerMerge.merge(
                List.of(promotion("NL008", 12, 12, "8.0/(a+b)"), promotion("NL008", 15, 16, "2.0/(a+b)")), kernel());
        assertThat(out).extracting(Finding::level).containsExactly(Level.WARNING, Level.WARNING);
        assertThat(out).allSatisfy(f -> assertThat(f.message()).contains("slow on the GPU"));
    }

    @Test
    void withoutPtxCodeForTheLineOrTheFileTheSourceLayersFindingStands() {
        // line 30: no PTX code (host code, a function nvcc did not emit); g.cu: no PTX at all
        Finding noCode = promotion("NL008", 30, 30, "0.5*x");
        Finding otherFile = promotion("NL008", 11, 11, "0.5*x").toBuilder()
                .location(Location.of("g.cu", 11, 9))
                .build();
        assertThat(LayerMerge.merge(List.of(noCode, otherFile), kernel()))
                .extracting(Finding::level)
                .containsExactly(Level.WARNING, Level.WARNING);
        assertThat(LayerMerge.merge(List.of(promotion("NL008", 11, 11, "0.5*x")), LineFacts.none()))
                .extracting(Finding::level)
                .containsExactly(Level.WARNING);
    }

    @Test
    void aPtxFindingOfTheRuleOnTheLineKeepsTheWarning() {
        // the PTX layer found double math at the line (moved there by the merge): the line's PTX does hold FP64
        LineFacts lines = LineFacts.none();
        lines.addCompiled("k.cu", Set.of(11), Set.of());
        List<Finding> out =
                LayerMerge.merge(List.of(promotion("NL008", 11, 11, "0.25*(a+b)"), ptxPromotion(11)), lines);
        assertThat(out).hasSize(1);
        assertThat(out.get(0).level()).isEqualTo(Level.WARNING);
    }

    @Test
    void onlyARuleWhosePolicySaysSoIsNarrowed() {
        // NL014: the float literal's value is the hazard, whatever precision the compiler computes in
        List<Finding> out = LayerMerge.merge(List.of(promotion("NL014", 11, 11, "x*0.1f")), kernel());
        assertThat(out.get(0).level()).isEqualTo(Level.WARNING);
    }

    /** A device-only contraction in a function at lines 30 to 40 of k.cu (property deviceCode). */
    private static Finding deviceContraction() {
        return Finding.builder("NL003")
                .level(Level.WARNING)
                .layer(Layer.CUDA_SOURCE)
                .location(new Location("k.cu", 33, 12, 33, 60))
                .message("'a*b - c*d' may become one fma (-fmad=true default): decides the test at line 33")
                .identity(Identity.NONE.withExpression("a*b - c*d"))
                .property(Finding.DEVICE_CODE, true)
                .build();
    }

    private static LineFacts withFunction(boolean allRead) {
        LineFacts lines = kernel();
        lines.addFunctions(List.of(
                dev.numlint.model.DeclaredFunction.definition("k.cu", "kernel", 9, 21),
                dev.numlint.model.DeclaredFunction.definition("k.cu", "side", 30, 40)));
        lines.addPtxUnit("k.cu", false);
        lines.addPtxUnit("host.cu", false);
        lines.addPtxUnit("k.cu", true);
        if (allRead) lines.addPtxUnit("host.cu", true);
        return lines;
    }

    @Test
    void aDeviceFindingInAFunctionThePtxHasNoLineOfIsANote() {
        List<Finding> out = LayerMerge.merge(List.of(deviceContraction()), withFunction(true));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).level()).isEqualTo(Level.NOTE);
        assertThat(out.get(0).message())
                .isEqualTo("'a*b - c*d': no line of its function in the PTX: nvcc emitted no GPU code for it");
        assertThat(out.get(0).properties()).containsEntry("notEmittedInPtx", true);
    }

    @Test
    void aUnitWhosePtxWasNotReadOrAFindingOfHostCodeKeepsItsLevel() {
        // host.cu was tried and never read (nvcc failed): its PTX might hold the function
        assertThat(LayerMerge.merge(List.of(deviceContraction()), withFunction(false)))
                .extracting(Finding::level)
                .containsExactly(Level.WARNING);
        // without the property the host compiler's hazard may be meant
        Finding host = deviceContraction().toBuilder()
                .removeProperty(Finding.DEVICE_CODE)
                .build();
        assertThat(LayerMerge.merge(List.of(host), withFunction(true)))
                .extracting(Finding::level)
                .containsExactly(Level.WARNING);
        // a line of the function with PTX code: nvcc emitted it
        LineFacts emitted = withFunction(true);
        emitted.addCompiled("k.cu", Set.of(36), Set.of());
        assertThat(LayerMerge.merge(List.of(deviceContraction()), emitted))
                .extracting(Finding::level)
                .containsExactly(Level.WARNING);
    }
}
