package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading extensions from setup.py without running it. */
class SetupPyAuditTest {
    private static List<String> flags(SetupPyAudit.Ext e) {
        return e.flags().stream()
                .map(t -> t.text() + "@" + t.lang() + ":" + t.loc().startLine())
                .toList();
    }

    @Test
    void setuptoolsExtensionWithMacrosFromATopLevelNameAndANvccDict() {
        String py = String.join(
                "\n",
                "import os, sys",
                "from setuptools import setup, Extension",
                "# Macros for compilation",
                "define_macros=[(\"IS_FOR_PYTIGRE\", None)]",
                "if len(sys.argv) > 2:",
                "    define_macros.append((\"NO_PINNED_MEMORY\", None))  # conditional: not followed",
                "COMMON_NVCC_FLAGS = [",
                "    \"-D__CUDA_NO_HALF_OPERATORS__\",",
                "    '--expt-relaxed-constexpr',",
                "]",
                "COMMON_NVCC_FLAGS += ['--use_fast_math']",
                "def helper(x):",
                "    return x",
                "Ax_ext = Extension(",
                "    \"_Ax\",",
                "    sources=include_headers([",
                "        \"Common/CUDA/projection.cpp\",",
                "        \"Common/CUDA/Siddon_projection.cu\",",
                "    ], sdist=sys.argv[1] == \"sdist\"),",
                "    define_macros=define_macros,",
                "    include_dirs=[NUMPY_INCLUDE, \"Common/CUDA/\"],",
                "    extra_compile_args={\"gcc\": [\"-O2\"], \"nvcc\": COMMON_NVCC_FLAGS + [\"-O3\"]},",
                ")",
                "setup(name='x', ext_modules=[Ax_ext])");
        SetupPyAudit.Out out = SetupPyAudit.audit("setup.py", py);
        assertThat(out.extensions).singleElement().satisfies(e -> {
            assertThat(e.name()).isEqualTo("_Ax");
            assertThat(e.line()).isEqualTo(14);
            assertThat(e.sources()).containsExactly("Common/CUDA/projection.cpp", "Common/CUDA/Siddon_projection.cu");
            assertThat(flags(e))
                    .containsExactly(
                            "-DIS_FOR_PYTIGRE@ANY:4",
                            "-ICommon/CUDA/@ANY:21",
                            "-O2@HOST:22",
                            "-D__CUDA_NO_HALF_OPERATORS__@CUDA:8",
                            "--expt-relaxed-constexpr@CUDA:9",
                            "--use_fast_math@CUDA:11",
                            "-O3@CUDA:22");
            assertThat(e.partial())
                    .as("NUMPY_INCLUDE and the include_headers call are not evaluated")
                    .isTrue();
        });
    }

    @Test
    void torchCudaExtensionsAndNothingElse() {
        String py = String.join(
                "\n",
                "from torch.utils.cpp_extension import BuildExtension, CUDAExtension",
                "class MyExtension(Extension):  # a class named like one is not a call",
                "    pass",
                "setup(",
                "    name='lltm',",
                "    ext_modules=[",
                "        CUDAExtension('lltm_cuda', [",
                "            'lltm_cuda.cpp',",
                "            'lltm_cuda_kernel.cu',",
                "        ], extra_compile_args={'cxx': ['-ffast-math'], 'nvcc': ['-O2', f'-arch={arch}']},",
                "        define_macros=[('WITH_CUDA', '1')]),",
                "        Extension('noop', sources=[s for s in files]),",
                "    ],",
                "    cmdclass={'build_ext': BuildExtension})");
        SetupPyAudit.Out out = SetupPyAudit.audit("setup.py", py);
        assertThat(out.extensions).singleElement().satisfies(e -> {
            assertThat(e.name()).isEqualTo("lltm_cuda");
            assertThat(e.sources()).containsExactly("lltm_cuda.cpp", "lltm_cuda_kernel.cu");
            assertThat(flags(e)).containsExactly("-DWITH_CUDA=1@ANY:11", "-ffast-math@HOST:10", "-O2@CUDA:10");
            assertThat(e.partial()).as("the f-string is computed").isTrue();
        });
    }

    @Test
    void hostileInputEndsAndReadsNothingComputed() {
        StringBuilder deep = new StringBuilder("X = ");
        deep.append("[".repeat(100_000));
        SetupPyAudit.Out out = SetupPyAudit.audit("setup.py", deep + "\nExtension('a', sources=X)\n\"unterminated");
        assertThat(out.extensions).isEmpty();
        assertThat(SetupPyAudit.audit("setup.py", "Extension(").extensions).isEmpty();
        assertThat(SetupPyAudit.audit("setup.py", "Extension('a', sources=['k.cu'], define_macros=[(f'{x}', None)])")
                        .extensions)
                .singleElement()
                .satisfies(e -> assertThat(e.flags()).isEmpty());
    }
}
