// Linear texture filtering where the texture unit's rounding decides, for recording on a GPU with `numlint record`
// (docs/validation/textures-session12.md). Written for numlint.
// Build: nvcc -lineinfo -arch=sm_90 -o texture_ties texture_ties.cu
//
// 1. Weights, read directly: a four-channel float texture whose four texels around cell (1, 1) are the unit vectors,
//    so that a linear sample returns the four corner weights (exact multiples of 1/256). 2-D: every pair of weight
//    fractions (kx, ky) in 0..255 (65,536 samples); 2-D layered: every 4th pair; 3-D: 64 x 64 fractions in x and y
//    times four in z, once for the corners of slice z = 1 and once for slice z = 2.
// 2. Formats the first recording (texture_modes.cu) lacks, sampled linearly over and beyond a 4 x 4 array: signed
//    8-bit, 16-bit and signed 16-bit texels read as normalized floats, half floats, two-channel 8-bit, 8-bit under
//    border addressing, and a 1-D layered float array under clamp and border addressing.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)

// fraction numerators: all 256, or 64 spread over all residues mod 4
__device__ int spread(int j) { return 4 * j + (j & 3); }

// the weights as whole 1/256ths (exact: the sample is a sum of unit vectors times multiples of 1/256)
__device__ ushort4 whole(float4 v) {
    return make_ushort4((unsigned short)(v.x * 256.0f), (unsigned short)(v.y * 256.0f),
                        (unsigned short)(v.z * 256.0f), (unsigned short)(v.w * 256.0f));
}

// (x, y) = cell (1, 1) + 0.5 + (kx, ky) / 256: every 1/256 step is exact in float
__global__ void weights2d(cudaTextureObject_t t, ushort4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 256 * 256) return;
    float x = (float)(256 + 128 + i % 256) / 256.0f, y = (float)(256 + 128 + i / 256) / 256.0f;
    out[i] = whole(tex2D<float4>(t, x, y));
}

__global__ void weightsLayered(cudaTextureObject_t t, ushort4* out, int layer) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 64 * 64) return;
    float x = (float)(384 + spread(i % 64)) / 256.0f, y = (float)(384 + spread(i / 64)) / 256.0f;
    out[i] = whole(tex2DLayered<float4>(t, x, y, layer));
}

__global__ void weights3d(cudaTextureObject_t t, ushort4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 64 * 64 * 4) return;
    int s = i / 4096, kz = s == 0 ? 1 : s == 1 ? 77 : s == 2 ? 128 : 255;
    float x = (float)(384 + spread(i % 64)) / 256.0f, y = (float)(384 + spread(i / 64 % 64)) / 256.0f;
    float z = (float)(384 + kz) / 256.0f;
    out[i] = whole(tex3D<float4>(t, x, y, z));
}

// a 32 x 32 grid from -1 to 5 (a 4 x 4 array and beyond), steps of 3/16 + 1/256
__global__ void grid2d(cudaTextureObject_t t, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 32 * 32) return;
    float x = -1.0f + (i % 32) * (49.0f / 256.0f), y = -1.0f + (i / 32) * (49.0f / 256.0f);
    out[i] = tex2D<float4>(t, x, y);
}

__global__ void grid2dScalar(cudaTextureObject_t t, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 32 * 32) return;
    float x = -1.0f + (i % 32) * (49.0f / 256.0f), y = -1.0f + (i / 32) * (49.0f / 256.0f);
    out[i] = tex2D<float>(t, x, y);
}

__global__ void line1dLayered(cudaTextureObject_t t, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 2 * 128) return;
    out[i] = tex1DLayered<float>(t, -2.0f + (i % 128) * (41.0f / 256.0f), i / 128);
}

static cudaTextureObject_t texture(cudaArray_t a, cudaTextureAddressMode mode, cudaTextureReadMode read) {
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc d = {};
    d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = mode;
    d.filterMode = cudaFilterModeLinear;
    d.readMode = read;
    d.normalizedCoords = 0;
    d.borderColor[0] = d.borderColor[1] = d.borderColor[2] = d.borderColor[3] = 0.25f;
    cudaTextureObject_t t = 0;
    if (cudaCreateTextureObject(&t, &r, &d, nullptr) != cudaSuccess) return 0;
    return t;
}

// a 2-D array of w x h texels of size bytes each from host memory
static int array2d(cudaArray_t* a, cudaChannelFormatDesc f, const void* src, int w, int h, size_t size) {
    CHECK(cudaMallocArray(a, &f, w, h));
    CHECK(cudaMemcpy2DToArray(*a, 0, 0, src, w * size, w * size, h, cudaMemcpyHostToDevice));
    return 0;
}

static int array3d(cudaArray_t* a, cudaChannelFormatDesc f, void* src, int w, int h, int d, size_t size,
                   unsigned flags) {
    CHECK(cudaMalloc3DArray(a, &f, make_cudaExtent(w, h, d), flags));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(src, w * size, w, h);
    p.dstArray = *a;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    return 0;
}

static float texel(int i) { return (float)((i * 37) % 101) / 7.0f - 5.0f; }

int main() {
    int launches = 0;
    // one output buffer per kernel, each no larger than it needs (the recording keeps each before and after)
    ushort4 *w2, *wL, *w3;
    float4* g4;
    float *g1, *l1;
    CHECK(cudaMalloc(&w2, 256 * 256 * sizeof(ushort4)));
    CHECK(cudaMalloc(&wL, 64 * 64 * sizeof(ushort4)));
    CHECK(cudaMalloc(&w3, 64 * 64 * 4 * sizeof(ushort4)));
    CHECK(cudaMalloc(&g4, 32 * 32 * sizeof(float4)));
    CHECK(cudaMalloc(&g1, 32 * 32 * sizeof(float)));
    CHECK(cudaMalloc(&l1, 2 * 128 * sizeof(float)));
    const cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();

    // 1. weights: unit vectors around cell (1, 1) of a 4 x 4 array (and of slices 1 and 2 of a 4 x 4 x 4 one)
    float4 h2[16] = {}, h3[64] = {}, hL[48] = {};
    h2[1 * 4 + 1] = make_float4(1, 0, 0, 0);
    h2[1 * 4 + 2] = make_float4(0, 1, 0, 0);
    h2[2 * 4 + 1] = make_float4(0, 0, 1, 0);
    h2[2 * 4 + 2] = make_float4(0, 0, 0, 1);
    for (int i = 0; i < 16; i++) hL[16 + i] = h2[i];  // layer 1
    cudaArray_t a2, aL, a3lo, a3hi;
    if (array2d(&a2, f4, h2, 4, 4, sizeof(float4))) return 1;
    if (array3d(&aL, f4, hL, 4, 4, 3, sizeof(float4), cudaArrayLayered)) return 1;
    for (int i = 0; i < 16; i++) h3[16 + i] = h2[i];  // slice 1: the lower z corners
    if (array3d(&a3lo, f4, h3, 4, 4, 4, sizeof(float4), 0)) return 1;
    for (int i = 0; i < 16; i++) { h3[16 + i] = make_float4(0, 0, 0, 0); h3[32 + i] = h2[i]; }  // slice 2
    if (array3d(&a3hi, f4, h3, 4, 4, 4, sizeof(float4), 0)) return 1;
    cudaTextureObject_t t2 = texture(a2, cudaAddressModeClamp, cudaReadModeElementType);
    cudaTextureObject_t tL = texture(aL, cudaAddressModeClamp, cudaReadModeElementType);
    cudaTextureObject_t t3lo = texture(a3lo, cudaAddressModeClamp, cudaReadModeElementType);
    cudaTextureObject_t t3hi = texture(a3hi, cudaAddressModeClamp, cudaReadModeElementType);
    if (!t2 || !tL || !t3lo || !t3hi) { printf("texture object refused\n"); return 1; }
    weights2d<<<256, 256>>>(t2, w2);
    CHECK(cudaDeviceSynchronize());
    weightsLayered<<<16, 256>>>(tL, wL, 1);
    CHECK(cudaDeviceSynchronize());
    weights3d<<<64, 256>>>(t3lo, w3);
    CHECK(cudaDeviceSynchronize());
    weights3d<<<64, 256>>>(t3hi, w3);
    CHECK(cudaDeviceSynchronize());
    launches += 4;

    // 2. formats over a 4 x 4 array, clamp and border addressing
    signed char s8[16];
    unsigned short u16[16];
    short s16[16];
    __half f16[16];
    unsigned char u8[16], u8x2[32];
    for (int i = 0; i < 16; i++) {
        s8[i] = (signed char)((i * 53) % 256 - 128);
        u16[i] = (unsigned short)((i * 40503) % 65536);
        s16[i] = (short)((i * 40503) % 65536 - 32768);
        f16[i] = __float2half(texel(i));
        u8[i] = (unsigned char)((i * 53) % 256);
        u8x2[2 * i] = u8[i];
        u8x2[2 * i + 1] = (unsigned char)((i * 97 + 11) % 256);
    }
    cudaArray_t as8, au16, as16, af16, au8, au8x2;
    if (array2d(&as8, cudaCreateChannelDesc<signed char>(), s8, 4, 4, 1)) return 1;
    if (array2d(&au16, cudaCreateChannelDesc<unsigned short>(), u16, 4, 4, 2)) return 1;
    if (array2d(&as16, cudaCreateChannelDesc<short>(), s16, 4, 4, 2)) return 1;
    if (array2d(&af16, cudaCreateChannelDescHalf(), f16, 4, 4, 2)) return 1;
    if (array2d(&au8, cudaCreateChannelDesc<unsigned char>(), u8, 4, 4, 1)) return 1;
    if (array2d(&au8x2, cudaCreateChannelDesc<uchar2>(), u8x2, 4, 4, 2)) return 1;
    struct { cudaArray_t a; cudaTextureReadMode read; bool vector; } formats[] = {
        {as8, cudaReadModeNormalizedFloat, false}, {au16, cudaReadModeNormalizedFloat, false},
        {as16, cudaReadModeNormalizedFloat, false}, {af16, cudaReadModeElementType, false},
        {au8, cudaReadModeNormalizedFloat, false}, {au8x2, cudaReadModeNormalizedFloat, true}};
    const cudaTextureAddressMode modes[] = {cudaAddressModeClamp, cudaAddressModeBorder};
    for (auto& fm : formats)
        for (auto mode : modes) {
            cudaTextureObject_t t = texture(fm.a, mode, fm.read);
            if (!t) { printf("texture object refused\n"); return 1; }
            if (fm.vector) grid2d<<<4, 256>>>(t, g4);
            else grid2dScalar<<<4, 256>>>(t, g1);
            CHECK(cudaDeviceSynchronize());
            launches++;
            cudaDestroyTextureObject(t);
        }

    // 3. a 1-D layered float array: 2 layers of 16 texels
    float h1[32];
    for (int i = 0; i < 32; i++) h1[i] = texel(5 * i + 2);
    cudaArray_t a1L;
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
    CHECK(cudaMalloc3DArray(&a1L, &f1, make_cudaExtent(16, 0, 2), cudaArrayLayered));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(h1, 16 * sizeof(float), 16, 1);
    p.dstArray = a1L;
    p.extent = make_cudaExtent(16, 1, 2);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    for (auto mode : modes) {
        cudaTextureObject_t t = texture(a1L, mode, cudaReadModeElementType);
        if (!t) { printf("texture object refused\n"); return 1; }
        line1dLayered<<<1, 256>>>(t, l1);
        CHECK(cudaDeviceSynchronize());
        launches++;
        cudaDestroyTextureObject(t);
    }
    printf("texture_ties: %d launches\n", launches);
    return 0;
}
