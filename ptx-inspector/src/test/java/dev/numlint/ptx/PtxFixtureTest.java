package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.spi.PtxMode;
import dev.numlint.testing.Fixtures;
import dev.numlint.testing.InlineExpectations;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The PTX module's glue to the one fixture runner ({@link Fixtures}, shared by every module through the rules
 * test-jar): runs the PTX analyzer alone on each fixture under fixtures/ and has the runner compare its findings
 * with the inline expectations exactly and check the messages. Fixtures with .cu files are compiled with nvcc
 * ({@code nvcc-flags} from fixture.properties, as in every module's fixtures) and skipped when nvcc is absent;
 * fixtures/ptx holds committed PTX whose .loc sources do not exist, so findings fall back to the PTX line and the
 * expectations are written in the .ptx files.
 */
class PtxFixtureTest {
    @TestFactory
    Stream<DynamicTest> fixtures() throws URISyntaxException {
        Path root = Path.of(getClass().getResource("/fixtures").toURI());
        List<Fixtures.Fixture> fixtures = Fixtures.discover(root);
        assertThat(fixtures).hasSizeGreaterThanOrEqualTo(3);
        return fixtures.stream().map(f -> DynamicTest.dynamicTest(f.name(), () -> check(f)));
    }

    private static void check(Fixtures.Fixture fixture) throws IOException {
        boolean hasCu;
        try (Stream<Path> s = Files.walk(fixture.dir())) {
            hasCu = s.anyMatch(p -> p.toString().endsWith(".cu"));
        }
        Optional<Path> nvcc = Nvcc.find();
        if (hasCu) {
            Assumptions.assumeTrue(
                    nvcc.isPresent(), "nvcc not found (set NVCC or PATH): skipping the CUDA fixtures in " + fixture);
        }
        Path work = Files.createTempDirectory("ptx-fixture-");
        try {
            copy(fixture.dir(), work);
            BuildContext bc = BuildContext.defaults();
            for (String f : fixture.get("nvcc-flags", "").split("\\s+")) {
                if (!f.isEmpty()) bc.addNvccFlag(f);
                if (f.contains("use_fast_math")) bc.fastMath(true);
            }
            TestScanContext ctx = new TestScanContext(work).projectContext(bc);
            if (hasCu) ctx.ptx(PtxMode.AUTO, nvcc.get());
            ctx.run(new PtxAnalyzer());
            assertThat(InlineExpectations.read(work).expected())
                    .as("fixture has expectations")
                    .isNotEmpty();
            StringBuilder detail = new StringBuilder();
            for (Finding f : ctx.findings()) {
                detail.append("\n  ")
                        .append(f.ruleId())
                        .append(' ')
                        .append(f.level().id())
                        .append(' ')
                        .append(f.location().shortText())
                        .append(' ')
                        .append(f.message());
            }
            Fixtures.Fixture copied =
                    new Fixtures.Fixture(work, fixture.name(), fixture.properties(), fixture.nested());
            List<Finding> unsuppressed =
                    ctx.findings().stream().filter(f -> !f.suppressed()).toList();
            assertThat(Fixtures.compare(copied, unsuppressed))
                    .as("findings of " + fixture + ":" + detail + "\nnotifications: " + ctx.notifications())
                    .isEmpty();
            for (Finding f : ctx.findings()) {
                assertThat(f.evidence()).anyMatch(e -> e.kind().equals("ptx"));
                assertThat(f.fingerprintKey()).isNotBlank();
                assertThat(f.function()).isNotBlank();
            }
        } finally {
            try (Stream<Path> s = Files.walk(work)) {
                s.sorted((a, b) -> b.getNameCount() - a.getNameCount())
                        .forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
    }
}
