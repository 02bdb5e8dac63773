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
        // (1.0): the mean of texels 0 and 1, channel 0, in 16-bit fixed point: (255 * 257 + 128 * 257) / 2 =
        // 49215.5, rounded up to 49216 and read as 49216 / 65535 (not (1 + 128/255) / 2, the guide's formula)
        assertThat(f(u8.sample(new double[] {1.0, 0, 0}, 0)[0])).isEqualTo(49216 / 65535f);
        // channel 1: 51 * 257 / 2 = 6553.5 -> 6554
        assertThat(f(u8.sample(new double[] {1.0, 0, 0}, 0)[1])).isEqualTo(6554 / 65535f);
        // integer coordinates (tex1Dfetch): out of range reads 0
        Texture t = line(8, 16, 24, 32);
        assertThat(f(t.fetch(new int[] {3, 0, 0}, 0)[0])).isEqualTo(32f);
        assertThat(f(t.fetch(new int[] {4, 0, 0}, 0)[0])).isEqualTo(0f);
    }

    @Test
    void filteredValuesRoundToTheNearestFloatHalvesAwayFromZero() {
        // x = 1.0: xB = 0.5, alpha = 128/256: the mean of 1 and the next float, exactly half-way between the two
        // floats; the texture unit rounds it away from zero (round-to-even would give 1.0)
        Texture t = line(1f, Math.nextUp(1f));
        t.linear = true;
        assertThat(at(t, 1.0)).isEqualTo(Math.nextUp(1f));
        Texture n = line(-1f, Math.nextDown(-1f));
        n.linear = true;
        assertThat(at(n, 1.0)).isEqualTo(Math.nextDown(-1f));
        assertThat(Texture.nearestTiesAway(0.1)).isEqualTo(0.1f);
        assertThat(Texture.nearestTiesAway(new java.math.BigDecimal(1.0 + 0x1p-24)))
                .isEqualTo(Math.nextUp(1f));
        assertThat(Texture.nearestTiesAway(new java.math.BigDecimal(1.0 + 0x1p-25)))
                .isEqualTo(1f);
    }

    @Test
    void bilinearWeightsAreWholeMultiplesOf1Over256SplitXThenY() {
        // only T(1, 1) = 256 is not 0, so the result is its weight in units of 1/256
        Texture t = new Texture(2, 2, 2, 1, 0, 1, Texture.Format.F32, 0, floats(0, 0, 0, 256));
        t.linear = true;
        // alpha_x = 3/256, alpha_y = 128/256: x splits 256 into 253 and 3; y splits column 1's 3 into
        // 3 * 128 / 256 = 1.5, halves down: 1 (the guide's product would be 1.5)
        assertThat(f(t.sample(new double[] {0.5 + 3 / 256.0, 1.0, 0}, 0)[0])).isEqualTo(1f);
        // alpha_x = 5/256, alpha_y = 64/256: 5 * 64 / 256 = 1.25 rounds to 1
        assertThat(f(t.sample(new double[] {0.5 + 5 / 256.0, 0.75, 0}, 0)[0])).isEqualTo(1f);
        // alpha_x = 7/256, alpha_y = 160/256: 7 * 160 / 256 = 4.375 rounds to 4
        assertThat(f(t.sample(new double[] {0.5 + 7 / 256.0, 0.5 + 160 / 256.0, 0}, 0)[0]))
                .isEqualTo(4f);
    }

    @Test
    void threeDimensionalWeightsSplitZThenXThenY() {
        // only T(1, 1, 1) = 256 is not 0
        Texture t = new Texture(3, 2, 2, 2, 0, 1, Texture.Format.F32, 0, floats(0, 0, 0, 0, 0, 0, 0, 256));
        t.linear = true;
        // alpha = (3, 128, 128)/256: z gives 128; x splits it 3 * 128 / 256 = 1.5, halves up: 2; y splits that
        // 2 * 128 / 256 = 1 (the guide's product of the three weights: 0.75)
        assertThat(f(t.sample(new double[] {0.5 + 3 / 256.0, 1.0, 1.0}, 0)[0])).isEqualTo(1f);
        // alpha = (128, 3, 128)/256: z gives 128, x splits it into 64 and 64, y gives row 1 of 64 * 3 / 256 = 0.75
        // -> 1 (the guide's product: 0.75)
        assertThat(f(t.sample(new double[] {1.0, 0.5 + 3 / 256.0, 1.0}, 0)[0])).isEqualTo(1f);
        // alpha = (1, 128, 128)/256: x: 1 * 128 / 256 = 0.5 -> 1 (up); y: 1 * 128 / 256 = 0.5 -> 0 (down)
        assertThat(f(t.sample(new double[] {0.5 + 1 / 256.0, 1.0, 1.0}, 0)[0])).isEqualTo(0f);
        Texture lo = new Texture(3, 2, 2, 2, 0, 1, Texture.Format.F32, 0, floats(0, 0, 0, 0, 0, 256, 0, 0));
        lo.linear = true;
        // the same sample's weight of T(1, 0, 1): x gave column 1 of slice 1 its 1, y left all of it in row 0
        assertThat(f(lo.sample(new double[] {0.5 + 1 / 256.0, 1.0, 1.0}, 0)[0])).isEqualTo(1f);
    }

    @Test
    void clampAddressingClampsTheCoordinateBeforeTheWeights() {
        // T(0, 1) = 256, the rest 0. x = 0.2 lies below the first texel centre: clamped, xB = 0 and all weight is in
        // column 0; y = 1.0 gives row 1 half of it: 128. Unclamped, xB = -0.3 would split 256 into 77 (column -1,
        // clamped to 0) and 179, and y would halve each rounding down: 38 + 89 = 127
        Texture t = new Texture(2, 2, 2, 1, 0, 1, Texture.Format.F32, 0, floats(0, 0, 256, 0));
        t.linear = true;
        assertThat(f(t.sample(new double[] {0.2, 1.0, 0}, 0)[0])).isEqualTo(128f);
        // under border addressing nothing is clamped: column -1 is the border (0), column 0 gets 179, row 1 half
        // of it, halves down: 89
        t.address[0] = t.address[1] = Texture.Address.BORDER;
        assertThat(f(t.sample(new double[] {0.2, 1.0, 0}, 0)[0])).isEqualTo(89f);
    }

    @Test
    void oneDimensionalBorderSplitsTheRowBeforeX() {
        // a 1-D array under border addressing is half row -1 (the border colour) and half the row; x then splits
        // the row's 128 with halves up: alpha = 1/256 gives texel 1 a weight of 0.5 -> 1 of 256
        Texture t = line(0, 256, 0, 0);
        t.linear = true;
        t.address[0] = t.address[1] = Texture.Address.BORDER;
        assertThat(at(t, 0.5 + 1 / 256.0)).isEqualTo(1f);
        // under clamp addressing the row is all: alpha = 1/256 is a weight of 1
        t.address[0] = t.address[1] = Texture.Address.CLAMP;
        assertThat(at(t, 0.5 + 1 / 256.0)).isEqualTo(1f);
        // and 3/256: 3 under clamp; under border 3 * 128 / 256 = 1.5 -> 2, plus half the border colour 0.5
        assertThat(at(t, 0.5 + 3 / 256.0)).isEqualTo(3f);
        t.address[0] = t.address[1] = Texture.Address.BORDER;
        t.border[0] = 1;
        assertThat(at(t, 0.5 + 3 / 256.0)).isEqualTo(2.5f);
    }

    @Test
    void eightBitTexelsAreFilteredInSixteenBitFixedPoint() {
        Texture t = new Texture(1, 2, 1, 1, 0, 1, Texture.Format.U8, 0, new byte[] {0, 53});
        t.normalizedFloat = true;
        t.linear = true;
        // alpha = 113/256 (an element recorded on an H200): 113 * 53 * 257 / 256 = 6012.39 -> 6012, read as
        // 6012 / 65535 (the guide's 113/256 * 53/255 is 6012.39 / 65535, a float 1.1e-6 above it)
        assertThat(at(t, 0.5 + 113 / 256.0)).isEqualTo(6012 / 65535f);
        // halves round up: 128 * 1 * 257 / 256 = 128.5 -> 129
        Texture one = new Texture(1, 2, 1, 1, 0, 1, Texture.Format.U8, 0, new byte[] {0, 1});
        one.normalizedFloat = true;
        one.linear = true;
        assertThat(at(one, 1.0)).isEqualTo(129 / 65535f);
        // point filtering reads v / 255
        one.linear = false;
        assertThat(at(one, 1.5)).isEqualTo(1 / 255f);
    }

    @Test
    void aFourChannelTextureOfUnitVectorsReturnsTheFourWeights() {
        // texel (i, j) is the unit vector of channel i + 2j: a sample returns each corner's weight in its channel
        Texture t = new Texture(
                2, 2, 2, 1, 0, 4, Texture.Format.F32, 0, floats(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
        t.linear = true;
        // alpha = (3, 128)/256: x splits 256 into 253 and 3; y halves each, rounding halves down: 253 -> 127 + 126,
        // 3 -> 2 + 1
        long[] v = t.sample(new double[] {0.5 + 3 / 256.0, 1.0, 0}, 0);
        assertThat(new float[] {f(v[0]), f(v[1]), f(v[2]), f(v[3])})
                .containsExactly(127 / 256f, 2 / 256f, 126 / 256f, 1 / 256f);
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
