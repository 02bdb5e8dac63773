package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** The texture unit's sampling against values computed by hand (CUDA C++ Programming Guide, "Texture Fetching"). */
class TextureTest {
    static byte[] floats(float... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) b.putFloat(f);
        return b.array();
    }

    static float f(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    static Texture line(float... v) {
        return new Texture(1, v.length, 1, 1, 0, 1, Texture.Format.F32, 0, floats(v));
    }

    static float at(Texture t, double x) {
        return f(t.sample(new double[] {x, 0, 0}, 0)[0]);
    }

    @Test
    void pointSamplingTakesTheTexelUnderTheCoordinateAndClamps() {
        Texture t = line(8, 16, 24, 32);
        assertThat(at(t, 2.7)).isEqualTo(24f);
        assertThat(at(t, 0.0)).isEqualTo(8f);
        assertThat(at(t, -1.0)).isEqualTo(8f);
        assertThat(at(t, 5.0)).isEqualTo(32f);
        // missing channels read 0, alpha 1
        long[] all = t.sample(new double[] {1.2, 0, 0}, 0);
        assertThat(new float[] {f(all[0]), f(all[1]), f(all[2]), f(all[3])}).containsExactly(16f, 0f, 0f, 1f);
    }

    @Test
    void linearFilteringUsesNineBitWeights() {
        Texture t = line(8, 16, 24, 32);
        t.linear = true;
        // x = 1.75: xB = 1.25, i = 1, alpha = 0.25: 0.75 * 16 + 0.25 * 24
        assertThat(at(t, 1.75)).isEqualTo(18f);
        // texel centres return the texel
        assertThat(at(t, 2.5)).isEqualTo(24f);
        // alpha = 0.001 is 0.256/256: 8 fractional bits round it to 0
        assertThat(at(t, 1.501)).isEqualTo(16f);
        // alpha = 0.003 is 0.768/256: rounds to 1/256, so 16 + 8/256
        assertThat(at(t, 1.503)).isEqualTo(16.03125f);
        // alpha = 1/512 exactly rounds up (ties up) to 1/256; just below it rounds to 0
        assertThat(at(t, 1.5 + 1.0 / 512)).isEqualTo(16.03125f);
        assertThat(at(t, 1.5 + 1.0 / 512 - 1e-9)).isEqualTo(16f);
        // clamp: below the first texel centre both neighbours are texel 0
        assertThat(at(t, 0.25)).isEqualTo(8f);
    }

    @Test
    void borderAddressingBlendsTheBorderColour() {
        Texture t = line(8, 16, 24, 32);
        t.linear = true;
        t.address[0] = Texture.Address.BORDER;
        // x = 0.25: xB = -0.25, i = -1 (border 0), alpha = 0.75: 0.25 * 0 + 0.75 * 8
        assertThat(at(t, 0.25)).isEqualTo(6f);
        t.border[0] = 4;
        assertThat(at(t, 0.25)).isEqualTo(7f);
        t.linear = false;
        assertThat(at(t, 4.0)).isEqualTo(4f);
        assertThat(at(t, -0.5)).isEqualTo(4f);
    }

    @Test
    void wrapAndMirrorNeedNormalizedCoordinates() {
        Texture t = line(8, 16, 24, 32);
        t.address[0] = Texture.Address.WRAP;
        // unnormalized: wrap acts as clamp, as on the hardware
        assertThat(at(t, 4.5)).isEqualTo(32f);
        t.normalizedCoords = true;
        // 1.125 * 4 = 4.5: texel 4 wraps to 0
        assertThat(at(t, 1.125)).isEqualTo(8f);
        assertThat(at(t, -0.125)).isEqualTo(32f);
        t.linear = true;
        // 0.0 * 4 = 0: xB = -0.5, i = -1 wraps to 3, alpha = 0.5: 0.5 * 32 + 0.5 * 8
        assertThat(at(t, 0.0)).isEqualTo(20f);
        t.linear = false;
        t.address[0] = Texture.Address.MIRROR;
        // texel 4 mirrors to 3, texel -1 to 0, texel 9 (second period) to 6 -> 8-1-6 = 1
        assertThat(at(t, 1.125)).isEqualTo(32f);
        assertThat(at(t, -0.125)).isEqualTo(8f);
        assertThat(at(t, 9.5 / 4)).isEqualTo(16f);
    }

    @Test
    void twoAndThreeDimensionsAndLayers() {
        // T(x, y) = x + 2y, rows of 2
        Texture t2 = new Texture(2, 2, 2, 1, 0, 1, Texture.Format.F32, 0, floats(0, 1, 2, 3));
        t2.linear = true;
        // (1, 1): alpha = beta = 0.5, the mean
        assertThat(f(t2.sample(new double[] {1, 1, 0}, 0)[0])).isEqualTo(1.5f);
        // (0.75, 1.25): alpha 0.25, beta 0.75: 0.25*0.25*1 + 0.75*0.75*2 + 0.25*0.75*3
        assertThat(f(t2.sample(new double[] {0.75, 1.25, 0}, 0)[0])).isEqualTo(1.75f);
        // T(x, y, z) = x + 2y + 4z
        Texture t3 = new Texture(3, 2, 2, 2, 0, 1, Texture.Format.F32, 0, floats(0, 1, 2, 3, 4, 5, 6, 7));
        assertThat(f(t3.sample(new double[] {1.5, 0.5, 1.2}, 0)[0])).isEqualTo(5f);
        t3.linear = true;
        assertThat(f(t3.sample(new double[] {1, 1, 1}, 0)[0])).isEqualTo(3.5f);
        // two layers of 2 texels: layer 1 is 10, 20
        Texture l = new Texture(1, 2, 1, 1, 2, 1, Texture.Format.F32, 0, floats(1, 2, 10, 20));
        assertThat(f(l.sample(new double[] {1.5, 0, 0}, 1)[0])).isEqualTo(20f);
    }

    @Test
    void integerTexelsReadAsElementsOrNormalizedFloats() {
        Texture u8 = new Texture(1, 2, 1, 1, 0, 2, Texture.Format.U8, 0, new byte[] {(byte) 255, 0, (byte) 128, 51});
        long[] e = u8.sample(new double[] {0.5, 0, 0}, 0);
        assertThat(e[0]).isEqualTo(255);
        assertThat(e[3]).isEqualTo(1);
        u8.normalizedFloat = true;
        long[] n = u8.sample(new double[] {1.5, 0, 0}, 0);
        assertThat(f(n[0])).isEqualTo(128 / 255f);
        assertThat(f(n[1])).isEqualTo(0.2f);
        u8.linear = true;
        // (1.0): the mean of texels 0 and 1, channel 0: (1 + 128/255) / 2
        assertThat(f(u8.sample(new double[] {1.0, 0, 0}, 0)[0])).isEqualTo((float) ((1.0 + 128 / 255.0) / 2));
        // integer coordinates (tex1Dfetch): out of range reads 0
        Texture t = line(8, 16, 24, 32);
        assertThat(f(t.fetch(new int[] {3, 0, 0}, 0)[0])).isEqualTo(32f);
        assertThat(f(t.fetch(new int[] {4, 0, 0}, 0)[0])).isEqualTo(0f);
    }

    static String kernel(String body) {
        return ".version 8.0\n.target sm_90\n.address_size 64\n"
                + ".visible .entry k(.param .u64 out, .param .u64 tex) {\n"
                + ".reg .f32 %f<12>; .reg .b32 %r<4>; .reg .b64 %rd<6>;\n"
                + "ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1; ld.param.u64 %rd3, [tex];\n" + body
                + "\nret;\n}\n";
    }

    /** (0.75, 1.25) sampled, plus the alpha channel */
    static final String SAMPLE_2D = kernel("mov.f32 %f1, 0f3F400000; mov.f32 %f2, 0f3FA00000;\n"
            + "tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd3, {%f1, %f2}];\n"
            + "add.f32 %f7, %f3, %f6;\nst.global.f32 [%rd2], %f7;");
    /** tex1Dfetch(t, 1) */
    static final String FETCH_1D =
            kernel("mov.u32 %r1, 1;\ntex.1d.v4.f32.s32 {%f8, _, _, _}, [%rd3, {%r1}];\nst.global.f32 [%rd2], %f8;");

    static float runKernel(String src, boolean reference, Texture t, long handle) throws Exception {
        Program p = Decoder.decode(PtxModelAdapter.read(src), "k", reference, false);
        Launch l = new Launch(p);
        long out = l.alloc(new byte[8]);
        l.param(0, out);
        l.param(1, 0x5eedL);
        l.texture(handle, t);
        l.run(new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, 1000);
        if (reference) return (float) l.readReferenceF32(out, 1)[0];
        return ByteBuffer.wrap(l.read(out, 4)).order(ByteOrder.LITTLE_ENDIAN).getFloat(0);
    }

    @Test
    void theInterpreterSamplesTheTextureObjectTheKernelIsGiven() throws Exception {
        Texture t2 = new Texture(2, 2, 2, 1, 0, 1, Texture.Format.F32, 0, floats(0, 1, 2, 3));
        t2.linear = true;
        // 1.75 (computed by hand above) + alpha 1, in the plain and the reference run
        assertThat(runKernel(SAMPLE_2D, false, t2, 0x5eedL)).isEqualTo(2.75f);
        assertThat(runKernel(SAMPLE_2D, true, t2, 0x5eedL)).isEqualTo(2.75f);
        assertThat(runKernel(FETCH_1D, false, line(8, 16, 24, 32), 0x5eedL)).isEqualTo(16f);
        assertThatThrownBy(() -> runKernel(FETCH_1D, false, t2, 0x5eedL))
                .hasMessageContaining("tex.1d of a 2-D texture object");
        assertThatThrownBy(() -> runKernel(FETCH_1D, false, t2, 0x1L))
                .hasMessageContaining("texture object 0x5eed: not among the launch's recorded texture objects");
    }
}
