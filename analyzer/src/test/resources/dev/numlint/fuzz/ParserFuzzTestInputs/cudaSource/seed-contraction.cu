#include "helpers.cuh"

// Multiply-add contraction under the default -fmad=true.
__global__ void axpy(float* out, const float* a, const float* b, const float* c, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    // ruleid: NL003
    out[i] = a[i] * b[i] + c[i];
    // ok: NL003
    out[i + n] = fmaf(a[i], b[i], c[i]);
    // ok: NL003
    out[i + 2 * n] = __fadd_rn(__fmul_rn(a[i], b[i]), c[i]);
    // ok: NL003 (the fma is reported in helpers.cuh, where it is written)
    out[i + 3 * n] = blend(a[i], c[i], s);
    // ok: NL003
    out[i + 4 * n] = a[i] + c[i];
    // __fadd_rn keeps the sum apart, but the product t * s is a plain mul.f32 feeding sub.f32: ptxas fuses them
    float t = __fadd_rn(a[i], 1.0f);
    // ruleid: NL003
    out[i + 5 * n] = c[i] - t * s;
}

__global__ void axpy_double(double* out, const double* a, const double* b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    // ruleid: NL003
    out[i] = a[i] * b[i] - out[i];
    // ok: NL003
    out[i + n] = fma(a[i], b[i], out[i]);
}
