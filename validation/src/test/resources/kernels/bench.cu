// Benchmark kernels for bench/validation-throughput.sh.

// Arithmetic throughput: a per-thread loop of float multiply-adds (nvcc contracts them into fma).
extern "C" __global__ void arith_loop(const float* x, float* y, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], s = 0.0f, t = 1.0f;
  for (int k = 0; k < iters; ++k) {
    s = s * 0.999f + a;
    t = t * a + 0.5f;
  }
  y[i] = s + t;
}

// A flagged kernel for the end-to-end timing: one fma per element.
extern "C" __global__ void axpb(const float* a, const float* b, float* r, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) r[i] = alpha * a[i] + b[i];
}
