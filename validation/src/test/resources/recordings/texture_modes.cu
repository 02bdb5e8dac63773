// Texture sampling in every filter and addressing mode, recorded on a GPU with `numlint record` so that the
// interpreter's texture unit can be compared with the hardware's (TextureRecordingTest). Written for numlint.
// Build: nvcc -lineinfo -arch=sm_90 -o texture_modes texture_modes.cu
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)

// coordinates span the texture and a margin on both sides, with fractions that are not multiples of 1/256
__global__ void sample1d(cudaTextureObject_t t, float* out, int n, float scale) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, (-2.0f + i * 0.37f) * scale);
}

__global__ void sample2d(cudaTextureObject_t t, float* out, int nx, int ny, float sx, float sy) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx * ny) out[i] = tex2D<float>(t, (-1.5f + (i % nx) * 0.61f) * sx, (-1.5f + (i / nx) * 0.57f) * sy);
}

__global__ void sample3d(cudaTextureObject_t t, float* out, int m, float sx, float sy, float sz) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m * m * m)
        out[i] = tex3D<float>(t, (-1.2f + (i % m) * 1.13f) * sx, (-1.3f + (i / m % m) * 0.93f) * sy,
                              (-1.1f + (i / (m * m)) * 0.87f) * sz);
}

__global__ void sampleLayered(cudaTextureObject_t t, float* out, int nx, int ny, int layer, float sx, float sy) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx * ny)
        out[i] = tex2DLayered<float>(t, (-1.5f + (i % nx) * 0.61f) * sx, (-1.5f + (i / nx) * 0.57f) * sy, layer);
}

static cudaTextureObject_t texture(cudaArray_t a, cudaTextureFilterMode filter, cudaTextureAddressMode mode,
                                   int normalized, cudaTextureReadMode read) {
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc d = {};
    d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = mode;
    d.filterMode = filter;
    d.readMode = read;
    d.normalizedCoords = normalized;
    d.borderColor[0] = d.borderColor[1] = d.borderColor[2] = d.borderColor[3] = 0.25f;
    cudaTextureObject_t t = 0;
    if (cudaCreateTextureObject(&t, &r, &d, nullptr) != cudaSuccess) return 0;
    return t;
}

static float texel(int i) { return (float)((i * 37) % 101) / 7.0f - 5.0f; }

int main() {
    const int W = 16, H = 6, D = 4, L = 3;
    const int N1 = 128, NX = 16, NY = 12, M = 6;
    float h1[W], h2[W * H], h3[W * H * D];
    unsigned char h8[W * H];
    for (int i = 0; i < W * H * D; i++) h3[i] = texel(i);
    for (int i = 0; i < W * H; i++) { h2[i] = texel(3 * i + 1); h8[i] = (unsigned char)((i * 53) % 256); }
    for (int i = 0; i < W; i++) h1[i] = texel(5 * i + 2);

    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>(), u8 = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t a1, a2, a3, a8, aL;
    CHECK(cudaMallocArray(&a1, &f, W));
    CHECK(cudaMemcpy2DToArray(a1, 0, 0, h1, W * sizeof(float), W * sizeof(float), 1, cudaMemcpyHostToDevice));
    CHECK(cudaMallocArray(&a2, &f, W, H));
    CHECK(cudaMemcpy2DToArray(a2, 0, 0, h2, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    CHECK(cudaMallocArray(&a8, &u8, W, H));
    CHECK(cudaMemcpy2DToArray(a8, 0, 0, h8, W, W, H, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc3DArray(&a3, &f, make_cudaExtent(W, H, D)));
    CHECK(cudaMalloc3DArray(&aL, &f, make_cudaExtent(W, H, L), cudaArrayLayered));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(h3, W * sizeof(float), W, H);
    p.dstArray = a3;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    p.dstArray = aL;
    p.extent = make_cudaExtent(W, H, L);
    CHECK(cudaMemcpy3D(&p));

    float* out;
    CHECK(cudaMalloc(&out, M * M * M * sizeof(float) > N1 * sizeof(float) ? M * M * M * sizeof(float) : N1 * sizeof(float)));
    const cudaTextureFilterMode filters[] = {cudaFilterModePoint, cudaFilterModeLinear};
    const cudaTextureAddressMode modes[] = {cudaAddressModeClamp, cudaAddressModeBorder, cudaAddressModeWrap,
                                            cudaAddressModeMirror};
    int launches = 0;
    for (int fi = 0; fi < 2; fi++)
        for (int mi = 0; mi < 4; mi++)
            for (int norm = 0; norm < 2; norm++) {
                // wrap and mirror need normalized coordinates (the runtime refuses them otherwise)
                if (!norm && mi >= 2) continue;
                cudaTextureObject_t t1 = texture(a1, filters[fi], modes[mi], norm, cudaReadModeElementType);
                cudaTextureObject_t t2 = texture(a2, filters[fi], modes[mi], norm, cudaReadModeElementType);
                cudaTextureObject_t t3 = texture(a3, filters[fi], modes[mi], norm, cudaReadModeElementType);
                cudaTextureObject_t tL = texture(aL, filters[fi], modes[mi], norm, cudaReadModeElementType);
                if (!t1 || !t2 || !t3 || !tL) { printf("texture object refused\n"); return 1; }
                sample1d<<<1, N1>>>(t1, out, N1, norm ? 1.0f / W : 1.0f);
                sample2d<<<2, 128>>>(t2, out, NX, NY, norm ? 1.0f / W : 1.0f, norm ? 1.0f / H : 1.0f);
                sample3d<<<2, 128>>>(t3, out, M, norm ? 1.0f / W : 1.0f, norm ? 1.0f / H : 1.0f, norm ? 1.0f / D : 1.0f);
                sampleLayered<<<2, 128>>>(tL, out, NX, NY, (fi + mi) % L, norm ? 1.0f / W : 1.0f, norm ? 1.0f / H : 1.0f);
                CHECK(cudaDeviceSynchronize());
                launches += 4;
                cudaDestroyTextureObject(t1); cudaDestroyTextureObject(t2);
                cudaDestroyTextureObject(t3); cudaDestroyTextureObject(tL);
            }
    // 8-bit texels read as normalized floats, both filters
    for (int fi = 0; fi < 2; fi++) {
        cudaTextureObject_t t8 = texture(a8, filters[fi], cudaAddressModeClamp, 0, cudaReadModeNormalizedFloat);
        if (!t8) { printf("texture object refused\n"); return 1; }
        sample2d<<<2, 128>>>(t8, out, NX, NY, 1.0f, 1.0f);
        CHECK(cudaDeviceSynchronize());
        launches++;
        cudaDestroyTextureObject(t8);
    }
    printf("texture_modes: %d launches\n", launches);
    return 0;
}
