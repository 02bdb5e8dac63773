/* numlint: declarations of a few cuBLASLt entry points (cublasLt.h), written from NVIDIA's public cuBLAS
   documentation, for Clang where the toolkit has no cuBLAS headers. Found after every real include directory
   (-idirafter): an installed cublasLt.h always wins. Declarations only; the handle and descriptors are opaque. */
#if !defined(NUMLINT_STUB_CUBLASLT_H)
#define NUMLINT_STUB_CUBLASLT_H 1
#include <cublas_api.h>

#if defined(__cplusplus)
extern "C" {
#endif
struct cublasLtContext;
typedef struct cublasLtContext *cublasLtHandle_t;
struct cublasLtMatmulDescOpaque_st;
typedef struct cublasLtMatmulDescOpaque_st *cublasLtMatmulDesc_t;
struct cublasLtMatrixLayoutOpaque_st;
typedef struct cublasLtMatrixLayoutOpaque_st *cublasLtMatrixLayout_t;

cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle);
cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle);
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *matmulDesc, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType);
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc);
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *matLayout, cudaDataType type, unsigned long long rows,
                                          unsigned long long cols, long long int ld);
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout);
#if defined(__cplusplus)
}
#endif
#endif
