// A kernel that never finishes on the GPU: it spins while clock64() is positive, which the CPU interpreter reads as
// 0 (so it returns at once there). Its child process must be killed at --gpu-timeout, and goodAfterHang, validated
// next, must be confirmed on the GPU.
__global__ void spinForever(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = in[i] * in[i] + in[i];
        while (clock64() > 0) {
            acc = acc * 0.5f + 1.0f;
            out[i] = acc;
        }
        out[i] = acc;
    }
}

__global__ void goodAfterHang(float *out, const float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a[i] * a[i] + b[i];
    }
}
