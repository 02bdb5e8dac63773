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
 *   data/launch-L-texture-T.bin   the texels of each texture object a launch's parameters name (cuTexObjectCreate:
 *                        its resource and texture descriptors), for an array read with cuMemcpy3D
 *   symbols.jsonl        one line per cudaMemcpyToSymbol(Async) from the host (CUPTI runtime-API callbacks): the bytes
 *                        written (data/symbol-W.bin), the offset, the id of the launch it precedes, and where the
 *                        host symbol lives (dladdr: its object, address, load base and, when exported, its name);
 *                        the CUDA 13 runtime resolves the symbol without the traced cuModuleGetGlobal, so this is how
 *                        a __constant__ table the host filled reaches the replay (`numlint record` names the symbol
 *                        from the program's ELF symbol table)
 *   notices.jsonl        every limit hit and every thing that could not be recorded, with the reason
 * Limits (environment, set by `numlint record`): NUMLINT_CAPTURE_KERNELS (POSIX extended regex on the kernel
 * name, mangled or not), NUMLINT_CAPTURE_LAUNCHES (recorded launches per kernel, default 1),
 * NUMLINT_CAPTURE_EVERY (record every k-th launch of a kernel, default 1), NUMLINT_CAPTURE_MAX_BYTES (total bytes
 * of images and buffers written, default 256 MiB). The program itself is never changed: its launches run as they
 * would, only slower for the recorded ones (two synchronisations and the copies).
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <cupti.h> /* with the runtime API's callback ids and parameter structs */
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
#define MAX_TEXTURES 1024

typedef CUresult (*pfn_sync)(void);
typedef CUresult (*pfn_dtoh)(void *, CUdeviceptr, size_t);
typedef CUresult (*pfn_ptrattr)(void *, CUpointer_attribute, CUdeviceptr);
typedef CUresult (*pfn_paraminfo)(void *, size_t, size_t *, size_t *);
typedef CUresult (*pfn_ctxdev)(CUdevice *);
typedef CUresult (*pfn_devname)(char *, int, CUdevice);
typedef CUresult (*pfn_devattr)(int *, CUdevice_attribute, CUdevice);
typedef CUresult (*pfn_arrdesc)(CUDA_ARRAY3D_DESCRIPTOR *, CUarray);
typedef CUresult (*pfn_memcpy3d)(const CUDA_MEMCPY3D *);

static struct {
    pfn_sync sync;
    pfn_dtoh dtoh;
    pfn_ptrattr ptrattr;
    pfn_paraminfo funcParamInfo;
    pfn_paraminfo kernelParamInfo;
    pfn_ctxdev ctxGetDevice;
    pfn_devname deviceGetName;
    pfn_devattr deviceGetAttribute;
    pfn_arrdesc arrayGetDescriptor;
    pfn_memcpy3d memcpy3d;
} drv;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char dir[4096];
static regex_t kernelRe;
static int haveRe;
static long perKernel = 1, every = 1;
static unsigned long long maxBytes = 256ULL << 20, written;
static int launchSeq, moduleSeq, symbolSeq, deviceWritten, bytesNoticed;
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

/* texture objects the program created: the handle and its descriptors */
static struct {
    CUtexObject handle;
    CUDA_RESOURCE_DESC res;
    CUDA_TEXTURE_DESC tex;
} textures[MAX_TEXTURES];
static int nTextures, texturesNoticed;

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

/* ------------------------------------------------------------------ texture objects */

static void rememberTexture(const CUtexObject *h, const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex) {
    if (!h || !res || !tex) return;
    pthread_mutex_lock(&lock);
    int t;
    for (t = 0; t < nTextures; t++)
        if (textures[t].handle == *h) break; /* a handle reused after cuTexObjectDestroy */
    if (t == nTextures) {
        if (nTextures == MAX_TEXTURES) {
            if (!texturesNoticed) notice("textures", NULL, "more than 1024 texture objects: later ones not recorded");
            texturesNoticed = 1;
            pthread_mutex_unlock(&lock);
            return;
        }
        nTextures++;
    }
    textures[t].handle = *h;
    textures[t].res = *res;
    textures[t].tex = *tex;
    pthread_mutex_unlock(&lock);
}

static size_t formatBytes(CUarray_format f) {
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8: return 1;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF: return 2;
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_FLOAT: return 4;
    default: return 0;
    }
}

/* writes the texels of texture t for launch id and its JSON object (without the braces' comma); 0 when not */
static int recordTexture(FILE *j, int id, int n, int param, int t, const char *kernel) {
    const CUDA_RESOURCE_DESC *r = &textures[t].res;
    const CUDA_TEXTURE_DESC *x = &textures[t].tex;
    size_t w = 1, h = 1, d = 1, layers = 0, pitch = 0, bytes, elem;
    unsigned channels;
    CUarray_format fmt;
    int dims;
    const char *type;
    void *buf;
    if (r->resType == CU_RESOURCE_TYPE_LINEAR) {
        type = "linear";
        fmt = r->res.linear.format;
        channels = r->res.linear.numChannels;
        elem = formatBytes(fmt) * channels;
        if (!elem) return 0;
        w = r->res.linear.sizeInBytes / elem;
        dims = 1;
        bytes = w * elem;
    } else if (r->resType == CU_RESOURCE_TYPE_PITCH2D) {
        type = "pitch2D";
        fmt = r->res.pitch2D.format;
        channels = r->res.pitch2D.numChannels;
        w = r->res.pitch2D.width;
        h = r->res.pitch2D.height;
        pitch = r->res.pitch2D.pitchInBytes;
        dims = 2;
        bytes = pitch * h;
    } else if (r->resType == CU_RESOURCE_TYPE_ARRAY && drv.arrayGetDescriptor && drv.memcpy3d) {
        CUDA_ARRAY3D_DESCRIPTOR a;
        if (drv.arrayGetDescriptor(&a, r->res.array.hArray) != CUDA_SUCCESS) return 0;
        type = "array";
        fmt = a.Format;
        channels = a.NumChannels;
        elem = formatBytes(fmt) * channels;
        if (!elem) return 0;
        w = a.Width;
        int layered = (a.Flags & CUDA_ARRAY3D_LAYERED) != 0;
        if (layered) {
            layers = a.Depth;
            h = a.Height ? a.Height : 1;
            dims = a.Height ? 2 : 1;
        } else {
            h = a.Height ? a.Height : 1;
            d = a.Depth ? a.Depth : 1;
            dims = a.Depth ? 3 : a.Height ? 2 : 1;
        }
        pitch = w * elem;
        bytes = pitch * h * d * (layers ? layers : 1);
    } else {
        notice("textures", kernel, "a texture object over a mipmapped array (or without the driver's array calls) was not recorded");
        return 0;
    }
    if (!reserve(bytes, kernel, "a texture object's texels")) return 0;
    buf = malloc(bytes ? bytes : 1);
    if (!buf) return 0;
    int ok;
    if (r->resType == CU_RESOURCE_TYPE_ARRAY) {
        CUDA_MEMCPY3D m;
        memset(&m, 0, sizeof m);
        m.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        m.srcArray = r->res.array.hArray;
        m.dstMemoryType = CU_MEMORYTYPE_HOST;
        m.dstHost = buf;
        m.dstPitch = pitch;
        m.dstHeight = h;
        m.WidthInBytes = pitch;
        m.Height = h;
        m.Depth = d * (layers ? layers : 1);
        ok = drv.memcpy3d(&m) == CUDA_SUCCESS;
    } else {
        ok = drv.dtoh(buf, r->resType == CU_RESOURCE_TYPE_LINEAR ? r->res.linear.devPtr : r->res.pitch2D.devPtr, bytes) ==
             CUDA_SUCCESS;
    }
    char name[160];
    snprintf(name, sizeof name, "data/launch-%d-texture-%d.bin", id, n);
    if (ok) ok = writeFile(name, buf, bytes);
    free(buf);
    if (!ok) {
        notice("copy", kernel, "a texture object's texels could not be copied to the host");
        return 0;
    }
    fprintf(j, "%s{\"index\":%d,\"param\":%d,\"handle\":\"0x%llx\",\"resource\":\"%s\",\"dims\":%d,\"width\":%zu,"
               "\"height\":%zu,\"depth\":%zu,\"layers\":%zu,\"format\":%d,\"channels\":%u,\"pitch\":%zu,"
               "\"address\":[%d,%d,%d],\"filter\":%d,\"flags\":%u,\"border\":[%.9g,%.9g,%.9g,%.9g],\"bytes\":%zu}",
            n ? "," : "", n, param, (unsigned long long)textures[t].handle, type, dims, w, h, d, layers, (int)fmt,
            channels, pitch, (int)x->addressMode[0], (int)x->addressMode[1], (int)x->addressMode[2],
            (int)x->filterMode, x->flags, x->borderColor[0], x->borderColor[1], x->borderColor[2], x->borderColor[3],
            bytes);
    return 1;
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
        fprintf(j, "],\"textures\":[");
        int nT = 0;
        for (int i = 0; !skipped && i < np; i++) {
            if (sz[i] != 8 || pointsTo[i] >= 0) continue;
            CUtexObject v;
            memcpy(&v, pb + off[i], 8);
            for (int t = 0; v && t < nTextures; t++)
                if (textures[t].handle == v) {
                    nT += recordTexture(j, id, nT, i, t, kernel);
                    break;
                }
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

/* ------------------------------------------------------------------ cudaMemcpyToSymbol */

/* a host-to-device cudaMemcpyToSymbol(Async) the program made: the bytes it wrote and where its host symbol lives */
static void recordSymbolWrite(const void *symbol, const void *src, size_t count, size_t offset, int kind) {
    if (!symbol || !src || count == 0) return;
    if (kind != cudaMemcpyHostToDevice) {
        /* cudaMemcpyDefault may name device memory as its source, which the host cannot read here */
        notice("symbol", NULL, "a cudaMemcpyToSymbol that is not host-to-device: not recorded");
        return;
    }
    Dl_info info;
    memset(&info, 0, sizeof info);
    int found = dladdr(symbol, &info) != 0;
    pthread_mutex_lock(&lock);
    int id = symbolSeq++, before = launchSeq;
    int ok = reserve(count, NULL, "a cudaMemcpyToSymbol");
    pthread_mutex_unlock(&lock);
    if (!ok) return;
    char name[160];
    snprintf(name, sizeof name, "data/symbol-%d.bin", id);
    if (!writeFile(name, src, count)) {
        notice("copy", NULL, "the bytes of a cudaMemcpyToSymbol could not be written");
        return;
    }
    const char *object = found && info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
    object = object ? object + 1 : found && info.dli_fname ? info.dli_fname : "";
    pthread_mutex_lock(&lock);
    FILE *j = openIn("symbols.jsonl", "a");
    if (j) {
        fprintf(j, "{\"id\":%d,\"beforeLaunch\":%d,\"name\":", id, before);
        jsonString(j, found && info.dli_sname ? info.dli_sname : "");
        fprintf(j, ",\"object\":");
        jsonString(j, object);
        fprintf(j, ",\"address\":\"0x%llx\",\"base\":\"0x%llx\",\"offset\":%zu,\"bytes\":%zu}\n",
                (unsigned long long)(uintptr_t)symbol, (unsigned long long)(uintptr_t)(found ? info.dli_fbase : 0),
                offset, count);
        fclose(j);
    }
    pthread_mutex_unlock(&lock);
}

static void runtimeCallback(CUpti_CallbackId cbid, const CUpti_CallbackData *cb) {
    if (cb->callbackSite != CUPTI_API_EXIT || !cb->functionReturnValue
        || *(const cudaError_t *)cb->functionReturnValue != cudaSuccess)
        return;
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_ptds_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_ptsz_v7000: {
        /* the four parameter structs begin alike: symbol, src, count, offset, kind */
        const cudaMemcpyToSymbol_v3020_params *p = cb->functionParams;
        recordSymbolWrite(p->symbol, p->src, p->count, p->offset, (int)p->kind);
        break;
    }
    default:
        break;
    }
}

/* ------------------------------------------------------------------ CUPTI */

static void CUPTIAPI callback(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
    (void)user;
    if (inside) return;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        inside = 1;
        runtimeCallback(cbid, data);
        inside = 0;
        return;
    }
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
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
    case CUPTI_DRIVER_TRACE_CBID_cuTexObjectCreate:
        if (!enter && *(CUresult *)cb->functionReturnValue == CUDA_SUCCESS) {
            const cuTexObjectCreate_params *p = cb->functionParams;
            rememberTexture(p->pTexObject, p->pResDesc, p->pTexDesc);
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
    drv.arrayGetDescriptor = (pfn_arrdesc)sym(h, "cuArray3DGetDescriptor_v2");
    drv.memcpy3d = (pfn_memcpy3d)sym(h, "cuMemcpy3D_v2");
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
                              CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2,  CUPTI_DRIVER_TRACE_CBID_cuLibraryGetGlobal,
                              CUPTI_DRIVER_TRACE_CBID_cuTexObjectCreate};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        cuptiEnableCallback(1, s, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]);
    CUpti_CallbackId runtimeIds[] = {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020,
                                     CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_v3020,
                                     CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_ptds_v7000,
                                     CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_ptsz_v7000};
    for (size_t i = 0; i < sizeof runtimeIds / sizeof runtimeIds[0]; i++)
        cuptiEnableCallback(1, s, CUPTI_CB_DOMAIN_RUNTIME_API, runtimeIds[i]);
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
