package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Layer;
import dev.numlint.model.Level;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import dev.numlint.rules.RuleDocument;
import dev.numlint.rules.RuleOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
                "## What it detects\n\nSums.\n",
                null);
        String doc = DocsGenerator.ruleDoc(r);
        assertThat(doc)
                .startsWith("<!-- The header down to the next comment")
                .contains("\n# NL004 serial-float-accumulation\n\n| | |\n|---|---|\n")
                .contains("| Default level | warning |")
                .contains("| CWE | [CWE-1339](https://cwe.mitre.org/data/definitions/1339.html) |")
                .contains("| Layers | cuda-source, java-source |")
                .contains("| Options | `min-trip-count` (int, default 16): Loops \\| shorter than this are skipped. |")
                .endsWith("Loop-carried accumulator.\n\n" + RuleDocument.MARKER + "\n\n## What it detects\n\nSums.\n");
        // the page is the document: what the catalog reads back from it is what its author wrote
        assertThat(RuleDocument.source(doc)).isEqualTo("## What it detects\n\nSums.\n");
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
    void aPageForEveryRuleAndAnIndexThatListsNone() {
        Map<String, String> docs = DocsGenerator.generate(RuleCatalog.get());
        String index = docs.get("README.md");
        for (Rule r : RuleCatalog.get().all()) {
            assertThat(docs).containsKey(DocsGenerator.fileName(r));
            assertThat(r.docPath()).endsWith("/" + DocsGenerator.fileName(r));
            // a new rule adds its page and edits no index (issue 28); only a java-bytecode rule adds its bug pattern
            if (!r.appliesTo(Layer.JAVA_BYTECODE)) {
                assertThat(index).doesNotContain(DocsGenerator.fileName(r));
            }
        }
    }

    @Test
    void writingKeepsTheAuthorsDocumentAndRegeneratesTheHeaderAndReferences(@TempDir Path dir) throws IOException {
        Rule first = RuleCatalog.get().all().iterator().next();
        Path page = dir.resolve(DocsGenerator.fileName(first));
        // a page as the scaffold writes it (no header) with a document that differs from the jar's copy
        Files.writeString(page, RuleDocument.MARKER + "\n\n## What it detects\n\nEdited (Yablonski 2011).\n");
        DocsGenerator.write(RuleCatalog.get(), dir);
        String text = Files.readString(page);
        assertThat(text)
                .contains("| Id | `" + first.id() + "` |")
                .contains(RuleDocument.MARKER + "\n\n## What it detects\n\nEdited (Yablonski 2011).\n\n## References\n")
                .doesNotContain("## Why it matters");
        assertThat(RuleDocument.source(text)).isEqualTo("## What it detects\n\nEdited (Yablonski 2011).\n");
        // written again: nothing changes
        DocsGenerator.write(RuleCatalog.get(), dir);
        assertThat(Files.readString(page)).isEqualTo(text);
    }
}
