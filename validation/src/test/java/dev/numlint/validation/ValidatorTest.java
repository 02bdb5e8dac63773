package dev.numlint.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.model.Verdict;
import dev.numlint.validation.report.Attribution;
import dev.numlint.validation.report.JsonReportWriter;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.TextReportRenderer;
import dev.numlint.validation.report.ValidationReport;
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
    void aBuildsFlagsShowTheValueInEffectNotTwoValuesOfOneOption() {
        // before: the strict and ftz=false builds of examples/pi were labelled [... -ftz=true -ftz=false] (issue 30)
        List<String> asBuilt = List.of("-O3", "-arch=sm_80", "-ftz=true", "--fmad=true");
        assertThat(Variants.withFlag(asBuilt, "-ftz=false"))
                .containsExactly("-O3", "-arch=sm_80", "--fmad=true", "-ftz=false");
        List<String> strict = asBuilt;
        for (String f : Variants.STRICT_FLAGS) strict = Variants.withFlag(strict, f);
        assertThat(strict)
                .containsExactly(
                        "-O3", "-arch=sm_80", "-fmad=false", "-prec-div=true", "-prec-sqrt=true", "-ftz=false");
        // --use_fast_math stays: it sets other options too, and the later flags override the ones it implies
        assertThat(Variants.withFlag(List.of("--use_fast_math"), "-ftz=false"))
                .containsExactly("--use_fast_math", "-ftz=false");
        assertThat(Variants.hazardsOn(Variants.withFlag(List.of("--use_fast_math"), "-ftz=false")))
                .containsExactly("NL003", "NL002", "NL006");
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
        Attribution fma = sq.attribution.stream()
                .filter(a -> a.rule.equals("NL003"))
                .findFirst()
                .orElseThrow();
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
        assertThat(sq.variants)
                .extracting(v -> v.variant)
                .contains("as-built", "strict", "fmad=false", "prec-div=true", "ftz=false");
        assertThat(sq.attribution).extracting(a -> a.rule).contains("NL003", "NL007");
    }

    @Test
    void specFileReproducesTheBlockedMatrixNumbersThroughTheApi(@TempDir Path tmp) throws Exception {
        // 003_*.txt through Validator: as-built (nvcc's default build contracts into fma) gives 707054144 for
        // C(0,1), the strict build 707054208, the reference 707054166: fma is closer, and unfusing explains it
        ValidationOptions o = new ValidationOptions();
        o.inputs = 1;
        o.spec = Paths.get(ValidatorTest.class.getResource("/specs/matmul.yml").toURI());
        o.allKernels = true;
        Path ptx = tmp.resolve("seeds.ptx");
        Files.copy(resource("seeds.default.ptx"), ptx);
        ValidationReport r = Validator.validate(List.of(ptx), o);
        KernelResult mm = kernel(r, "matmul_serial");
        assertThat(mm.verdict).isEqualTo(Verdict.CONFIRMED);
        assertThat(mm.elementsCompared).isEqualTo(4);
        // C(0,0) changes too (193239968 without fma, 193239984 with); row 1 is the same in both builds
        assertThat(mm.elementsDiffering).isEqualTo(2);
        assertThat(mm.maxUlp).isEqualTo(1); // 707054144 and 707054208 are neighbours (ulp 64)
        assertThat(mm.attribution)
                .extracting(a -> a.rule + ":" + a.elementsDiffering)
                .containsExactly("NL003:2");
        assertThat(mm.closerToReference).isEqualTo("as-built");
        var asBuilt = mm.variants.stream()
                .filter(v -> v.variant.equals("as-built"))
                .findFirst()
                .orElseThrow();
        var strict = mm.variants.stream()
                .filter(v -> v.variant.equals("strict"))
                .findFirst()
                .orElseThrow();
        // errors against the exact products 193239976, 707054166, 651015747, 2439498668:
        // as-built 8, 22, 3, 84; strict 8, 42, 3, 84
        assertThat(asBuilt.meanAbsError).isEqualTo((8 + 22 + 3 + 84) / 4.0);
        assertThat(strict.meanAbsError).isEqualTo((8 + 42 + 3 + 84) / 4.0);
        assertThat(asBuilt.maxAbsError).isEqualTo(84.0);
        assertThat(TextReportRenderer.render(r)).contains("matmul_serial: confirmed");
    }

    @Test
    void requiringAGpuWithoutOneIsNotRunnable(@TempDir Path tmp) throws Exception {
        ValidationOptions o = new ValidationOptions();
        o.gpu = ValidationOptions.GpuMode.REQUIRE;
        Path ptx = tmp.resolve("seeds.ptx");
        Files.copy(resource("seeds.default.ptx"), ptx);
        ValidationReport r = Validator.validate(List.of(ptx), o);
        assertThat(r.kernels).singleElement().satisfies(k -> {
            assertThat(k.verdict).isEqualTo(Verdict.NOT_RUNNABLE);
            assertThat(k.reason).contains("no GPU executor");
        });
    }
}
