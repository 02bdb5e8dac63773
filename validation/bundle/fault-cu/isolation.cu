// Fault isolation on a real GPU, from CUDA source. clockFault writes at an index offset by clock64() << 20: the
// CPU interpreter reads the clock as 0 (every access in bounds, so the launch passes its memory checks), the GPU as
// a large cycle counter (an address far outside every allocation: CUDA_ERROR_ILLEGAL_ADDRESS, sticky for the
// process). goodAfter, validated next, has the same contraction hazard (a * a + b) and must be confirmed on the GPU.
__global__ void clockFault(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long long skew = clock64() << 20;
        out[i + skew] = in[i] * in[i] + in[i];
    }
}

__global__ void goodAfter(float *out, const float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a[i] * a[i] + b[i];
    }
}
