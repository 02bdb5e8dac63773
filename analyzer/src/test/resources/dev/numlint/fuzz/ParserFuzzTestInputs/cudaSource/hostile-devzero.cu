#include "/dev/zero"
#include "../../../../etc/passwd"
__global__ void k(float* a) { a[0] = a[1] * 2.0f + 1.0f; }
