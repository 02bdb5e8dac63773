// Signed 8-bit linear texture filtering, swept so that the weights alone decide (docs/validation/textures-session14.md,
// "Signed 8-bit: what is still missing"), with unsigned 8-bit and signed 16-bit texels sampled the same way as
// controls. For recording on a GPU with `numlint record`; it also writes every texel, coordinate and result to
// s8_sweep.bin (format at the end of main). Written for numlint.
// Build: nvcc -lineinfo -arch=sm_90 -o s8_sweep s8_sweep.cu
//
// Every texture is a 2-texel-wide array of 2 x 2 blocks (rows 2b, 2b+1; 1-D parts use one row per block, y on the
// row's centre), linear filtering, clamp addressing, read as normalized floats, unnormalized coordinates. A sample
// at x = 0.5 + wx/256, y = 2b + 0.5 + wy/256 weighs the block's texels by exact multiples of 1/256.
//  A  1-D: texels (v, 0) for every v in -128..127, at every weight 0..256                (256 x 257 samples)
//  B  2-D: texels (v, 0; 0, 0) for every v, at 256 pseudo-random weight pairs each        (65,536 samples)
//  C  2-D: four pseudo-random texels per block, 4,096 blocks, 16 weight pairs each        (65,536 samples)
//  D  1-D: two pseudo-random texels per row, 4,096 rows, 16 weights each                  (65,536 samples)
//  E, F  part C again with unsigned 8-bit and with signed 16-bit texels (controls)
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void sample(cudaTextureObject_t t, const float2* at, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = tex2D<float>(t, at[i].x, at[i].y);
}

static uint32_t state = 2463534242u;
static uint32_t next() { state ^= state << 13; state ^= state >> 17; state ^= state << 5; return state; }

struct Part {
    char name;
    int bytes;                 // 1 or 2 per texel
    bool isSigned;
    int rows;                  // array height (width is 2)
    std::vector<int32_t> texels;   // rows * 2
    std::vector<float2> at;
};

static cudaTextureObject_t texture(cudaArray_t a) {
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc d = {};
    d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
    d.filterMode = cudaFilterModeLinear;
    d.readMode = cudaReadModeNormalizedFloat;
    d.normalizedCoords = 0;
    cudaTextureObject_t t = 0;
    if (cudaCreateTextureObject(&t, &r, &d, nullptr) != cudaSuccess) return 0;
    return t;
}

static float2 at(int wx, int row, int wy) {
    return make_float2(0.5f + wx / 256.0f, (float)row + 0.5f + wy / 256.0f);
}

static int32_t random8(bool isSigned) { int v = (int)(next() % 256); return isSigned ? v - 128 : v; }

static Part blocks4(char name, int bytes, bool isSigned) {  // C, E, F
    Part p{name, bytes, isSigned, 2 * 4096, {}, {}};
    for (int b = 0; b < 4096; b++) {
        for (int k = 0; k < 4; k++)
            p.texels.push_back(bytes == 1 ? random8(isSigned) : (int32_t)(int16_t)(next() & 0xFFFF));
        for (int k = 0; k < 16; k++) p.at.push_back(at(next() % 256, 2 * b, next() % 256));
    }
    return p;
}

int main() {
    std::vector<Part> parts;
    Part a{'A', 1, true, 256, {}, {}};
    for (int v = -128; v < 128; v++) {
        a.texels.push_back(v);
        a.texels.push_back(0);
        for (int w = 0; w <= 256; w++) a.at.push_back(at(w, v + 128, 0));
    }
    parts.push_back(a);
    Part b{'B', 1, true, 512, {}, {}};
    for (int v = -128; v < 128; v++) {
        int t[4] = {v, 0, 0, 0};
        for (int k = 0; k < 4; k++) b.texels.push_back(t[k]);
        for (int k = 0; k < 256; k++) b.at.push_back(at(next() % 256, 2 * (v + 128), next() % 256));
    }
    parts.push_back(b);
    parts.push_back(blocks4('C', 1, true));
    Part d{'D', 1, true, 4096, {}, {}};
    for (int r = 0; r < 4096; r++) {
        d.texels.push_back(random8(true));
        d.texels.push_back(random8(true));
        for (int k = 0; k < 16; k++) d.at.push_back(at(next() % 257, r, 0));
    }
    parts.push_back(d);
    parts.push_back(blocks4('E', 1, false));
    parts.push_back(blocks4('F', 2, true));

    FILE* f = fopen("s8_sweep.bin", "wb");
    if (!f) { printf("cannot write s8_sweep.bin\n"); return 1; }
    fwrite("NLS8SWP1", 1, 8, f);
    int32_t count = (int32_t)parts.size();
    fwrite(&count, 4, 1, f);
    for (Part& p : parts) {
        int n = (int)p.at.size();
        // the array: 2 x rows texels of 1 or 2 bytes
        std::vector<uint8_t> raw(p.texels.size() * p.bytes);
        for (size_t i = 0; i < p.texels.size(); i++) {
            if (p.bytes == 1) raw[i] = (uint8_t)p.texels[i];
            else { uint16_t s = (uint16_t)p.texels[i]; memcpy(&raw[2 * i], &s, 2); }
        }
        cudaChannelFormatDesc fmt = p.bytes == 1
            ? cudaCreateChannelDesc(8, 0, 0, 0, p.isSigned ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned)
            : cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned);
        cudaArray_t arr;
        CHECK(cudaMallocArray(&arr, &fmt, 2, p.rows));
        CHECK(cudaMemcpy2DToArray(arr, 0, 0, raw.data(), 2 * p.bytes, 2 * p.bytes, p.rows, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = texture(arr);
        if (!t) { printf("texture object refused (part %c)\n", p.name); return 1; }
        float2* dAt;
        float* dOut;
        CHECK(cudaMalloc(&dAt, n * sizeof(float2)));
        CHECK(cudaMalloc(&dOut, n * sizeof(float)));
        CHECK(cudaMemcpy(dAt, p.at.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
        CHECK(cudaMemset(dOut, 0, n * sizeof(float)));
        sample<<<(n + 255) / 256, 256>>>(t, dAt, dOut, n);
        CHECK(cudaDeviceSynchronize());
        std::vector<float> out(n);
        CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost));
        // part: name (1 byte), texel bytes (1), signed (1), pad (1), rows (i32), samples (i32),
        //       texels (2 * rows x i32), coordinates (samples x 2 x f32), results (samples x f32)
        uint8_t head[4] = {(uint8_t)p.name, (uint8_t)p.bytes, (uint8_t)p.isSigned, 0};
        fwrite(head, 1, 4, f);
        fwrite(&p.rows, 4, 1, f);
        fwrite(&n, 4, 1, f);
        fwrite(p.texels.data(), 4, p.texels.size(), f);
        fwrite(p.at.data(), 8, n, f);
        fwrite(out.data(), 4, n, f);
        printf("part %c: %d samples\n", p.name, n);
        cudaDestroyTextureObject(t);
        cudaFreeArray(arr);
        cudaFree(dAt);
        cudaFree(dOut);
    }
    fclose(f);
    return 0;
}
