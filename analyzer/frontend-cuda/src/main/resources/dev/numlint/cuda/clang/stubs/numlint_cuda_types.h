/* numlint: the CUDA runtime's types numlint's library declarations use, from the toolkit's headers where this unit
   can read them (a CUDA unit, a host unit given the toolkit), else minimal stand-ins (a host unit without the toolkit
   on its include path), so that the declarations never stop a parse with "file not found". Not for compiling. */
#if !defined(NUMLINT_CUDA_TYPES_H)
#define NUMLINT_CUDA_TYPES_H 1
#include <stddef.h>
#if defined(__CUDA__) || __has_include(<cuda_runtime.h>)
#include <cuda_runtime.h>
#include <cuComplex.h>
#include <library_types.h>
#define NUMLINT_HAVE_CUDA_RUNTIME 1
#else
/* as the runtime's host_defines.h, which the library's header brings in, gives a host compiler */
#if !defined(__device__)
#define __device__
#endif
#if !defined(__global__)
#define __global__
#endif
#if !defined(__host__)
#define __host__
#endif
typedef struct CUstream_st *cudaStream_t;
typedef struct { unsigned int x, y; } uint2;
typedef struct { unsigned int x, y, z, w; } uint4;
typedef struct { float x, y; } float2;
typedef struct { float x, y, z, w; } float4;
typedef struct { double x, y; } double2;
typedef struct { double x, y, z, w; } double4;
typedef float2 cuFloatComplex;
typedef cuFloatComplex cuComplex;
typedef double2 cuDoubleComplex;
typedef enum cudaDataType_t {
    CUDA_R_16F = 2,
    CUDA_C_16F = 6,
    CUDA_R_16BF = 14,
    CUDA_C_16BF = 15,
    CUDA_R_32F = 0,
    CUDA_C_32F = 4,
    CUDA_R_64F = 1,
    CUDA_C_64F = 5,
    CUDA_R_8I = 3,
    CUDA_C_8I = 7,
    CUDA_R_8U = 8,
    CUDA_C_8U = 9,
    CUDA_R_32I = 10,
    CUDA_C_32I = 11
} cudaDataType;
#endif
#endif
