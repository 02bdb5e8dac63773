package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RuleOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DocsGeneratorTest {
    @Test
    void headerTableThenTheRuleDocument() {
        Rule r = new Rule(
                "NL004",
                "serial-float-accumulation",
                Level.WARNING,
                "accumulation",
                List.of(1339),
                "Loop-carried accumulator.",
                "desc",
                List.of(Layer.CUDA_SOURCE, Layer.JAVA_SOURCE),
                List.of(new RuleOption("min-trip-count", "int", "16", "Loops | shorter than this are skipped.")),
                "# Serial accumulation\n\n## What it detects\n\nSums.\n",
                null);
        String doc = DocsGenerator.ruleDoc(r);
        assertThat(doc)
                .startsWith("<!-- Generated")
                .contains("\n# Serial accumulation\n\n| | |\n|---|---|\n")
                .contains("| Default level | warning |")
                .contains("| CWE | [CWE-1339](https://cwe.mitre.org/data/definitions/1339.html) |")
                .contains("| Layers | cuda-source, java-source |")
                .contains("| Options | `min-trip-count` (int, default 16): Loops \\| shorter than this are skipped. |")
                .endsWith("Loop-carried accumulator.\n\n## What it detects\n\nSums.\n");
        Rule untitled = new Rule(
                "NL007",
                "flush-to-zero",
                Level.NOTE,
                "precision",
                List.of(),
                "s",
                "d",
                List.of(Layer.PTX),
                List.of(),
                "## What it detects\n\nFTZ.\n",
                null);
        assertThat(DocsGenerator.ruleDoc(untitled))
                .contains("\n# NL007 flush-to-zero\n")
                .contains("| CWE | none |")
                .contains("| Options | none |");
    }

    @Test
    void indexLinksEveryRulePage() {
        Map<String, String> docs = DocsGenerator.generate(RuleCatalog.get());
        String index = docs.get("README.md");
        for (Rule r : RuleCatalog.get().all()) {
            assertThat(docs).containsKey(DocsGenerator.fileName(r));
            assertThat(index).contains("[" + r.name() + "](" + r.id() + "-" + r.name() + ".md)");
            assertThat(r.docPath()).endsWith("/" + DocsGenerator.fileName(r));
        }
    }
}
