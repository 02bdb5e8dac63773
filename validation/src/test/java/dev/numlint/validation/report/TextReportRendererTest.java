package dev.numlint.validation.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextReportRendererTest {
    static VariantError variant(String name, List<String> flags, double abs, double rel) {
        VariantError v = new VariantError();
        v.variant = name;
        v.flags = flags;
        v.maxAbsError = abs;
        v.maxRelError = rel;
        return v;
    }

    @Test
    void eachBuildsFlagsFollowItsNameAndTheReferenceIsNamedOnce() {
        // issue 30: "max rel error 0.500 vs reference [-O3 -arch=sm_80 -ftz=true -ftz=false]" read as the
        // reference's flags; they are the build's
        KernelResult k = new KernelResult();
        k.file = "pi.cu";
        k.kernel = "piTerms";
        k.verdict = Verdict.NOT_OBSERVED;
        k.variants.add(variant("as-built", List.of("-O3", "-ftz=true"), 2.4e-7, 6.0e-8));
        k.variants.add(variant("strict", List.of("-O3", "-fmad=false", "-ftz=false"), 2.4e-7, 6.0e-8));
        ValidationReport r = new ValidationReport();
        r.kernels.add(k);
        String text = TextReportRenderer.render(r);
        assertThat(text)
                .contains("errors against the reference: the strict build [-O3 -fmad=false -ftz=false] run in high"
                        + " precision\n")
                .contains("    as-built [-O3 -ftz=true]: max abs error 2.40e-07, max rel error 6.00e-08\n")
                .contains("    strict [-O3 -fmad=false -ftz=false]: max abs error")
                .doesNotContain("vs reference [");
    }

    @Test
    void exceptionsAreListedPerInstruction() {
        KernelResult k = new KernelResult();
        k.file = "k.cu";
        k.kernel = "k";
        k.verdict = Verdict.NOT_OBSERVED;
        ExceptionCount e = new ExceptionCount();
        e.ptxLine = 40;
        e.source = "k.cu:10:5";
        e.instruction = "div.rn.f32 %f3, %f1, %f2;";
        e.counts.put("divisionByZero", 2L);
        e.counts.put("infFromFinite", 2L);
        k.exceptions.add(e);
        ValidationReport r = new ValidationReport();
        r.kernels.add(k);
        assertThat(TextReportRenderer.render(r))
                .contains("    floating-point exceptions at k.cu:10:5 (div.rn.f32 %f3, %f1, %f2;): divisionByZero 2,"
                        + " infFromFinite 2\n");
    }
}
