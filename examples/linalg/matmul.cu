// Tiled matrix product (one thread per element of C, tiles in shared memory) and the serial CPU product it is
// checked against. The two sum the same products in different orders, so in float they disagree: for
// A row (6589, 7678, 8574, 6180) and B column (18356, 18154, 30995, 29283) the serial sum is 707054208, the sum of
// two tiles of width 2 is 707054144, and the exact value is 707054166.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 16

__global__ void matMulTiled(float *C, const float *A, const float *B, int wA, int wB)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float Csub = 0.0f;
    for (int t = 0; t < wA / TILE; ++t) {
        As[ty][tx] = A[row * wA + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * wB + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) Csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * wB + col] = Csub;
}

// CPU reference: one running sum per element over the whole row.
void matMulSerial(float *C, const float *A, const float *B, int hA, int wA, int wB)
{
    for (int i = 0; i < hA; ++i)
        for (int j = 0; j < wB; ++j) {
            float sum = 0.0f;
            for (int k = 0; k < wA; ++k) sum += A[i * wA + k] * B[k * wB + j];
            C[i * wB + j] = sum;
        }
}

// The same element in tiles of width 2, accumulated tile by tile as the GPU kernel does.
float elementTiled(const float *a, const float *b, int n)
{
    float c = 0.0f;
    for (int t = 0; t < n; t += 2) {
        float part = 0.0f;
        for (int k = t; k < t + 2; ++k) part += a[k] * b[k];
        c += part;
    }
    return c;
}

int main()
{
    const float a[4] = {6589, 7678, 8574, 6180};
    const float b[4] = {18356, 18154, 30995, 29283};
    float serial;
    matMulSerial(&serial, a, b, 1, 4, 1);
    printf("serial %.0f  tiled %.0f  exact 707054166\n", serial, elementTiled(a, b, 4));
    // the same product on the GPU: 64 x 64 matrices in 16 x 16 tiles
    const int n = 64;
    float *dA, *dB, *dC;
    cudaMalloc(&dA, n * n * sizeof(float));
    cudaMalloc(&dB, n * n * sizeof(float));
    cudaMalloc(&dC, n * n * sizeof(float));
    dim3 block(TILE, TILE);
    dim3 grid(n / TILE, n / TILE);
    matMulTiled<<<grid, block>>>(dC, dA, dB, n, n);
    cudaDeviceSynchronize();
    return 0;
}
