package dev.numlint.validation.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The interpreter's texture unit against an H200's where the texture unit's rounding decides:
 * {@code docs/validation/textures-session12/texture_ties.cu} (our own program), 18 launches recorded by {@code numlint
 * record} on an H200 (session 12's lead run): the four corner weights of every pair of 2-D weight fractions (65,536
 * samples), of a layered array and of 3-D samples; then signed 8-bit, 16-bit and signed 16-bit texels read as
 * normalized floats, half floats, 8-bit and two-channel 8-bit texels over and beyond a 4 x 4 array under clamp and
 * border addressing; a 1-D layered array. Replayed on the interpreter, each launch is compared with the GPU's outputs
 * bit for bit (docs/validation/textures-session14.md).
 *
 * <p>Every launch matches but the two signed 8-bit ones, whose differing elements are stated here exactly: 40 and 38
 * of 1,024, each one 16-bit step (1/32767) off, all in samples of two or four texels. No single rounding of a
 * weighted sum of any per-texel values reproduces them (a linear program over the recorded elements finds none), so
 * the model keeps the simplest form that fits the other formats.
 */
class TextureTiesRecordingTest {
    static final Path DIR = Path.of("src", "test", "resources", "recordings", "texture-ties");

    @Test
    void everyLaunchMatchesTheGpuBitForBitButTheStatedSignedEightBitElements() throws IOException {
        Recording rec = Recording.read(DIR);
        assertThat(rec.problems).isEmpty();
        assertThat(rec.launches).hasSize(18);
        ValidationReport r = new Replayer(200_000_000L).replay(DIR);
        assertThat(r.kernels).hasSize(18);
        Map<Integer, String> got = new TreeMap<>();
        for (KernelResult k : r.kernels) {
            String src = k.launch.get("source");
            int id = Integer.parseInt(src.substring("recorded launch ".length(), src.indexOf(' ', 16)));
            got.put(id, String.valueOf(k.launch.get("asBuiltReproduced")));
        }
        Map<Integer, String> want = new TreeMap<>();
        for (int id = 0; id < 18; id++) {
            int elements = id == 0
                    ? 262144
                    : id == 1 ? 16384 : id <= 3 ? 65536 : id == 14 || id == 15 ? 4096 : id >= 16 ? 256 : 1024;
            want.put(id, "yes: all " + elements + " elements of the recorded allocations bit for bit");
        }
        // signed 8-bit texels read as normalized floats, clamp (launch 4) and border (launch 5) addressing
        want.put(4, "no: 40 of 1024 elements differ from the recorded outputs");
        want.put(5, "no: 38 of 1024 elements differ from the recorded outputs");
        Map<Integer, String> head = new TreeMap<>();
        got.forEach((id, s) -> head.put(id, s.startsWith("no: ") ? s.substring(0, s.indexOf(" outputs") + 8) : s));
        assertThat(head).isEqualTo(want);
    }
}
