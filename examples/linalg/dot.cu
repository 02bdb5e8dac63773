// Dot product three ways (the white paper's example): serial, fused multiply-add, and pairwise.
// a = [1.907607, -.7862027, 1.147311, .9604002], b = [-.9355000, -.6915108, 1.724470, -.7097529]
// exact .0559587528435..., serial .0559588074, FMA .0559587515, parallel .0559587478 (float).
#include <cstdio>
#include <cuda_runtime.h>

// Serial: separate multiplies and adds in the source; nvcc contracts them into fma by default.
__device__ float dotSerial(const float *a, const float *b, int n)
{
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) sum += a[i] * b[i];
    return sum;
}

// FMA: the contraction written out, so the CPU can do the same with fmaf.
__device__ float dotFma(const float *a, const float *b, int n)
{
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) sum = fmaf(a[i], b[i], sum);
    return sum;
}

// Pairwise: split in halves, add the halves (what a parallel reduction does).
__device__ float dotPairwise(const float *a, const float *b, int n)
{
    if (n == 1) return __fmul_rn(a[0], b[0]);
    int h = n / 2;
    return __fadd_rn(dotPairwise(a, b, h), dotPairwise(a + h, b + h, n - h));
}

__global__ void dots(const float *a, const float *b, int n, float *out)
{
    out[0] = dotSerial(a, b, n);
    out[1] = dotFma(a, b, n);
    out[2] = dotPairwise(a, b, n);
}

int main()
{
    const float a[4] = {1.907607f, -.7862027f, 1.147311f, .9604002f};
    const float b[4] = {-.9355000f, -.6915108f, 1.724470f, -.7097529f};
    float *da, *db, *dout, out[3];
    cudaMalloc(&da, sizeof a);
    cudaMalloc(&db, sizeof b);
    cudaMalloc(&dout, sizeof out);
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
    dots<<<1, 1>>>(da, db, 4, dout);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    printf("serial %.10f  fma %.10f  pairwise %.10f\n", out[0], out[1], out[2]);
    return 0;
}
