package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.HostLaunch;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostLaunchReaderTest {
    @Test
    void theScanFindsTheReaderThroughTheSpi() {
        // the validation glue of the scan asks the spi for whatever reads host launches; the CUDA front end does
        dev.numlint.spi.HostCodeReader<HostLaunch> r = dev.numlint.spi.HostCodeReader.of(HostLaunch.class);
        assertThat(r).isNotNull();
        List<HostLaunch> ls = r.read("k.cu", "__global__ void k(float* a) { }\nint main() { k<<<2, 32>>>(0); }\n");
        assertThat(ls).extracting(l -> l.kernel + "@" + l.at).containsExactly("k@k.cu:2");
        assertThat(dev.numlint.spi.HostCodeReader.of(String.class)).isNull();
    }

    @Test
    void tiledMatmulGetsItsTwoDimensionalLaunchAndBufferSizes() {
        String src = String.join(
                "\n",
                "#define TILE 16",
                "const int N = 64;",
                "__global__ void matMulTiled(const float* A, const float* B, float* C, int n) { }",
                "int main() {",
                "  size_t bytes = N * N * sizeof(float);",
                "  float *dA, *dB, *dC;",
                "  cudaMalloc((void**)&dA, bytes);",
                "  cudaMalloc(&dB, bytes);",
                "  cudaMalloc(&dC, N * N * sizeof(float));",
                "  dim3 block(TILE, TILE);",
                "  dim3 grid((N + TILE - 1) / TILE, (N + TILE - 1) / TILE);",
                "  matMulTiled<<<grid, block>>>(dA, dB, dC, N);",
                "}");
        List<HostLaunch> ls = HostLaunchReader.read("mm.cu", src);
        assertThat(ls).hasSize(1);
        HostLaunch l = ls.get(0);
        assertThat(l.kernel).isEqualTo("matMulTiled");
        assertThat(l.at).isEqualTo("mm.cu:12");
        assertThat(l.grid).containsExactly(4, 4, 1);
        assertThat(l.block).containsExactly(16, 16, 1);
        assertThat(l.sharedBytes).isZero();
        assertThat(l.provenance.get("grid")).contains("dim3 grid(").contains("mm.cu:11");
        assertThat(l.args).extracting(a -> a.bufferBytes).containsExactly(16384L, 16384L, 16384L, null);
        assertThat(l.args.get(0).provenance)
                .contains("cudaMalloc")
                .contains("mm.cu:7")
                .contains("16384 bytes");
        assertThat(l.args.get(3).value).isEqualTo(64.0);
        assertThat(l.args.get(3).provenance).contains("N = 64");
    }

    @Test
    void aTemplateKernelsLaunchIsALaunchOfTheTemplate() {
        String src = String.join(
                "\n",
                "template <bool interp> __global__ void detector(float* p, int n) { }",
                "void run(float* d, bool fast) {",
                "  dim3 block(8, 8, 4);",
                "  if (fast) detector<false><<<16, block, 0, 0>>>(d, 3);",
                "  else detector< (1 > 0) ><<<16, block>>>(d, 4);",
                "}");
        List<HostLaunch> ls = HostLaunchReader.read("t.cu", src);
        assertThat(ls).extracting(l -> l.kernel).containsExactly("detector", "detector");
        assertThat(ls).extracting(l -> l.at).containsExactly("t.cu:4", "t.cu:5");
        assertThat(ls.get(0).block).containsExactly(8, 8, 4);
        assertThat(ls.get(1).args.get(1).value).isEqualTo(4.0);
    }

    @Test
    void structArgumentIsLaidOutFromItsMemberAssignments() {
        String src = String.join(
                "\n",
                "struct Geometry { float dx; int nx; double shift; unsigned n; };",
                "__global__ void forwardProject(float* out, const float* in, Geometry g) { }",
                "void run(int views) {",
                "  Geometry g;",
                "  g.dx = 0.5f;",
                "  g.nx = 128;",
                "  g.shift = -69.235;",
                "  g.n = g.nx * 2;",
                "  float* d_out; float* d_in;",
                "  cudaMallocManaged(&d_out, 128 * sizeof(float));",
                "  cudaMalloc(&d_in, 256 * 4);",
                "  forwardProject<<<dim3(1), dim3(128), 0, 0>>>(d_out, d_in, g);",
                "}");
        HostLaunch l = HostLaunchReader.read("dbt.cu", src).get(0);
        assertThat(l.grid).containsExactly(1, 1, 1);
        assertThat(l.block).containsExactly(128, 1, 1);
        assertThat(l.args.get(0).bufferBytes).isEqualTo(512L);
        assertThat(l.args.get(1).bufferBytes).isEqualTo(1024L);
        byte[] b = l.args.get(2).bytes;
        assertThat(b).hasSize(24); // float@0, int@4, double@8, unsigned@16, padded to 24
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(bb.getFloat(0)).isEqualTo(0.5f);
        assertThat(bb.getInt(4)).isEqualTo(128);
        assertThat(bb.getDouble(8)).isEqualTo(-69.235);
        assertThat(bb.getInt(16)).isEqualTo(256);
        assertThat(l.args.get(2).provenance).contains("Geometry g at dbt.cu:4");
    }

    @Test
    void braceInitialisedStructNewArraysVectorsAndSharedMemory() {
        String src = String.join(
                "\n",
                "typedef struct { int w; int h; } Size;",
                "int main() {",
                "  int n = 1 << 12;",
                "  float* h = new float[n];",
                "  std::vector<double> v(n / 2);",
                "  Size s = {64, 32};",
                "  int threads = 256;",
                "  int blocks = (n + threads - 1) / threads;",
                "  k<<<blocks, threads, threads * sizeof(float)>>>(h, v, s, 2.5f);",
                "}");
        HostLaunch l = HostLaunchReader.read("a.cu", src).get(0);
        assertThat(l.grid).containsExactly(16, 1, 1);
        assertThat(l.block).containsExactly(256, 1, 1);
        assertThat(l.sharedBytes).isEqualTo(1024);
        assertThat(l.args.get(0).bufferBytes).isEqualTo(16384L);
        assertThat(l.args.get(1).bufferBytes).isEqualTo(16384L);
        assertThat(l.args.get(2).bytes).hasSize(8);
        assertThat(l.args.get(3).value).isEqualTo(2.5);
    }

    @Test
    void runtimeAndDriverApiLaunches() {
        String src = String.join(
                "\n",
                "int main() {",
                "  int n = 1000; float* d; cudaMalloc(&d, n * sizeof(float));",
                "  void* args[] = {&d, &n};",
                "  cudaLaunchKernel((void*)scale, dim3(4), dim3(256), args, 0, 0);",
                "  CUfunction f; cuModuleGetFunction(&f, mod, \"_Z5scalePfi\");",
                "  cuLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, 0, args, 0);",
                "}");
        List<HostLaunch> ls = HostLaunchReader.read("b.cu", src);
        assertThat(ls).hasSize(2);
        assertThat(ls.get(0).kernel).isEqualTo("scale");
        assertThat(ls.get(0).grid).containsExactly(4, 1, 1);
        assertThat(ls.get(0).args).extracting(a -> a.bufferBytes).containsExactly(4000L, null);
        assertThat(ls.get(0).args.get(1).value).isEqualTo(1000.0);
        assertThat(ls.get(1).kernel).isEqualTo("_Z5scalePfi");
        assertThat(ls.get(1).block).containsExactly(256, 1, 1);
        assertThat(ls.get(1).args).hasSize(2);
    }

    @Test
    void jcudaLaunch() {
        String src = String.join(
                "\n",
                "int n = 4096;",
                "CUdeviceptr dIn = new CUdeviceptr();",
                "cuMemAlloc(dIn, n * Sizeof.FLOAT);",
                "CUfunction function = new CUfunction();",
                "cuModuleGetFunction(function, module, \"add\");",
                "Pointer kernelParameters = Pointer.to(Pointer.to(new int[]{n}), Pointer.to(dIn));",
                "int blockSizeX = 256;",
                "int gridSizeX = (int) Math.ceil((double) n / blockSizeX);",
                "cuLaunchKernel(function, gridSizeX, 1, 1, blockSizeX, 1, 1, 0, null, kernelParameters, null);");
        HostLaunch l = HostLaunchReader.read("Add.java", src).get(0);
        assertThat(l.kernel).isEqualTo("add");
        assertThat(l.block).containsExactly(256, 1, 1);
        assertThat(l.args.get(0).value).isEqualTo(4096.0);
        assertThat(l.args.get(1).bufferBytes).isEqualTo(16384L);
    }

    @Test
    void unknownValuesStayUnresolved() {
        String src = "int main(int argc, char** argv) { int n = atoi(argv[1]); k<<<n / 256, 256>>>(p, n); }";
        HostLaunch l = HostLaunchReader.read("c.cu", src).get(0);
        assertThat(l.grid).isNull();
        assertThat(l.block).containsExactly(256, 1, 1);
        assertThat(l.args.get(1).value).isNull();
    }
}
