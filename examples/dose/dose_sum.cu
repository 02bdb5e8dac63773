// Dose scoring: every particle deposits energy into the voxels around it with a Gaussian weight, and the total
// dose is summed over the grid. Written for speed: hardware exp/cos intrinsics, a fast division, float atomics, and
// a 16-bit signed output image for the viewer.
#include <cuda_runtime.h>

__global__ void depositDose(const float4 *particles, int nParticles, float *grid, int nx, int ny,
                            float inv2sigma2, float voxelSize)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= nParticles) return;
    float4 q = particles[p];                     // x, y, energy, phase
    int cx = (int) (q.x / voxelSize), cy = (int) (q.y / voxelSize);
    for (int dy = -2; dy <= 2; ++dy) {
        for (int dx = -2; dx <= 2; ++dx) {
            int x = cx + dx, y = cy + dy;
            if (x < 0 || y < 0 || x >= nx || y >= ny) continue;
            float rx = x * voxelSize - q.x, ry = y * voxelSize - q.y;
            float w = __expf(-(rx * rx + ry * ry) * inv2sigma2) * __cosf(q.w);
            atomicAdd(&grid[y * nx + x], q.z * w);
        }
    }
}

__global__ void totalDose(const float *grid, int n, float *total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, grid[i]);
}

// Relative dose per voxel, scaled to a signed 16-bit preview image.
__global__ void toPreview(const float *grid, int n, const float *total, short *preview)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) preview[i] = (short) (__fdividef(grid[i], *total) * 1.0e6f);
}

// Host code: 4096 particles scored into a 128 x 128 grid, the total dose and the preview image.
int main()
{
    const int nParticles = 4096, nx = 128, ny = 128;
    float4 *particles;
    float *grid, *total;
    short *preview;
    cudaMalloc(&particles, nParticles * sizeof(float4));
    cudaMalloc(&grid, nx * ny * sizeof(float));
    cudaMalloc(&total, sizeof(float));
    cudaMalloc(&preview, nx * ny * sizeof(short));
    depositDose<<<nParticles / 256, 256>>>(particles, nParticles, grid, nx, ny, 0.5f, 1.0f);
    totalDose<<<nx * ny / 256, 256>>>(grid, nx * ny, total);
    toPreview<<<nx * ny / 256, 256>>>(grid, nx * ny, total, preview);
    cudaDeviceSynchronize();
    return 0;
}
