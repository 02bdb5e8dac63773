/*
 * numlint capture layer: records kernel launches of a real CUDA program for `numlint validate --replay`.
 *
 * Mechanism: CUPTI callbacks, loaded by the CUDA driver through its injection mechanism
 * (CUDA_INJECTION64_PATH=<this library>; the driver calls InitializeInjection() during cuInit). Why not an
 * LD_PRELOAD shim of the driver API: the CUDA runtime (cudart, used by almost every program) does not call
 * cuLaunchKernel through the dynamic linker. It dlopen()s libcuda.so.1 and fetches every entry point with
 * cuGetProcAddress, so a preloaded cuLaunchKernel never sees a <<<...>>> launch; a shim would have to replace
 * dlsym/cuGetProcAddress and follow every versioned entry point (_v2, _ptsz, _ptds). CUPTI's driver-API callbacks
 * are called by the driver itself for every call whatever the caller, runtime included, and give the parameters
 * of the call, so one small callback sees module loads and launches from both APIs. The cost is a dependency on
 * libcupti (part of the toolkit); this library is linked against the toolkit's libcupti with its rpath.
 *
 * What is recorded (format: docs/validation/recording-format.md, version 1), under $NUMLINT_CAPTURE_DIR:
 *   modules.jsonl        one line per distinct module image loaded (PTX text, cubin/ELF, fatbinary), its file
 *   modules/module-N.*   the image bytes
 *   launches.jsonl       one line per recorded launch: kernel name, grid, block, dynamic shared memory, parameter
 *                        layout (cuFuncGetParamInfo) and bytes, and every parameter that points into a device
 *                        allocation (cuPointerGetAttribute RANGE_START_ADDR/RANGE_SIZE) with the allocation's
 *                        bytes before and after the launch (the context is synchronised around the launch)
 *   data/launch-L-alloc-A-{before,after}.bin
 *   data/launch-L-global-G-{before,after}.bin   the module variables (__constant__, __device__) the program
 *                        resolved by name (cuModuleGetGlobal, cuLibraryGetGlobal: what cudaMemcpyToSymbol and
 *                        cudaGetSymbolAddress do), copied before and after each recorded launch
 *   notices.jsonl        every limit hit and every thing that could not be recorded, with the reason
 * Limits (environment, set by `numlint record`): NUMLINT_CAPTURE_KERNELS (POSIX extended regex on the kernel
 * name, mangled or not), NUMLINT_CAPTURE_LAUNCHES (recorded launches per kernel, default 1),
 * NUMLINT_CAPTURE_EVERY (record every k-th launch of a kernel, default 1), NUMLINT_CAPTURE_MAX_BYTES (total bytes
 * of images and buffers written, default 256 MiB). The program itself is never changed: its launches run as they
 * would, only slower for the recorded ones (two synchronisations and the copies).
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <cupti.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FORMAT_VERSION 1
#define MAX_PARAMS 256
#define MAX_ALLOCS 64
#define MAX_KERNELS 4096
#define MAX_MODULES 4096
#define MAX_GLOBALS 1024

typedef CUresult (*pfn_sync)(void);
typedef CUresult (*pfn_dtoh)(void *, CUdeviceptr, size_t);
typedef CUresult (*pfn_ptrattr)(void *, CUpointer_attribute, CUdeviceptr);
typedef CUresult (*pfn_paraminfo)(void *, size_t, size_t *, size_t *);
typedef CUresult (*pfn_ctxdev)(CUdevice *);
typedef CUresult (*pfn_devname)(char *, int, CUdevice);
typedef CUresult (*pfn_devattr)(int *, CUdevice_attribute, CUdevice);

static struct {
    pfn_sync sync;
    pfn_dtoh dtoh;
    pfn_ptrattr ptrattr;
    pfn_paraminfo funcParamInfo;
    pfn_paraminfo kernelParamInfo;
    pfn_ctxdev ctxGetDevice;
    pfn_devname deviceGetName;
    pfn_devattr deviceGetAttribute;
} drv;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char dir[4096];
static regex_t kernelRe;
static int haveRe;
static long perKernel = 1, every = 1;
static unsigned long long maxBytes = 256ULL << 20, written;
static int launchSeq, moduleSeq, deviceWritten, bytesNoticed;
static __thread int inside; /* our own driver calls inside a callback are not recorded */

static struct {
    char *name;
    long seen, recorded;
    int noticed;
} kernels[MAX_KERNELS];
static int nKernels;
static uint64_t moduleHashes[MAX_MODULES];
static int nModules;

/* module variables the program resolved by name: their device range */
static struct {
    char *name;
    CUdeviceptr start;
    size_t size;
} globals[MAX_GLOBALS];
static int nGlobals, globalsNoticed;

/* the launch between its ENTER and EXIT callbacks (per thread) */
static __thread struct {
    int active, id, n;
    CUdeviceptr start[MAX_ALLOCS];
    size_t size[MAX_ALLOCS];
    int globalsCopied; /* the module variables were copied before the launch (copied after it too) */
} pending;

static FILE *openIn(const char *name, const char *mode) {
    char p[4400];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return fopen(p, mode);
}

static void jsonString(FILE *f, const char *s) {
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void notice(const char *kind, const char *kernel, const char *what) {
    FILE *f = openIn("notices.jsonl", "a");
    if (!f) return;
    fprintf(f, "{\"kind\":");
    jsonString(f, kind);
    fprintf(f, ",\"kernel\":");
    jsonString(f, kernel ? kernel : "");
    fprintf(f, ",\"message\":");
    jsonString(f, what);
    fprintf(f, "}\n");
    fclose(f);
}

/* reserves n bytes of the budget; 0 (and a notice, once) when the budget is spent */
static int reserve(unsigned long long n, const char *kernel, const char *what) {
    if (written + n > maxBytes) {
        char m[512];
        snprintf(m, sizeof m, "--max-bytes %llu reached: %s (%llu bytes) not written; later ones neither",
                 maxBytes, what, n);
        if (!bytesNoticed) notice("max-bytes", kernel, m);
        bytesNoticed = 1;
        return 0;
    }
    written += n;
    return 1;
}

static int writeFile(const char *name, const void *data, size_t n) {
    FILE *f = openIn(name, "wb");
    if (!f) return 0;
    size_t w = fwrite(data, 1, n, f);
    return fclose(f) == 0 && w == n;
}

/* ------------------------------------------------------------------ module images */

static uint64_t fnv(const unsigned char *p, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

/* the size and kind of a module image given to the driver (it is passed without a length) */
static size_t imageSize(const void **image, const char **kind) {
    const unsigned char *p = *image;
    uint32_t magic;
    memcpy(&magic, p, 4);
    if (magic == 0x466243b1u) { /* the fatbinary wrapper nvcc emits: magic, version, data, filename */
        const void *data;
        memcpy(&data, p + 8, sizeof data);
        *image = data;
        p = data;
        memcpy(&magic, p, 4);
    }
    if (magic == 0xBA55ED50u) { /* fatbinary: magic, version(2), header size(2), payload size(8) */
        uint16_t hs;
        uint64_t fs;
        memcpy(&hs, p + 6, 2);
        memcpy(&fs, p + 8, 8);
        *kind = "fatbin";
        return hs + fs;
    }
    if (p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F' && p[4] == 2) { /* ELF64 cubin */
        uint64_t shoff;
        uint16_t shentsize, shnum;
        memcpy(&shoff, p + 0x28, 8);
        memcpy(&shentsize, p + 0x3A, 2);
        memcpy(&shnum, p + 0x3C, 2);
        *kind = "cubin";
        return shoff + (uint64_t)shentsize * shnum;
    }
    *kind = "ptx";
    return strlen((const char *)p) + 1;
}

static void recordImage(const void *image, const char *how) {
    if (!image) return;
    const char *kind;
    size_t n = imageSize(&image, &kind);
    if (n == 0 || n > (1ULL << 31)) {
        notice("module", NULL, "a module image of an unknown layout was not recorded");
        return;
    }
    uint64_t h = fnv(image, n);
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nModules; i++)
        if (moduleHashes[i] == h) {
            pthread_mutex_unlock(&lock);
            return;
        }
    if (nModules == MAX_MODULES || !reserve(n, NULL, "a module image")) {
        pthread_mutex_unlock(&lock);
        return;
    }
    moduleHashes[nModules++] = h;
    int id = moduleSeq++;
    char name[128];
    snprintf(name, sizeof name, "modules/module-%d.%s", id, kind);
    int ok = writeFile(name, image, n);
    FILE *f = openIn("modules.jsonl", "a");
    if (f) {
        fprintf(f, "{\"id\":%d,\"file\":\"%s\",\"kind\":\"%s\",\"bytes\":%zu,\"loadedBy\":\"%s\",\"complete\":%s}\n",
                id, name, kind, n, how, ok ? "true" : "false");
        fclose(f);
    }
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------ module variables */

/* a module variable resolved by name (at the API exit, when the driver has filled in its range) */
static void rememberGlobal(const char *name, const CUdeviceptr *dptr, const size_t *bytes) {
    if (!name || !dptr || !bytes || !*dptr) return;
    pthread_mutex_lock(&lock);
    int g;
    for (g = 0; g < nGlobals; g++)
        if (globals[g].start == *dptr) break;
    if (g == nGlobals) {
        if (nGlobals == MAX_GLOBALS) {
            if (!globalsNoticed) notice("globals", NULL, "more than 1024 module variables: later ones not recorded");
            globalsNoticed = 1;
            pthread_mutex_unlock(&lock);
            return;
        }
        globals[g].name = strdup(name);
        globals[g].start = *dptr;
        globals[g].size = *bytes;
        nGlobals++;
    }
    pthread_mutex_unlock(&lock);
}

static int copyGlobal(int id, int g, const char *when, const char *kernel) {
    char name[160];
    snprintf(name, sizeof name, "data/launch-%d-global-%d-%s.bin", id, g, when);
    void *buf = malloc(globals[g].size ? globals[g].size : 1);
    if (!buf) return 0;
    int ok = drv.dtoh(buf, globals[g].start, globals[g].size) == CUDA_SUCCESS;
    if (ok) ok = writeFile(name, buf, globals[g].size);
    free(buf);
    if (!ok) notice("copy", kernel, "a module variable could not be copied to the host");
    return ok;
}

/* ------------------------------------------------------------------ launches */

static int chooseLaunch(const char *name) {
    if (!name) return 0;
    if (haveRe && regexec(&kernelRe, name, 0, NULL, 0) != 0) return 0;
    int k;
    for (k = 0; k < nKernels; k++)
        if (strcmp(kernels[k].name, name) == 0) break;
    if (k == nKernels) {
        if (nKernels == MAX_KERNELS) return 0;
        kernels[nKernels].name = strdup(name);
        nKernels++;
    }
    long seen = kernels[k].seen++;
    if (seen % every != 0) return 0;
    if (kernels[k].recorded >= perKernel) {
        if (!kernels[k].noticed) {
            char m[256];
            snprintf(m, sizeof m, "--launches %ld reached: later launches of this kernel not recorded", perKernel);
            notice("launches", name, m);
            kernels[k].noticed = 1;
        }
        return 0;
    }
    kernels[k].recorded++;
    return 1;
}

static void writeDevice(void) {
    CUdevice d;
    char name[256] = "";
    int major = 0, minor = 0;
    if (!drv.ctxGetDevice || drv.ctxGetDevice(&d) != CUDA_SUCCESS) return;
    if (drv.deviceGetName) drv.deviceGetName(name, sizeof name, d);
    if (drv.deviceGetAttribute) {
        drv.deviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
        drv.deviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
    }
    FILE *f = openIn("device.json", "w");
    if (!f) return;
    fprintf(f, "{\"name\":");
    jsonString(f, name);
    fprintf(f, ",\"computeCapability\":\"%d.%d\"}\n", major, minor);
    fclose(f);
}

static int copyAlloc(int id, int a, const char *when, const char *kernel) {
    char name[160];
    snprintf(name, sizeof name, "data/launch-%d-alloc-%d-%s.bin", id, a, when);
    void *buf = malloc(pending.size[a] ? pending.size[a] : 1);
    if (!buf) return 0;
    int ok = drv.dtoh(buf, pending.start[a], pending.size[a]) == CUDA_SUCCESS;
    if (ok) ok = writeFile(name, buf, pending.size[a]);
    free(buf);
    if (!ok) notice("copy", kernel, "an allocation could not be copied to the host");
    return ok;
}

static void launchEnter(const char *kernel, CUfunction f, const unsigned g[3], const unsigned b[3], unsigned shmem,
                        void **kernelParams, void **extra) {
    pthread_mutex_lock(&lock);
    int chosen = chooseLaunch(kernel);
    if (!chosen) {
        pthread_mutex_unlock(&lock);
        return;
    }
    if (!deviceWritten) {
        writeDevice();
        deviceWritten = 1;
    }
    int id = launchSeq++;
    drv.sync();
    /* parameter layout */
    size_t off[MAX_PARAMS], sz[MAX_PARAMS];
    int np = 0;
    const char *layoutFrom = "cuFuncGetParamInfo";
    while (np < MAX_PARAMS && drv.funcParamInfo && drv.funcParamInfo(f, np, &off[np], &sz[np]) == CUDA_SUCCESS) np++;
    if (np == 0 && drv.kernelParamInfo) { /* cudart may pass a CUkernel where a CUfunction goes */
        layoutFrom = "cuKernelGetParamInfo";
        while (np < MAX_PARAMS && drv.kernelParamInfo(f, np, &off[np], &sz[np]) == CUDA_SUCCESS) np++;
    }
    size_t total = 0;
    for (int i = 0; i < np; i++)
        if (off[i] + sz[i] > total) total = off[i] + sz[i];
    unsigned char *pb = calloc(total ? total : 1, 1);
    int paramsKnown = 1;
    if (kernelParams) {
        for (int i = 0; i < np; i++) memcpy(pb + off[i], kernelParams[i], sz[i]);
    } else if (extra) {
        void *buf = NULL;
        size_t bufSize = 0;
        for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
            if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
            if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) bufSize = *(size_t *)extra[i + 1];
        }
        if (buf) memcpy(pb, buf, bufSize < total ? bufSize : total);
        else paramsKnown = 0;
    } else if (np > 0) {
        paramsKnown = 0;
    }
    if (np == 0 && total == 0 && !kernelParams && !extra) paramsKnown = 1;
    if (!paramsKnown) notice("params", kernel, "the parameter bytes of a launch could not be read");
    char pname[128];
    snprintf(pname, sizeof pname, "data/launch-%d-params.bin", id);
    writeFile(pname, pb, total);
    /* allocations the 8-byte parameters point into */
    pending.n = 0;
    int pointsTo[MAX_PARAMS];
    size_t into[MAX_PARAMS];
    for (int i = 0; i < np; i++) {
        pointsTo[i] = -1;
        if (sz[i] != 8) continue;
        CUdeviceptr v;
        memcpy(&v, pb + off[i], 8);
        CUdeviceptr start;
        size_t size;
        if (v == 0 || drv.ptrattr(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, v) != CUDA_SUCCESS ||
            drv.ptrattr(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, v) != CUDA_SUCCESS)
            continue;
        int a;
        for (a = 0; a < pending.n; a++)
            if (pending.start[a] == start) break;
        if (a == pending.n) {
            if (pending.n == MAX_ALLOCS) continue;
            pending.start[a] = start;
            pending.size[a] = size;
            pending.n++;
        }
        pointsTo[i] = a;
        into[i] = (size_t)(v - start);
    }
    int skipped = 0;
    for (int a = 0; a < pending.n; a++) {
        if (!reserve(2ULL * pending.size[a], kernel, "the allocations of a launch")) {
            skipped = 1;
            break;
        }
    }
    int copied = 1;
    if (!skipped)
        for (int a = 0; a < pending.n; a++) copied &= copyAlloc(id, a, "before", kernel);
    /* the module variables known so far (of every module: the driver does not say which module a CUkernel of the
       runtime belongs to without more calls; replay restores those the kernel's module declares) */
    int nG = 0;
    if (!skipped) {
        unsigned long long gb = 0;
        for (int g = 0; g < nGlobals; g++) gb += 2ULL * globals[g].size;
        if (nGlobals > 0 && reserve(gb, kernel, "the module variables of a launch")) {
            nG = nGlobals;
            for (int g = 0; g < nG; g++) copied &= copyGlobal(id, g, "before", kernel);
        }
    }
    pending.globalsCopied = nG;
    FILE *j = openIn("launches.jsonl", "a");
    if (j) {
        fprintf(j, "{\"id\":%d,\"kernel\":", id);
        jsonString(j, kernel);
        fprintf(j, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"dynamicShared\":%u,\"layoutFrom\":\"%s\"", g[0], g[1],
                g[2], b[0], b[1], b[2], shmem, layoutFrom);
        fprintf(j, ",\"paramBytes\":\"%s\",\"paramsKnown\":%s,\"params\":[", pname, paramsKnown ? "true" : "false");
        for (int i = 0; i < np; i++) {
            fprintf(j, "%s{\"offset\":%zu,\"size\":%zu", i ? "," : "", off[i], sz[i]);
            if (pointsTo[i] >= 0) fprintf(j, ",\"alloc\":%d,\"offsetInAlloc\":%zu", pointsTo[i], into[i]);
            fprintf(j, "}");
        }
        fprintf(j, "],\"allocs\":[");
        for (int a = 0; a < pending.n; a++)
            fprintf(j, "%s{\"index\":%d,\"start\":\"0x%llx\",\"bytes\":%zu}", a ? "," : "", a,
                    (unsigned long long)pending.start[a], pending.size[a]);
        fprintf(j, "],\"globals\":[");
        for (int g = 0; g < nG; g++) {
            fprintf(j, "%s{\"index\":%d,\"name\":", g ? "," : "", g);
            jsonString(j, globals[g].name);
            fprintf(j, ",\"start\":\"0x%llx\",\"bytes\":%zu}", (unsigned long long)globals[g].start, globals[g].size);
        }
        fprintf(j, "],\"buffersRecorded\":%s}\n", !skipped && copied ? "true" : "false");
        fclose(j);
    }
    free(pb);
    pending.active = !skipped;
    pending.id = id;
    pthread_mutex_unlock(&lock);
}

static void launchExit(const char *kernel, CUresult rc) {
    if (!pending.active) return;
    pending.active = 0;
    pthread_mutex_lock(&lock);
    CUresult s = drv.sync();
    int ok = 1;
    if (rc != CUDA_SUCCESS || s != CUDA_SUCCESS) {
        char m[200];
        snprintf(m, sizeof m, "launch %d returned %d, synchronisation %d: its outputs were not recorded", pending.id,
                 (int)rc, (int)s);
        notice("launch-failed", kernel, m);
        ok = 0;
    }
    for (int a = 0; ok && a < pending.n; a++) ok &= copyAlloc(pending.id, a, "after", kernel);
    for (int g = 0; ok && g < pending.globalsCopied; g++) ok &= copyGlobal(pending.id, g, "after", kernel);
    FILE *j = openIn("launches-done.jsonl", "a");
    if (j) {
        fprintf(j, "{\"id\":%d,\"afterRecorded\":%s}\n", pending.id, ok ? "true" : "false");
        fclose(j);
    }
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------ CUPTI */

static void CUPTIAPI callback(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
    (void)user;
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || inside) return;
    const CUpti_CallbackData *cb = data;
    inside = 1;
    int enter = cb->callbackSite == CUPTI_API_ENTER;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData:
        if (enter) recordImage(((const cuModuleLoadData_params *)cb->functionParams)->image, "cuModuleLoadData");
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx:
        if (enter) recordImage(((const cuModuleLoadDataEx_params *)cb->functionParams)->image, "cuModuleLoadDataEx");
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary:
        if (enter)
            recordImage(((const cuModuleLoadFatBinary_params *)cb->functionParams)->fatCubin, "cuModuleLoadFatBinary");
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData:
        if (enter) recordImage(((const cuLibraryLoadData_params *)cb->functionParams)->code, "cuLibraryLoadData");
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2:
        if (!enter && *(CUresult *)cb->functionReturnValue == CUDA_SUCCESS) {
            const cuModuleGetGlobal_v2_params *p = cb->functionParams;
            rememberGlobal(p->name, p->dptr, p->bytes);
        }
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLibraryGetGlobal:
        if (!enter && *(CUresult *)cb->functionReturnValue == CUDA_SUCCESS) {
            const cuLibraryGetGlobal_params *p = cb->functionParams;
            rememberGlobal(p->name, p->dptr, p->bytes);
        }
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
        const cuLaunchKernel_params *p = cb->functionParams;
        if (enter) {
            unsigned g[3] = {p->gridDimX, p->gridDimY, p->gridDimZ}, b[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};
            launchEnter(cb->symbolName, p->f, g, b, p->sharedMemBytes, p->kernelParams, p->extra);
        } else {
            launchExit(cb->symbolName, *(CUresult *)cb->functionReturnValue);
        }
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const cuLaunchKernelEx_params *p = cb->functionParams;
        if (enter) {
            const CUlaunchConfig *c = p->config;
            unsigned g[3] = {c->gridDimX, c->gridDimY, c->gridDimZ}, b[3] = {c->blockDimX, c->blockDimY, c->blockDimZ};
            if (c->numAttrs > 0)
                notice("launch-attributes", cb->symbolName,
                       "cuLaunchKernelEx attributes (clusters, priorities...) are not recorded");
            launchEnter(cb->symbolName, p->f, g, b, c->sharedMemBytes, p->kernelParams, p->extra);
        } else {
            launchExit(cb->symbolName, *(CUresult *)cb->functionReturnValue);
        }
        break;
    }
    default:
        break;
    }
    inside = 0;
}

static long envLong(const char *name, long def) {
    const char *v = getenv(name);
    if (!v || !*v) return def;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    return errno || *end || x < 1 ? def : x;
}

static void *sym(void *h, const char *name) {
    void *p = dlsym(h, name);
    return p;
}

__attribute__((visibility("default"))) int InitializeInjection(void) {
    const char *d = getenv("NUMLINT_CAPTURE_DIR");
    if (!d || strlen(d) >= sizeof dir - 64) {
        fprintf(stderr, "numlint capture: NUMLINT_CAPTURE_DIR is not set; nothing is recorded\n");
        return 1;
    }
    strcpy(dir, d);
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/modules", dir);
    mkdir(sub, 0700);
    snprintf(sub, sizeof sub, "%s/data", dir);
    mkdir(sub, 0700);
    const char *re = getenv("NUMLINT_CAPTURE_KERNELS");
    if (re && *re) {
        if (regcomp(&kernelRe, re, REG_EXTENDED | REG_NOSUB) != 0) {
            notice("kernels", NULL, "--kernels is not a valid POSIX extended regular expression; every kernel matches");
        } else {
            haveRe = 1;
        }
    }
    perKernel = envLong("NUMLINT_CAPTURE_LAUNCHES", 1);
    every = envLong("NUMLINT_CAPTURE_EVERY", 1);
    const char *mb = getenv("NUMLINT_CAPTURE_MAX_BYTES");
    if (mb && *mb) maxBytes = strtoull(mb, NULL, 10);
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!h) h = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h) {
        notice("driver", NULL, "libcuda.so.1 could not be opened from the capture library; nothing is recorded");
        return 1;
    }
    drv.sync = (pfn_sync)sym(h, "cuCtxSynchronize");
    drv.dtoh = (pfn_dtoh)sym(h, "cuMemcpyDtoH_v2");
    drv.ptrattr = (pfn_ptrattr)sym(h, "cuPointerGetAttribute");
    drv.funcParamInfo = (pfn_paraminfo)sym(h, "cuFuncGetParamInfo");
    drv.kernelParamInfo = (pfn_paraminfo)sym(h, "cuKernelGetParamInfo");
    drv.ctxGetDevice = (pfn_ctxdev)sym(h, "cuCtxGetDevice");
    drv.deviceGetName = (pfn_devname)sym(h, "cuDeviceGetName");
    drv.deviceGetAttribute = (pfn_devattr)sym(h, "cuDeviceGetAttribute");
    if (!drv.sync || !drv.dtoh || !drv.ptrattr) {
        notice("driver", NULL, "the driver lacks cuCtxSynchronize/cuMemcpyDtoH_v2/cuPointerGetAttribute; nothing is recorded");
        return 1;
    }
    if (!drv.funcParamInfo && !drv.kernelParamInfo)
        notice("driver", NULL, "the driver lacks cuFuncGetParamInfo (CUDA 12.4+): parameter layouts are unknown");
    CUpti_SubscriberHandle s;
    if (cuptiSubscribe(&s, (CUpti_CallbackFunc)callback, NULL) != CUPTI_SUCCESS) {
        notice("cupti", NULL, "cuptiSubscribe failed (another CUPTI client, e.g. a profiler, is attached?); nothing is recorded");
        return 1;
    }
    CUpti_CallbackId ids[] = {CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData,     CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx,
                              CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary, CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2,  CUPTI_DRIVER_TRACE_CBID_cuLibraryGetGlobal};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        cuptiEnableCallback(1, s, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]);
    FILE *f = openIn("capture.json", "w");
    if (f) {
        fprintf(f, "{\"format\":\"numlint-recording\",\"version\":%d,\"capture\":\"CUPTI driver-API callbacks via "
                   "CUDA_INJECTION64_PATH\",\"launchesPerKernel\":%ld,\"every\":%ld,\"maxBytes\":%llu,\"kernels\":",
                FORMAT_VERSION, perKernel, every, maxBytes);
        jsonString(f, re ? re : "");
        fprintf(f, "}\n");
        fclose(f);
    }
    return 1;
}
