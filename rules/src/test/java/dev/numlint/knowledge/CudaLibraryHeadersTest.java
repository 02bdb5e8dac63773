package dev.numlint.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CudaLibraryHeadersTest {
    @Test
    void theLibrariesHeadersAreNamed() {
        assertThat(CudaLibraryHeaders.library("<curand_kernel.h>")).isEqualTo("cuRAND");
        assertThat(CudaLibraryHeaders.library("curand.h")).isEqualTo("cuRAND");
        assertThat(CudaLibraryHeaders.library("\"cufft.h\"")).isEqualTo("cuFFT");
        assertThat(CudaLibraryHeaders.library("cufftXt.h")).isEqualTo("cuFFT");
        assertThat(CudaLibraryHeaders.library("<cublas_v2.h>")).isEqualTo("cuBLAS");
        assertThat(CudaLibraryHeaders.library("cublasLt.h")).isEqualTo("cuBLAS");
        assertThat(CudaLibraryHeaders.library("<cusparse.h>")).isEqualTo("cuSPARSE");
        assertThat(CudaLibraryHeaders.library("cusolverDn.h")).isEqualTo("cuSOLVER");
        assertThat(CudaLibraryHeaders.library("nppi.h")).isEqualTo("NPP");
        assertThat(CudaLibraryHeaders.library("npps_filtering_functions.h")).isEqualTo("NPP");
        assertThat(CudaLibraryHeaders.library("<cudnn.h>")).isEqualTo("cuDNN");
        assertThat(CudaLibraryHeaders.library("nccl.h")).isEqualTo("NCCL");
    }

    @Test
    void otherHeadersAreNot() {
        assertThat(CudaLibraryHeaders.library("<cuda_runtime.h>")).isNull();
        assertThat(CudaLibraryHeaders.library("curandom_project.h")).isNull();
        assertThat(CudaLibraryHeaders.library("cudnn_frontend/graph.hpp")).isNull();
        assertThat(CudaLibraryHeaders.library("nppx_project_settings.h")).isNull();
        assertThat(CudaLibraryHeaders.library("mex.h")).isNull();
        assertThat(CudaLibraryHeaders.library("curand")).isNull();
        assertThat(CudaLibraryHeaders.library(null)).isNull();
    }
}
