// CPU reference of forwardProject (backproject.cu), as it was first written.
#include <cmath>
#include <cstddef>

struct Geometry {
    float imgShiftX, startX, reciPixel, sourceZ, fLength;
    int nx, nz;
};

void forwardProjectCpu(const float *volume, const float *stepX, const float *rayLength,
                       unsigned short *absorb, const Geometry &g)
{
    for (int ray = 0; ray < g.nx; ++ray) {
        // "more precise" accumulation: 80-bit x87 arithmetic that the GPU never performs
        long double absorbTemp = 0.0L;
        for (int i = 0; i < g.nz; ++i) {
            float Px = g.imgShiftX - (g.startX + (float) i * stepX[ray]) * g.reciPixel;
            int px = (int) Px;
            if (px >= 0 && px < g.nx) {
                float height = g.sourceZ - (float) i;
                absorbTemp += (long double) volume[(std::size_t) i * g.nx + px] * rayLength[ray] / height;
            }
        }
        absorb[ray] = (unsigned short)((float) absorbTemp * rayLength[ray] * g.fLength);
    }
}
