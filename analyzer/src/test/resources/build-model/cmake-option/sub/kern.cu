__global__ void k(float *x) { x[0] = x[0] / 3.0f; }
