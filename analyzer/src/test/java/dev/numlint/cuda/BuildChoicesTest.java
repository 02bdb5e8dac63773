package dev.numlint.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.numlint.model.Evidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Identity;
import dev.numlint.model.Impact;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Location;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link BuildChoices}: the sites of an approximation the build chose, restated at the flag that chose it. */
class BuildChoicesTest {
    private static final Location FLAG = new Location("CMakeLists.txt", 34, 5, 34, 20);

    private static Finding flag(String rule) {
        return Finding.builder(rule)
                .level(Level.WARNING)
                .location(FLAG)
                .message("-use_fast_math implies -prec-div=false: float '/' in device code is approximate")
                .layer(Layer.BUILD_FLAGS)
                .build();
    }

    private static Finding site(int line, Identity.Judgement judgement, Impact.Reach reach, Location flagAt) {
        Finding.Builder b = Finding.builder("NL002")
                .level(Level.WARNING)
                .location(new Location("src/LocalFSC.cu", line, 5, line, 20))
                .message("'a / b' is an approximate division under -use_fast_math: one ulp can change the int")
                .layer(Layer.CUDA_SOURCE)
                .function("fsc")
                .identity(Identity.NONE.withJudgement(judgement))
                .impact(new Impact(Impact.Kind.AMPLIFIED, "one ulp can change the int at line 378", null, null, reach));
        if (flagAt != null) b.evidence(new Evidence("flag", "-use_fast_math", flagAt));
        return b.build();
    }

    @Test
    void aSiteThatReachesAnIntegerIsANoteAndTheFlagNamesIt() {
        List<Finding> out = BuildChoices.review(List.of(
                flag("NL002"),
                site(357, Identity.Judgement.CHOSEN_APPROXIMATION, null, FLAG),
                site(367, Identity.Judgement.CHOSEN_APPROXIMATION, Impact.Reach.CONVERSION, FLAG)));
        assertEquals(Level.WARNING, out.get(0).level());
        assertTrue(
                out.get(0).message().endsWith("; 1 site(s) reach integers or indices, e.g. LocalFSC.cu:367"),
                out.get(0).message());
        // the site that makes an integer is listed first, then the others
        assertEquals(367, out.get(0).related().get(0).location().startLine());
        assertEquals(357, out.get(0).related().get(1).location().startLine());
        assertEquals(2, out.get(0).properties().get("restatedSites"));
        for (Finding s : out.subList(1, 3)) {
            assertEquals(Level.NOTE, s.level());
            assertTrue(s.message().endsWith("; the build's choice, reported at CMakeLists.txt:34"), s.message());
            assertEquals(Impact.Kind.AMPLIFIED, s.impact().kind()); // the impact stays, typed
        }
    }

    @Test
    void sitesThatOnlyGoWhereNumlintDoesNotFollowAreCountedAsSuch() {
        List<Finding> out = BuildChoices.review(
                List.of(flag("NL002"), site(199, Identity.Judgement.CHOSEN_APPROXIMATION, null, FLAG)));
        assertTrue(
                out.get(0).message().endsWith("; 1 site(s) reach what is not followed, e.g. LocalFSC.cu:199"),
                out.get(0).message());
    }

    @Test
    void aFlagTheScanDoesNotReportLeavesItsSitesAsTheyAre() {
        // the flag given only on numlint's command line (--nvcc-flags): no finding of its own, the sites keep their
        // level; a flag of another rule at the same place is not this one
        List<Finding> in = List.of(
                flag("NL006"),
                site(357, Identity.Judgement.CHOSEN_APPROXIMATION, Impact.Reach.CONVERSION, FLAG),
                site(358, Identity.Judgement.CHOSEN_APPROXIMATION, Impact.Reach.CONVERSION, null));
        assertEquals(in, BuildChoices.review(in));
    }

    @Test
    void anApproximationWrittenByNameIsNotTheBuildsChoice() {
        List<Finding> in = List.of(flag("NL002"), site(198, null, Impact.Reach.CONVERSION, FLAG));
        assertEquals(in, BuildChoices.review(in));
    }

    @Test
    void aSiteThatNamesTheCompileCommandMeetsTheFlagOfTheBuildFileThatWritesIt() {
        // with a compilation database, the site's evidence is the database's line; the flag's finding is at the
        // CMakeLists.txt line that writes it and holds the database's line as evidence (an evaluation's ACMMP)
        Location db = new Location("build/compile_commands.json", 13, 8, 13, 20);
        Finding atBuildFile = flag("NL002").toBuilder()
                .evidence(new Evidence("compile-commands", "nvcc --use_fast_math ...", db))
                .build();
        List<Finding> out = BuildChoices.review(
                List.of(atBuildFile, site(503, Identity.Judgement.CHOSEN_APPROXIMATION, Impact.Reach.CONVERSION, db)));
        assertEquals(Level.WARNING, out.get(0).level());
        assertEquals(1, out.get(0).properties().get("restatedSites"));
        assertEquals(Level.NOTE, out.get(1).level());
        assertTrue(
                out.get(1).message().endsWith("; the build's choice, reported at CMakeLists.txt:34"),
                out.get(1).message());
    }

    @Test
    void aSiteOfAnotherCompileCommandOfTheSameDatabaseMeetsTheFlagByItsText() {
        // the flag's finding cites the first of 43 compile commands; a site of another unit cites its own command
        Location first = new Location("build/compile_commands.json", 8, 8, 8, 20);
        Location own = new Location("build/compile_commands.json", 688, 8, 688, 20);
        Finding atMakefile = flag("NL002").toBuilder()
                .evidence(new Evidence("flag", "-use_fast_math", null))
                .evidence(new Evidence("compile-commands", "-use_fast_math; in 43 of 43", first))
                .build();
        Finding site = site(85, Identity.Judgement.CHOSEN_APPROXIMATION, Impact.Reach.CONVERSION, null).toBuilder()
                .evidence(new Evidence("flag", "-use_fast_math", own))
                .build();
        Finding other = site(86, Identity.Judgement.CHOSEN_APPROXIMATION, Impact.Reach.CONVERSION, null).toBuilder()
                .evidence(new Evidence("flag", "-prec-div=false", own))
                .build();
        List<Finding> out = BuildChoices.review(List.of(atMakefile, site, other));
        assertEquals(Level.NOTE, out.get(1).level());
        // another flag in the same database is another decision: not this finding's
        assertEquals(Level.WARNING, out.get(2).level());
    }
}
