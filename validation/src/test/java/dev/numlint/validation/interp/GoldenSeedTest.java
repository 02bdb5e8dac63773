package dev.numlint.validation.interp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The seed documents' numbers, reproduced by interpreting nvcc's PTX of small kernels (committed as test
 * resources: seeds.cu built with the default flags and with -fmad=false). NvccGoldenTest rebuilds them.
 */
class GoldenSeedTest {
    static final int[] A = {6589, 7678, 8574, 6180, 23823, 24497, 26022, 25644};
    static final int[] B = {4252, 18356, 4065, 18154, 11087, 30995, 6303, 29283};

    static PtxText.Module module(String name) throws IOException {
        try (InputStream in = GoldenSeedTest.class.getResourceAsStream("/kernels/" + name)) {
            return PtxModelAdapter.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    static byte[] floats(float... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float x : v) b.putFloat(x);
        return b.array();
    }

    static float[] toFloats(byte[] b) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        float[] r = new float[b.length / 4];
        for (int i = 0; i < r.length; i++) r[i] = bb.getFloat();
        return r;
    }

    static float squarePlus(PtxText.Module m, boolean reference) throws Exception {
        Program p = Decoder.decode(m, "square_plus", reference, false);
        Launch l = new Launch(p);
        float a = Float.intBitsToFloat(0x3F800001), b = Float.intBitsToFloat(0xBF800002);
        long pa = l.alloc(floats(a)), pb = l.alloc(floats(b)), pr = l.alloc(new byte[4]);
        l.param(0, pa);
        l.param(1, pb);
        l.param(2, pr);
        l.param(3, 1);
        l.run(new int[] {1, 1, 1}, new int[] {32, 1, 1}, 0, 1_000_000);
        return toFloats(l.read(pr, 4))[0];
    }

    @Test
    void whitePaperFmaExample() throws Exception {
        // 002_*.txt: a*a + b is 1.4210855e-14 with fma (nvcc's default), 0 without
        assertThat(squarePlus(module("seeds.default.ptx"), false)).isEqualTo(1.4210855e-14f);
        assertThat(squarePlus(module("seeds.nofma.ptx"), false)).isEqualTo(0f);
    }

    static int toUshort(PtxText.Module m, float x, boolean host) throws Exception {
        Program p = Decoder.decode(m, "to_ushort", false, host);
        Launch l = new Launch(p);
        long px = l.alloc(floats(x)), po = l.alloc(new byte[2]);
        l.param(0, px);
        l.param(1, po);
        l.param(2, 1);
        l.run(new int[] {1, 1, 1}, new int[] {1, 1, 1}, 0, 1_000_000);
        byte[] r = l.read(po, 2);
        return (r[0] & 0xFF) | (r[1] & 0xFF) << 8;
    }

    @Test
    void tomosynthesisCast() throws Exception {
        // 000_*.txt: (unsigned short)-69.235 is 0 on the GPU (cvt.rzi saturates) and 65467 on x86
        PtxText.Module m = module("seeds.default.ptx");
        assertThat(toUshort(m, -69.235f, false)).isEqualTo(0);
        assertThat(toUshort(m, -69.235f, true)).isEqualTo(65467);
        assertThat(toUshort(m, 1234.9f, false)).isEqualTo(1234);
        assertThat(toUshort(m, 1234.9f, true)).isEqualTo(1234);
    }

    static float[] matmul(PtxText.Module m, String kernel, boolean reference, double[] refOut) throws Exception {
        Program p = Decoder.decode(m, kernel, reference, false);
        Launch l = new Launch(p);
        float[] a = new float[8], b = new float[8];
        for (int i = 0; i < 8; i++) {
            a[i] = A[i];
            b[i] = B[i];
        }
        long pa = l.alloc(floats(a)), pb = l.alloc(floats(b)), pc = l.alloc(new byte[16]);
        l.param(0, pa);
        l.param(1, pb);
        l.param(2, pc);
        if (kernel.equals("matmul_serial")) {
            l.param(3, 2);
            l.param(4, 4);
            l.param(5, 2);
        } else {
            l.param(3, 4);
            l.param(4, 2);
        }
        l.run(new int[] {1, 1, 1}, new int[] {2, 2, 1}, 0, 1_000_000);
        if (refOut != null) System.arraycopy(l.readReferenceF32(pc, 4), 0, refOut, 0, 4);
        return toFloats(l.read(pc, 16));
    }

    @Test
    void blockedVersusSerialMatrixProduct() throws Exception {
        // 003_*.txt: element (0,1) is 707054208 serial, 707054144 with 2-element blocks, 707054166 exactly
        PtxText.Module strict = module("seeds.nofma.ptx");
        assertThat(matmul(strict, "matmul_serial", false, null)[1]).isEqualTo(707054208f);
        assertThat(matmul(strict, "matmul_block", false, null)[1]).isEqualTo(707054144f);
        double[] ref = new double[4];
        matmul(strict, "matmul_serial", true, ref);
        assertThat(ref[1]).isEqualTo(707054166.0);
        matmul(strict, "matmul_block", true, ref);
        assertThat(ref[1]).isEqualTo(707054166.0);
        // row 0 of the lecture's C (its row 1 does not follow from the printed A and B: 23823*4252 + 24497*4065
        // + 26022*11087 + 25644*6303 is 651015747, not the printed 648719667)
        assertThat(matmul(strict, "matmul_serial", false, null)).startsWith(1.93239968E8f, 7.07054208E8f);
        assertThat(matmul(strict, "matmul_block", false, null)).startsWith(1.93239968E8f, 7.07054144E8f);
        assertThat(ref[0]).isEqualTo(193239976.0);
        // nvcc's default build contracts the serial sum into fma: (0,1) becomes 707054144
        assertThat(matmul(module("seeds.default.ptx"), "matmul_serial", false, null)[1])
                .isEqualTo(707054144f);
    }

    static PtxText.Module model(String name) throws IOException {
        try (InputStream in = GoldenSeedTest.class.getResourceAsStream("/kernels/" + name)) {
            return PtxModelAdapter.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void sameNumbersThroughPtxInspectorsModel() throws Exception {
        PtxText.Module d = model("seeds.default.ptx"), n = model("seeds.nofma.ptx");
        assertThat(squarePlus(d, false)).isEqualTo(1.4210855e-14f);
        assertThat(squarePlus(n, false)).isEqualTo(0f);
        assertThat(toUshort(d, -69.235f, false)).isEqualTo(0);
        assertThat(toUshort(d, -69.235f, true)).isEqualTo(65467);
        assertThat(matmul(n, "matmul_serial", false, null)[1]).isEqualTo(707054208f);
        assertThat(matmul(n, "matmul_block", false, null)[1]).isEqualTo(707054144f);
        double[] ref = new double[4];
        matmul(n, "matmul_block", true, ref);
        assertThat(ref[1]).isEqualTo(707054166.0);
    }
}
