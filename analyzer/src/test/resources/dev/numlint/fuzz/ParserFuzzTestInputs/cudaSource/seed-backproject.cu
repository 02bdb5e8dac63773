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
