// pi = integral of 4/(1+x^2) over [0,1], by the midpoint rule: the OpenMP teaching example of Mattson et al.,
// as ported to CUDA. The GPU maps one term per thread and sums them in a tree; pi_serial.cpp is the CPU program,
// which sums them in a loop.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void piTerms(float *terms, float step, long numSteps)
{
    long i = blockIdx.x * (long) blockDim.x + threadIdx.x;
    if (i < numSteps) {
        float x = (i + 0.5) * step;
        terms[i] = 4.0 / (1.0 + x * x);
    }
}

// One level of a pairwise (tree) reduction: terms[i] += terms[i + half].
__global__ void reduceLevel(float *terms, long half, long n)
{
    long i = blockIdx.x * (long) blockDim.x + threadIdx.x;
    if (i < half && i + half < n) terms[i] += terms[i + half];
}

int main(int argc, char **argv)
{
    long numSteps = argc > 1 ? atol(argv[1]) : 100000;
    float step = 1.0f / (float) numSteps;
    float *terms;
    cudaMalloc(&terms, numSteps * sizeof(float));
    int threads = 256;
    piTerms<<<(numSteps + threads - 1) / threads, threads>>>(terms, step, numSteps);
    for (long n = numSteps; n > 1; n = (n + 1) / 2) {
        long half = (n + 1) / 2;
        reduceLevel<<<(half + threads - 1) / threads, threads>>>(terms, half, n);
    }
    float sum;
    cudaMemcpy(&sum, terms, sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(terms);
    printf("steps %ld  GPU pi %.8f\n", numSteps, step * sum);
    return 0;
}
