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
        // missing channels read 0, alpha too (as the H200 reads a two-channel texture: texture_ties.cu, uchar2)
        long[] all = t.sample(new double[] {1.2, 0, 0}, 0);
        assertThat(new float[] {f(all[0]), f(all[1]), f(all[2]), f(all[3])}).containsExactly(16f, 0f, 0f, 0f);
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
        assertThat(e[3]).isEqualTo(0);
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
        // 3 * 128 / 256 = 1.5, halves up in the upper column: 2 (the H200: weights 127, 1, 126, 2)
        assertThat(f(t.sample(new double[] {0.5 + 3 / 256.0, 1.0, 0}, 0)[0])).isEqualTo(2f);
        // and column 0's 253 into 253 * 128 / 256 = 126.5, halves down in the lower column: T(0, 1) gets 126, so
        // row 1 sums to 128 = alpha_y exactly
        Texture t01 = new Texture(2, 2, 2, 1, 0, 1, Texture.Format.F32, 0, floats(0, 0, 256, 0));
        t01.linear = true;
        assertThat(f(t01.sample(new double[] {0.5 + 3 / 256.0, 1.0, 0}, 0)[0])).isEqualTo(126f);
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
        // alpha = (1, 128, 128)/256: x: 1 * 128 / 256 = 0.5 -> 1 (up); y in the upper x column: 0.5 -> 1 (up)
        assertThat(f(t.sample(new double[] {0.5 + 1 / 256.0, 1.0, 1.0}, 0)[0])).isEqualTo(1f);
        Texture lo = new Texture(3, 2, 2, 2, 0, 1, Texture.Format.F32, 0, floats(0, 0, 0, 0, 0, 256, 0, 0));
        lo.linear = true;
        // the same sample's weight of T(1, 0, 1): x gave column 1 of slice 1 its 1, y moved all of it to row 1
        assertThat(f(lo.sample(new double[] {0.5 + 1 / 256.0, 1.0, 1.0}, 0)[0])).isEqualTo(0f);
        // T(0, 1, 1): column 0 of slice 1 has 127, y splits it 127 * 128 / 256 = 63.5, halves down (lower column)
        Texture lower = new Texture(3, 2, 2, 2, 0, 1, Texture.Format.F32, 0, floats(0, 0, 0, 0, 0, 0, 256, 0));
        lower.linear = true;
        assertThat(f(lower.sample(new double[] {0.5 + 1 / 256.0, 1.0, 1.0}, 0)[0]))
                .isEqualTo(63f);
    }

    @Test
    void clampAddressingClampsTheCoordinateBeforeTheWeights() {
        // T(0, 1, 1) = 256, the rest 0. z = 1.0 + 1/256 gives slice 1 a weight of 129; x = -0.5 + 2/256 lies below the
        // first texel centre: clamped, xB = 0 and all 129 are in column 0, and y = 1.0 gives row 1 129 * 128 / 256 =
        // 64.5, halves down in the lower column: 64. Unclamped, xB = -1 + 2/256 would split the 129 into 128 (column
        // -1, clamped to texel 0) and 1 (column 0), and y would give row 1 64 + 1 (0.5, halves up in the upper
        // column): 65. (In 2-D the y split keeps each row's total exact, so clamping xB shows only in 3-D.)
        byte[] texels = floats(0, 0, 0, 0, 0, 0, 256, 0);
        Texture t = new Texture(3, 2, 2, 2, 0, 1, Texture.Format.F32, 0, texels);
        t.linear = true;
        assertThat(f(t.sample(new double[] {-0.5 + 2 / 256.0, 1.0, 1.0 + 1 / 256.0}, 0)[0]))
                .isEqualTo(64f);
        // under border addressing nothing is clamped: in 2-D, T(0, 1) = 256, x = 0.2: column -1 is the border (0),
        // column 0 gets 179, row 1 half of it, halves up in the upper column: 89.5 -> 90
        Texture flat = new Texture(2, 2, 2, 1, 0, 1, Texture.Format.F32, 0, floats(0, 0, 256, 0));
        flat.linear = true;
        flat.address[0] = flat.address[1] = Texture.Address.BORDER;
        assertThat(f(flat.sample(new double[] {0.2, 1.0, 0}, 0)[0])).isEqualTo(90f);
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

    static byte[] shorts(int... v) {
        ByteBuffer b = ByteBuffer.allocate(2 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int s : v) b.putShort((short) s);
        return b.array();
    }

    static Texture normalized(Texture.Format format, byte[] data) {
        Texture t = new Texture(1, data.length / format.bytes, 1, 1, 0, 1, format, 0, data);
        t.normalizedFloat = true;
        t.linear = true;
        return t;
    }

    @Test
    void sixteenBitTexelsAreFilteredInSixteenBitFixedPointRoundedHalvesUp() {
        // unsigned: 113 * 40503 / 256 = 17878.28 -> 17878, read as 17878 / 65535
        Texture u16 = normalized(Texture.Format.U16, shorts(0, 40503));
        assertThat(at(u16, 0.5 + 113 / 256.0)).isEqualTo(17878 / 65535f);
        // a half rounds up: 128 * 1 / 256 = 0.5 -> 1 (the float model: 0.5 / 65535)
        Texture one = normalized(Texture.Format.U16, shorts(0, 1));
        assertThat(at(one, 1.0)).isEqualTo(1 / 65535f);
        // signed: -32768 takes part unclamped, 255 * -32768 / 256 = -32640 (clamped first: -32639), and the result
        // is clamped: texel -32768 alone reads -1
        Texture s16 = normalized(Texture.Format.S16, shorts(-32768, 0));
        assertThat(at(s16, 0.5 + 1 / 256.0)).isEqualTo(-32640 / 32767f);
        assertThat(at(s16, 0.5)).isEqualTo(-1f);
        // a negative half rounds up too, towards +infinity (element 46003 of s8_sweep.cu's part F, recorded on the
        // H200): texels -32466 and 4273 with weights 128 and 128 sum to -14096.5 -> -14096 (halves away: -14097)
        Texture half = normalized(Texture.Format.S16, shorts(-32466, 4273));
        assertThat(at(half, 1.0)).isEqualTo(-14096 / 32767f);
    }

    @Test
    void signedEightBitTexelsAreSummedAsTheyAreAndTheSumConvertedTo16BitsBySteps() {
        // P = the texels times their weights (units of 1/256); N = P + (P + 16 * floor(P / 4096) + 64) >> 7.
        // An element recorded on the H200 (texture_ties.cu): texels 31 and -13 with weights 199 and 57: P = 5428,
        // N = 5428 + (5428 + 16 + 64) >> 7 = 5471 (the exact scale * 32767 / 127 gives 5470.57 -> 5471 too)
        Texture s8 = normalized(Texture.Format.S8, new byte[] {31, -13});
        assertThat(at(s8, 0.5 + 57 / 256.0)).isEqualTo(5471 / 32767f);
        // s8_sweep.cu's part A, recorded on the H200: -127 with weight 130 beside a 0: P = -16510,
        // N = -16510 + (-16510 - 80 + 64) >> 7 = -16510 - 130 = -16640 (the exact scale: -16639.49 -> -16639)
        Texture minus = normalized(Texture.Format.S8, new byte[] {-127, 0});
        assertThat(at(minus, 0.5 + 126 / 256.0)).isEqualTo(-16640 / 32767f);
        // 127 with weight 113: P = 14351, N = 14351 + (14351 + 48 + 64) >> 7 = 14463 (exact: 14463.56 -> 14464)
        Texture plus = normalized(Texture.Format.S8, new byte[] {127, 0});
        assertThat(at(plus, 0.5 + 143 / 256.0)).isEqualTo(14463 / 32767f);
        // one texel alone (weight 256): 64 reads 16513 and -64 reads -16512 (not -16513: the exact scale is
        // -16512.504); 31 reads 7998 (not 31 / 127); -128 reads -1 (P = -32768 converts to -33025, clamped)
        Texture one = normalized(Texture.Format.S8, new byte[] {64, -64, 31, -128});
        assertThat(at(one, 0.5)).isEqualTo(16513 / 32767f);
        assertThat(at(one, 1.5)).isEqualTo(-16512 / 32767f);
        assertThat(at(one, 2.5)).isEqualTo(7998 / 32767f);
        assertThat(at(one, 3.5)).isEqualTo(-1f);
        // point filtering does not: it reads v / 127, at least -1 (tex_formats.cu, recorded on the H200, session 16)
        one.linear = false;
        assertThat(at(one, 0.5)).isEqualTo(64 / 127f);
        assertThat(at(one, 1.5)).isEqualTo(-64 / 127f);
        assertThat(at(one, 2.5)).isEqualTo(31 / 127f);
        assertThat(at(one, 3.5)).isEqualTo(-1f);
    }

    @Test
    void halfTexelsAreFilteredIntoAHalfFloatRoundedHalvesAway() {
        // an element recorded on the H200: -5 and 0.28564453125 (halves 0xC500, 0x3492) with weights 248 and 8:
        // -4.83482... rounds to the half -4.8359375 (the float model: -4.834823)
        Texture h = new Texture(1, 2, 1, 1, 0, 1, Texture.Format.F16, 0, shorts(0xC500, 0x3492));
        h.linear = true;
        assertThat(at(h, 0.5 + 8 / 256.0)).isEqualTo(-4.8359375f);
        // 1 and the next half 1 + 2^-10: their mean lies half-way between two halves and rounds away from zero
        Texture tie = new Texture(1, 2, 1, 1, 0, 1, Texture.Format.F16, 0, shorts(0x3C00, 0x3C01));
        tie.linear = true;
        assertThat(at(tie, 1.0)).isEqualTo(1 + 0x1p-10f);
        assertThat(Texture.nearestHalfTiesAway(1 + 0x1p-12)).isEqualTo(1f);
        assertThat(Texture.nearestHalfTiesAway(65520)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(Texture.nearestHalfTiesAway(0x1p-25 * 3)).isEqualTo(0x1p-23f);
    }

    @Test
    void theBorderColourIsRoundedToTheTexelFormat() {
        // border colour 0.25 of an 8-bit texture is the texel 64 (0.25 * 255 = 63.75), read as 64 / 255, as the H200
        // returns it; filtered, 64 * 257 in the fixed-point sum
        Texture u8 = normalized(Texture.Format.U8, new byte[] {0, 0});
        u8.address[0] = u8.address[1] = Texture.Address.BORDER;
        u8.border[0] = 0.25f;
        u8.linear = false;
        assertThat(at(u8, -1.0)).isEqualTo(64 / 255f);
        Texture square = new Texture(2, 2, 2, 1, 0, 1, Texture.Format.U8, 0, new byte[4]);
        square.normalizedFloat = true;
        square.linear = true;
        square.address[0] = square.address[1] = Texture.Address.BORDER;
        square.border[0] = 0.25f;
        assertThat(f(square.sample(new double[] {-2, -2, 0}, 0)[0])).isEqualTo(64 / 255f);
        // 16-bit: 0.25 * 65535 = 16383.75 -> 16384
        Texture u16 = normalized(Texture.Format.U16, shorts(0, 0));
        u16.address[0] = Texture.Address.BORDER;
        u16.border[0] = 0.25f;
        u16.linear = false;
        assertThat(at(u16, -1.0)).isEqualTo(16384 / 65535f);
        // 0.3 * 255 is 76.5 in float and rounds to the even 76 (not 77: the exact 0.300000012 * 255 is above 76.5);
        // the H200 returns 76 / 255 (tex_formats.cu, session 16)
        u8.border[0] = 0.3f;
        assertThat(at(u8, -1.0)).isEqualTo(76 / 255f);
        // signed 8-bit, read by point filtering: -0.7 * 127 = -88.9 -> -89, read as -89 / 127
        Texture s8 = normalized(Texture.Format.S8, new byte[] {0, 0});
        s8.address[0] = Texture.Address.BORDER;
        s8.border[0] = -0.7f;
        s8.linear = false;
        assertThat(at(s8, -1.0)).isEqualTo(-89 / 127f);
        // half texels: the colour is cut toward zero, 0.3 -> 0.2998046875 (1228 / 4096), not the nearer 1229 / 4096
        Texture h = new Texture(1, 2, 1, 1, 0, 1, Texture.Format.F16, 0, shorts(0, 0));
        h.address[0] = Texture.Address.BORDER;
        h.border[0] = 0.3f;
        assertThat(at(h, -1.0)).isEqualTo(1228 / 4096f);
        h.border[0] = -0.3f;
        assertThat(at(h, -1.0)).isEqualTo(-1228 / 4096f);
        assertThat(Texture.halfTowardZero(1e6)).isEqualTo(65504f);
    }

    @Test
    void aFourChannelTextureOfUnitVectorsReturnsTheFourWeights() {
        // texel (i, j) is the unit vector of channel i + 2j: a sample returns each corner's weight in its channel
        Texture t = new Texture(
                2, 2, 2, 1, 0, 4, Texture.Format.F32, 0, floats(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
        t.linear = true;
        // alpha = (3, 128)/256: x splits 256 into 253 and 3; y halves each, halves down in the lower column and up
        // in the upper one: 253 -> 127 + 126, 3 -> 1 + 2 (the H200's weights for this sample: texture_ties.cu)
        long[] v = t.sample(new double[] {0.5 + 3 / 256.0, 1.0, 0}, 0);
        assertThat(new float[] {f(v[0]), f(v[1]), f(v[2]), f(v[3])})
                .containsExactly(127 / 256f, 1 / 256f, 126 / 256f, 2 / 256f);
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
        // 1.75 (computed by hand above) + alpha, which a one-channel texture reads as 0, in the plain and the
        // reference run
        assertThat(runKernel(SAMPLE_2D, false, t2, 0x5eedL)).isEqualTo(1.75f);
        assertThat(runKernel(SAMPLE_2D, true, t2, 0x5eedL)).isEqualTo(1.75f);
        assertThat(runKernel(FETCH_1D, false, line(8, 16, 24, 32), 0x5eedL)).isEqualTo(16f);
        assertThatThrownBy(() -> runKernel(FETCH_1D, false, t2, 0x5eedL))
                .hasMessageContaining("tex.1d of a 2-D texture object");
        assertThatThrownBy(() -> runKernel(FETCH_1D, false, t2, 0x1L))
                .hasMessageContaining("texture object 0x5eed: not among the launch's recorded texture objects");
    }
}
