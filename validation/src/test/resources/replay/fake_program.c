/*
 * A tiny CUDA driver-API program for the capture test: loads a PTX module, launches saxpy_fma three times on
 * 1000 elements (y = a*x + y, contracted into one fma) and checks its own result, as a real program would. With
 * the argument "const" it launches scale_const instead, which reads a __constant__ table the program wrote.
 */
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *PTX =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry saxpy_fma(.param .u64 x, .param .u64 y, .param .f32 a, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .f32 %f<6>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [x];\n"
    "  ld.param.u64 %rd2, [y];\n"
    "  ld.param.f32 %f1, [a];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.s32 %p1, %r5, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n"
    "  cvta.to.global.u64 %rd4, %rd2;\n"
    "  mul.wide.s32 %rd5, %r5, 4;\n"
    "  add.s64 %rd6, %rd3, %rd5;\n"
    "  add.s64 %rd7, %rd4, %rd5;\n"
    "  ld.global.f32 %f2, [%rd6];\n"
    "  ld.global.f32 %f3, [%rd7];\n"
    "  fma.rn.f32 %f4, %f1, %f2, %f3;\n"
    "  st.global.f32 [%rd7], %f4;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".const .align 4 .b8 c_table[16];\n"
    "\n"
    ".visible .entry scale_const(.param .u64 x, .param .u64 y, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .f32 %f<4>;\n"
    "  .reg .b64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [x];\n"
    "  ld.param.u64 %rd2, [y];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.s32 %p1, %r5, %r1;\n"
    "  @%p1 bra END;\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n"
    "  cvta.to.global.u64 %rd4, %rd2;\n"
    "  mul.wide.s32 %rd5, %r5, 4;\n"
    "  add.s64 %rd6, %rd3, %rd5;\n"
    "  add.s64 %rd7, %rd4, %rd5;\n"
    "  and.b32 %r6, %r5, 3;\n"
    "  mul.wide.u32 %rd8, %r6, 4;\n"
    "  mov.u64 %rd9, c_table;\n"
    "  add.s64 %rd9, %rd9, %rd8;\n"
    "  ld.const.f32 %f1, [%rd9];\n"
    "  ld.global.f32 %f2, [%rd6];\n"
    "  mul.rn.f32 %f3, %f2, %f1;\n"
    "  st.global.f32 [%rd7], %f3;\n"
    "END:\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry tex_fetch(.param .u64 t, .param .u64 y, .param .u32 w, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .f32 %f<12>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [t];\n"
    "  ld.param.u64 %rd2, [y];\n"
    "  ld.param.u32 %r1, [w];\n"
    "  ld.param.u32 %r2, [n];\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r6, %r3, %r4, %r5;\n"
    "  setp.ge.s32 %p1, %r6, %r2;\n"
    "  @%p1 bra TEND;\n"
    "  rem.s32 %r7, %r6, %r1;\n"
    "  div.s32 %r8, %r6, %r1;\n"
    "  cvt.rn.f32.s32 %f1, %r7;\n"
    "  cvt.rn.f32.s32 %f2, %r8;\n"
    "  add.rn.f32 %f3, %f1, 0f3F000000;\n"
    "  add.rn.f32 %f4, %f2, 0f3F000000;\n"
    "  tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f3, %f4}];\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  mul.wide.s32 %rd4, %r6, 4;\n"
    "  add.s64 %rd5, %rd3, %rd4;\n"
    "  st.global.f32 [%rd5], %f5;\n"
    "TEND:\n"
    "  ret;\n"
    "}\n";

/* "texture": y[i] = the texel (i % 8, i / 8) of an 8x4 float array, read through a texture object */
static int textureFetch(CUmodule mod) {
    enum { W = 8, H = 4, N = W * H };
    CUfunction f;
    CUarray arr;
    CUtexObject tex;
    CUdeviceptr dy;
    float texels[N], back[N];
    for (int i = 0; i < N; i++) texels[i] = 0.25f * (float)i - 3.0f;
    CUDA_ARRAY3D_DESCRIPTOR d = {W, H, 0, CU_AD_FORMAT_FLOAT, 1, 0};
    if (cuModuleGetFunction(&f, mod, "tex_fetch") || cuArray3DCreate(&arr, &d)) return 6;
    CUDA_MEMCPY3D m;
    memset(&m, 0, sizeof m);
    m.srcMemoryType = CU_MEMORYTYPE_HOST;
    m.srcHost = texels;
    m.srcPitch = W * sizeof(float);
    m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    m.dstArray = arr;
    m.WidthInBytes = W * sizeof(float);
    m.Height = H;
    m.Depth = 1;
    if (cuMemcpy3D(&m)) return 6;
    CUDA_RESOURCE_DESC r;
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_ARRAY;
    r.res.array.hArray = arr;
    CUDA_TEXTURE_DESC t;
    memset(&t, 0, sizeof t);
    t.addressMode[0] = t.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
    t.filterMode = CU_TR_FILTER_MODE_POINT;
    t.flags = CU_TRSF_READ_AS_INTEGER;
    if (cuTexObjectCreate(&tex, &r, &t, NULL) || cuMemAlloc(&dy, N * sizeof(float))) return 6;
    unsigned w = W, n = N;
    void *args[] = {&tex, &dy, &w, &n};
    if (cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, 0, args, 0)) return 5;
    cuCtxSynchronize();
    cuMemcpyDtoH(back, dy, sizeof back);
    for (int i = 0; i < N; i++)
        if (back[i] != texels[i]) {
            printf("FAILED at %d\n", i);
            return 1;
        }
    printf("tex_fetch: PASSED\n");
    return 0;
}

/* "const": y = x * c_table[i % 4], the table written with cuModuleGetGlobal + cuMemcpyHtoD (cudaMemcpyToSymbol) */
static int constTable(CUmodule mod, CUdeviceptr dx, const float *x, int n) {
    CUfunction f;
    CUdeviceptr dt, dy;
    size_t bytes;
    static float back[4096];
    const float table[4] = {0.5f, 3.0f, -1.25f, 1e-3f};
    if (cuModuleGetFunction(&f, mod, "scale_const") || cuModuleGetGlobal(&dt, &bytes, mod, "c_table") || bytes != 16)
        return 6;
    cuMemcpyHtoD(dt, table, sizeof table);
    if (cuMemAlloc(&dy, n * sizeof(float))) return 4;
    unsigned un = n;
    void *args[] = {&dx, &dy, &un};
    if (cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, args, 0)) return 5;
    cuCtxSynchronize();
    cuMemcpyDtoH(back, dy, n * sizeof(float));
    for (int i = 0; i < n; i++)
        if (back[i] != x[i] * table[i & 3]) {
            printf("FAILED at %d\n", i);
            return 1;
        }
    printf("scale_const: PASSED\n");
    return 0;
}

/* "const-runtime": the same table written as CUDA 13's runtime does it (fake_cuda.c's fakeMemcpyToSymbol): a host
   shadow variable of the table's name, which only the program's symbol table names (static: not exported) */
void fakeRegisterVar(CUmodule m, const void *host, const char *deviceName);
int fakeMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset);
static float c_table[4];

static int constTableRuntime(CUmodule mod, CUdeviceptr dx, const float *x, int n) {
    CUfunction f;
    CUdeviceptr dy;
    static float back[4096];
    const float table[4] = {0.5f, 3.0f, -1.25f, 1e-3f};
    fakeRegisterVar(mod, c_table, "c_table");
    /* two writes: the first two entries, then the last two at an offset */
    if (fakeMemcpyToSymbol(c_table, table, 2 * sizeof(float), 0)
        || fakeMemcpyToSymbol(c_table, table + 2, 2 * sizeof(float), 2 * sizeof(float)))
        return 6;
    if (cuModuleGetFunction(&f, mod, "scale_const")) return 6;
    if (cuMemAlloc(&dy, n * sizeof(float))) return 4;
    unsigned un = n;
    void *args[] = {&dx, &dy, &un};
    if (cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, args, 0)) return 5;
    cuCtxSynchronize();
    cuMemcpyDtoH(back, dy, n * sizeof(float));
    for (int i = 0; i < n; i++)
        if (back[i] != x[i] * table[i & 3]) {
            printf("FAILED at %d\n", i);
            return 1;
        }
    printf("scale_const (runtime): PASSED\n");
    return 0;
}

int main(int argc, char **argv) {
    enum { N = 1000 };
    static float x[N], y[N], back[N];
    for (int i = 0; i < N; i++) {
        x[i] = 1.0f / (float)(i + 3);
        y[i] = -0.1f * (float)i;
    }
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    CUdeviceptr dx, dy;
    if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) return 2;
    if (cuModuleLoadData(&mod, PTX) || cuModuleGetFunction(&f, mod, "saxpy_fma")) return 3;
    if (cuMemAlloc(&dx, N * sizeof(float)) || cuMemAlloc(&dy, N * sizeof(float))) return 4;
    cuMemcpyHtoD(dx, x, sizeof x);
    cuMemcpyHtoD(dy, y, sizeof y);
    if (argc > 1 && strcmp(argv[1], "const") == 0) return constTable(mod, dx, x, N);
    if (argc > 1 && strcmp(argv[1], "const-runtime") == 0) return constTableRuntime(mod, dx, x, N);
    if (argc > 1 && strcmp(argv[1], "texture") == 0) return textureFetch(mod);
    float a = 3.0f;
    unsigned n = N;
    CUdeviceptr yPlus = dy;
    void *args[] = {&dx, &yPlus, &a, &n};
    for (int r = 0; r < 3; r++)
        if (cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, 0, args, 0)) return 5;
    cuCtxSynchronize();
    cuMemcpyDtoH(back, dy, sizeof back);
    for (int i = 0; i < N; i++) {
        float e = y[i];
        for (int r = 0; r < 3; r++) e = fmaf(a, x[i], e);
        if (back[i] != e) {
            printf("FAILED at %d\n", i);
            return 1;
        }
    }
    printf("saxpy_fma: PASSED\n");
    return 0;
}
