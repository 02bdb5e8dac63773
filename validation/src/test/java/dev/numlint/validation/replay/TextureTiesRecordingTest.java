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
 * <p>Every launch matches, the two signed 8-bit ones too since session 15 (before: 40 and 38 of their 1,024
 * elements, each one 16-bit step off): signed 8-bit texels are summed as they are and the sum converted to 16 bits by
 * steps (Texture; docs/validation/textures-session15.md).
 */
class TextureTiesRecordingTest {
    static final Path DIR = Path.of("src", "test", "resources", "recordings", "texture-ties");

    @Test
    void everyLaunchMatchesTheGpuBitForBit() throws IOException {
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
        assertThat(got).isEqualTo(want);
    }
}
