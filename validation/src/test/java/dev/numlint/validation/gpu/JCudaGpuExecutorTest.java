package dev.numlint.validation.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.numlint.validation.GpuExecutor;
import dev.numlint.validation.GpuExecutors;
import dev.numlint.validation.interp.Decoder;
import dev.numlint.validation.interp.Program;
import dev.numlint.validation.interp.PtxModelAdapter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Argument marshalling from real nvcc PTX (no GPU needed), and the white-paper launch where a GPU exists. */
class JCudaGpuExecutorTest {
    static String ptx(String name) throws Exception {
        return Files.readString(
                Path.of(JCudaGpuExecutorTest.class
                        .getResource("/kernels/" + name)
                        .toURI()),
                StandardCharsets.UTF_8);
    }

    static int[] sizes(String ptxFile, String kernel) throws Exception {
        Program p = Decoder.decode(PtxModelAdapter.read(ptx(ptxFile)), kernel, new Decoder.Options());
        int[] s = new int[p.params.size()];
        for (int i = 0; i < s.length; i++) s[i] = p.params.get(i).size;
        return s;
    }

    @Test
    void paramSizesComeFromThePtxAndScalarsArePassedInTheirDeclaredSize() throws Exception {
        int[] sizes = sizes("seeds.default.ptx", "square_plus"); // (.u64, .u64, .u64, .u32)
        assertThat(sizes).containsExactly(8, 8, 8, 4);
        byte[] a = {1, 2, 3, 4};
        List<JCudaLauncher.Arg> args = JCudaGpuExecutor.marshal(List.of(a, new byte[4], new byte[4], -2L), sizes);
        assertThat(args).hasSize(4);
        JCudaLauncher.Buffer b0 = (JCudaLauncher.Buffer) args.get(0);
        assertThat(b0.data()).hasSize(4 + JCudaGpuExecutor.PAD);
        assertThat(b0.data()[0]).isEqualTo((byte) 1);
        assertThat(b0.data()[3]).isEqualTo((byte) 4);
        assertThat(b0.data()[4]).isZero();
        // -2 as a 4-byte .u32/.s32: the low four bytes, little-endian
        assertThat(((JCudaLauncher.Scalar) args.get(3)).bytes()).containsExactly(0xFE - 256, -1, -1, -1);
    }

    @Test
    void eightByteScalarsAndAggregatesKeepTheirSize() {
        List<Object> in = new ArrayList<>();
        in.add(0x0102030405060708L);
        in.add(new GpuExecutor.Bytes(new byte[] {9, 8, 7}));
        List<JCudaLauncher.Arg> args = JCudaGpuExecutor.marshal(in, new int[] {8, 12});
        assertThat(((JCudaLauncher.Scalar) args.get(0)).bytes()).containsExactly(8, 7, 6, 5, 4, 3, 2, 1);
        assertThat(((JCudaLauncher.Scalar) args.get(1)).bytes()).containsExactly(9, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void mismatchedArgumentsAreRejectedNotLaunched() {
        assertThatThrownBy(() -> JCudaGpuExecutor.marshal(List.of(new byte[4]), new int[] {4}))
                .hasMessageContaining("declared with 4 bytes");
        assertThatThrownBy(() -> JCudaGpuExecutor.marshal(List.of(1L), new int[] {8, 4}))
                .hasMessageContaining("2 parameters");
        assertThatThrownBy(() -> JCudaGpuExecutor.marshal(List.of(1L), new int[] {3}))
                .hasMessageContaining("3 bytes");
    }

    @Test
    void runsTheWhitePaperExampleOnAGpu() throws Exception {
        Optional<String> why = GpuExecutors.unavailableReason();
        assumeTrue(why.isEmpty(), () -> "GPU test skipped: " + why.orElse(""));
        try (GpuExecutor gpu = GpuExecutors.find().orElseThrow()) {
            ByteBuffer a =
                    ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(Float.intBitsToFloat(0x3F800001));
            ByteBuffer b =
                    ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(Float.intBitsToFloat(0xBF800002));
            for (String[] c : new String[][] {{"seeds.default.ptx", "1.4210855E-14"}, {"seeds.nofma.ptx", "0.0"}}) {
                GpuExecutor.Result r = gpu.run(
                        ptx(c[0]),
                        "square_plus",
                        new int[] {1, 1, 1},
                        new int[] {32, 1, 1},
                        0,
                        List.of(a.array(), b.array(), new byte[4], 1L),
                        sizes(c[0], "square_plus"),
                        3);
                Map<Integer, byte[]> out = r.buffers();
                float v = ByteBuffer.wrap(out.get(2))
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getFloat();
                assertThat(Float.toString(v)).isEqualTo(c[1]);
                assertThat(r.kernelMillis()).hasSize(3);
            }
        }
    }
}
