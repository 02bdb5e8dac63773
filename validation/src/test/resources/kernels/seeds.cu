// Kernels reproducing the numbers of the seed documents (see the test GoldenSeedTest).

// 002 (white paper): r = a*a + b; nvcc contracts it into one fma under the default -fmad=true.
extern "C" __global__ void square_plus(const float* a, const float* b, float* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) r[i] = a[i] * a[i] + b[i];
}

// 000 (tomosynthesis): the unguarded cast of a float to unsigned short.
extern "C" __global__ void to_ushort(const float* x, unsigned short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (unsigned short)x[i];
}

// 003 (rounding-error lecture): C = A*B, one thread per element, serial accumulation over k.
extern "C" __global__ void matmul_serial(const float* A, const float* B, float* C, int hA, int wA, int wB) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= hA || col >= wB) return;
  float sum = 0.0f;
  for (int k = 0; k < wA; ++k) sum += A[row * wA + k] * B[k * wB + col];
  C[row * wB + col] = sum;
}

#define BS 2
// 003: the blocked version: partial sums over BS-wide tiles staged in shared memory, then added up.
extern "C" __global__ void matmul_block(const float* A, const float* B, float* C, int wA, int wB) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  float c = 0.0f;
  for (int t = 0; t < wA / BS; ++t) {
    As[ty][tx] = A[row * wA + t * BS + tx];
    Bs[ty][tx] = B[(t * BS + ty) * wB + col];
    __syncthreads();
    float part = 0.0f;
    for (int k = 0; k < BS; ++k) part += As[ty][k] * Bs[k][tx];
    __syncthreads();
    c += part;
  }
  C[row * wB + col] = c;
}
