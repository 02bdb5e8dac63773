package dev.numlint.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.validation.report.Attribution;
import dev.numlint.validation.report.JsonReportWriter;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.TextReportRenderer;
import dev.numlint.validation.report.ValidationReport;
import dev.numlint.validation.report.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidatorTest {
    static Path resource(String name) throws Exception {
        return Paths.get(ValidatorTest.class.getResource("/kernels/" + name).toURI());
    }

    static KernelResult kernel(ValidationReport r, String name) {
        return r.kernels.stream().filter(k -> k.kernel.equals(name)).findFirst().orElseThrow();
    }

    @Test
    void ptxInputUsesPtxLevelStrictVariants(@TempDir Path tmp) throws Exception {
        ValidationOptions o = new ValidationOptions();
        o.inputs = 3;
        o.elements = 2048;
        Path ptx = tmp.resolve("seeds.ptx");
        Files.copy(resource("seeds.default.ptx"), ptx);
        ValidationReport r = Validator.validate(List.of(ptx), o);
        System.out.println(TextReportRenderer.render(r));
        KernelResult sq = kernel(r, "square_plus");
        assertThat(sq.verdict).isEqualTo(Verdict.CONFIRMED);
        assertThat(sq.elementsCompared).isEqualTo(3 * 2048);
        assertThat(sq.elementsDiffering).isPositive();
        assertThat(sq.attribution).extracting(a -> a.rule).contains("NL003");
        Attribution fma = sq.attribution.stream().filter(a -> a.rule.equals("NL003")).findFirst().orElseThrow();
        assertThat(fma.elementsDiffering).isEqualTo(sq.elementsDiffering); // unfusing alone removes every difference
        assertThat(sq.closerToReference).isEqualTo("as-built"); // one rounding instead of two
        KernelResult cast = kernel(r, "to_ushort");
        assertThat(cast.verdict).isEqualTo(Verdict.CONFIRMED);
        assertThat(cast.attribution).extracting(a -> a.variant).containsExactly("host-x86");
        assertThat(cast.attribution.get(0).elementsDiffering).isPositive();
        String json = JsonReportWriter.toJson(r);
        assertThat(json).contains("\"kernels\"", "\"closerToReference\"", "\"attribution\"", "\"elementsDiffering\"");
        assertThat(JsonReportWriter.read(json).kernels).hasSize(r.kernels.size());
    }

    @Test
    void cudaSourceBuildsNvccVariants() throws Exception {
        ValidationOptions o = new ValidationOptions();
        assumeTrue(Nvcc.find(null, o.arch).isPresent(), "nvcc not found: skipping the nvcc-variant test");
        o.inputs = 2;
        o.elements = 1024;
        o.buildFlags = List.of("--use_fast_math");
        ValidationReport r = Validator.validate(List.of(resource("seeds.cu")), o);
        System.out.println(JsonReportWriter.toJson(r));
        KernelResult sq = kernel(r, "square_plus");
        assertThat(sq.verdict).isEqualTo(Verdict.CONFIRMED);
        assertThat(sq.variants).extracting(v -> v.variant).contains("as-built", "strict", "fmad=false", "prec-div=true", "ftz=false");
        assertThat(sq.attribution).extracting(a -> a.rule).contains("NL003", "NL007");
    }
}
