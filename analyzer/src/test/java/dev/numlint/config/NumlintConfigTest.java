package dev.numlint.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.numlint.model.Level;
import org.junit.jupiter.api.Test;

class NumlintConfigTest {
    @Test
    void readsRulesExcludesAndFileSize() {
        NumlintConfig c = NumlintConfig.parse(
                """
                rules:
                  NL003: {enabled: false}
                  NL004:
                    level: note
                    options: {min-trip-count: 32}
                exclude: ["third_party/**", "*.gen.cu"]
                max-file-size: 1000
                """,
                ".numlint.yml");
        ConfiguredRuleSettings s = c.ruleSettings();
        assertThat(s.enabled("NL003")).isFalse();
        assertThat(s.enabled("NL004")).isTrue();
        assertThat(s.level("NL004")).isEqualTo(Level.NOTE);
        assertThat(s.level("NL001")).isEqualTo(Level.ERROR);
        assertThat(s.configuredLevel("NL001")).isEmpty();
        assertThat(s.intOption("NL004", "min-trip-count")).isEqualTo(32);
        assertThat(c.exclude()).containsExactly("third_party/**", "*.gen.cu");
        assertThat(c.maxFileSize()).isEqualTo(1000);
    }

    @Test
    void emptyFileMeansDefaults() {
        NumlintConfig c = NumlintConfig.parse("", "x");
        assertThat(c.ruleSettings().intOption("NL004", "min-trip-count")).isEqualTo(16);
        assertThat(c.maxFileSize()).isEqualTo(NumlintConfig.DEFAULT_MAX_FILE_SIZE);
    }

    @Test
    void bundledCodeIsNoteOrReport() {
        assertThat(NumlintConfig.parse("bundled-code: report", "c.yml").bundledCode())
                .isEqualTo("report");
        assertThat(NumlintConfig.parse("exclude: []", "c.yml").bundledCode()).isNull();
        assertThatThrownBy(() -> NumlintConfig.parse("bundled-code: hide", "c.yml"))
                .hasMessage("c.yml: 'bundled-code': must be note or report, got \"hide\"");
    }

    @Test
    void errorsNameTheKeyAndTheAllowedValues() {
        assertThatThrownBy(() -> NumlintConfig.parse("rule: {}", "c.yml"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("c.yml: 'rule': unknown key (allowed: rules, exclude, max-file-size, "
                        + "max-file-size-by-layer, fail-on-input-problems, include-extensions, bundled-code)");
        assertThatThrownBy(() -> NumlintConfig.parse("rules: {NL099: {enabled: false}}", "c.yml"))
                .hasMessageContaining("'rules.NL099': unknown rule id (allowed: NL001, NL002");
        assertThatThrownBy(() -> NumlintConfig.parse("rules: {NL004: {options: {min-trips: 3}}}", "c.yml"))
                .hasMessage("c.yml: 'rules.NL004.options.min-trips': unknown option (allowed: min-trip-count (int))");
        assertThatThrownBy(() -> NumlintConfig.parse("rules: {NL003: {options: {x: 3}}}", "c.yml"))
                .hasMessageContaining("NL003 has no options");
        assertThatThrownBy(() -> NumlintConfig.parse("rules: {NL004: {options: {min-trip-count: many}}}", "c.yml"))
                .hasMessageContaining(
                        "'rules.NL004.options.min-trip-count': must be an integer, at least 0; got \"many\"");
        assertThatThrownBy(() -> NumlintConfig.parse("rules: {NL003: {enabled: 'no'}}", "c.yml"))
                .hasMessageContaining("'rules.NL003.enabled': must be true or false");
        assertThatThrownBy(() -> NumlintConfig.parse("rules: {NL003: {level: fatal}}", "c.yml"))
                .hasMessageContaining("'rules.NL003.level': must be one of error, warning, note; got 'fatal'");
        assertThatThrownBy(() -> NumlintConfig.parse("rules: {NL003: {severity: note}}", "c.yml"))
                .hasMessageContaining("'rules.NL003.severity': unknown key (allowed: enabled, level, options)");
        assertThatThrownBy(() -> NumlintConfig.parse("exclude: build", "c.yml"))
                .hasMessageContaining("'exclude': must be a list");
        assertThatThrownBy(() -> NumlintConfig.parse("exclude: ['a/{b']", "c.yml"))
                .hasMessageContaining("'exclude': unclosed '{'");
        assertThatThrownBy(() -> NumlintConfig.parse("max-file-size: -3", "c.yml"))
                .hasMessageContaining("'max-file-size': must be a positive number of bytes");
        assertThatThrownBy(() -> NumlintConfig.parse("rules: [NL003]", "c.yml"))
                .hasMessageContaining("'rules': must be a mapping");
        assertThatThrownBy(() -> NumlintConfig.parse("rules: {NL003: {enabled: false}\n", "c.yml"))
                .hasMessageContaining("c.yml: not valid YAML at line");
    }

    @Test
    void includeExtensions() {
        assertThat(NumlintConfig.parse("include-extensions: [hcu, .inl]\n", "c.yml")
                        .includeExtensions())
                .containsExactly("hcu", ".inl");
        assertThat(NumlintConfig.parse("exclude: []\n", "c.yml").includeExtensions())
                .isNull();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> NumlintConfig.parse("include-extensions: hcu\n", "c.yml"))
                .hasMessageContaining("'include-extensions'");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> NumlintConfig.parse("include-extensions: [\"a b\"]\n", "c.yml"))
                .hasMessageContaining("'include-extensions'");
    }

    @Test
    void duplicateKeysAreAnErrorNotLastWins() {
        assertThatThrownBy(() -> NumlintConfig.parse("max-file-size: 10\nmax-file-size: 20\n", "c.yml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("c.yml at line 2")
                .hasMessageContaining("duplicate key 'max-file-size'");
        assertThatThrownBy(() ->
                        NumlintConfig.parse("rules:\n  NL003: {enabled: false}\n  NL003: {enabled: true}\n", "c.yml"))
                .hasMessageContaining("duplicate key 'NL003'");
    }

    @Test
    void optionValuesAreCheckedAgainstTheCatalogRange() {
        assertThatThrownBy(() -> NumlintConfig.parse("rules: {NL004: {options: {min-trip-count: -5}}}", "c.yml"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("c.yml: 'rules.NL004.options.min-trip-count': must be at least 0; got -5");
        assertThat(NumlintConfig.parse("rules: {NL004: {options: {min-trip-count: 0}}}", "c.yml")
                        .ruleSettings()
                        .intOption("NL004", "min-trip-count"))
                .isZero();
    }

    @Test
    void fileSizeLimitsPerLayer() {
        NumlintConfig d = NumlintConfig.defaults();
        assertThat(d.maxFileSizes())
                .containsEntry(dev.numlint.model.Layer.CUDA_SOURCE, 16L << 20)
                .containsEntry(dev.numlint.model.Layer.PTX, 64L << 20)
                .containsEntry(dev.numlint.model.Layer.JAVA_SOURCE, 16L << 20)
                .containsEntry(dev.numlint.model.Layer.BUILD_FLAGS, 16L << 20);
        NumlintConfig c = NumlintConfig.parse("max-file-size: 100\nmax-file-size-by-layer: {ptx: 5000}\n", "c.yml");
        assertThat(c.maxFileSizes())
                .containsEntry(dev.numlint.model.Layer.CUDA_SOURCE, 100L)
                .containsEntry(dev.numlint.model.Layer.PTX, 5000L);
        assertThatThrownBy(() -> NumlintConfig.parse("max-file-size-by-layer: {cuda: 5}", "c.yml"))
                .hasMessageContaining("'max-file-size-by-layer.cuda': unknown layer (allowed: build-flags, "
                        + "cuda-source, ptx, java-source)");
        assertThatThrownBy(() -> NumlintConfig.parse("max-file-size-by-layer: {ptx: -1}", "c.yml"))
                .hasMessageContaining("must be a positive number of bytes");
    }

    @Test
    void failOnInputProblemsKey() {
        assertThat(NumlintConfig.defaults().failOnInputProblems()).isNull();
        assertThat(NumlintConfig.parse("fail-on-input-problems: true", "c.yml").failOnInputProblems())
                .isTrue();
        assertThatThrownBy(() -> NumlintConfig.parse("fail-on-input-problems: yes please", "c.yml"))
                .hasMessageContaining("'fail-on-input-problems': must be true or false");
    }
}
