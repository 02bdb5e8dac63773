package dev.numlint.ptx.sass;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.ptx.model.Contraction;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.PtxModule;
import dev.numlint.ptx.parser.PtxReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The contraction model against the SASS ptxas 13.0 produced for sm_90 (committed nvdisasm listings). */
class ContractionSassTest {
    static String resource(String name) throws IOException {
        try (InputStream in = ContractionSassTest.class.getResourceAsStream("/contraction/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static PtxModule module(String name) throws IOException {
        PtxReader.Result r = PtxReader.read(resource(name + ".ptx"));
        assertThat(r.failed()).isFalse();
        return r.module();
    }

    @ParameterizedTest
    @ValueSource(strings = {"patterns", "seeds", "matmul", "backproject", "backproject-fastmath"})
    void modelAgreesWithTheMachineCodeOnEveryAttributedAddition(String name) throws IOException {
        PtxModule m = module(name);
        SassListing sass = SassListing.parse(resource(name + ".sass"));
        int attributed = 0;
        for (PtxFunction f : m.definedFunctions()) {
            assertThat(sass.instructions(f.name())).as(f.name()).isNotEmpty();
            for (ContractionCheck.Observation o : ContractionCheck.compare(f, sass, f.name())) {
                if (o.observed() == null) continue;
                attributed++;
                assertThat(o.predicted())
                        .as(
                                "%s line %d (%s): sass %s",
                                f.name(),
                                o.ptxLine(),
                                f.instruction(o.instruction()).text().trim(),
                                o.sass())
                        .isEqualTo(o.observed());
            }
        }
        assertThat(attributed).isGreaterThanOrEqualTo(name.equals("patterns") ? 25 : 0);
    }

    private static Boolean fusedIn(String kernel) throws IOException {
        PtxFunction f = module("patterns").function(kernel);
        Contraction c = Contraction.of(f);
        Boolean any = false;
        for (Instruction in : f.instructions()) {
            if (Contraction.isContractibleAdd(in)) any = (any != null && any) || c.isFused(in.index());
        }
        return any;
    }

    @Test
    void patternsThePtxIsaAllowsAreFused() throws IOException {
        for (String k : List.of(
                "k01_mul_add",
                "k02_c_minus_mul",
                "k03_mul_minus_c",
                "k04_used_twice",
                "k09_f64",
                "k11_loop",
                "k13_neg",
                "k15_add_sat",
                "k23_square",
                "k26_both_ftz",
                "k27_mul_used_thrice",
                "k30_mov_between",
                "k22_f64_used_twice")) {
            assertThat(fusedIn(k)).as(k).isTrue();
        }
    }

    @Test
    void roundingModifiersStoredProductsAndOtherBlocksPreventFusion() throws IOException {
        for (String k : List.of(
                "k05_also_stored",
                "k06_mul_rn",
                "k07_add_rn",
                "k10_branch",
                "k12_ftz_mismatch",
                "k14_mul_sat",
                "k21_mul_in_setp",
                "k24_mul_rz",
                "k25_add_ftz_mul_plain",
                "k29_mul_across_loop")) {
            assertThat(fusedIn(k)).as(k).isFalse();
        }
    }

    @Test
    void theThesisFixStillContractsTheOuterSubtraction() throws IOException {
        // imgShiftX - __fadd_rn(startX, i*stepX) * r: the add.rn blocks the inner product, the outer sub is an FFMA
        PtxFunction f = module("patterns").function("k08_thesis");
        Contraction c = Contraction.of(f);
        List<Contraction.Fusion> fs = c.fusions();
        assertThat(fs).hasSize(1);
        Instruction sub = f.instruction(fs.get(0).add());
        assertThat(sub.opcode()).isEqualTo("sub");
        assertThat(fs.get(0).negated()).isTrue(); // x - p*r = fma(-p, r, x)
        SassListing sass = SassListing.parse(resource("patterns.sass"));
        assertThat(sass.byLine("k08_thesis").get(sub.ptxLine()))
                .extracting(SassListing.SassInstruction::baseOpcode)
                .contains("FFMA");
    }

    @Test
    void aProductUsedTwiceBecomesTwoFfmasAndNoFmul() throws IOException {
        PtxFunction f = module("patterns").function("k04_used_twice");
        Contraction c = Contraction.of(f);
        assertThat(c.fusions()).hasSize(2);
        int mul = c.fusions().get(0).mul();
        assertThat(c.fusionsOf(mul)).hasSize(2);
        assertThat(c.isMulRetained(mul)).isFalse();
        SassListing sass = SassListing.parse(resource("patterns.sass"));
        assertThat(sass.instructions("k04_used_twice"))
                .extracting(SassListing.SassInstruction::baseOpcode)
                .doesNotContain("FMUL")
                .filteredOn("FFMA"::equals)
                .hasSize(2);
    }

    @Test
    void locRewriterGivesEveryInstructionItsOwnPtxLine() throws IOException {
        String ptx = resource("seeds.ptx");
        PtxModule original = PtxReader.read(ptx).module();
        PtxReader.Result r = PtxReader.read(LocRewriter.rewrite(ptx, "seeds.ptx"));
        assertThat(r.failed()).isFalse();
        for (PtxFunction f : r.module().definedFunctions()) {
            PtxFunction o = original.function(f.name());
            assertThat(f.instructions()).hasSameSizeAs(o.instructions());
            for (int i = 0; i < f.instructions().size(); i++) {
                // the .loc names the line the instruction has in the original PTX
                assertThat(f.instruction(i).loc().pos().line())
                        .isEqualTo(o.instruction(i).ptxLine());
            }
        }
    }
}
