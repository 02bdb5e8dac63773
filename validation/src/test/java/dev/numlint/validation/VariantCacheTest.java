package dev.numlint.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Verdict;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The prebuilt-variant cache lets a host without a working nvcc validate .cu files. */
class VariantCacheTest {
    @Test
    void keysDependOnContentFlagsAndArchNotOnThePath(@TempDir Path tmp) throws Exception {
        Path a = Files.createDirectories(tmp.resolve("a")).resolve("k.cu"),
                b = Files.createDirectories(tmp.resolve("b")).resolve("k.cu");
        Files.writeString(a, "x");
        Files.writeString(b, "x");
        assertThat(VariantCache.key(a, "compute_90", List.of()))
                .isEqualTo(VariantCache.key(b, "compute_90", List.of()));
        assertThat(VariantCache.key(a, "compute_90", List.of("-fmad=false")))
                .isNotEqualTo(VariantCache.key(a, "compute_90", List.of()));
        assertThat(VariantCache.key(a, "compute_80", List.of()))
                .isNotEqualTo(VariantCache.key(a, "compute_90", List.of()));
        Files.writeString(b, "y");
        assertThat(VariantCache.key(a, "compute_90", List.of()))
                .isNotEqualTo(VariantCache.key(b, "compute_90", List.of()));
    }

    @Test
    void validatesFromPrebuiltVariantsWithoutCompiling(@TempDir Path tmp) throws Exception {
        // a .cu that no nvcc can compile: the validation can only succeed from the cache
        Path cu = tmp.resolve("seeds.cu");
        Files.writeString(cu, "this is not CUDA; the variants were built elsewhere\n");
        String fma = Files.readString(ValidatorTest.resource("seeds.default.ptx"), StandardCharsets.UTF_8);
        String noFma = Files.readString(ValidatorTest.resource("seeds.nofma.ptx"), StandardCharsets.UTF_8);
        ValidationOptions o = new ValidationOptions();
        o.gpu = ValidationOptions.GpuMode.OFF;
        o.variantCache = tmp.resolve("variants");
        o.inputs = 2;
        o.elements = 256;
        VariantCache c = new VariantCache(o.variantCache);
        // every build carries -lineinfo (source positions without changing the code)
        c.put(cu, o.arch, List.of("-lineinfo"), fma);
        List<String> strict = new ArrayList<>(List.of(Variants.STRICT_FLAGS));
        strict.add("-lineinfo");
        c.put(cu, o.arch, strict, noFma);
        c.put(cu, o.arch, List.of("-fmad=false", "-lineinfo"), noFma);
        c.putNvccVersion("nvcc test version");
        ValidationReport r = Validator.validate(List.of(cu), o);
        KernelResult k = r.kernels.stream()
                .filter(x -> x.kernel.equals("square_plus"))
                .findFirst()
                .orElseThrow();
        assertThat(k.verdict).isEqualTo(Verdict.CONFIRMED);
        assertThat(k.attribution).anySatisfy(a -> {
            assertThat(a.rule).isEqualTo("NL003");
            assertThat(a.elementsDiffering).isEqualTo(k.elementsDiffering);
        });
        assertThat(r.environment.get("nvcc")).startsWith("nvcc test version");
        assertThat(r.environment.get("gpu")).isEqualTo("not used: --gpu off");
        assertThat(k.gpu).isNull();
    }
}
