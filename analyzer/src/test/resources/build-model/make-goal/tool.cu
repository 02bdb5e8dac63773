__global__ void t(float *x) { x[0] = x[0] / 5.0f; }
