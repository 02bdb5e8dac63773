// Session 69: float/double -> unsigned conversions on x86 (gcc, the host code of this file) and on the GPU (the same
// C casts in a kernel), for the values NL001 and NL011 messages talk about: NaN, negatives, values past the range.
// Build and run on a GPU host: nvcc -arch=sm_90 -O2 -o nanconv nanconv.cu && ./nanconv (prints a Markdown table).
#include <cstdio>
#include <cstdint>
#include <cmath>
#include <cstring>

#define N 12
__host__ __device__ inline void conv(const float *f, const double *d, int i, unsigned long long *o) {
  o[0] = (unsigned char) f[i];  o[1] = (unsigned short) f[i];  o[2] = (unsigned int) f[i];  o[3] = (unsigned long long) f[i];
  o[4] = (unsigned char) d[i];  o[5] = (unsigned short) d[i];  o[6] = (unsigned int) d[i];  o[7] = (unsigned long long) d[i];
  o[8] = (unsigned long long) (long long) (int) f[i];   // signed 32-bit conversion, as a reference
}
__global__ void kconv(const float *f, const double *d, unsigned long long *o) {
  int i = threadIdx.x;
  if (i < N) conv(f, d, i, o + 9 * i);
}
int main() {
  float hf[N]; double hd[N];
  const double vals[N] = {NAN, -NAN, -69.235, -0.5, -1.0, 300.7, 65535.7, 70000.2, 4294967296.0, 1e20, INFINITY, -INFINITY};
  for (int i = 0; i < N; i++) { hd[i] = vals[i]; hf[i] = (float) vals[i]; }
  volatile float vf[N]; volatile double vd[N];
  for (int i = 0; i < N; i++) { vf[i] = hf[i]; vd[i] = hd[i]; }
  float cf[N]; double cd[N];
  for (int i = 0; i < N; i++) { cf[i] = vf[i]; cd[i] = vd[i]; }
  unsigned long long host[9 * N], dev[9 * N];
  for (int i = 0; i < N; i++) conv(cf, cd, i, host + 9 * i);
  float *df; double *dd; unsigned long long *dout;
  cudaMalloc(&df, sizeof hf); cudaMalloc(&dd, sizeof hd); cudaMalloc(&dout, sizeof dev);
  cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice); cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice);
  kconv<<<1, 32>>>(df, dd, dout);
  cudaError_t e = cudaMemcpy(dev, dout, sizeof dev, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) { printf("CUDA error: %s\n", cudaGetErrorString(e)); return 1; }
  const char *col[9] = {"f->u8", "f->u16", "f->u32", "f->u64", "d->u8", "d->u16", "d->u32", "d->u64", "f->i32"};
  printf("| value | conversion | x86 (gcc host) | GPU | same |\n|---|---|---:|---:|---|\n");
  for (int i = 0; i < N; i++)
    for (int c = 0; c < 9; c++)
      printf("| %g | %s | %llu | %llu | %s |\n", vals[i], col[c], host[9 * i + c], dev[9 * i + c],
             host[9 * i + c] == dev[9 * i + c] ? "yes" : "**no**");
  return 0;
}
