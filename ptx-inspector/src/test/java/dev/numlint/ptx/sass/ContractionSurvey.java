package dev.numlint.ptx.sass;

import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.parser.PtxReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Agreement of the contraction model with real SASS over a directory of PTX files and their nvdisasm listings
 * (ptx/NAME.ptx, sass/NAME.sass, as validation/bundle/sass/ produces them). Runs only with
 * -Dnumlint.sassDir=DIR; prints one line per disagreement and a summary.
 */
class ContractionSurvey {
    @Test
    void survey() throws Exception {
        String dir = System.getProperty("numlint.sassDir");
        Assumptions.assumeTrue(dir != null, "set -Dnumlint.sassDir to run");
        Path d = Path.of(dir);
        long[] n = new long[5]; // agree-fused, agree-not, predicted-only, observed-only, unknown
        List<Path> files;
        try (Stream<Path> s = Files.list(d.resolve("ptx"))) {
            files = s.filter(p -> p.toString().endsWith(".ptx")).sorted().toList();
        }
        for (Path ptx : files) {
            String name = ptx.getFileName().toString().replaceAll("\\.ptx$", "");
            Path sp = d.resolve("sass").resolve(name + ".sass");
            if (!Files.exists(sp)) continue;
            PtxReader.Result r = PtxReader.read(Files.readString(ptx));
            SassListing sl = SassListing.parse(Files.readString(sp));
            for (PtxFunction f : r.module().definedFunctions()) {
                for (ContractionCheck.Observation o : ContractionCheck.compare(f, sl, f.name())) {
                    if (o.observed() == null) {
                        n[4]++;
                        continue;
                    }
                    if (o.agrees()) n[o.predicted() ? 0 : 1]++;
                    else {
                        n[o.predicted() ? 2 : 3]++;
                        System.out.println("DISAGREE " + name + " " + f.name() + " line " + o.ptxLine() + " predicted="
                                + o.predicted() + " '"
                                + f.instruction(o.instruction()).text().trim() + "' sass: " + o.sass());
                    }
                }
            }
        }
        System.out.printf(
                "SUMMARY agree-fused=%d agree-not-fused=%d model-only=%d sass-only=%d unattributed=%d%n",
                n[0], n[1], n[2], n[3], n[4]);
    }
}
