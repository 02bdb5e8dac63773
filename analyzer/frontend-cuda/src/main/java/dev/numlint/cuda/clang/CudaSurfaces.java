package dev.numlint.cuda.clang;

/**
 * numlint's declarations of CUDA's surface object functions ({@code surf1Dread} ... {@code surfCubemapLayeredwrite}),
 * written as the CUDA Programming Guide documents them, for Clang's CUDA mode. nvcc declares them through
 * {@code crt/device_functions.h}, which includes {@code surface_indirect_functions.h}; Clang 20's CUDA wrapper skips
 * that file (it defines its include guard, {@code __DEVICE_FUNCTIONS_H__}) and includes the texture functions'
 * header itself but not the surfaces' (its texture handler has no surface operations), so a kernel that reads or
 * writes a surface had "use of undeclared identifier 'surf3Dread'" and Clang dropped the statement (GVDB's
 * {@code cuda_gvdb_copydata.cu}). Declarations only: no body is needed to read the code, none is generated.
 *
 * <p>Read after the wrapper ({@link Libclang#stubArguments}, a forced include), and only where the toolkit's own
 * {@code surface_indirect_functions.h} was not read: a later Clang whose wrapper includes it (with surface support in
 * its texture handler) defines its guard first. The guard is then defined here, so that a file of the tree that
 * includes the toolkit's header itself reads these declarations, not definitions Clang 20 cannot instantiate. The
 * legacy surface references ({@code surface<void, cudaSurfaceType2D>}, {@code surface_functions.h}) were removed in
 * CUDA 12: nvcc 12 and 13 reject them too, and nothing is declared for them.
 *
 * <p>The same forced header includes {@code <time.h>}, which nvcc's runtime headers include and Clang's wrapper does
 * not (session 35: a seismic code's six host programs call {@code clock()} with no include of it; Clang reported "no
 * matching function for call to 'clock'", its device {@code clock()} being the only one declared, in every unit).
 */
final class CudaSurfaces {
    private CudaSurfaces() {}

    static final String HEADER =
            """
            /* numlint: declarations of CUDA's surface object functions for Clang's CUDA mode, read after Clang's
               CUDA wrapper where the toolkit's surface_indirect_functions.h was not (numlint's own text). */
            #if defined(__CUDA__) && defined(__cplusplus) && defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__) \\
                && !defined(__SURFACE_INDIRECT_FUNCTIONS_H__)
            #define __SURFACE_INDIRECT_FUNCTIONS_H__
            #pragma push_macro("NUMLINT_SURFACE_MODE")
            #define NUMLINT_SURFACE_MODE cudaSurfaceBoundaryMode = cudaBoundaryModeTrap
            template <class T> __device__ T surf1Dread(cudaSurfaceObject_t, int, NUMLINT_SURFACE_MODE);
            template <class T> __device__ void surf1Dread(T *, cudaSurfaceObject_t, int, NUMLINT_SURFACE_MODE);
            template <class T> __device__ void surf1Dwrite(T, cudaSurfaceObject_t, int, NUMLINT_SURFACE_MODE);
            template <class T> __device__ T surf2Dread(cudaSurfaceObject_t, int, int, NUMLINT_SURFACE_MODE);
            template <class T> __device__ void surf2Dread(T *, cudaSurfaceObject_t, int, int, NUMLINT_SURFACE_MODE);
            template <class T> __device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int, NUMLINT_SURFACE_MODE);
            template <class T> __device__ T surf3Dread(cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            template <class T>
            __device__ void surf3Dread(T *, cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            template <class T> __device__ void surf3Dwrite(T, cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            template <class T> __device__ T surf1DLayeredread(cudaSurfaceObject_t, int, int, NUMLINT_SURFACE_MODE);
            template <class T>
            __device__ void surf1DLayeredread(T *, cudaSurfaceObject_t, int, int, NUMLINT_SURFACE_MODE);
            template <class T>
            __device__ void surf1DLayeredwrite(T, cudaSurfaceObject_t, int, int, NUMLINT_SURFACE_MODE);
            template <class T>
            __device__ T surf2DLayeredread(cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            template <class T>
            __device__ void surf2DLayeredread(T *, cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            template <class T>
            __device__ void surf2DLayeredwrite(T, cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            template <class T> __device__ T surfCubemapread(cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            template <class T>
            __device__ void surfCubemapread(T *, cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            template <class T>
            __device__ void surfCubemapwrite(T, cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            template <class T>
            __device__ T surfCubemapLayeredread(cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            template <class T>
            __device__ void surfCubemapLayeredread(T *, cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            template <class T>
            __device__ void surfCubemapLayeredwrite(T, cudaSurfaceObject_t, int, int, int, NUMLINT_SURFACE_MODE);
            #pragma pop_macro("NUMLINT_SURFACE_MODE")
            #endif
            /* nvcc's runtime headers include <time.h> (crt/common_functions.h): host code of a .cu that calls clock()
               or time() without including it compiles with nvcc. Clang's wrapper declares only the device clock(). */
            #if defined(__CUDA__) && defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
            #include <time.h>
            #endif
            """;
}
