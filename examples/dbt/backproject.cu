// Forward projection step of a digital breast tomosynthesis (DBT) reconstruction.
// Each thread follows one detector ray through the volume, sums the attenuation it meets and stores the detector
// value as a 16-bit integer. forwardProject is written the way such kernels usually start out; forwardProjectExact
// is the same computation written to agree bit for bit with an IEEE x86 reference.
#include <cuda_runtime.h>

struct Geometry {
    float imgShiftX;   // detector offset (mm)
    float startX;      // centre of the first voxel column (mm)
    float reciPixel;   // 1 / detector pixel pitch (1/mm)
    float sourceZ;     // height of the X-ray source above the detector (slices)
    float fLength;     // attenuation scale factor
    int nx;            // detector pixels per row = voxels per row
    int nz;            // slices
};

__global__ void forwardProject(const float *volume, const float *stepX, const float *rayLength,
                               unsigned short *absorb, Geometry g)
{
    int ray = blockIdx.x * blockDim.x + threadIdx.x;
    if (ray >= g.nx) return;

    float absorbTemp = 0.0f;
    for (int i = 0; i < g.nz; ++i) {
        // detector coordinate of slice i on this ray
        float Px = g.imgShiftX - (g.startX + (float) i * stepX[ray]) * g.reciPixel;
        int px = (int) Px;
        if (px >= 0 && px < g.nx) {
            float height = g.sourceZ - (float) i;
            absorbTemp += volume[i * g.nx + px] * rayLength[ray] / height;
        }
    }
    // The log-domain value can be negative: -69.235 becomes 0 here and 65467 in an x86 build.
    absorb[ray] = (unsigned short)(absorbTemp * rayLength[ray] * g.fLength);
}

__global__ void forwardProjectExact(const float *volume, const float *stepX, const float *rayLength,
                                    unsigned short *absorb, Geometry g)
{
    int ray = blockIdx.x * blockDim.x + threadIdx.x;
    if (ray >= g.nx) return;

    float absorbTemp = 0.0f;
    for (int i = 0; i < g.nz; ++i) {
        // every product and sum rounded separately, as the CPU does without FMA
        float Px = g.imgShiftX - __fmul_rn(__fadd_rn(g.startX, __fmul_rn((float) i, stepX[ray])), g.reciPixel);
        int px = (int) Px;
        if (px >= 0 && px < g.nx) {
            float height = g.sourceZ - (float) i;
            // IEEE division whatever -prec-div says
            absorbTemp = __fadd_rn(absorbTemp, __fdiv_rn(__fmul_rn(volume[i * g.nx + px], rayLength[ray]), height));
        }
    }
    float v = __fmul_rn(__fmul_rn(absorbTemp, rayLength[ray]), g.fLength);
    v = fminf(fmaxf(v, 0.0f), 65535.0f);
    absorb[ray] = (unsigned short) __float2uint_rn(v);
}

// Host code: one forward projection of a 4096-ray detector row through 32 slices. The detector step is 0.3 mm for
// every ray, so Px = imgShiftX - (startX + i*stepX) * reciPixel = 103 - 3i is an exact integer in real arithmetic
// and the rounding of each operation (contracted into an FMA or not) decides which voxel column a ray reads.
#include <vector>

int main()
{
    const int nx = 4096, nz = 32;
    Geometry g;
    g.imgShiftX = 100.0f;
    g.startX = -0.3f;
    g.reciPixel = 10.0f;
    g.sourceZ = 70.5f;
    g.fLength = 2000.0f;
    g.nx = nx;
    g.nz = nz;
    std::vector<float> stepX(nx, 0.3f);
    float *dVolume, *dStepX, *dRayLength;
    unsigned short *dAbsorb;
    cudaMalloc(&dVolume, nx * nz * sizeof(float));
    cudaMalloc(&dStepX, nx * sizeof(float));
    cudaMalloc(&dRayLength, nx * sizeof(float));
    cudaMalloc(&dAbsorb, nx * sizeof(unsigned short));
    cudaMemcpy(dStepX, stepX.data(), nx * sizeof(float), cudaMemcpyHostToDevice);
    int threads = 256;
    forwardProject<<<(nx + threads - 1) / threads, threads>>>(dVolume, dStepX, dRayLength, dAbsorb, g);
    forwardProjectExact<<<(nx + threads - 1) / threads, threads>>>(dVolume, dStepX, dRayLength, dAbsorb, g);
    cudaDeviceSynchronize();
    return 0;
}
