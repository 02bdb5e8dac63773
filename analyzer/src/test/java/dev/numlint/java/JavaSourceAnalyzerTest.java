package dev.numlint.java;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Confidence;
import dev.numlint.model.Finding;
import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.testing.InlineExpectations;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JavaSourceAnalyzerTest {
    static final Path FIXTURES = Path.of("src/test/resources/fixtures/java");
    private static TestScanContext scan;

    @BeforeAll
    static void scanFixtures() {
        scan = new TestScanContext(FIXTURES).run(new JavaSourceAnalyzer());
    }

    private static Finding finding(String file, String rule) {
        return scan.findings().stream()
                .filter(f -> f.location().file().endsWith(file) && f.ruleId().equals(rule))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + rule + " in " + file + ": " + scan.findings()));
    }

    @Test
    void fixturesMatchInlineExpectationsExactly() {
        // the samples under shared/ are also the SpotBugs plugin's: compiled for Java 8 there, so their NL005
        // expectations are the bytecode layer's (the source analyzer sees a Java 17 project without a pom)
        String diff = InlineExpectations.read(FIXTURES)
                .only(h -> !(h.file().startsWith("shared/") && h.ruleId().equals("NL005")))
                .compare(scan.hits(), scan.levels());
        assertThat(diff).as("fixture expectations").isEmpty();
    }

    @Test
    void implementsExactlyTheCatalogsJavaSourceRules() {
        Set<String> catalog = RuleCatalog.get().all().stream()
                .filter(r -> r.appliesTo(Layer.JAVA_SOURCE))
                .map(r -> r.id())
                .collect(Collectors.toSet());
        assertThat(new JavaSourceAnalyzer().implementedRules()).isEqualTo(catalog);
    }

    @Test
    void messagesNameTheExpressionAndTheConcreteConsequence() {
        List<Finding> chars = scan.findings().stream()
                .filter(f -> f.ruleId().equals("NL001") && f.message().startsWith("(char) -69.235f"))
                .toList();
        assertThat(chars).hasSize(1);
        assertThat(chars.get(0).message()).contains("(char) -69.235f is 65467");
        Finding dbt = scan.findings().stream()
                .filter(f -> f.message().startsWith("(short) -69.235f is read as unsigned"))
                .findFirst()
                .orElseThrow();
        assertThat(dbt.ruleId()).isEqualTo("NL001");
        assertThat(dbt.message())
                .contains("(short) -69.235f & 0xffff is 65467, not 0")
                .doesNotContain("GPU");
        Finding b = scan.findings().stream()
                .filter(f -> f.message().startsWith("(byte) 200.7f"))
                .findFirst()
                .orElseThrow();
        assertThat(b.ruleId()).isEqualTo("NL011");
        assertThat(b.message()).contains("(byte) 200.7f is -56");
        Finding upper = scan.findings().stream()
                .filter(f -> f.function() != null && f.function().endsWith("storeOnlyUpper"))
                .findFirst()
                .orElseThrow();
        assertThat(upper.message()).contains("guarded only from above").contains("pixels[...] & 0xff");
        Finding tenth = scan.findings().stream()
                .filter(f -> f.ruleId().equals("NL008") && f.function().endsWith("tenth"))
                .findFirst()
                .orElseThrow();
        assertThat(tenth.message()).contains("0.1").contains("0.10000000149");
        assertThat(tenth.layer()).isEqualTo(Layer.JAVA_SOURCE);
        assertThat(tenth.evidence()).isNotEmpty();
        assertThat(tenth.fingerprintKey())
                .contains("Promotion.tenth")
                .doesNotContain(":" + tenth.location().startLine());
    }

    @Test
    void levelsFollowTheBrief() {
        assertThat(scan.findings().stream()
                        .filter(f -> f.ruleId().equals("NL004") && f.function().endsWith("sumDouble"))
                        .findFirst()
                        .orElseThrow()
                        .level())
                .isEqualTo(Level.NOTE);
        assertThat(scan.findings().stream()
                        .filter(f -> f.ruleId().equals("NL004") && f.function().endsWith("Sums.sum"))
                        .findFirst()
                        .orElseThrow()
                        .level())
                .isEqualTo(Level.WARNING);
        assertThat(finding("Reciprocal.java", "NL002").level()).isEqualTo(Level.NOTE);
        assertThat(finding("Transcendental.java", "NL010").level()).isEqualTo(Level.NOTE);
        assertThat(finding("Conversions.java", "NL001").level()).isEqualTo(Level.ERROR);
    }

    @Test
    void nl005CountsOperationsPerClassForRelease8() {
        Finding f = scan.findings().stream()
                .filter(x -> x.ruleId().equals("NL005") && x.message().startsWith("class Legacy:"))
                .findFirst()
                .orElseThrow();
        assertThat(f.message())
                .contains("2 float/double operations")
                .contains("Java 8")
                .contains("x87 JVMs before 17 differ");
        assertThat(f.level())
                .as("NL005 in Java is a note: it matters only on x87")
                .isEqualTo(Level.NOTE);
        assertThat(scan.findings().stream()
                        .filter(x -> x.ruleId().equals("NL005")
                                && !x.location().file().startsWith("legacy8/")))
                .as("release 17 projects get no NL005")
                .isEmpty();
    }

    @Test
    void nl010ReportsOncePerMethodWithACount() {
        Finding f = scan.findings().stream()
                .filter(x -> x.ruleId().equals("NL010") && x.function().endsWith("rotate"))
                .findFirst()
                .orElseThrow();
        assertThat(f.message()).startsWith("Math.cos(t) and 2 more Math calls: ");
        assertThat(scan.findings()).allMatch(x -> x.message().length() <= 160, "one short line");
    }

    @Test
    void justifiedSuppressionsAreRecordedUnjustifiedOnesNotified() {
        List<Finding> suppressed = scan.findings().stream()
                .filter(Finding::suppressed)
                .filter(f -> f.location().file().startsWith("suppress/"))
                .toList();
        assertThat(suppressed)
                .extracting(f -> f.suppression().justification())
                .containsExactlyInAnyOrder(
                        "values are clamped by every caller",
                        "the lookup table is built from 0..255 only",
                        "v is a percentage, 0..100");
        assertThat(suppressed).allMatch(f -> f.suppression().kind().equals("inSource"));
        List<Notification> unjustified = scan.notifications().stream()
                .filter(n ->
                        n.id().equals("unjustified-suppression") && n.file().startsWith("suppress/"))
                .toList();
        assertThat(unjustified).hasSize(1);
        assertThat(unjustified.get(0).file()).isEqualTo("suppress/Suppressed.java");
        assertThat(unjustified.get(0).level()).isEqualTo(Level.WARNING);
    }

    @Test
    void theSharedSamplesSuppressFbWarningsAlsoSilenceTheSourceAnalyzer() {
        assertThat(scan.findings())
                .filteredOn(f -> f.location().file().equals("shared/samples/Suppressed.java"))
                .filteredOn(Finding::suppressed)
                .extracting(f -> f.suppression().justification())
                .containsExactlyInAnyOrder(
                        "rule id (bug code) match",
                        "full pattern type",
                        "prefix of the pattern type",
                        "the whole category");
    }

    @Test
    void syntaxErrorsAreRecoveredAndNotified() {
        List<Notification> syntax = scan.notifications().stream()
                .filter(n -> n.id().equals("syntax-error"))
                .toList();
        assertThat(syntax)
                .isNotEmpty()
                .allMatch(n -> n.file().equals("broken/Broken.java")
                        && n.level() == Level.WARNING
                        && n.line() >= 5
                        && n.line() <= 6);
        assertThat(scan.notifications()).noneMatch(n -> n.level() == Level.ERROR);
    }

    @Test
    void bindingsGiveHighConfidence() {
        assertThat(scan.findings()).allMatch(f -> f.confidence() == Confidence.HIGH);
    }

    @ParameterizedTest
    @ValueSource(strings = {"conversions", "accumulation", "division", "promotion", "mathlib"})
    void withoutBindingsSyntacticTypesFindTheSameWithLowConfidenceWhereGuessed(String dir) {
        Path root = FIXTURES.resolve(dir);
        TestScanContext plain = new TestScanContext(root).run(new JavaSourceAnalyzer(false));
        assertThat(InlineExpectations.read(root).compare(plain.hits())).isEmpty();
        assertThat(plain.findings()).isNotEmpty().allMatch(f -> f.confidence() == Confidence.LOW);
    }

    @Test
    void minTripCountOptionIsHonoured() {
        TestScanContext c = new TestScanContext(FIXTURES.resolve("accumulation"))
                .option("NL004", "min-trip-count", "2000")
                .run(new JavaSourceAnalyzer());
        assertThat(c.findings()).noneMatch(f -> f.function().endsWith("longConstantLoop"));
        assertThat(c.findings()).anyMatch(f -> f.function().endsWith("Sums.sum"));
    }

    @Test
    void disabledRulesAreNotReported() {
        TestScanContext c = new TestScanContext(FIXTURES.resolve("conversions"))
                .disable("NL001")
                .run(new JavaSourceAnalyzer());
        assertThat(c.findings()).noneMatch(f -> f.ruleId().equals("NL001")).anyMatch(f -> f.ruleId()
                .equals("NL011"));
    }
}
