package dev.numlint.java;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Level;
import dev.numlint.model.Notification;
import dev.numlint.spi.KernelLink;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class JCudaLinkTest {
    static final Path ROOT =
            Path.of("src/test/resources/fixtures/jcuda").toAbsolutePath().normalize();

    @Test
    void linksModulesKernelsAndLaunchSites() {
        TestScanContext c = new TestScanContext(ROOT).run(new JavaSourceAnalyzer());
        List<String> links = c.links().stream()
                .map(l -> ROOT.relativize(l.kernelFile()) + " " + l.kernelName() + " "
                        + l.launchSite().shortText())
                .sorted()
                .toList();
        assertThat(links)
                .containsExactly(
                        "kernels-dir/reduce.cu rowSum src/main/java/example/gpu/Host.java:38:9",
                        "kernels-dir/reduce.cu rowSum src/main/java/example/gpu/Samples.java:16:9",
                        "src/main/resources/kernels/scale.cu scaleToShort src/main/java/example/gpu/Host.java:27:9",
                        "src/main/resources/kernels/scale.ptx scaleToShort src/main/java/example/gpu/Host.java:27:9");
        assertThat(c.links()).allMatch(l -> l.kernelFile().isAbsolute());
        List<Notification> unresolved = c.notifications().stream()
                .filter(n -> n.id().equals("unresolved-kernel-module"))
                .toList();
        assertThat(unresolved).hasSize(1);
        assertThat(unresolved.get(0).level()).isEqualTo(Level.NOTE);
        assertThat(unresolved.get(0).line()).isEqualTo(43);
        assertThat(unresolved.get(0).message())
                .contains("cuModuleLoad(m,\"kernels/missing.ptx\")")
                .contains("kernels/missing.ptx");
    }

    @Test
    void withoutBindingsTheSameLinksAreFound() {
        TestScanContext c = new TestScanContext(ROOT).run(new JavaSourceAnalyzer(false));
        assertThat(c.links())
                .extracting(KernelLink::kernelName)
                .containsExactlyInAnyOrder("rowSum", "rowSum", "scaleToShort", "scaleToShort");
    }

    @Test
    void reducedPrecisionCublasAndCudnnModesAreReportedWithoutJcudaOnTheClassPath() {
        Path java = ROOT.resolve("src/main/java");
        TestScanContext c = new TestScanContext(java).run(new JavaSourceAnalyzer());
        assertThat(dev.numlint.testing.InlineExpectations.read(java).compare(c.hits(), c.levels()))
                .isEmpty();
        assertThat(c.findings())
                .filteredOn(f -> f.ruleId().equals("NL012"))
                .allMatch(f -> f.message().length() <= 160 && f.message().contains("2^-"));
    }

    @Test
    void unresolvedTypesWithoutAClassPathAreNotedOnceWithTheHint() {
        TestScanContext c = new TestScanContext(ROOT.resolve("src/main/java")).run(new JavaSourceAnalyzer());
        List<Notification> n = c.notifications().stream()
                .filter(x -> x.id().equals("java-types-unresolved"))
                .toList();
        assertThat(n).hasSize(1);
        assertThat(n.get(0).message()).contains("--classpath").contains("could not be resolved");
    }
}
