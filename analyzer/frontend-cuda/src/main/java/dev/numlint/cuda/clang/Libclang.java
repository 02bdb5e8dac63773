package dev.numlint.cuda.clang;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * libclang, loaded once per process through the JavaCPP presets ({@code org.bytedeco:llvm}). Loading needs the
 * natives jar ({@code llvm-linux-x86_64.jar}, kept out of the CLI jar: see the analyzer pom) on the class path;
 * JavaCPP extracts the libraries and Clang's resource headers into its cache ({@code ~/.javacpp/cache}) on first
 * use. When loading fails, {@link #unavailable()} says why, and the front end falls back to the hand-written one.
 */
public final class Libclang {
    /** The Clang major version of the bundled libclang: its resource directory is {@code lib/clang/<major>}. */
    static final String MAJOR = "20";

    private static volatile Libclang instance;
    private static volatile String failure;

    private final Path resourceDir;
    /** The indexes, one per concurrent parse (an index is used by one thread at a time). */
    private static final java.util.concurrent.BlockingQueue<org.bytedeco.llvm.clang.CXIndex> INDEXES =
            new java.util.concurrent.LinkedBlockingQueue<>();

    /** An index for one parse, waiting while all are in use; give it back with {@link #release}. */
    static org.bytedeco.llvm.clang.CXIndex acquire() throws InterruptedException {
        return INDEXES.take();
    }

    static void release(org.bytedeco.llvm.clang.CXIndex index) {
        INDEXES.add(index);
    }

    private Libclang(Path resourceDir) {
        this.resourceDir = resourceDir;
    }

    /** The loaded library, or null when it cannot be loaded ({@link #unavailable()} says why). */
    public static Libclang get() {
        Libclang l = instance;
        if (l != null || failure != null) return l;
        synchronized (Libclang.class) {
            if (instance != null || failure != null) return instance;
            if (Boolean.getBoolean("numlint.clang.disable")) {
                failure = "disabled by -Dnumlint.clang.disable=true";
                return null;
            }
            try {
                Class.forName("org.bytedeco.llvm.global.clang");
            } catch (ClassNotFoundException e) {
                failure = "the libclang bindings are not on the class path";
                return null;
            } catch (LinkageError e) {
                failure = "libclang could not be loaded: " + e;
                return null;
            }
            try {
                String platform = org.bytedeco.javacpp.Loader.getPlatform();
                if (org.bytedeco.llvm.global.clang.class.getResource("/org/bytedeco/llvm/" + platform + "/") == null) {
                    failure = "libclang's natives for " + platform + " (llvm-" + platform + ".jar) are not on the class"
                            + " path; ./numlint links them from ~/.m2 after a build, a release needs lib/llvm-"
                            + platform + ".jar";
                    return null;
                }
                org.bytedeco.javacpp.Loader.load(org.bytedeco.llvm.global.clang.class);
                // clang_createIndex turns libclang's crash recovery on (unless LIBCLANG_DISABLE_CRASH_RECOVERY is
                // set, as ./numlint does); it installs signal handlers that take the JVM's own SIGSEGV (stack
                // banging, implicit null checks) and kill the process. So every index is created here, once, and
                // crash recovery is switched off right after.
                int n = Math.max(
                        1,
                        Math.min(
                                Integer.getInteger("numlint.clang.indexes", 8),
                                Runtime.getRuntime().availableProcessors()));
                for (int i = 0; i < n; i++) INDEXES.add(org.bytedeco.llvm.global.clang.clang_createIndex(0, 0));
                org.bytedeco.llvm.global.clang.clang_toggleCrashRecovery(0);
                File rd = org.bytedeco.javacpp.Loader.cacheResource(
                        org.bytedeco.llvm.global.clang.class, "/org/bytedeco/llvm/" + platform + "/lib/clang/" + MAJOR);
                if (rd == null || !new File(rd, "include").isDirectory()) {
                    failure = "Clang's resource headers were not found in the natives jar";
                    return null;
                }
                instance = new Libclang(rd.toPath());
            } catch (IOException | RuntimeException | LinkageError e) {
                failure = "libclang could not be loaded: " + e;
            }
            return instance;
        }
    }

    /**
     * Whether libclang can be loaded here, checked without loading it (the bindings and this platform's natives on
     * the class path, not disabled): the scan's process never loads libclang itself, its Clang workers do. Null when
     * it can, else why not.
     */
    public static String missing() {
        if (Boolean.getBoolean("numlint.clang.disable")) return "disabled by -Dnumlint.clang.disable=true";
        ClassLoader cl = Libclang.class.getClassLoader();
        try {
            Class.forName("org.bytedeco.llvm.global.clang", false, cl);
            Class.forName("org.bytedeco.javacpp.Loader", false, cl);
        } catch (ClassNotFoundException | LinkageError e) {
            return "the libclang bindings are not on the class path";
        }
        String platform;
        try {
            platform = org.bytedeco.javacpp.Loader.getPlatform();
        } catch (RuntimeException | LinkageError e) {
            return "the platform is unknown to JavaCPP: " + e;
        }
        if (cl.getResource("org/bytedeco/llvm/" + platform + "/") == null) {
            return "libclang's natives for " + platform + " (llvm-" + platform + ".jar) are not on the class"
                    + " path; ./numlint links them from ~/.m2 after a build, a release needs lib/llvm-" + platform
                    + ".jar";
        }
        return null;
    }

    /** Why {@link #get()} returned null, or null when the library is loaded (or was not tried). */
    public static String unavailable() {
        return failure;
    }

    /** Clang's resource directory (its builtin headers: stddef.h, the CUDA wrapper headers). */
    public Path resourceDir() {
        return resourceDir;
    }

    /**
     * Headers that Clang 20's CUDA wrapper includes but a CUDA 13 or partial toolkit lacks
     * ({@code texture_fetch_functions.h}, {@code curand_mtgp32_kernel.h}): empty stand-ins in
     * {@code <cacheDir>/clang-stubs}, found after every real include directory (-idirafter); and numlint's
     * declarations of CUDA's surface functions ({@link #SURFACES}), which a CUDA unit includes first
     * ({@link #stubArguments}); and numlint's declarations of the CUDA libraries ({@link LibraryStubs}), in a folder
     * of their own. Never written into the scanned tree. Null when the directory cannot be written.
     */
    static Path stubHeaders(Path cacheDir) {
        if (cacheDir == null) {
            // no cache directory in this scan (a library caller): the user's temporary directory
            cacheDir =
                    Path.of(System.getProperty("java.io.tmpdir"), "numlint-" + System.getProperty("user.name", "user"));
        }
        Path dir = cacheDir.resolve("clang-stubs-" + MAJOR);
        try {
            Files.createDirectories(dir);
            for (String h : new String[] {"texture_fetch_functions.h", "curand_mtgp32_kernel.h"}) {
                write(
                        dir.resolve(h),
                        "/* numlint: stand-in for a header Clang's CUDA wrapper includes and this toolkit lacks */\n",
                        false);
            }
            write(dir.resolve(SURFACES), CudaSurfaces.HEADER, true);
            write(dir.resolve(NVCC_MACROS), NVCC_MACROS_TEXT, true);
            Path omp = gccHeader(Path.of("/usr/lib/gcc"), "omp.h");
            if (omp != null) write(dir.resolve("omp.h"), forwarding(omp), true);
            else Files.deleteIfExists(dir.resolve("omp.h"));
            try {
                LibraryStubs.extract(dir);
            } catch (IOException | RuntimeException e) {
                // the other stubs stay; Clang reads the tree as without numlint's library declarations
            }
            return dir;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The host compiler's own header {@code name} in GCC's internal include directory under {@code gccRoot}
     * ({@code /usr/lib/gcc/x86_64-linux-gnu/13/include/omp.h}, the newest version's), or null. GCC reads {@code omp.h}
     * from there, with or without {@code -fopenmp}; Clang's resource directory has none without libomp, so Clang
     * stopped at {@code #include <omp.h>} where nvcc's g++ did not (session 46: a signal-processing code's two host
     * files). The stub directory forwards to it ({@code -idirafter}: a real {@code omp.h} anywhere else wins).
     */
    static Path gccHeader(Path gccRoot, String name) {
        try (java.util.stream.Stream<Path> targets = Files.list(gccRoot)) {
            for (Path t : (Iterable<Path>) targets.sorted()::iterator) {
                for (Path v : dev.numlint.toolchain.IncludePolicy.versions(t)) {
                    Path h = v.resolve("include").resolve(name);
                    if (Files.isRegularFile(h)) return h;
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /**
     * A stub header that includes {@code target} (an absolute path of a system header). GCC 11's {@code omp.h} writes
     * {@code __attribute__((__malloc__, __malloc__ (omp_free)))}, which Clang 20 rejects ("'malloc' attribute takes
     * no arguments", five errors in every file that includes it): while the header is read, the form with an argument
     * is the form without one.
     */
    static String forwarding(Path target) {
        return "/* numlint: the host compiler's own header, which GCC finds in its internal include directory */\n"
                + "#pragma push_macro(\"__malloc__\")\n"
                + "#define __malloc__(...) __malloc__\n"
                + "#include \"" + target + "\"\n"
                + "#pragma pop_macro(\"__malloc__\")\n";
    }

    /** The file name of numlint's declarations of CUDA's surface functions in the stub directory. */
    static final String SURFACES = "numlint_cuda_surfaces.h";

    /** The file name of the macros nvcc gives a value and Clang's CUDA wrapper does not ({@link #NVCC_MACROS_TEXT}). */
    static final String NVCC_MACROS = "numlint_nvcc_macros.h";

    /**
     * nvcc defines {@code __CUDACC__} as 1, and code tests it with {@code #if !__CUDACC__} (session 40: j-pet-mlem's
     * headers, 35 "expected value in expression" errors); Clang's CUDA wrapper defines it empty. Read after the
     * wrapper, as nvcc has it. And host overloads of {@code min} and {@code max} for the integer and floating pairs
     * CUDA's {@code math_functions.hpp} gives host code ({@code inline __host__ __device__}, its {@code min(int, int)}
     * under {@code !__CUDA_ARCH__}): Clang's wrapper declares them for device code only, so a host function of a .cu
     * file calling {@code min(a, b)} was "no matching function for call to 'min'" (session 42: 18 units of one
     * unseen molecular-dynamics code, which nvcc compiles). Host-only overloads beside the wrapper's device ones, as
     * Clang's CUDA mode allows overloading on the execution space; only in the host pass numlint parses. The same for
     * {@code modf(float, float *)} and {@code sincos(float, float *, float *)} (session 78: a compression library's
     * host {@code modf(sq, &whole)} was "no matching function", and the integer part it defines went unbounded).
     */
    static final String NVCC_MACROS_TEXT =
            """
            /* numlint: nvcc defines __CUDACC__ as 1; Clang's CUDA wrapper defines it empty (numlint's own text). */
            #ifdef __CUDACC__
            #undef __CUDACC__
            #define __CUDACC__ 1
            #endif
            /* numlint: the host min/max overloads nvcc's math_functions.hpp gives host code; Clang's wrapper declares
               them for device code only (numlint's own text). */
            #if defined(__CUDA__) && !defined(__CUDA_ARCH__) && defined(__cplusplus)
            #define NUMLINT_HOST_MINMAX(T1, T2, R) \
              static inline __host__ R min(const T1 a, const T2 b) { return (R)a < (R)b ? (R)a : (R)b; } \
              static inline __host__ R max(const T1 a, const T2 b) { return (R)a > (R)b ? (R)a : (R)b; }
            NUMLINT_HOST_MINMAX(int, int, int)
            NUMLINT_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
            NUMLINT_HOST_MINMAX(int, unsigned int, unsigned int)
            NUMLINT_HOST_MINMAX(unsigned int, int, unsigned int)
            NUMLINT_HOST_MINMAX(long, long, long)
            NUMLINT_HOST_MINMAX(unsigned long, unsigned long, unsigned long)
            NUMLINT_HOST_MINMAX(long, unsigned long, unsigned long)
            NUMLINT_HOST_MINMAX(unsigned long, long, unsigned long)
            NUMLINT_HOST_MINMAX(long long, long long, long long)
            NUMLINT_HOST_MINMAX(unsigned long long, unsigned long long, unsigned long long)
            NUMLINT_HOST_MINMAX(long long, unsigned long long, unsigned long long)
            NUMLINT_HOST_MINMAX(unsigned long long, long long, unsigned long long)
            NUMLINT_HOST_MINMAX(float, float, float)
            NUMLINT_HOST_MINMAX(double, double, double)
            NUMLINT_HOST_MINMAX(float, double, double)
            NUMLINT_HOST_MINMAX(double, float, double)
            #undef NUMLINT_HOST_MINMAX
            /* numlint: the host float overloads with float out-parameters that nvcc's math headers give host code and
               Clang's wrapper gives device code only (a float* is no double*, so no promotion finds the double one).
               Templates, so that a std::modf brought in by <math.h>, a using-declaration or `using namespace std`
               wins over them instead of conflicting (numlint's own text). */
            template <class NumlintHostFloat = void>
            static inline __host__ float modf(float a, float *i) {
              double w;
              float f = (float)::modf((double)a, &w);
              *i = (float)w;
              return f;
            }
            template <class NumlintHostFloat = void>
            static inline __host__ void sincos(float a, float *s, float *c) {
              *s = (float)::sin((double)a);
              *c = (float)::cos((double)a);
            }
            #endif
            /* numlint: nvcc's built-in traits of extended lambdas, which CCCL (cuda/std/__functional/invoke.h) tests
               in host code once __NVCC__ and __CUDACC_EXTENDED_LAMBDA__ are defined; Clang has none, and every unit
               that includes Thrust, CUB or libcu++ with --extended-lambda stopped at "'_Fp' does not refer to a
               value". Clang reads no lambda as nvcc's extended device lambda (numlint's own text). */
            #if defined(__CUDACC_EXTENDED_LAMBDA__) && !defined(__CUDA_ARCH__)
            #ifndef __nv_is_extended_device_lambda_closure_type
            #define __nv_is_extended_device_lambda_closure_type(X) false
            #endif
            #ifndef __nv_is_extended_host_device_lambda_closure_type
            #define __nv_is_extended_host_device_lambda_closure_type(X) false
            #endif
            #ifndef __nv_is_extended_device_lambda_with_preserved_return_type
            #define __nv_is_extended_device_lambda_with_preserved_return_type(X) false
            #endif
            #endif
            /* numlint: with NDEBUG, CCCL (cuda/std/__cccl/assert.h) declares __assert_fail __host__ __device__ for
               nvcc, which Clang's CUDA wrapper declares __device__: "cannot overload", one error in every unit of a
               release build that includes Thrust, CUB or libcu++. NDEBUG makes assert() call nothing, so CCCL's own
               declaration and uses take another name in host code (numlint's own text). */
            #if defined(__CUDA__) && !defined(__CUDA_ARCH__) && defined(NDEBUG) && defined(__cplusplus)
            #define __assert_fail __numlint_cccl_assert_fail
            #endif
            """;

    /**
     * Writes {@code text} to {@code f} through a temporary file and an atomic move, unless it is there already (with
     * {@code exact}: with this text; another numlint version may have written another one).
     */
    static void write(Path f, String text, boolean exact) throws IOException {
        if (Files.exists(f) && (!exact || text.equals(Files.readString(f, StandardCharsets.UTF_8)))) return;
        Path tmp = Files.createTempFile(f.getParent(), f.getFileName().toString(), ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        try {
            Files.move(
                    tmp,
                    f,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException raced) {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * The arguments that give a parse the stub headers of {@code stubs} ({@link #stubHeaders}): the directory, after
     * every other, and for a CUDA unit ({@code -x cuda} in {@code args}) numlint's surface declarations as a forced
     * include, read after Clang's CUDA wrapper (which the driver includes first).
     */
    static java.util.List<String> stubArguments(Path stubs, java.util.List<String> args) {
        if (stubs == null) return java.util.List.of();
        boolean cuda = false;
        for (int i = 0; i + 1 < args.size(); i++) {
            if (args.get(i).equals("-x")) cuda = args.get(i + 1).equals("cuda");
        }
        java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of("-idirafter", stubs.toString()));
        // numlint's declarations of the CUDA libraries (LibraryStubs): after the other stubs, after every real header
        Path libraries = LibraryStubs.folder(stubs);
        if (LibraryStubs.enabled() && Files.isDirectory(libraries))
            a.addAll(java.util.List.of("-idirafter", libraries.toString()));
        if (cuda) {
            a.addAll(java.util.List.of("-include", stubs.resolve(SURFACES).toString()));
            a.addAll(java.util.List.of("-include", stubs.resolve(NVCC_MACROS).toString()));
        }
        return a;
    }
}
