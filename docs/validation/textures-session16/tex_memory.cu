// The second sweep of session 16 (docs/validation/textures-session16.md, "Still modelled, not recorded" after
// tex_formats.cu): four-channel half textures and negative half border colours; textures over pitched memory
// (cudaResourceTypePitch2D) of 8-bit, 16-bit and half texels, filtered; textures over linear memory
// (cudaResourceTypeLinear) read with tex1Dfetch, 8-bit texels as normalized floats.
// For recording on a GPU with `numlint record`. Written for numlint.
// Build: nvcc -lineinfo -arch=sm_90 -o tex_memory tex_memory.cu
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

__global__ void fetch1d(cudaTextureObject_t t, const float4* at, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = tex1Dfetch<float4>(t, (int)at[i].x);
}

__global__ void sample3d(cudaTextureObject_t t, const float4* at, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = tex3D<float4>(t, at[i].x, at[i].y, at[i].z);
}

static uint32_t state = 2463534242u;
static uint32_t next() { state ^= state << 13; state ^= state >> 17; state ^= state << 5; return state; }
static float uniform(float lo, float hi) { return lo + (hi - lo) * (next() % 65536) / 65536.0f; }

enum Resource { ARRAY, PITCH, LINEAR };

struct Part {
    const char* name;
    Resource resource;
    cudaChannelFormatDesc fmt;
    int w, h;
    cudaTextureFilterMode filter;
    cudaTextureAddressMode address;
    cudaTextureReadMode read;
    bool normalized;
};

static int texelBytes(const cudaChannelFormatDesc& f) { return (f.x + f.y + f.z + f.w) / 8; }

static void fill(const Part& p, std::vector<uint8_t>& raw, size_t texels) {
    int channels = (p.fmt.x > 0) + (p.fmt.y > 0) + (p.fmt.z > 0) + (p.fmt.w > 0);
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
    int bytes = texelBytes(p.fmt);
    std::vector<uint8_t> raw;
    fill(p, raw, (size_t)p.w * (p.h ? p.h : 1));
    cudaResourceDesc r = {};
    cudaArray_t arr = nullptr;
    void* mem = nullptr;
    if (p.resource == ARRAY) {
        CHECK(cudaMallocArray(&arr, &p.fmt, p.w, p.h));
        CHECK(cudaMemcpy2DToArray(arr, 0, 0, raw.data(), p.w * bytes, p.w * bytes, p.h, cudaMemcpyHostToDevice));
        r.resType = cudaResourceTypeArray;
        r.res.array.array = arr;
    } else if (p.resource == PITCH) {
        size_t pitch;
        CHECK(cudaMallocPitch(&mem, &pitch, p.w * bytes, p.h));
        CHECK(cudaMemcpy2D(mem, pitch, raw.data(), p.w * bytes, p.w * bytes, p.h, cudaMemcpyHostToDevice));
        r.resType = cudaResourceTypePitch2D;
        r.res.pitch2D.devPtr = mem;
        r.res.pitch2D.desc = p.fmt;
        r.res.pitch2D.width = p.w;
        r.res.pitch2D.height = p.h;
        r.res.pitch2D.pitchInBytes = pitch;
    } else {
        CHECK(cudaMalloc(&mem, raw.size()));
        CHECK(cudaMemcpy(mem, raw.data(), raw.size(), cudaMemcpyHostToDevice));
        r.resType = cudaResourceTypeLinear;
        r.res.linear.devPtr = mem;
        r.res.linear.desc = p.fmt;
        r.res.linear.sizeInBytes = raw.size();
    }
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = p.address;
    td.filterMode = p.filter;
    td.readMode = p.read;
    td.normalizedCoords = p.normalized;
    td.borderColor[0] = 0.3f;
    td.borderColor[1] = -0.7f;
    td.borderColor[2] = 0.55f;
    td.borderColor[3] = -0.15f;
    cudaTextureObject_t t = 0;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    std::vector<float4> at(N);
    for (int i = 0; i < N; i++) {
        if (p.resource == LINEAR) {  // integer texel indices, some beyond the end
            at[i] = make_float4((float)(next() % (p.w + 8)), 0, 0, 0);
            continue;
        }
        float lo = p.normalized ? -0.3f : -2.0f;
        float x = p.normalized ? uniform(lo, 1.3f) : uniform(lo, p.w + 2.0f);
        float y = p.normalized ? uniform(lo, 1.3f) : uniform(lo, p.h + 2.0f);
        at[i] = make_float4(x, y, 0, 0);
    }
    float4 *dAt, *dOut;
    CHECK(cudaMalloc(&dAt, N * sizeof(float4)));
    CHECK(cudaMalloc(&dOut, N * sizeof(float4)));
    CHECK(cudaMemcpy(dAt, at.data(), N * sizeof(float4), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dOut, 0, N * sizeof(float4)));
    if (p.resource == LINEAR) fetch1d<<<N / 256, 256>>>(t, dAt, dOut);
    else sample2d<<<N / 256, 256>>>(t, dAt, dOut);
    CHECK(cudaDeviceSynchronize());
    fprintf(log, "%s\n", p.name);
    cudaDestroyTextureObject(t);
    if (arr) cudaFreeArray(arr);
    if (mem) cudaFree(mem);
    cudaFree(dAt);
    cudaFree(dOut);
    return 0;
}

int main() {
    const auto SI = cudaChannelFormatKindSigned, U = cudaChannelFormatKindUnsigned, F = cudaChannelFormatKindFloat;
    const auto P = cudaFilterModePoint, L = cudaFilterModeLinear;
    const auto CL = cudaAddressModeClamp, BO = cudaAddressModeBorder, WR = cudaAddressModeWrap;
    const auto NF = cudaReadModeNormalizedFloat, EL = cudaReadModeElementType;
    const Part parts[] = {
        {"half4 array point border", ARRAY, cudaCreateChannelDesc(16, 16, 16, 16, F), 7, 5, P, BO, EL, true},
        {"half4 array linear border", ARRAY, cudaCreateChannelDesc(16, 16, 16, 16, F), 7, 5, L, BO, EL, true},
        {"half2 array linear border, unnormalized", ARRAY, cudaCreateChannelDesc(16, 16, 0, 0, F), 7, 5, L, BO, EL, false},
        {"uchar pitch2D linear clamp", PITCH, cudaCreateChannelDesc(8, 0, 0, 0, U), 37, 9, L, CL, NF, true},
        {"char2 pitch2D point border", PITCH, cudaCreateChannelDesc(8, 8, 0, 0, SI), 37, 9, P, BO, NF, true},
        {"short pitch2D linear wrap", PITCH, cudaCreateChannelDesc(16, 0, 0, 0, SI), 37, 9, L, WR, NF, true},
        {"half pitch2D linear border, unnormalized", PITCH, cudaCreateChannelDesc(16, 0, 0, 0, F), 37, 9, L, BO, EL, false},
        {"uchar4 linear fetch", LINEAR, cudaCreateChannelDesc(8, 8, 8, 8, U), 300, 0, P, CL, NF, false},
        {"char linear fetch", LINEAR, cudaCreateChannelDesc(8, 0, 0, 0, SI), 300, 0, P, CL, NF, false},
        {"half2 linear fetch", LINEAR, cudaCreateChannelDesc(16, 16, 0, 0, F), 300, 0, P, CL, EL, false},
    };
    for (const Part& p : parts)
        if (run(p, stdout)) return 1;
    return 0;
}
