/* numlint: declarations of cuRAND's device API (curand_kernel.h), written from NVIDIA's public cuRAND documentation,
   for Clang where the toolkit has no cuRAND headers. Found after every real include directory (-idirafter): an
   installed curand_kernel.h always wins. Declarations only (names, parameter and return types); the state types
   have the documented names and a minimal layout, not the library's. Not for compiling. */
#if !defined(CURAND_KERNEL_H_)
#define CURAND_KERNEL_H_
#define NUMLINT_STUB_CURAND_KERNEL_H 1
#include <curand.h>
#include "numlint_cuda_types.h"

struct curandStateXORWOW {
    unsigned int d, v[5];
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
    uint4 ctr;
    uint4 output;
    uint2 key;
    unsigned int STATE;
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
    unsigned int s1[3];
    unsigned int s2[3];
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

struct curandStateMtgp32 {
    unsigned int s[1024];
    int offset;
    int pIdx;
};
typedef struct curandStateMtgp32 curandStateMtgp32_t;

struct curandStateSobol32 {
    unsigned int i, x, c;
    unsigned int direction_vectors[32];
};
typedef struct curandStateSobol32 curandStateSobol32_t;
struct curandStateScrambledSobol32 {
    unsigned int i, x, c;
    unsigned int direction_vectors[32];
};
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
struct curandStateSobol64 {
    unsigned long long i, x, c;
    unsigned long long direction_vectors[64];
};
typedef struct curandStateSobol64 curandStateSobol64_t;
struct curandStateScrambledSobol64 {
    unsigned long long i, x, c;
    unsigned long long direction_vectors[64];
};
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t;

/* initialization */
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            curandStateXORWOW_t *state);
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            curandStatePhilox4_32_10_t *state);
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            curandStateMRG32k3a_t *state);
__device__ void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int offset,
                            curandStateSobol32_t *state);
__device__ void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int scramble_c,
                            unsigned int offset, curandStateScrambledSobol32_t *state);
__device__ void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long offset,
                            curandStateSobol64_t *state);
__device__ void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long scramble_c,
                            unsigned long long offset, curandStateScrambledSobol64_t *state);

/* skipping ahead */
__device__ void skipahead(unsigned long long n, curandStateXORWOW_t *state);
__device__ void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *state);
__device__ void skipahead(unsigned long long n, curandStateMRG32k3a_t *state);
__device__ void skipahead(unsigned int n, curandStateSobol32_t *state);
__device__ void skipahead(unsigned int n, curandStateScrambledSobol32_t *state);
__device__ void skipahead(unsigned long long n, curandStateSobol64_t *state);
__device__ void skipahead(unsigned long long n, curandStateScrambledSobol64_t *state);
__device__ void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state);
__device__ void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t *state);
__device__ void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t *state);
__device__ void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t *state);

/* the draws every generator has: 32 random bits, uniform in (0, 1], normal, log-normal, Poisson, discrete */
#define NUMLINT_CURAND_DRAWS(S)                                                                                        \
    __device__ float curand_uniform(S *state);                                                                         \
    __device__ double curand_uniform_double(S *state);                                                                 \
    __device__ float curand_normal(S *state);                                                                          \
    __device__ double curand_normal_double(S *state);                                                                  \
    __device__ float curand_log_normal(S *state, float mean, float stddev);                                            \
    __device__ double curand_log_normal_double(S *state, double mean, double stddev);                                  \
    __device__ unsigned int curand_poisson(S *state, double lambda);                                                   \
    __device__ unsigned int curand_discrete(S *state, curandDiscreteDistribution_t discrete_distribution);
NUMLINT_CURAND_DRAWS(curandStateXORWOW_t)
NUMLINT_CURAND_DRAWS(curandStatePhilox4_32_10_t)
NUMLINT_CURAND_DRAWS(curandStateMRG32k3a_t)
NUMLINT_CURAND_DRAWS(curandStateMtgp32_t)
NUMLINT_CURAND_DRAWS(curandStateSobol32_t)
NUMLINT_CURAND_DRAWS(curandStateScrambledSobol32_t)
NUMLINT_CURAND_DRAWS(curandStateSobol64_t)
NUMLINT_CURAND_DRAWS(curandStateScrambledSobol64_t)
#undef NUMLINT_CURAND_DRAWS

__device__ unsigned int curand(curandStateXORWOW_t *state);
__device__ unsigned int curand(curandStatePhilox4_32_10_t *state);
__device__ unsigned int curand(curandStateMRG32k3a_t *state);
__device__ unsigned int curand(curandStateMtgp32_t *state);
__device__ unsigned int curand(curandStateSobol32_t *state);
__device__ unsigned int curand(curandStateScrambledSobol32_t *state);
__device__ unsigned long long curand(curandStateSobol64_t *state);
__device__ unsigned long long curand(curandStateScrambledSobol64_t *state);

/* two at a time (XORWOW, Philox4_32_10, MRG32k3a) */
#define NUMLINT_CURAND_DRAWS2(S)                                                                                       \
    __device__ float2 curand_normal2(S *state);                                                                        \
    __device__ double2 curand_normal2_double(S *state);                                                                \
    __device__ float2 curand_log_normal2(S *state, float mean, float stddev);                                          \
    __device__ double2 curand_log_normal2_double(S *state, double mean, double stddev);
NUMLINT_CURAND_DRAWS2(curandStateXORWOW_t)
NUMLINT_CURAND_DRAWS2(curandStatePhilox4_32_10_t)
NUMLINT_CURAND_DRAWS2(curandStateMRG32k3a_t)
#undef NUMLINT_CURAND_DRAWS2

/* four at a time (Philox4_32_10) */
__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state);
__device__ double4 curand_uniform4_double(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);
__device__ double4 curand_normal4_double(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_log_normal4(curandStatePhilox4_32_10_t *state, float mean, float stddev);
__device__ double4 curand_log_normal4_double(curandStatePhilox4_32_10_t *state, double mean, double stddev);
__device__ uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda);
__device__ uint4 curand_discrete4(curandStatePhilox4_32_10_t *state,
                                  curandDiscreteDistribution_t discrete_distribution);

/* MTGP32 kernel helpers */
__device__ unsigned int curand_mtgp32_single(curandStateMtgp32_t *state);
__device__ float curand_mtgp32_single_specific(curandStateMtgp32_t *state, unsigned char index, unsigned char n);
__device__ unsigned int curand_mtgp32_specific(curandStateMtgp32_t *state, unsigned char index, unsigned char n);
#endif
