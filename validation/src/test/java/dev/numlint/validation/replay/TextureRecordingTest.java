package dev.numlint.validation.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.validation.interp.Texture;
import dev.numlint.validation.report.KernelResult;
import dev.numlint.validation.report.ValidationReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The interpreter's texture unit against an H200's: {@code recordings/texture_modes.cu} samples 1-D, 2-D, 3-D and
 * layered float arrays and an 8-bit array (read as normalized floats) with point and linear filtering under clamp,
 * border, wrap and mirror addressing, normalized and unnormalized coordinates, 50 launches recorded by {@code numlint
 * record}. Replayed here on the interpreter, each launch's outputs are compared with the GPU's bit for bit.
 *
 * <p>Every launch matches (docs/validation/textures-session12.md): point filtering, and linear filtering with the
 * texture unit's own arithmetic (Texture: integer weights in units of 1/256 split z, x, y; an exact sum rounded halves
 * away from zero; 8-bit texels in 16-bit fixed point; a 1-D array as 2-D of height 1).
 */
class TextureRecordingTest {
    static final Path DIR = Path.of("src", "test", "resources", "recordings", "textures");

    record Mode(int id, String kernel, boolean linear, Texture.Address address, boolean normalized) {}

    @Test
    void everyLaunchInEveryFilterAddressingAndCoordinateModeMatchesTheGpuBitForBit() throws IOException {
        Recording rec = Recording.read(DIR);
        assertThat(rec.problems).isEmpty();
        assertThat(rec.launches).hasSize(50);
        Map<Integer, Mode> modes = new TreeMap<>();
        for (Recording.RecordedLaunch l : rec.launches) {
            assertThat(l.textures).hasSize(1);
            Texture t = l.textures.values().iterator().next();
            modes.put(l.id, new Mode(l.id, l.kernel, t.linear, t.address[0], t.normalizedCoords));
        }
        assertThat(modes.values().stream().filter(Mode::linear).count()).isEqualTo(25);
        ValidationReport r = new Replayer(50_000_000L).replay(DIR);
        assertThat(r.kernels).hasSize(50);
        List<String> mismatches = new ArrayList<>();
        for (KernelResult k : r.kernels) {
            String src = k.launch.get("source");
            int id = Integer.parseInt(src.substring("recorded launch ".length(), src.indexOf(' ', 16)));
            String got = String.valueOf(k.launch.get("asBuiltReproduced"));
            if (!got.startsWith("yes: all")) mismatches.add(modes.get(id) + ": " + got);
        }
        assertThat(mismatches).isEmpty();
    }
}
