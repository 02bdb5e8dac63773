package dev.numlint.validation.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.validation.interp.Texture;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The interpreter's texture unit against an H200's on signed 8-bit and signed 16-bit texels read as normalized floats
 * under linear filtering: {@code docs/validation/textures-session15/s8_sweep.cu} (our own program), recorded by
 * {@code numlint record} on an H200 (session 15's lead run, six launches). Committed are two of the six launches,
 * their files as recorded (docs/validation/textures-session15.md): part A, every signed 8-bit texel v beside a 0 at
 * every weight 0..256 (65,792 samples: the conversion of every product v * w), and part F, four random signed 16-bit
 * texels at random 2-D weights (65,536). Each launch must reproduce every recorded element bit for bit. (Sums of
 * four signed 8-bit texels in 2-D are TextureTiesRecordingTest's launches 4 and 5.)
 *
 * <p>Before session 15 the model (signed 8-bit texels scaled exactly by 32767 / 127, sums rounded halves away from
 * zero) differed from the GPU in 3,326 and 171 of the output samples of these launches.
 */
class SignedEightBitRecordingTest {
    static final Path DIR = Path.of("src", "test", "resources", "recordings", "s8-sweep");

    @Test
    void everySampleOfTheSignedTexelSweepMatchesTheGpuBitForBit() throws IOException {
        Recording rec = Recording.read(DIR);
        assertThat(rec.problems).isEmpty();
        Map<Integer, Texture.Format> formats = new TreeMap<>();
        for (Recording.RecordedLaunch l : rec.launches) {
            Texture t = l.textures.values().iterator().next();
            assertThat(t.linear).isTrue();
            assertThat(t.normalizedFloat).isTrue();
            formats.put(l.id, t.format);
        }
        assertThat(formats).isEqualTo(Map.of(0, Texture.Format.S8, 5, Texture.Format.S16));
        ValidationReport r = new Replayer(200_000_000L).replay(DIR);
        Map<Integer, String> got = new TreeMap<>();
        for (KernelResult k : r.kernels) {
            String src = k.launch.get("source");
            int id = Integer.parseInt(src.substring("recorded launch ".length(), src.indexOf(' ', 16)));
            got.put(id, String.valueOf(k.launch.get("asBuiltReproduced")));
        }
        assertThat(got)
                .isEqualTo(Map.of(
                        0, "yes: all 197376 elements of the recorded allocations bit for bit",
                        5, "yes: all 196608 elements of the recorded allocations bit for bit"));
    }
}
