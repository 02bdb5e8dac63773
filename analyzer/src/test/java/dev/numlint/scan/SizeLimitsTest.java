package dev.numlint.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.config.NumlintConfig;
import dev.numlint.cuda.CudaSourceAnalyzer;
import dev.numlint.java.JavaSourceAnalyzer;
import dev.numlint.model.Finding;
import dev.numlint.model.Notification;
import dev.numlint.spi.Analyzer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** max-file-size means what the docs say, per layer, in the scan and in every front end (issue 11, item 7). */
class SizeLimitsTest {
    @TempDir
    Path dir;

    static final String KERNEL = "__global__ void k(const float* y, unsigned short* o) {\n"
            + "    int i = threadIdx.x;\n"
            + "    o[i] = (unsigned short) y[i];\n"
            + "}\n";

    /** A .cu of about {@code mib} MiB: the kernel, then a long comment. */
    private Path bigCu(String name, int mib) throws IOException {
        StringBuilder sb = new StringBuilder(KERNEL).append("/*\n");
        String line = "x".repeat(1023) + "\n";
        for (int i = 0; i < mib * 1024; i++) {
            sb.append(line);
        }
        sb.append("*/\n");
        Path p = dir.resolve(name);
        Files.writeString(p, sb);
        return p;
    }

    private ScanResult scan(String config, Analyzer... analyzers) {
        return Scanner.scan(ScanOptions.builder(dir)
                .analyzers(List.of(analyzers))
                .config(NumlintConfig.parse(config, "cfg"))
                .cacheDir(dir.resolve(".cache"))
                .build());
    }

    private static List<String> rules(ScanResult r) {
        return r.findings().stream()
                .map(f -> f.ruleId() + "@" + f.location().file() + ":"
                        + f.location().startLine())
                .toList();
    }

    @Test
    void cudaSourcesUpToTheDocumentedDefaultAreAnalyzed() throws IOException {
        bigCu("big.cu", 9);
        ScanResult r = scan("", new CudaSourceAnalyzer());
        assertThat(r.notifications()).extracting(Notification::id).doesNotContain("file-too-large");
        assertThat(rules(r)).contains("NL001@big.cu:3");
    }

    @Test
    void raisingTheLimitTakesEffect() throws IOException {
        bigCu("big.cu", 17);
        ScanResult dflt = scan("", new CudaSourceAnalyzer());
        assertThat(dflt.notifications()).anySatisfy(n -> {
            assertThat(n.id()).isEqualTo("file-too-large");
            assertThat(n.file()).isEqualTo("big.cu");
            assertThat(n.message()).contains("more than max-file-size for cuda-source (16777216)");
        });
        assertThat(dflt.findings()).isEmpty();
        ScanResult raised = scan("max-file-size: 33554432\n", new CudaSourceAnalyzer());
        assertThat(raised.notifications()).extracting(Notification::id).doesNotContain("file-too-large");
        assertThat(rules(raised)).contains("NL001@big.cu:3");
    }

    @Test
    void eachLayerHasItsOwnLimit() throws IOException {
        Files.writeString(dir.resolve("k.cu"), KERNEL);
        Files.writeString(
                dir.resolve("A.java"), "class A { char c(float f) { return (char) f; } }\n" + "//\n".repeat(100));
        ScanResult r = scan(
                "max-file-size-by-layer: {java-source: 200}\n", new CudaSourceAnalyzer(), new JavaSourceAnalyzer());
        assertThat(rules(r)).contains("NL001@k.cu:3").noneMatch(s -> s.contains("A.java"));
        assertThat(r.notifications()).anySatisfy(n -> {
            assertThat(n.file()).isEqualTo("A.java");
            assertThat(n.message()).contains("max-file-size for java-source (200)");
        });
        ScanResult cu =
                scan("max-file-size-by-layer: {cuda-source: 50}\n", new CudaSourceAnalyzer(), new JavaSourceAnalyzer());
        assertThat(rules(cu)).noneMatch(s -> s.contains("k.cu")).anyMatch(s -> s.contains("A.java"));
    }

    @Test
    void perLayerLimitFromTheBuilder() throws IOException {
        Path k = Files.writeString(dir.resolve("k.cu"), KERNEL);
        ScanOptions o = ScanOptions.builder(dir)
                .analyzers(List.of(new CudaSourceAnalyzer()))
                .maxFileSize(dev.numlint.model.Layer.CUDA_SOURCE, 20)
                .build();
        assertThat(o.maxFileSize(dev.numlint.model.Layer.CUDA_SOURCE)).isEqualTo(20);
        assertThat(o.maxFileSize(dev.numlint.model.Layer.PTX)).isEqualTo(64L << 20);
        ScanResult r = Scanner.scan(o);
        assertThat(r.findings()).extracting(Finding::ruleId).isEmpty();
        assertThat(r.notifications())
                .anySatisfy(n -> assertThat(n.file()).isEqualTo(k.getFileName().toString()));
    }

    @Test
    void defaultCacheDirFollowsXdgThenHome() {
        assertThat(ScanOptions.defaultCacheDir(java.util.Map.of("XDG_CACHE_HOME", "/x/cache", "HOME", "/h")))
                .isEqualTo(Path.of("/x/cache/numlint"));
        assertThat(ScanOptions.defaultCacheDir(java.util.Map.of("HOME", "/home/u")))
                .isEqualTo(Path.of("/home/u/.cache/numlint"));
        // a relative XDG_CACHE_HOME is invalid per the XDG specification and ignored
        assertThat(ScanOptions.defaultCacheDir(java.util.Map.of("XDG_CACHE_HOME", "rel", "HOME", "/home/u")))
                .isEqualTo(Path.of("/home/u/.cache/numlint"));
    }
}
