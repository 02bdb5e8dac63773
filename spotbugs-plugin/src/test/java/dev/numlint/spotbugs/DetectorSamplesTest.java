package dev.numlint.spotbugs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;

import dev.numlint.testing.InlineExpectations;
import dev.numlint.testing.InlineExpectations.Hit;
import edu.umd.cs.findbugs.BugCollection;
import edu.umd.cs.findbugs.BugInstance;
import edu.umd.cs.findbugs.SourceLineAnnotation;
import edu.umd.cs.findbugs.annotations.Confidence;
import edu.umd.cs.findbugs.test.SpotBugsExtension;
import edu.umd.cs.findbugs.test.SpotBugsRunner;
import edu.umd.cs.findbugs.test.matcher.BugInstanceMatcher;
import edu.umd.cs.findbugs.test.matcher.BugInstanceMatcherBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.hamcrest.MatcherAssert;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs SpotBugs (all detectors, the numlint plugin registered from target/classes) on the annotated samples compiled
 * for Java 8 and Java 17 class files and compares the numlint bug instances with the samples' inline expectations
 * exactly ({@code // ruleid:} / {@code // ok:} above the line). NL005 applies to class files before Java 17 only.
 */
@ExtendWith(SpotBugsExtension.class)
class DetectorSamplesTest {

    @ParameterizedTest(name = "javac --release {0}")
    @ValueSource(ints = {8, 17})
    void samplesMatchTheirInlineExpectations(int release, SpotBugsRunner spotbugs, @TempDir Path tmp)
            throws IOException {
        List<Path> classes = SampleCompiler.compile(SampleCompiler.SAMPLES, release, tmp.resolve("classes"));
        BugCollection bugs = spotbugs.addAuxClasspathEntry(e -> {}, SampleCompiler.annotationsJar())
                .performAnalysis(SampleCompiler::defaultDetectors, classes.toArray(Path[]::new));

        List<Hit> actual = new ArrayList<>();
        for (BugInstance b : bugs) {
            if (!b.getType().startsWith("NL")) {
                continue;
            }
            SourceLineAnnotation sl = b.getPrimarySourceLineAnnotation();
            actual.add(new Hit(
                    sl.getSourcePath(), sl.getStartLine(), b.getBugPattern().getAbbrev()));
        }
        // the samples are shared with the source analyzer: only the rules of the bytecode layer are checked here
        InlineExpectations exp = InlineExpectations.read(SampleCompiler.SAMPLES)
                .only(h -> dev.numlint.rules.RuleCatalog.get()
                        .rule(h.ruleId())
                        .appliesTo(dev.numlint.model.Layer.JAVA_BYTECODE));
        Set<Hit> expected = new TreeSet<>(exp.expected());
        if (release >= 17) {
            expected.removeIf(h -> h.ruleId().equals("NL005"));
            assertThat(actual).noneMatch(h -> h.ruleId().equals("NL005"));
        } else {
            assertThat(expected).anyMatch(h -> h.ruleId().equals("NL005"));
        }
        assertThat(expected).extracting(Hit::ruleId).contains("NL001", "NL004", "NL010", "NL011");

        // every expectation, checked with SpotBugs' own matcher: pattern type, class and the exact line
        for (Hit h : expected) {
            String cls = h.file().substring(h.file().lastIndexOf('/') + 1).replace(".java", "");
            BugInstanceMatcher m = new BugInstanceMatcherBuilder()
                    .bugType(BugPatterns.type(h.ruleId()))
                    .inClass(cls)
                    .atLine(h.line())
                    .build();
            MatcherAssert.assertThat(h + " (release " + release + ")", bugs, hasItem(m));
        }
        // and nothing else: no finding on an `ok:` line, none that is not expected
        StringBuilder report = new StringBuilder();
        Set<Hit> act = new TreeSet<>(actual);
        for (Hit h : expected) {
            if (!act.contains(h)) {
                report.append("  missed:     ").append(h).append('\n');
            }
        }
        for (Hit h : act) {
            if (exp.forbidden().contains(h)) {
                report.append("  false pos.: ").append(h).append(" (line marked ok)\n");
            } else if (!expected.contains(h)) {
                report.append("  unexpected: ").append(h).append('\n');
            }
        }
        assertThat(report.toString())
                .as("release " + release + " findings vs inline expectations")
                .isEmpty();
        assertThat(actual).as("one bug instance per expectation").hasSize(act.size());

        // levels stated with level=: priority 1 is error, 2 warning, 3 (below SpotBugs' default threshold) note
        StringBuilder levels = new StringBuilder();
        for (Map.Entry<Hit, String> e : exp.expectedLevels().entrySet()) {
            if (!expected.contains(e.getKey())) {
                continue;
            }
            String got = null;
            for (BugInstance b : bugs) {
                SourceLineAnnotation sl = b.getPrimarySourceLineAnnotation();
                if (b.getType().startsWith("NL")
                        && b.getBugPattern().getAbbrev().equals(e.getKey().ruleId())
                        && sl.getSourcePath().equals(e.getKey().file())
                        && sl.getStartLine() == e.getKey().line()) {
                    got = b.getPriority() == 1 ? "error" : b.getPriority() == 2 ? "warning" : "note";
                }
            }
            if (!e.getValue().equals(got)) {
                levels.append("  level:      ")
                        .append(e.getKey())
                        .append(" expected ")
                        .append(e.getValue())
                        .append(", got ")
                        .append(got)
                        .append('\n');
            }
        }
        assertThat(levels.toString()).as("release " + release + " levels").isEmpty();

        // priorities follow the catalog levels; double accumulation and NL010 are low priority
        MatcherAssert.assertThat(
                bugs,
                hasItem(new BugInstanceMatcherBuilder()
                        .bugType(BugPatterns.type("NL001"))
                        .inMethod("toChar")
                        .withConfidence(Confidence.HIGH)
                        .build()));
        MatcherAssert.assertThat(
                bugs,
                hasItem(new BugInstanceMatcherBuilder()
                        .bugType(BugPatterns.type("NL004"))
                        .inMethod("sum")
                        .withConfidence(Confidence.MEDIUM)
                        .build()));
        MatcherAssert.assertThat(
                bugs,
                hasItem(new BugInstanceMatcherBuilder()
                        .bugType(BugPatterns.type("NL004"))
                        .inMethod("sumDouble")
                        .withConfidence(Confidence.LOW)
                        .build()));
        MatcherAssert.assertThat(
                bugs,
                hasItem(new BugInstanceMatcherBuilder()
                        .bugType(BugPatterns.type("NL010"))
                        .inMethod("trig")
                        .withConfidence(Confidence.LOW)
                        .build()));

        // help addresses: SpotBugs (its GUI, and its SARIF's helpUri) links a pattern to <BugsUrl>#<type>; the
        // generated rules index defines that anchor next to the document numlint's own SARIF links (issue 30)
        String index = java.nio.file.Files.readString(Path.of("../docs/rules/README.md"));
        for (BugInstance b : bugs) {
            if (b.getType().startsWith("NL")) {
                dev.numlint.rules.Rule r = dev.numlint.rules.RuleCatalog.get()
                        .rule(b.getBugPattern().getAbbrev());
                assertThat(b.getBugPattern().getUri()).hasValue(java.net.URI.create(r.bugPatternHelpUri()));
                assertThat(r.bugPatternHelpUri())
                        .startsWith(dev.numlint.rules.RuleCatalog.INFORMATION_URI + "/blob/main/docs/rules/README.md#");
                assertThat(index)
                        .contains("| <a id=\"" + b.getType() + "\"></a>`" + b.getType() + "` | [" + r.id() + " "
                                + r.name() + "]("
                                + r.helpUri().substring(r.helpUri().lastIndexOf('/') + 1) + ") |");
            }
        }

        // the long descriptions (messages.xml "{2} in {1}") name the instruction and the consequence; getMessage()
        // is what SpotBugs' text UI prints: the bug code once, then the description (issue 30: "NL004: NL004:")
        List<String> messages = new ArrayList<>();
        for (BugInstance b : bugs) {
            if (b.getType().startsWith("NL")) {
                messages.add(b.getMessage());
                assertThat(b.getMessage())
                        .isEqualTo(b.getBugPattern().getAbbrev() + ": " + b.getMessageWithoutPrefix());
                assertThat(b.getMessageWithoutPrefix())
                        .doesNotStartWith(b.getBugPattern().getAbbrev() + ":");
            }
        }
        assertThat(messages)
                .anyMatch(m -> m.startsWith("NL001: (char) F2I of a float value without a range guard")
                        && m.contains("65467")
                        && m.contains("Conversions.toChar(float)"));
        assertThat(messages)
                .anyMatch(m -> m.startsWith("NL001: (byte) F2I, I2B of a float value read back as unsigned"));
        assertThat(messages).anyMatch(m -> m.startsWith("NL011: (short) F2I, I2S of a float value"));
        // the wrap example is of the narrowed type and of the converted value's type
        assertThat(messages)
                .anyMatch(m -> m.startsWith("NL011: (short) F2I, I2S of a float value")
                        && m.contains("(short) 40000.7f is -25536"));
        assertThat(messages)
                .anyMatch(m ->
                        m.startsWith("NL011: (byte) D2I, I2B of a double value") && m.contains("(byte) 200.7 is -56"));
        assertThat(messages).noneMatch(m -> m.startsWith("NL011: (short)") && m.contains("(byte) 200.7"));
        assertThat(messages).noneMatch(m -> m.contains("GPU")).as("Java findings speak of JVMs and CPUs");
        // the catalog message (after "NLxxx: ", before SpotBugs' " in Class.method(...)") is one short line
        assertThat(messages)
                .allSatisfy(m -> assertThat(m.replaceFirst("^NL\\d{3}: ", "").replaceFirst(" in [\\w.$]+\\(.*\\)$", ""))
                        .doesNotContain("\n")
                        .hasSizeLessThanOrEqualTo(dev.numlint.rules.Quote.MESSAGE));
        assertThat(messages)
                .anyMatch(m -> m.startsWith("NL004: float accumulator 's' updated with FADD/FSUB")
                        && m.contains("Accumulation.sum(float[])"));
        assertThat(messages).anyMatch(m -> m.startsWith("NL004: float accumulator field 'total'"));
        assertThat(messages)
                .anyMatch(m -> m.startsWith("NL010: 3 calls to java.lang.Math transcendental functions"
                        + " (Math.cos, Math.exp, Math.sin)"));
        if (release < 17) {
            assertThat(messages)
                    .anyMatch(m -> m.startsWith("NL005: 2 methods with float arithmetic, not strictfp, in a class file"
                                    + " of version 52 (Java 8)")
                            && m.contains("Legacy.mix(float, float)")
                            && m.contains("x87 JVMs before 17"));
            // NL005 matters only on x87: low priority, below SpotBugs' default threshold
            MatcherAssert.assertThat(
                    bugs,
                    hasItem(new BugInstanceMatcherBuilder()
                            .bugType(BugPatterns.type("NL005"))
                            .inClass("Legacy")
                            .withConfidence(Confidence.LOW)
                            .build()));
        }
        // a per-element (windowed) sum keeps its order in a thread-per-element port: low priority
        MatcherAssert.assertThat(
                bugs,
                hasItem(new BugInstanceMatcherBuilder()
                        .bugType(BugPatterns.type("NL004"))
                        .inMethod("convolve")
                        .withConfidence(Confidence.LOW)
                        .build()));
        // a float sum of integer values is exact below 2^24: low priority
        MatcherAssert.assertThat(
                bugs,
                hasItem(new BugInstanceMatcherBuilder()
                        .bugType(BugPatterns.type("NL004"))
                        .inMethod("integerCountInFloat")
                        .withConfidence(Confidence.LOW)
                        .build()));
        if (release < 17) {
            assertThat(messages).anyMatch(m -> m.startsWith("NL004: float accumulator 'total' adds integer values"));
        }
    }
}
