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
        Recording rec = Recording.read(DIR);
        assertThat(rec.problems).isEmpty();
        assertThat(rec.launches).hasSize(19);
        ValidationReport r = new Replayer(200_000_000L).replay(DIR);
        assertThat(r.kernels).hasSize(19);
        Map<Integer, String> got = new TreeMap<>();
        for (KernelResult k : r.kernels) {
            String src = k.launch.get("source");
            int id = Integer.parseInt(src.substring("recorded launch ".length(), src.indexOf(' ', 16)));
            got.put(id, String.valueOf(k.launch.get("asBuiltReproduced")));
        }
        Map<Integer, String> want = new TreeMap<>();
        for (int id = 0; id < 19; id++) want.put(id, "yes: all 16384 elements of the recorded allocations bit for bit");
        assertThat(got).isEqualTo(want);
    }
}
