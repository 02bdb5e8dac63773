package dev.numlint.validation.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interpreter's texture unit against an H200's on the formats no earlier recording checked:
 * {@code docs/validation/textures-session16/tex_formats.cu} (our own program), 19 launches recorded by {@code numlint
 * record} (session 16): point filtering of two- and four-channel signed 8-bit texels under clamp, border and wrap,
 * linear filtering of 3-D and layered arrays of 8-bit, 16-bit and half texels under every addressing mode, 1-D arrays of
 * 8-bit, 16-bit and half texels under border addressing, the half border colour, and the channels a one- or
 * two-channel texture returns. Each launch replayed on the interpreter must reproduce the GPU's outputs bit for bit.
 *
 * <p>Before session 16, 10 of the 19 did not: signed 8-bit point samples were read through the linear filter's 16-bit
 * steps (the GPU reads v / 127), the border colour of 8-bit texels was rounded from the exact product (the GPU rounds
 * the float product to even: 0.3 is 76, not 77), and the half border colour was rounded to nearest (the GPU cuts it
 * toward zero). docs/validation/textures-session16.md.
 */
class TextureFormatsRecordingTest {
    static final Path DIR = Path.of("src", "test", "resources", "recordings", "tex-formats");

    @Test
    void everyLaunchMatchesTheGpuBitForBit() throws IOException {
        assertEveryLaunchBitForBit(DIR, 19);
    }

    /**
     * The second sweep, {@code tex_memory.cu} (10 launches): four-channel half textures and negative half border
     * colours, textures over pitched memory (8-bit, 16-bit, half; point and linear) and over linear memory read with
     * tex1Dfetch. Recorded after the three rules above were fitted on tex_formats.cu: four of its launches (the half
     * border, negative too, the signed 8-bit point and fetch reads) differ under the rules before them.
     */
    @Test
    void pitchedAndLinearMemoryAndHalfBordersMatchTheGpuBitForBit() throws IOException {
        assertEveryLaunchBitForBit(Path.of("src", "test", "resources", "recordings", "tex-memory"), 10);
    }

    /**
     * A texture read as sRGB (CU_TRSF_SRGB) is not modelled: the interpreter does not replay that launch and says why,
     * instead of returning linear reads as if they were right; the other launches replay as before.
     */
    @Test
    void anSrgbTextureIsNotReplayedOnTheInterpreterAndTheReportSaysWhy(@TempDir Path tmp) throws IOException {
        Path copy = tmp.resolve("rec");
        try (var files = Files.walk(DIR)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path to = copy.resolve(DIR.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(to);
                else Files.copy(f, to);
            }
        }
        Path launches = copy.resolve("launches.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(launches));
        assertThat(lines.get(0)).contains("\"flags\":2,");
        lines.set(0, lines.get(0).replace("\"flags\":2,", "\"flags\":18,")); // normalized coordinates | sRGB
        Files.write(launches, lines);
        ValidationReport r = new Replayer(200_000_000L).replay(copy);
        KernelResult first = r.kernels.stream()
                .filter(k -> k.launch.get("source").startsWith("recorded launch 0 "))
                .findFirst()
                .orElseThrow();
        assertThat(String.valueOf(first.launch.get("asBuiltReproduced"))).doesNotStartWith("yes");
        assertThat(first.notes).anySatisfy(n -> assertThat(n)
                .contains("the interpreter cannot replay this launch")
                .contains("sRGB"));
        assertThat(r.kernels.stream()
                        .filter(k -> String.valueOf(k.launch.get("asBuiltReproduced"))
                                .startsWith("yes"))
                        .count())
                .isEqualTo(18);
    }

    private static void assertEveryLaunchBitForBit(Path dir, int launches) throws IOException {
        Recording rec = Recording.read(dir);
        assertThat(rec.problems).isEmpty();
        assertThat(rec.launches).hasSize(launches);
        ValidationReport r = new Replayer(200_000_000L).replay(dir);
        assertThat(r.kernels).hasSize(launches);
        Map<Integer, String> got = new TreeMap<>();
        for (KernelResult k : r.kernels) {
            String src = k.launch.get("source");
            int id = Integer.parseInt(src.substring("recorded launch ".length(), src.indexOf(' ', 16)));
            got.put(id, String.valueOf(k.launch.get("asBuiltReproduced")));
        }
        Map<Integer, String> want = new TreeMap<>();
        for (int id = 0; id < launches; id++)
            want.put(id, "yes: all 16384 elements of the recorded allocations bit for bit");
        assertThat(got).isEqualTo(want);
    }
}
