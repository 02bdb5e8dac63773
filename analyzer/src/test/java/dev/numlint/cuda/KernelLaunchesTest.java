package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.KernelLaunch;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link KernelLaunches}: which launch configurations are proven one thread, and which uses of a kernel escape. */
class KernelLaunchesTest {
    private static List<KernelLaunch> read(String src) {
        List<PToken> toks = new Preprocessor(new HashMap<>(), null).run(src);
        FileScope scope = new FileScope();
        TopLevelSplitter sp = new TopLevelSplitter(toks, scope, true);
        sp.split();
        return KernelLaunches.of("m.cu", toks, sp.functions, scope);
    }

    /** The launches of {@code body} inside a host function {@code void h(int n)}, after a kernel k. */
    private static List<KernelLaunch> inHost(String body) {
        return read("__global__ void k(float *p) { p[0] = 1.0f; }\nvoid h(float *p, int n) {\n" + body + "\n}\n");
    }

    private static boolean one(String body) {
        List<KernelLaunch> ls = inHost(body);
        assertThat(ls).isNotEmpty();
        return ls.stream().allMatch(KernelLaunch::oneThread);
    }

    @Test
    void literalsDim3AndMacrosOfOnesAreOneThread() {
        assertThat(one("k<<<1, 1>>>(p);")).isTrue();
        assertThat(one("k<<<1, 1, 0, stream>>>(p);")).isTrue();
        assertThat(one("k<<<(1), 1u>>>(p);")).isTrue();
        assertThat(one("k<<<dim3(1), dim3(1, 1, 1)>>>(p);")).isTrue();
        assertThat(one("k<<<dim3{1, 1}, dim3()>>>(p);")).isTrue();
        assertThat(read("#define ONE 1\n__global__ void k(float *p) {}\nvoid h(float *p) { k<<<ONE, ONE>>>(p); }\n"))
                .singleElement()
                .satisfies(l -> {
                    assertThat(l.oneThread()).isTrue();
                    assertThat(l.configuration()).isEqualTo("<<<1,1>>>");
                    assertThat(l.line()).isEqualTo(3);
                });
    }

    @Test
    void constantsAndLocalsDeclaredOnceAsOneAreOneThread() {
        assertThat(one("const int one = 1; k<<<one, one>>>(p);")).isTrue();
        assertThat(one("constexpr unsigned one{1}; k<<<one, 1>>>(p);")).isTrue();
        assertThat(one("dim3 grid(1); dim3 block(1, 1, 1); k<<<grid, block>>>(p);"))
                .isTrue();
        assertThat(one("const dim3 g = dim3(1); k<<<g, 1>>>(p);")).isTrue();
        assertThat(read("static const int kOne = 1;\n__global__ void k(float *p) {}\n"
                        + "void h(float *p) { k<<<kOne, 1>>>(p); }\n"))
                .allMatch(KernelLaunch::oneThread);
    }

    @Test
    void anythingElseIsNotOneThread() {
        assertThat(one("k<<<n, 1>>>(p);")).isFalse(); // a parameter
        assertThat(one("k<<<1, 256>>>(p);")).isFalse();
        assertThat(one("k<<<2 - 1, 1>>>(p);")).isFalse(); // arithmetic is not evaluated
        assertThat(one("int g = 1; if (n > 4) g = n; k<<<g, 1>>>(p);")).isFalse(); // assigned again
        assertThat(one("dim3 grid(1); grid.x = n; k<<<grid, 1>>>(p);")).isFalse();
        assertThat(one("int a = n, g = 1; k<<<g, 1>>>(p);")).isFalse(); // a declaration this reader does not read
        assertThat(one("k<<<dim3(1, n), 1>>>(p);")).isFalse();
        assertThat(one("{ const int one = 1; } k<<<1, one>>>(p);")).isFalse(); // another block's
        // a parameter named like the file's constant
        assertThat(read("static const int kOne = 1;\n__global__ void k(float *p) {}\n"
                        + "void h(float *p, int kOne) { k<<<kOne, 1>>>(p); }\n"))
                .noneMatch(KernelLaunch::oneThread);
    }

    @Test
    void otherUsesOfAKernelAreLaunchesNotRead() {
        List<KernelLaunch> ls = inHost("k<<<1, 1>>>(p);\n"
                + "cudaLaunchKernel((void *)k, dim3(1), dim3(1), 0, 0, 0);\n"
                + "cuModuleGetFunction(&f, module, \"other\");");
        assertThat(ls).extracting(KernelLaunch::kernel).containsExactly("k", "k", "other");
        assertThat(ls).extracting(KernelLaunch::configuration).containsExactly("<<<1,1>>>", null, null);
        assertThat(ls).extracting(KernelLaunch::oneThread).containsExactly(true, false, false);
        // declarations and template launches are neither
        assertThat(read("template <typename T> __global__ void t(T *p);\n"
                        + "template <typename T> __global__ void t(T *p) {}\n"
                        + "template __global__ void t<float>(float *p);\n"
                        + "void h(float *p) { t<float><<<1, 1>>>(p); }\n"))
                .singleElement()
                .satisfies(l -> assertThat(l.kernel()).isEqualTo("t"));
    }
}
