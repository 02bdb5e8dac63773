__device__ float rnd(float s) { return s / 7.0f; }
