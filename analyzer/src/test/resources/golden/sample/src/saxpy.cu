__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];  // HAZARD(NL003,saxpy)
    unsigned short s = (unsigned short) y[i];  /* HAZARD(NL001,saxpy) */ // numlint: ignore NL001 -- y is clamped to [0, 65535] by the caller
    float q = y[i] / x[i];  // HAZARD(NL002,saxpy)
    // numlint: ignore NL009
    atomicAdd(y, q);  // HAZARD(NL009,saxpy)
}
