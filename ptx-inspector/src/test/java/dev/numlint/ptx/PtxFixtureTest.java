package dev.numlint.ptx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.BuildContext;
import dev.numlint.model.Finding;
import dev.numlint.spi.PtxMode;
import dev.numlint.testing.InlineExpectations;
import dev.numlint.testing.TestScanContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Walks every fixture directory under fixtures/ and compares the PTX analyzer's findings exactly with the inline
 * expectations. Directories with .cu files are compiled with nvcc (flags from fixture.properties, key nvcc-flags as in every module's fixtures) and skipped when
 * nvcc is absent; fixtures/ptx holds committed PTX whose .loc sources do not exist, so findings fall back to the
 * PTX line and the expectations are written in the .ptx files.
 */
class PtxFixtureTest {
    @TestFactory
    Stream<DynamicTest> fixtures() throws IOException, URISyntaxException {
        Path root = Path.of(getClass().getResource("/fixtures").toURI());
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : (Iterable<Path>) dirs.filter(Files::isDirectory).sorted()::iterator) {
                tests.add(DynamicTest.dynamicTest(dir.getFileName().toString(), () -> check(dir)));
            }
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(3);
        return tests.stream();
    }

    private static void check(Path fixtureDir) throws IOException {
        boolean hasCu;
        try (Stream<Path> s = Files.walk(fixtureDir)) {
            hasCu = s.anyMatch(p -> p.toString().endsWith(".cu"));
        }
        Optional<Path> nvcc = Nvcc.find();
        if (hasCu) {
            Assumptions.assumeTrue(
                    nvcc.isPresent(),
                    "nvcc not found (set NVCC or PATH): skipping the CUDA fixtures in " + fixtureDir.getFileName());
        }
        Path work = Files.createTempDirectory("ptx-fixture-");
        try {
            copy(fixtureDir, work);
            BuildContext bc = BuildContext.defaults();
            Path props = work.resolve("fixture.properties");
            if (Files.exists(props)) {
                Properties p = new Properties();
                try (InputStream in = Files.newInputStream(props)) {
                    p.load(in);
                }
                for (String f : p.getProperty("nvcc-flags", "").trim().split("\\s+")) {
                    if (!f.isEmpty()) bc.addNvccFlag(f);
                    if (f.contains("use_fast_math")) bc.fastMath(true);
                }
            }
            TestScanContext ctx = new TestScanContext(work).projectContext(bc);
            if (hasCu) ctx.ptx(PtxMode.AUTO, nvcc.get());
            ctx.run(new PtxAnalyzer());
            InlineExpectations exp = InlineExpectations.read(work);
            assertThat(exp.expected()).as("fixture has expectations").isNotEmpty();
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
            assertThat(exp.compare(ctx.hits(), ctx.levels()))
                    .as("findings of " + fixtureDir.getFileName() + ":" + detail + "\nnotifications: "
                            + ctx.notifications())
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
