/*
 * A FAKE CUDA driver (and CUPTI callback API) for testing the capture layer on a machine without a GPU. It is a
 * test double, not an emulator: device memory is host memory, a module is its PTX text, and the one kernel it can
 * "run" are saxpy_fma of fake_program.c, computed in C with fmaf (what the PTX's fma.rn.f32 computes, bit for bit),
 * scale_const, which reads the __constant__ table c_table (cuModuleGetGlobal gives its host memory), and tex_fetch,
 * which point-samples a texture object over a 2-D float array.
 * Like the real driver, cuInit loads $CUDA_INJECTION64_PATH and calls its InitializeInjection(), and the calls a
 * CUPTI subscriber enabled are reported to it at API entry and exit with the real parameter structs.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <cupti.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static CUpti_CallbackFunc subscriber;
static void *subscriberData;

CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *s, CUpti_CallbackFunc cb, void *data) {
    *s = (CUpti_SubscriberHandle)1;
    subscriber = cb;
    subscriberData = data;
    return CUPTI_SUCCESS;
}

CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle s, CUpti_CallbackDomain d, CUpti_CallbackId id) {
    (void)enable, (void)s, (void)d, (void)id;
    return CUPTI_SUCCESS;
}

static void report(CUpti_CallbackId id, CUpti_ApiCallbackSite site, const char *fn, const void *params,
                   const char *symbol, CUresult *rc) {
    if (!subscriber) return;
    CUpti_CallbackData d;
    memset(&d, 0, sizeof d);
    d.callbackSite = site;
    d.functionName = fn;
    d.functionParams = params;
    d.functionReturnValue = rc;
    d.symbolName = symbol;
    subscriber(subscriberData, CUPTI_CB_DOMAIN_DRIVER_API, id, &d);
}

CUresult cuInit(unsigned int flags) {
    (void)flags;
    const char *inj = getenv("CUDA_INJECTION64_PATH");
    if (inj && *inj) {
        void *h = dlopen(inj, RTLD_NOW | RTLD_GLOBAL);
        if (!h) {
            fprintf(stderr, "fake driver: cannot load %s: %s\n", inj, dlerror());
            return CUDA_ERROR_UNKNOWN;
        }
        int (*init)(void) = (int (*)(void))dlsym(h, "InitializeInjection");
        if (init) init();
    }
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal) { *d = ordinal; return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { (void)d; *c = (CUcontext)0x1; return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext c) { (void)c; return CUDA_SUCCESS; }
CUresult cuCtxGetDevice(CUdevice *d) { *d = 0; return CUDA_SUCCESS; }
CUresult cuCtxSynchronize(void) { return CUDA_SUCCESS; }
CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
    (void)d;
    snprintf(name, len, "numlint fake driver (no GPU)");
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
    (void)d;
    *v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9 : 0;
    return CUDA_SUCCESS;
}

/* allocations: device addresses are host addresses */
static struct { char *p; size_t n; } allocs[64];
static int nAllocs;

CUresult cuMemAlloc(CUdeviceptr *p, size_t n) {
    if (nAllocs == 64) return CUDA_ERROR_OUT_OF_MEMORY;
    allocs[nAllocs].p = calloc(n, 1);
    allocs[nAllocs].n = n;
    *p = (CUdeviceptr)allocs[nAllocs++].p;
    return CUDA_SUCCESS;
}
CUresult cuMemFree(CUdeviceptr p) { (void)p; return CUDA_SUCCESS; }
CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) { memcpy((void *)d, s, n); return CUDA_SUCCESS; }
CUresult cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) { memcpy(d, (void *)s, n); return CUDA_SUCCESS; }

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr ptr) {
    for (int i = 0; i < nAllocs; i++) {
        char *p = (char *)ptr;
        if (p < allocs[i].p || p >= allocs[i].p + allocs[i].n) continue;
        if (a == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR) *(CUdeviceptr *)data = (CUdeviceptr)allocs[i].p;
        else if (a == CU_POINTER_ATTRIBUTE_RANGE_SIZE) *(size_t *)data = allocs[i].n;
        else return CUDA_ERROR_INVALID_VALUE;
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_INVALID_VALUE;
}

/* modules: the PTX text; a function: its name and the parameter layout read from the .entry's parameter list */
typedef struct { char name[128]; int n; size_t off[32], size[32]; } Func;
static Func funcs[16];
static int nFuncs;
static const char *modules[16];
static int nModules;

CUresult cuModuleLoadData(CUmodule *m, const void *image) {
    cuModuleLoadData_params p = {m, image};
    report(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData, CUPTI_API_ENTER, "cuModuleLoadData", &p, NULL, NULL);
    modules[nModules] = strdup(image);
    *m = (CUmodule)(long)(nModules++ + 1);
    CUresult rc = CUDA_SUCCESS;
    report(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData, CUPTI_API_EXIT, "cuModuleLoadData", &p, NULL, &rc);
    return rc;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
    const char *text = modules[(long)m - 1];
    char entry[160];
    snprintf(entry, sizeof entry, ".entry %s(", name);
    const char *at = strstr(text, entry);
    if (!at || nFuncs == 16) return CUDA_ERROR_NOT_FOUND;
    Func *fn = &funcs[nFuncs];
    snprintf(fn->name, sizeof fn->name, "%s", name);
    const char *end = strchr(at, ')');
    size_t off = 0;
    for (const char *q = strstr(at, ".param"); q && q < end; q = strstr(q + 1, ".param")) {
        size_t sz = strncmp(q, ".param .u64", 11) == 0 ? 8 : 4;
        off = (off + sz - 1) / sz * sz;
        fn->off[fn->n] = off;
        fn->size[fn->n++] = sz;
        off += sz;
    }
    *f = (CUfunction)&funcs[nFuncs++];
    return CUDA_SUCCESS;
}

/* module variables: ".const/.global ... .b8 NAME[N];" of the module's text, host memory like the allocations */
static struct { char name[64]; char *p; size_t n; } vars[16];
static int nVars;

/* the module variable name of module m (created from its declaration on first use), or -1 */
static int findVar(CUmodule m, const char *name) {
    int v;
    for (v = 0; v < nVars; v++)
        if (strcmp(vars[v].name, name) == 0) return v;
    if (nVars < 16) {
        char decl[96];
        snprintf(decl, sizeof decl, ".b8 %s[", name);
        const char *at = strstr(modules[(long)m - 1], decl);
        if (at) {
            snprintf(vars[v].name, sizeof vars[v].name, "%s", name);
            vars[v].n = strtoul(at + strlen(decl), NULL, 10);
            vars[v].p = calloc(vars[v].n, 1);
            nVars++;
            return v;
        }
    }
    return -1;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule m, const char *name) {
    cuModuleGetGlobal_v2_params p = {dptr, bytes, m, name};
    report(CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2, CUPTI_API_ENTER, "cuModuleGetGlobal_v2", &p, NULL, NULL);
    CUresult rc = CUDA_ERROR_NOT_FOUND;
    int v = findVar(m, name);
    if (v >= 0) {
        *dptr = (CUdeviceptr)vars[v].p;
        *bytes = vars[v].n;
        rc = CUDA_SUCCESS;
    }
    report(CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2, CUPTI_API_EXIT, "cuModuleGetGlobal_v2", &p, NULL, &rc);
    return rc;
}

/*
 * A stand-in for the CUDA runtime's cudaMemcpyToSymbol as CUDA 13 does it: the runtime maps the host symbol to its
 * device variable through its own registration (__cudaRegisterVar, here fakeRegisterVar) and an untraced driver
 * entry point, so no cuModuleGetGlobal reaches CUPTI; the call is reported as the runtime-API callback.
 */
static struct { const void *host; CUmodule mod; const char *name; } registered[16];
static int nRegistered;

void fakeRegisterVar(CUmodule m, const void *host, const char *deviceName) {
    if (nRegistered < 16) {
        registered[nRegistered].host = host;
        registered[nRegistered].mod = m;
        registered[nRegistered].name = deviceName;
        nRegistered++;
    }
}

static void reportRuntime(CUpti_CallbackId id, CUpti_ApiCallbackSite site, const char *fn, const void *params,
                          cudaError_t *rc) {
    if (!subscriber) return;
    CUpti_CallbackData d;
    memset(&d, 0, sizeof d);
    d.callbackSite = site;
    d.functionName = fn;
    d.functionParams = params;
    d.functionReturnValue = rc;
    subscriber(subscriberData, CUPTI_CB_DOMAIN_RUNTIME_API, id, &d);
}

int fakeMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset) {
    cudaMemcpyToSymbol_v3020_params p = {symbol, src, count, offset, cudaMemcpyHostToDevice};
    cudaError_t rc = cudaErrorInvalidSymbol;
    reportRuntime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020, CUPTI_API_ENTER, "cudaMemcpyToSymbol", &p, &rc);
    for (int r = 0; r < nRegistered; r++) {
        if (registered[r].host != symbol) continue;
        int v = findVar(registered[r].mod, registered[r].name);
        if (v >= 0 && offset + count <= vars[v].n) {
            memcpy(vars[v].p + offset, src, count);
            rc = cudaSuccess;
        }
    }
    reportRuntime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020, CUPTI_API_EXIT, "cudaMemcpyToSymbol", &p, &rc);
    return rc;
}

static const float *var(const char *name) {
    for (int v = 0; v < nVars; v++)
        if (strcmp(vars[v].name, name) == 0) return (const float *)vars[v].p;
    return NULL;
}

/* arrays: host memory with their descriptor; texture objects: an index into texs (handles start at 1) */
static struct { CUDA_ARRAY3D_DESCRIPTOR d; char *p; } arrays[8];
static int nArrays;
static struct { CUDA_RESOURCE_DESC res; CUDA_TEXTURE_DESC tex; } texs[8];
static int nTexs;

CUresult cuArray3DCreate_v2(CUarray *a, const CUDA_ARRAY3D_DESCRIPTOR *d) {
    if (nArrays == 8 || d->Format != CU_AD_FORMAT_FLOAT) return CUDA_ERROR_NOT_SUPPORTED;
    size_t n = d->Width * (d->Height ? d->Height : 1) * (d->Depth ? d->Depth : 1) * d->NumChannels * 4;
    arrays[nArrays].d = *d;
    arrays[nArrays].p = calloc(n, 1);
    *a = (CUarray)(long)(++nArrays);
    return CUDA_SUCCESS;
}

CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *d, CUarray a) {
    *d = arrays[(long)a - 1].d;
    return CUDA_SUCCESS;
}

/* host <-> array copies of whole arrays (what the program and the capture layer do) */
CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *m) {
    size_t n = m->WidthInBytes * m->Height * m->Depth;
    if (m->srcMemoryType == CU_MEMORYTYPE_HOST && m->dstMemoryType == CU_MEMORYTYPE_ARRAY)
        memcpy(arrays[(long)m->dstArray - 1].p, m->srcHost, n);
    else if (m->srcMemoryType == CU_MEMORYTYPE_ARRAY && m->dstMemoryType == CU_MEMORYTYPE_HOST)
        memcpy(m->dstHost, arrays[(long)m->srcArray - 1].p, n);
    else
        return CUDA_ERROR_NOT_SUPPORTED;
    return CUDA_SUCCESS;
}

CUresult cuTexObjectCreate(CUtexObject *t, const CUDA_RESOURCE_DESC *r, const CUDA_TEXTURE_DESC *x,
                           const CUDA_RESOURCE_VIEW_DESC *v) {
    cuTexObjectCreate_params p = {t, r, x, v};
    report(CUPTI_DRIVER_TRACE_CBID_cuTexObjectCreate, CUPTI_API_ENTER, "cuTexObjectCreate", &p, NULL, NULL);
    CUresult rc = CUDA_ERROR_NOT_SUPPORTED;
    if (nTexs < 8) {
        texs[nTexs].res = *r;
        texs[nTexs].tex = *x;
        *t = (CUtexObject)(++nTexs);
        rc = CUDA_SUCCESS;
    }
    report(CUPTI_DRIVER_TRACE_CBID_cuTexObjectCreate, CUPTI_API_EXIT, "cuTexObjectCreate", &p, NULL, &rc);
    return rc;
}

/* point sampling of a 2-D one-channel float array, unnormalized coordinates, clamp */
static float tex2d(CUtexObject t, float x, float y) {
    const CUDA_ARRAY3D_DESCRIPTOR *d = &arrays[(long)texs[t - 1].res.res.array.hArray - 1].d;
    const float *p = (const float *)arrays[(long)texs[t - 1].res.res.array.hArray - 1].p;
    long i = (long)floorf(x), j = (long)floorf(y);
    i = i < 0 ? 0 : i >= (long)d->Width ? (long)d->Width - 1 : i;
    j = j < 0 ? 0 : j >= (long)d->Height ? (long)d->Height - 1 : j;
    return p[j * d->Width + i];
}

CUresult cuFuncGetParamInfo(CUfunction f, size_t i, size_t *off, size_t *size) {
    Func *fn = (Func *)f;
    if ((int)i >= fn->n) return CUDA_ERROR_INVALID_VALUE;
    *off = fn->off[i];
    *size = fn->size[i];
    return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shmem, CUstream s, void **params, void **extra) {
    Func *fn = (Func *)f;
    cuLaunchKernel_params p = {f, gx, gy, gz, bx, by, bz, shmem, s, params, extra};
    report(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, "cuLaunchKernel", &p, fn->name, NULL);
    CUresult rc = CUDA_SUCCESS;
    if (strcmp(fn->name, "saxpy_fma") == 0) {
        const float *x = *(const float **)params[0];
        float *y = *(float **)params[1];
        float a = *(float *)params[2];
        int n = *(int *)params[3];
        for (unsigned i = 0; i < gx * bx; i++)
            if ((int)i < n) y[i] = fmaf(a, x[i], y[i]);
    } else if (strcmp(fn->name, "tex_fetch") == 0) {
        CUtexObject t = *(CUtexObject *)params[0];
        float *y = *(float **)params[1];
        int w = *(int *)params[2], n = *(int *)params[3];
        for (unsigned i = 0; i < gx * bx; i++)
            if ((int)i < n) y[i] = tex2d(t, (float)((int)i % w) + 0.5f, (float)((int)i / w) + 0.5f);
    } else if (strcmp(fn->name, "scale_const") == 0 && var("c_table")) {
        const float *x = *(const float **)params[0], *t = var("c_table");
        float *y = *(float **)params[1];
        int n = *(int *)params[2];
        for (unsigned i = 0; i < gx * bx; i++)
            if ((int)i < n) y[i] = x[i] * t[i & 3];
    } else {
        rc = CUDA_ERROR_NOT_SUPPORTED;
    }
    report(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, "cuLaunchKernel", &p, fn->name, &rc);
    return rc;
}
