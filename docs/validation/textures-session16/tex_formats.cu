// Texture formats the interpreter models but no recording had checked (docs/validation/textures-session15.md, "Still
// modelled, not recorded"): point filtering of two- and four-channel signed 8-bit texels, linear filtering of 3-D and
// layered arrays of 8-bit, 16-bit and half texels, 1-D arrays of 8-bit, 16-bit and half texels under border
// addressing (and so the half border colour), and the channels a one-channel texture returns (y, z = 0, w = 1).
// For recording on a GPU with `numlint record`. Written for numlint.
// Build: nvcc -lineinfo -arch=sm_90 -o tex_formats tex_formats.cu
//
// Every part samples one texture object at 2,048 pseudo-random points, reading float4 (all four channels), with
// coordinates a little beyond the array on every side so that each addressing mode decides some samples. Normalized
// coordinates (so wrap and mirror are allowed) except where a part says otherwise. The border colour is (0.3, -0.7,
// 0.55, 0.8) in every part.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)

constexpr int N = 2048;

__global__ void sample1d(cudaTextureObject_t t, const float4* at, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = tex1D<float4>(t, at[i].x);
}

__global__ void sample1dLayered(cudaTextureObject_t t, const float4* at, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = tex1DLayered<float4>(t, at[i].x, (int)at[i].w);
}

__global__ void sample2d(cudaTextureObject_t t, const float4* at, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = tex2D<float4>(t, at[i].x, at[i].y);
}

__global__ void sample2dLayered(cudaTextureObject_t t, const float4* at, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = tex2DLayered<float4>(t, at[i].x, at[i].y, (int)at[i].w);
}

__global__ void sample3d(cudaTextureObject_t t, const float4* at, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = tex3D<float4>(t, at[i].x, at[i].y, at[i].z);
}

static uint32_t state = 2463534242u;
static uint32_t next() { state ^= state << 13; state ^= state >> 17; state ^= state << 5; return state; }
static float uniform(float lo, float hi) { return lo + (hi - lo) * (next() % 65536) / 65536.0f; }

enum Kind { D1, D1L, D2, D2L, D3 };

struct Part {
    const char* name;
    Kind kind;
    cudaChannelFormatDesc fmt;
    int w, h, d;                       // d: depth or layers
    cudaTextureFilterMode filter;
    cudaTextureAddressMode address;
    cudaTextureReadMode read;
    bool normalized;
};

static int texelBytes(const cudaChannelFormatDesc& f) { return (f.x + f.y + f.z + f.w) / 8; }

// random texel bytes of the format: 8- and 16-bit integers over their whole range, half floats in [-4, 4]
static void fill(const Part& p, std::vector<uint8_t>& raw) {
    int channels = (p.fmt.x > 0) + (p.fmt.y > 0) + (p.fmt.z > 0) + (p.fmt.w > 0);
    size_t texels = (size_t)p.w * (p.h ? p.h : 1) * (p.d ? p.d : 1);
    raw.resize(texels * texelBytes(p.fmt));
    for (size_t i = 0; i < texels * channels; i++) {
        if (p.fmt.f == cudaChannelFormatKindFloat) {
            __half v = __float2half(uniform(-4.0f, 4.0f));
            memcpy(&raw[2 * i], &v, 2);
        } else if (p.fmt.x == 8) {
            raw[i] = (uint8_t)next();
        } else {
            uint16_t v = (uint16_t)next();
            memcpy(&raw[2 * i], &v, 2);
        }
    }
}

static int run(const Part& p, FILE* log) {
    std::vector<uint8_t> raw;
    fill(p, raw);
    int bytes = texelBytes(p.fmt);
    cudaArray_t arr;
    bool layered = p.kind == D1L || p.kind == D2L;
    cudaExtent ext = make_cudaExtent(p.w, p.kind == D1 || p.kind == D1L ? 0 : p.h,
                                     p.kind == D3 || layered ? p.d : 0);
    CHECK(cudaMalloc3DArray(&arr, &p.fmt, ext, layered ? cudaArrayLayered : 0));
    cudaMemcpy3DParms c = {};
    int rows = p.kind == D1 || p.kind == D1L ? 1 : p.h;
    c.srcPtr = make_cudaPitchedPtr(raw.data(), p.w * bytes, p.w, rows);
    c.dstArray = arr;
    c.extent = make_cudaExtent(p.w, rows, p.kind == D3 || layered ? p.d : 1);
    c.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&c));
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = p.address;
    td.filterMode = p.filter;
    td.readMode = p.read;
    td.normalizedCoords = p.normalized;
    td.borderColor[0] = 0.3f;
    td.borderColor[1] = -0.7f;
    td.borderColor[2] = 0.55f;
    td.borderColor[3] = 0.8f;
    cudaTextureObject_t t = 0;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    std::vector<float4> at(N);
    for (int i = 0; i < N; i++) {
        float lo = p.normalized ? -0.3f : -2.0f;
        float x = p.normalized ? uniform(lo, 1.3f) : uniform(lo, p.w + 2.0f);
        float y = p.normalized ? uniform(lo, 1.3f) : uniform(lo, (p.h ? p.h : 1) + 2.0f);
        float z = p.normalized ? uniform(lo, 1.3f) : uniform(lo, (p.d ? p.d : 1) + 2.0f);
        float layer = layered ? (float)(next() % p.d) : 0.0f;
        at[i] = make_float4(x, y, z, layer);
    }
    float4 *dAt, *dOut;
    CHECK(cudaMalloc(&dAt, N * sizeof(float4)));
    CHECK(cudaMalloc(&dOut, N * sizeof(float4)));
    CHECK(cudaMemcpy(dAt, at.data(), N * sizeof(float4), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dOut, 0, N * sizeof(float4)));
    switch (p.kind) {
        case D1: sample1d<<<N / 256, 256>>>(t, dAt, dOut); break;
        case D1L: sample1dLayered<<<N / 256, 256>>>(t, dAt, dOut); break;
        case D2: sample2d<<<N / 256, 256>>>(t, dAt, dOut); break;
        case D2L: sample2dLayered<<<N / 256, 256>>>(t, dAt, dOut); break;
        case D3: sample3d<<<N / 256, 256>>>(t, dAt, dOut); break;
    }
    CHECK(cudaDeviceSynchronize());
    fprintf(log, "%s\n", p.name);
    cudaDestroyTextureObject(t);
    cudaFreeArray(arr);
    cudaFree(dAt);
    cudaFree(dOut);
    return 0;
}

int main() {
    const auto SI = cudaChannelFormatKindSigned, U = cudaChannelFormatKindUnsigned, F = cudaChannelFormatKindFloat;
    const auto P = cudaFilterModePoint, L = cudaFilterModeLinear;
    const auto CL = cudaAddressModeClamp, BO = cudaAddressModeBorder, WR = cudaAddressModeWrap,
               MI = cudaAddressModeMirror;
    const auto NF = cudaReadModeNormalizedFloat, EL = cudaReadModeElementType;
    const Part parts[] = {
        {"char2 2-D point clamp", D2, cudaCreateChannelDesc(8, 8, 0, 0, SI), 7, 5, 0, P, CL, NF, true},
        {"char4 2-D point border", D2, cudaCreateChannelDesc(8, 8, 8, 8, SI), 7, 5, 0, P, BO, NF, true},
        {"char4 2-D point wrap", D2, cudaCreateChannelDesc(8, 8, 8, 8, SI), 7, 5, 0, P, WR, NF, true},
        {"char4 2-D linear mirror", D2, cudaCreateChannelDesc(8, 8, 8, 8, SI), 7, 5, 0, L, MI, NF, true},
        {"uchar 3-D linear wrap", D3, cudaCreateChannelDesc(8, 0, 0, 0, U), 5, 4, 3, L, WR, NF, true},
        {"short 3-D linear mirror", D3, cudaCreateChannelDesc(16, 0, 0, 0, SI), 5, 4, 3, L, MI, NF, true},
        {"half 3-D linear border", D3, cudaCreateChannelDesc(16, 0, 0, 0, F), 5, 4, 3, L, BO, EL, true},
        {"ushort2 3-D linear clamp", D3, cudaCreateChannelDesc(16, 16, 0, 0, U), 5, 4, 3, L, CL, NF, true},
        {"uchar 2-D layered linear border", D2L, cudaCreateChannelDesc(8, 0, 0, 0, U), 6, 5, 3, L, BO, NF, true},
        {"short 2-D layered linear clamp", D2L, cudaCreateChannelDesc(16, 0, 0, 0, SI), 6, 5, 3, L, CL, NF, true},
        {"half2 2-D layered linear wrap", D2L, cudaCreateChannelDesc(16, 16, 0, 0, F), 6, 5, 3, L, WR, EL, true},
        {"uchar 1-D linear border", D1, cudaCreateChannelDesc(8, 0, 0, 0, U), 9, 0, 0, L, BO, NF, true},
        {"short 1-D linear border", D1, cudaCreateChannelDesc(16, 0, 0, 0, SI), 9, 0, 0, L, BO, NF, true},
        {"char 1-D linear border", D1, cudaCreateChannelDesc(8, 0, 0, 0, SI), 9, 0, 0, L, BO, NF, true},
        {"half 1-D linear border", D1, cudaCreateChannelDesc(16, 0, 0, 0, F), 9, 0, 0, L, BO, EL, true},
        {"half 2-D point border, unnormalized", D2, cudaCreateChannelDesc(16, 0, 0, 0, F), 7, 5, 0, P, BO, EL, false},
        {"uchar2 1-D layered linear border", D1L, cudaCreateChannelDesc(8, 8, 0, 0, U), 9, 0, 3, L, BO, NF, true},
        {"uchar 2-D point clamp (one channel: y, z, w)", D2, cudaCreateChannelDesc(8, 0, 0, 0, U), 7, 5, 0, P, CL, NF, true},
        {"half 2-D linear clamp (one channel: y, z, w)", D2, cudaCreateChannelDesc(16, 0, 0, 0, F), 7, 5, 0, L, CL, EL, true},
    };
    for (const Part& p : parts)
        if (run(p, stdout)) return 1;
    return 0;
}
