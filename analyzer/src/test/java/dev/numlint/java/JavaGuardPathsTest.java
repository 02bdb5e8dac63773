package dev.numlint.java;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.model.Level;
import dev.numlint.model.RelatedLocation;
import dev.numlint.testing.TestScanContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29: the reasoning of a conversion finding, as related locations. The fixtures (conversions/Presets.java,
 * ColourConversions.java) check lines and levels; this checks where the findings point.
 */
class JavaGuardPathsTest {
    private static final Path FIXTURES = Path.of("src/test/resources/fixtures/java/conversions");

    @TempDir
    Path dir;

    private List<Finding> scan(String file) throws Exception {
        Files.copy(FIXTURES.resolve(file), dir.resolve(file));
        return new TestScanContext(dir).run(new JavaSourceAnalyzer(true)).findings();
    }

    @Test
    void oneFindingAtThePathThatLacksTheClampWithTheConversionsRelated() throws Exception {
        List<Finding> nl011 = scan("Presets.java").stream()
                .filter(f -> f.ruleId().equals("NL011"))
                .filter(f -> f.function() != null && f.function().endsWith("lookupTable"))
                .toList();
        assertThat(nl011).hasSize(1);
        Finding f = nl011.get(0);
        assertThat(f.location().startLine()).isEqualTo(20); // gain = Float.parseFloat(...legacyGain...)
        assertThat(f.level()).isEqualTo(Level.WARNING);
        assertThat(f.message())
                .contains("'gain' unclamped, unlike 2 of the 3 paths")
                .contains("3 conversions");
        assertThat(f.related()).extracting(r -> r.location().startLine()).containsExactly(25, 27, 29);
        assertThat(f.related()).allSatisfy(r -> assertThat(r.message()).startsWith("converted here: (byte) (i * gain"));
    }

    @Test
    void anUnsignedStoreCitesTheValuesOriginAndTheReadOfTheStoredBytes() throws Exception {
        List<Finding> nl001 = scan("ColourConversions.java").stream()
                .filter(f -> f.ruleId().equals("NL001"))
                .toList();
        // clamped to 0.5..255.5 on both paths (adjust): no error; the unclamped store is one
        assertThat(nl001).hasSize(1);
        Finding f = nl001.get(0);
        assertThat(f.location().startLine()).isEqualTo(28);
        List<RelatedLocation> rel = f.related();
        assertThat(rel).extracting(r -> r.location().startLine()).containsExactly(26, 34);
        assertThat(rel.get(0).message()).isEqualTo("the value comes from here: v = p * k - 20f");
        // the read of the stored bytes (histogramOf), not the fresh pixel read before the store (line 25)
        assertThat(rel.get(1).message()).startsWith("the stored value is read back as unsigned here: out[i] & ");
    }
}
