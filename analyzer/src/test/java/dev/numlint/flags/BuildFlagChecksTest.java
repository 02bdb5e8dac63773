package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.flags.checks.ApproximateDivisionFlags;
import dev.numlint.flags.checks.ApproximateMathFlags;
import dev.numlint.flags.checks.BuildFlagCheck;
import dev.numlint.flags.checks.FlagFacts;
import dev.numlint.flags.checks.FlagHazard;
import dev.numlint.flags.checks.FlushToZeroFlags;
import dev.numlint.flags.checks.FmaContractionFlags;
import dev.numlint.flags.checks.X87PrecisionFlags;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Location;
import dev.numlint.spi.Checks;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The build-flags layer as one registered check per rule, reading the flags interpreted once per scope. */
class BuildFlagChecksTest {
    private static final Path FIXTURES = Path.of("src/test/resources/fixtures/build-flags");

    @Test
    void oneRegisteredCheckPerRuleAndTheRulesDerivedFromThem() {
        List<BuildFlagCheck> checks = Checks.load(BuildFlagCheck.class, Layer.BUILD_FLAGS);
        Map<String, String> byRule = checks.stream().collect(Collectors.toMap(BuildFlagCheck::ruleId, c -> c.getClass()
                .getSimpleName()));
        assertThat(byRule)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "NL002",
                        "ApproximateDivisionFlags",
                        "NL003",
                        "FmaContractionFlags",
                        "NL004",
                        "ReassociationFlags",
                        "NL005",
                        "X87PrecisionFlags",
                        "NL006",
                        "ApproximateMathFlags",
                        "NL007",
                        "FlushToZeroFlags"));
        assertThat(new BuildFlagAnalyzer().implementedRules()).isEqualTo(Checks.ruleIds(checks));
    }

    private static FlagFacts facts(String... flags) {
        List<FlagTok> toks = new ArrayList<>();
        for (int i = 0; i < flags.length; i++) {
            toks.add(new FlagTok(
                    flags[i], Location.of("Makefile", 1, 1 + 20 * i), FlagTok.Lang.CUDA, null, "NVCCFLAGS"));
        }
        return new FlagFacts(FlagInterpreter.interpret(toks).entries);
    }

    private static List<String> run(BuildFlagCheck check, FlagFacts facts) {
        List<String> out = new ArrayList<>();
        check.check(
                facts, (FlagHazard h) -> out.add(h.ruleId() + " " + h.entry().flag()));
        return out;
    }

    @Test
    void eachCheckDecidesItsOwnRuleFromTheSameFacts() {
        // --use_fast_math with an explicit -ftz=false: approximate division and math remain, flush-to-zero does not
        FlagFacts f = facts("--use_fast_math", "-ftz=false");
        assertThat(run(new ApproximateDivisionFlags(), f)).containsExactly("NL002 --use_fast_math");
        assertThat(run(new ApproximateMathFlags(), f)).containsExactly("NL006 --use_fast_math");
        assertThat(run(new FlushToZeroFlags(), f)).isEmpty();
        // a later -prec-div=true undoes an earlier -prec-div=false; an earlier one does not undo a later false
        assertThat(run(new ApproximateDivisionFlags(), facts("-prec-div=false", "-prec-div=true")))
                .isEmpty();
        assertThat(run(new ApproximateDivisionFlags(), facts("-prec-div=true", "-prec-div=false")))
                .containsExactly("NL002 -prec-div=false");
        // host flags through -Xcompiler: FMA unless -ffp-contract=off anywhere, x87 unless -mfpmath=sse
        assertThat(run(new FmaContractionFlags(), facts("-Xcompiler", "-march=haswell")))
                .containsExactly("NL003 -march=haswell");
        assertThat(run(new FmaContractionFlags(), facts("-Xcompiler=-ffp-contract=off,-march=haswell")))
                .isEmpty();
        assertThat(run(new X87PrecisionFlags(), facts("-m32"))).containsExactly("NL005 -m32");
        assertThat(run(new X87PrecisionFlags(), facts("-m32", "-Xcompiler=-mfpmath=sse")))
                .isEmpty();
    }

    @Test
    void aLaterNoFiniteMathOnlyKeepsNanTestsOfFastMath() {
        List<String> keys = new ArrayList<>();
        java.util.function.Consumer<FlagHazard> key =
                h -> keys.add(h.message().contains("assumes no NaN") + " " + h.finiteMath());
        new ApproximateMathFlags().check(facts("-Xcompiler", "-ffast-math"), key);
        // setBfree's OPTIMIZATIONS (session 62 round B): GCC keeps the isnan test, only the less accurate math remains
        new ApproximateMathFlags()
                .check(facts("-Xcompiler", "-ffast-math", "-Xcompiler", "-fno-finite-math-only"), key);
        // an earlier -fno-finite-math-only is undone by the -ffast-math after it
        new ApproximateMathFlags()
                .check(facts("-Xcompiler", "-fno-finite-math-only", "-Xcompiler", "-ffast-math"), key);
        assertThat(keys).containsExactly("true true", "false false", "true true");
    }

    @Test
    void aLaterNoUnsafeMathOptimizationsKeepsDivisionAndMathAccurate() {
        List<String> keys = new ArrayList<>();
        java.util.function.Consumer<FlagHazard> key = h -> keys.add(h.ruleId() + " " + h.finiteMath() + " "
                + h.message().contains("RSQRTSS") + " " + h.message().contains("no NaN"));
        // a SID emulator's configure (session 63 round E): GCC disables reciprocal and unsafe math, keeps finite math
        List<String> flags = List.of("-Xcompiler", "-ffast-math", "-Xcompiler", "-fno-unsafe-math-optimizations");
        new ApproximateDivisionFlags().check(facts(flags.toArray(String[]::new)), key);
        new ApproximateMathFlags().check(facts(flags.toArray(String[]::new)), key);
        assertThat(keys).containsExactly("NL006 true false true");
        keys.clear();
        // both parts undone: nothing of -ffast-math that these rules judge is left
        new ApproximateMathFlags()
                .check(
                        facts(
                                "-Xcompiler",
                                "-ffast-math",
                                "-Xcompiler",
                                "-fno-unsafe-math-optimizations",
                                "-Xcompiler",
                                "-fno-finite-math-only"),
                        key);
        // -fno-reciprocal-math undoes the division only; before -ffast-math it undoes nothing
        new ApproximateDivisionFlags()
                .check(facts("-Xcompiler", "-ffast-math", "-Xcompiler", "-fno-reciprocal-math"), key);
        new ApproximateDivisionFlags()
                .check(facts("-Xcompiler", "-fno-unsafe-math-optimizations", "-Xcompiler", "-ffast-math"), key);
        assertThat(keys).containsExactly("NL002 false false false");
    }

    @Test
    void messagesAreOneShortLineFromTheCatalog() {
        TestScanContext ctx = new TestScanContext(FIXTURES).run(new BuildFlagAnalyzer());
        assertThat(ctx.findings()).isNotEmpty();
        for (Finding f : ctx.findings()) {
            assertThat(f.message()).hasSizeLessThanOrEqualTo(160);
            // the rule's own text, before the origin and the condition (left out when they do not fit)
            String own = f.message().replaceFirst("; (via|only under) .*$", "");
            assertThat(own)
                    .as(f.ruleId() + " at " + f.location())
                    .doesNotContain("\n")
                    .hasSizeLessThanOrEqualTo(160)
                    .startsWith(f.evidence().get(0).text());
        }
    }
}
