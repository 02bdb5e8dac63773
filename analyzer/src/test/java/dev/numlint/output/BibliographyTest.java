package dev.numlint.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.rules.Bibliography;
import dev.numlint.rules.Rule;
import dev.numlint.rules.RuleCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Rule documents and SARIF help cite real works by author and year, never internal file names (issue 17). */
class BibliographyTest {
    @Test
    void ruleDocumentsCiteWorksNotFiles() {
        int citing = 0;
        for (Rule r : RuleCatalog.get().all()) {
            String md = r.markdown();
            assertThat(md)
                    .as(r.id())
                    .doesNotContainPattern("\\b00[0-9]_[0-9a-f]{16}\\.txt")
                    .doesNotContainPattern("(?i)\\bseeds?\\b");
            if (!Bibliography.cited(md).isEmpty()) {
                citing++;
                assertThat(md).as(r.id()).contains("\n## References\n");
                for (Bibliography.Work w : Bibliography.cited(md)) {
                    assertThat(md.substring(md.indexOf("\n## References\n"))).contains(w.citation());
                }
            }
        }
        assertThat(citing).isEqualTo(RuleCatalog.get().all().size());
        // SARIF help is the same markdown, so GitHub shows the references too
        Rule nl001 = RuleCatalog.get().rule("NL001");
        assertThat(SarifReport.descriptor(nl001).getHelp().getMarkdown())
                .contains("D. Yablonski. *Numerical accuracy differences in CPU and GPGPU codes*. MS thesis");
    }

    @Test
    void referencesListOnlyCitedWorksInBibliographyOrder() {
        String md = Bibliography.withReferences("# X\n\nAs Kirk & Hwu 2017 (§6.5) and Yablonski 2011 (§3.1) show.\n");
        assertThat(md)
                .endsWith("## References\n\n"
                        + "- Yablonski 2011: " + Bibliography.WORKS.get(0).citation() + "\n"
                        + "- Kirk & Hwu 2017: " + Bibliography.WORKS.get(4).citation() + "\n");
        assertThat(Bibliography.withReferences("# Y\n\nNothing cited.\n")).isEqualTo("# Y\n\nNothing cited.\n");
        assertThat(Bibliography.withReferences(md)).isEqualTo(md);
    }

    @Test
    void docsBibliographyIsUpToDate() throws IOException {
        Path file = Path.of("../docs/bibliography.md");
        assertThat(file).exists();
        assertThat(Files.readString(file))
                .as("regenerate with `%s`", DocsGenerator.REGENERATE)
                .isEqualTo(Bibliography.markdown());
        assertThat(Bibliography.markdown())
                .contains(
                        "Northeastern University",
                        "2011",
                        "University of Missouri",
                        "NVIDIA white paper",
                        "Chapter 20: rounding error",
                        "Programming Massively Parallel Processors",
                        "3rd edition");
    }
}
