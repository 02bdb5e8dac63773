package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import dev.numlint.model.UnitArithmetic;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a device-code flag reaches, read from the findings' typed flag identity (never their text). */
class FlagReachTest {
    private static final Location FLAG = Location.line("Makefile", 3);
    private static final Location SAME = Location.line("Makefile", 9);

    private static Finding flagFinding(Identity.Flag.Target target, String condition) {
        return Finding.builder("NL002")
                .location(FLAG)
                .message("any text: the review does not read it")
                .layer(Layer.BUILD_FLAGS)
                .level(Level.WARNING)
                .evidence(new Evidence("flag", "--use_fast_math", null))
                .identity(Identity.NONE.withFlag(
                        new Identity.Flag("--use_fast_math", target, "NVCCFLAGS", condition, List.of(SAME))))
                .build();
    }

    private static Map<String, BuildContext> builds() {
        return Map.of("k.cu", BuildContext.defaults().addOrigin("--use_fast_math", SAME));
    }

    @Test
    void aDeviceFlagThatBuildsNoReportedSiteBecomesANoteNamingTheFlagAndHowItIsSet() {
        Finding out = FlagReach.review(List.of(flagFinding(Identity.Flag.Target.CUDA_DEVICE, null)), builds(), Set.of())
                .get(0);
        assertThat(out.level()).isEqualTo(Level.NOTE);
        assertThat(out.message()).contains("--use_fast_math").contains("NVCCFLAGS");
        assertThat(out.properties()).containsEntry("affectedSites", 0);
    }

    @Test
    void aDeviceFlagCitedByASourceSiteStaysAndCountsIt() {
        Finding site = Finding.builder("NL002")
                .location(Location.line("k.cu", 12))
                .message("float division")
                .layer(Layer.CUDA_SOURCE)
                .level(Level.WARNING)
                .evidence(new Evidence("flag", "--use_fast_math", SAME))
                .build();
        List<Finding> out = FlagReach.review(
                List.of(flagFinding(Identity.Flag.Target.CUDA_DEVICE, null), site), builds(), Set.of());
        assertThat(out.get(0).level()).isEqualTo(Level.WARNING);
        assertThat(out.get(0).properties()).containsEntry("affectedSites", 1);
    }

    @Test
    void hostFlagsConditionalFlagsAndUnanalyzedFilesAreLeftAlone() {
        assertThat(FlagReach.review(List.of(flagFinding(Identity.Flag.Target.CUDA_HOST, null)), builds(), Set.of())
                        .get(0)
                        .level())
                .isEqualTo(Level.WARNING);
        assertThat(FlagReach.review(
                                List.of(flagFinding(Identity.Flag.Target.CUDA_DEVICE, "DEBUG=1")), builds(), Set.of())
                        .get(0)
                        .level())
                .isEqualTo(Level.WARNING);
        assertThat(FlagReach.review(
                                List.of(flagFinding(Identity.Flag.Target.CUDA_DEVICE, null)), builds(), Set.of("k.cu"))
                        .get(0)
                        .level())
                .isEqualTo(Level.WARNING);
    }

    /** A float division in the source cites the flag: the sites rule alone keeps the warning. */
    private static Finding citingSite() {
        return Finding.builder("NL002")
                .location(Location.line("k.cu", 30))
                .message("float division")
                .layer(Layer.CUDA_SOURCE)
                .level(Level.WARNING)
                .evidence(new Evidence("flag", "--use_fast_math", SAME))
                .build();
    }

    @Test
    void aDeviceFlagOnUnitsWhosePtxIsDoubleOnlyIsANoteFromThatFact() {
        // the site the source layer reported is host code of the unit (a block count): the PTX has no f32 operation
        Map<String, List<UnitArithmetic>> units =
                Map.of("k.cu", List.of(new UnitArithmetic("k.cu", Layer.PTX, null, null)));
        Finding out = FlagReach.review(
                        List.of(flagFinding(Identity.Flag.Target.CUDA_DEVICE, null), citingSite()),
                        builds(),
                        Set.of(),
                        units)
                .get(0);
        assertThat(out.level()).isEqualTo(Level.NOTE);
        assertThat(out.message()).contains("every device operation of its units (1) is double");
        assertThat(out.impact().consequence()).contains("PTX has no f32");
    }

    @Test
    void thePtxFactWinsOverTheSourceFactAndAFloatOperationKeepsTheWarning() {
        Map<String, List<UnitArithmetic>> units = Map.of(
                "k.cu",
                List.of(
                        new UnitArithmetic("k.cu", Layer.CUDA_SOURCE, null, null),
                        new UnitArithmetic("k.cu", Layer.PTX, "add.f32 %f1, %f2, %f3", Location.line("k.cu", 4))));
        Finding out = FlagReach.review(
                        List.of(flagFinding(Identity.Flag.Target.CUDA_DEVICE, null), citingSite()),
                        builds(),
                        Set.of(),
                        units)
                .get(0);
        assertThat(out.level()).isEqualTo(Level.WARNING);
    }

    @Test
    void withoutPtxTheSourceFactDecidesAndWithoutAnyFactTheSitesDo() {
        Map<String, List<UnitArithmetic>> source =
                Map.of("k.cu", List.of(new UnitArithmetic("k.cu", Layer.CUDA_SOURCE, null, null)));
        Finding out = FlagReach.review(
                        List.of(flagFinding(Identity.Flag.Target.CUDA_DEVICE, null), citingSite()),
                        builds(),
                        Set.of(),
                        source)
                .get(0);
        assertThat(out.level()).isEqualTo(Level.NOTE);
        assertThat(out.impact().consequence()).contains("source");
        assertThat(FlagReach.review(
                                List.of(flagFinding(Identity.Flag.Target.CUDA_DEVICE, null), citingSite()),
                                builds(),
                                Set.of(),
                                Map.of())
                        .get(0)
                        .level())
                .isEqualTo(Level.WARNING);
    }
}
